"""games/core/state_fields.py: a damaged state's JSON is refused with BadState naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.errors import BadState
from games.core.state_fields import entries, flag, one_of, player_names, texts, whole, wholes


def refusal(check: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(BadState) as error:
        check(*args, **kwargs)
    return str(error.value)


def test_a_whole_number_in_range_is_read() -> None:
    assert whole(3, "seat", 0, 3) == 3
    assert whole(-5, "total", None) == -5
    assert whole(10**9, "round") == 10**9


@pytest.mark.parametrize(
    ("value", "low", "high", "wanted"),
    [
        (True, 0, 3, "seat must be a whole number from 0 to 3, not True"),
        (False, None, None, "seat must be a whole number, not False"),
        ("2", 0, 3, "seat must be a whole number from 0 to 3, not '2'"),
        (1.0, 0, 3, "seat must be a whole number from 0 to 3, not 1.0"),
        (None, 0, None, "seat must be a whole number at least 0, not None"),
        (4, 0, 3, "seat must be a whole number from 0 to 3, not 4"),
        (-1, 0, 3, "seat must be a whole number from 0 to 3, not -1"),
        (7, None, 6, "seat must be a whole number at most 6, not 7"),
    ],
)
def test_a_wrong_whole_number_is_refused_naming_field_and_value(
    value: Any, low: int | None, high: int | None, wanted: str
) -> None:
    assert refusal(whole, value, "seat", low, high) == wanted


def test_whole_numbers_name_the_bad_entry_by_its_index() -> None:
    assert wholes([0, 2, 1], "placed", 0, 2) == (0, 2, 1)
    assert wholes([], "placed") == ()
    assert refusal(wholes, [0, True], "placed", 0, 9) == (
        "placed[1] must be a whole number from 0 to 9, not True")
    assert refusal(wholes, [0, 10], "placed", 0, 9) == (
        "placed[1] must be a whole number from 0 to 9, not 10")
    assert refusal(wholes, {"0": 1}, "placed") == "placed must be a list, not {'0': 1}"
    assert refusal(wholes, "012", "placed") == "placed must be a list, not '012'"


def test_whole_numbers_of_a_fixed_length() -> None:
    assert wholes([1, 2, 3], "points", length=3) == (1, 2, 3)
    assert refusal(wholes, [1, 2], "points", length=3) == (
        "points must list 3 whole numbers, not 2")


def test_entries_are_a_list_and_nothing_else() -> None:
    assert entries([{"a": 1}], "towers") == [{"a": 1}]
    for wrong in ({"a": 1}, "ab", None, 3, (1, 2)):
        assert refusal(entries, wrong, "towers").startswith("towers must be a list, not ")


@pytest.mark.parametrize("value", [0, 1, "true", None, [], "false"])
def test_a_flag_is_true_or_false_only(value: Any) -> None:
    assert refusal(flag, value, "ending") == f"ending must be true or false, not {value!r}"


def test_a_flag_is_read() -> None:
    assert flag(True, "ending") is True and flag(False, "ending") is False


def test_texts_name_the_entry_that_is_not_a_text() -> None:
    assert texts(["a", "b"], "stack") == ("a", "b")
    assert refusal(texts, ["a", 3], "stack") == "stack[1] must be a text, not 3"
    assert refusal(texts, "ab", "stack") == "stack must be a list, not 'ab'"


def test_one_of_names_the_field_the_value_and_the_choices() -> None:
    assert one_of("box", "reading", ("box", "revision1")) == "box"
    assert refusal(one_of, "revision9", "reading", ("box", "revision1")) == (
        "unknown reading 'revision9': it is one of box, revision1")
    assert refusal(one_of, ["box"], "reading", ("box", "revision1")) == (
        "unknown reading ['box']: it is one of box, revision1")
    assert refusal(one_of, None, "phase", ("play",)) == "unknown phase None: it is one of play"


def test_player_names_are_two_to_four_texts() -> None:
    assert player_names(["anna", "ben"]) == ("anna", "ben")
    assert refusal(player_names, ["anna"]) == "players must be 2 to 4 names, not 1"
    assert refusal(player_names, ["a", "b", "c", "d", "e"]) == (
        "players must be 2 to 4 names, not 5")
    assert refusal(player_names, ["anna", 7]) == "players[1] must be a text, not 7"
    assert refusal(player_names, "anna") == "players must be a list, not 'anna'"
    assert player_names(["a"] * 6, 1, 6) == ("a",) * 6
