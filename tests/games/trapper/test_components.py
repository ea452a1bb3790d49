"""The data file: loaded, validated, and wrong files refused with the field named."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.errors import DataFileError
from games.trapper.components import DATA_FILE, load_components


def test_the_shipped_file_loads_with_its_assumptions_flagged() -> None:
    c = load_components()
    assert c.species == ("salmon", "bear", "lynx", "wolf", "mink", "moose")
    assert c.animal_values == (1, 1, 2, 2, 3, 4)
    assert c.bonus_chips[0] == 16 and c.bonus_chips[-1] == 36
    assert c.payouts == (12, 8, 5, 3, 2)
    assert "ASSUMED" in DATA_FILE.read_text()


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text()
    assert old in text
    path = tmp_path / "trapper.toml"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('herbs = "SNNWE"', 'herbs = "SNNW"', "water side of herbs"),
        ("animal_values = [1, 1, 2, 2, 3, 4]", "animal_values = [1, 2, 3, 4]",
         "water side of salmon animals"),
        ("size = 8", "size = 7", "even"),
        ("payouts = [12, 8, 5, 3, 2]", "payouts = [2, 8]", "must not increase"),
        ('colours = ["red", "blue", "yellow", "green"]', 'colours = ["red", "red"]',
         "4 different"),
    ],
)
def test_a_wrong_data_file_names_the_field(tmp_path: Path, old: str, new: str,
                                            message: str) -> None:
    with pytest.raises(DataFileError, match=message):
        load_components.__wrapped__(_broken(tmp_path, old, new))
