"""The data file: what it holds, and errors that name the field when it is wrong."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from games.core.errors import DataFileError
from games.on_top.components import DATA_FILE, load_components


def test_the_box() -> None:
    components = load_components()
    assert len(components.piece_ids) == 34 and components.piece_ids[0] == "01"
    assert components.black_triangles == 10 and components.stones_per_player == 21
    assert components.colours == ("blue", "yellow", "red", "white")
    assert Counter(c for piece in components.segments for c in piece) == {0: 51, 1: 51, 2: 51,
                                                                          3: 51}


def write(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text()
    assert old in text
    path = tmp_path / "on_top.toml"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("sides = [3, 3, 5]", "sides = [3, 3]", "board.sides"),
        ('start = ["2:4", "3:10"]', 'start = ["9:9"]', "names no triangle"),
        ("black_triangles = 10", "black_triangles = 1", "cover the start triangles"),
        ('"01" = ["', '"01" = ["green", "', "pieces.01 must list 6"),
        ('"01" = ', '"00" = ', "numbered 01, 02"),
        ("stones_per_player = 21", "stones_per_player = 0", "at least 1"),
    ],
)
def test_errors_name_the_field(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(DataFileError, match=message):
        load_components(write(tmp_path, old, new))
