"""The data file: what ships, and clear errors when an edited copy is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.errors import DataFileError
from games.topiary.components import DATA_FILE, load_components


def test_the_shipped_box() -> None:
    box = load_components()
    assert len(box.tiles) == 40 and len(set(box.tiles)) == 40
    assert box.shapes == tuple(sorted(box.shapes)) and len(box.shapes) == 8
    assert set(box.assumed_shapes) == {"cube"}
    assert box.visitors_per_player == {2: 8, 3: 6, 4: 5}
    assert box.removed_shapes == {2: 1, 3: 1, 4: 0}
    # Tile numbers sort like their names, which the action order relies on.
    assert list(box.tile_names) == sorted(box.tile_names)


def edited(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text()
    assert old in text
    path = tmp_path / "topiary.toml"
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("size = 5", "size = 4", "grid.size must be odd"),
        ("hand_size = 3", "", "missing field 'hand_size'"),
        ('"spiral", "cube"]\n#', '"spiral", "spiral"]\n#', "shapes must not repeat"),
        ('assumed_shapes = ["cube"]', 'assumed_shapes = ["yeti"]', "among the shapes"),
        ('bear = "spiral"', 'bear = "yeti"', "former_names must map"),
        ("values = [1, 2, 3, 4, 5]", "values = [1, 2]", "cannot fill the 5x5 grid"),
        ("values = [1, 2, 3, 4, 5]", "values = [3, 2, 1, 4, 5]", "increasing"),
        ("{ 2 = 8, 3 = 6, 4 = 5 }", "{ 2 = 8, 3 = 6 }", "per_player must give"),
        ('colours = ["red", "blue", "yellow", "green"]', 'colours = ["red"]', "4 seats"),
        ("hand_size = 3", 'hand_size = "3"', "'hand_size' must be int"),
    ],
)
def test_a_broken_data_file_names_what_is_wrong(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    with pytest.raises(DataFileError, match=message):
        load_components(edited(tmp_path, old, new))


def test_a_missing_data_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="is missing"):
        load_components(tmp_path / "nowhere.toml")


def test_the_shapes_carry_the_box_names_and_the_invented_ones_still_read() -> None:
    """The box: whale, swan, elephant, T-Rex, spiral, pyramid, icosahedron and one more
    geometric shape (its name ASSUMED). Our first data invented dinosaur, cone, bear, peacock:
    actions, states, positions and enrolled tags with them still read."""
    from games.topiary import GAME

    box = load_components()
    assert set(box.shapes) == {"whale", "swan", "elephant", "trex", "spiral", "pyramid",
                               "icosahedron", "cube"}
    assert GAME.parse_action("lay 0:0 Dinosaur 5") == "lay 0:0 trex 5"
    assert GAME.parse_action("remove peacock") == "remove cube"
    assert GAME.current_piece("topiary:bear:3") == "topiary:spiral:3"
    assert GAME.current_piece("visitor:red") == "visitor:red" and GAME.current_piece(None) is None
    state = GAME.apply(GAME.initial(["anna", "ben"]), "remove cone")
    data = GAME.state_to_json(state)
    assert data["removed"] == "pyramid"
    old = {**data, "removed": "cone", "supply": [name.replace("trex", "dinosaur")
                                                 for name in data["supply"]]}
    assert GAME.state_from_json(old) == state
    sheet, _ = GAME.score_position({
        "players": ["anna", "ben"],
        "grid": [[{"shape": "dinosaur", "value": 5, "face_up": True}] + [None] * 4]
        + [[None] * 5 for _ in range(4)],
        "visitors": [{"player": "anna", "tile": [0, 0], "dir": "S"}],
    })
    assert sheet.lines[0][0].text.endswith("trex 5 = 5")
