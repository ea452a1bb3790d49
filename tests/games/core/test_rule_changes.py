"""Rule revisions: a record keeps the reading it was played under."""

from __future__ import annotations

import pytest

from games.core import BadSetup, OptionSpec, RuleChange

from .toy_game import HighCard


class Revised(HighCard):
    """High Card corrected twice: the deck option changed at 2, its default again at 3."""

    options = (OptionSpec("deck", ("box", "second", "first"), "which reading of the deck"),
               OptionSpec("ante", ("one", "none"), "an option no change touches"))
    rule_changes = (RuleChange(2, "deck", {"second": "first", "box": "first"}, "deck fixed"),
                    RuleChange(3, "deck", {"box": "second"}, "deck fixed again"))


def test_the_revision_is_the_newest_change_and_one_without_changes() -> None:
    assert HighCard().revision == 1 and Revised().revision == 3


def test_a_record_is_read_back_through_every_later_change_newest_first() -> None:
    game = Revised()
    assert game.options_at({}, 3) == {"deck": "box", "ante": "one"}
    assert game.options_at({}, 2) == {"deck": "second", "ante": "one"}
    assert game.options_at({}, 1) == {"deck": "first", "ante": "one"}
    assert game.options_at({"ante": "none"}, 1) == {"deck": "first", "ante": "none"}


@pytest.mark.parametrize("revision", [0, 4, "2", True, None])
def test_an_unknown_revision_is_refused(revision: object) -> None:
    with pytest.raises(BadSetup, match="revisions 1 to 3"):
        Revised().options_at({}, revision)  # type: ignore[arg-type]
