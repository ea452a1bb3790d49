"""The data file: what ships, what is flagged ASSUMED, and clear errors for a bad copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.errors import DataFileError
from games.hanging_gardens import GAME
from games.hanging_gardens.components import DATA_FILE, load_components


def test_the_shipped_box() -> None:
    box = load_components()
    assert len(box.cards) == 60
    assert list(box.card_names) == sorted(box.card_names)
    assert sum(box.kind_counts) == 49
    series = {name: (kind.count, len(kind.points)) for name, kind in box.series.items()}
    assert series == {
        "queen": (4, 2),
        "king": (4, 2),
        "tiger": (6, 3),
        "garden": (6, 3),
        "statue": (6, 3),
        "chalice": (10, 5),
        "gate": (8, 4),
    }
    assert box.series["garden"].points == (2, 8, 16) and not box.series["garden"].assumed
    assert all(kind.assumed for name, kind in box.series.items() if name != "garden")
    assert set(box.persons) == {"animal_handler", "gardener", "sculptor", "priest"}
    assert box.display_cards == {2: 4, 3: 3, 4: 4}


def test_the_assumed_deck_is_balanced_between_the_motifs() -> None:
    box = load_components()
    for code in range(2, 2 + len(box.motifs)):
        assert 35 <= sum(card.count(code) for card in box.cards) <= 37


def test_the_sites_stay_within_what_a_hub_can_read() -> None:
    assert len(GAME.sites(4)) == 4 + 6 + 4 * 56 + 1  # and the reveal pad
    assert len(GAME.sites(2)) == 4 + 6 + 2 * 56 + 1
    assert len({site.id for site in GAME.sites(4)}) == len(GAME.sites(4))


def edited(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text()
    assert old in text
    path = tmp_path / "hanging_gardens.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("rows = 7", "rows = 0", "rows must be at least 1"),
        ("start = [2, 3]", "start = [6, 3]", "garden.start"),
        ('"t. / .. / .."', '"t. / .."', "3 rows of 2 fields"),
        ('"t. / .. / .."', '"x. / .. / .."', "unknown field 'x'"),
        ('"t. / .. / .."', '".. / .. / .."', "1 to 4 motif fields"),
        ("points = [2, 8, 16]\nassumed = false", "points = []\nassumed = false", "points"),
        ('series = "tiger"', 'series = "dragon"', "not a series kind"),
        ("cards = { 2 = 4, 3 = 3, 4 = 4 }", "cards = { 2 = 4 }", "display.cards"),
    ],
)
def test_a_bad_data_file_is_refused_naming_the_field(tmp_path, old, new, message) -> None:
    with pytest.raises(DataFileError, match=None) as error:
        load_components(edited(tmp_path, old, new))
    assert message in str(error.value)
