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
    assert components.black_triangles == 10 and components.stones_per_player == 20
    assert components.colours == ("blue", "yellow", "red", "white")
    for piece in components.segments:  # every rhombus shows each colour once, on a corner
        sharp_a, wide_1, wide_1b, sharp_b, wide_2, wide_2b = piece
        assert (wide_1, wide_2) == (wide_1b, wide_2b)
        assert sorted((sharp_a, wide_1, sharp_b, wide_2)) == [0, 1, 2, 3]
    # 12 different pieces up to a half turn, each about three times
    assert len(Counter(components.segments)) == 12
    # rules revision 1's data: 16 of the 34 rhombi lacked a colour, and 21 stones
    stones, old = components.revision1
    assert stones == 21 and sum(len(set(piece)) < 4 for piece in old) == 16


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
        ('"01" = ["', '"01" = ["green", "', "pieces.01 must name the four corner colours"),
        ('"01" = ["blue", "red", "yellow", "white"]', '"01" = ["blue", "red", "yellow", "red"]',
         "each of blue, yellow, red, white once"),
        ('"01" = ', '"00" = ', "numbered 01, 02"),
        ("stones_per_player = 20", "stones_per_player = 0", "at least 1"),
    ],
)
def test_errors_name_the_field(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(DataFileError, match=message):
        load_components(write(tmp_path, old, new))
