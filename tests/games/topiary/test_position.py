"""``tabletop score topiary POSITION.json``: the issue's format, scoring and clear errors."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.core.errors import BadPosition
from games.topiary import GAME


def tile(shape: str, value: int, face_up: bool = True) -> dict[str, Any]:
    return {"shape": shape, "value": value, "face_up": face_up}


def position() -> dict[str, Any]:
    """anna looks down the diagonal of the notes' example; ben looks along row 4."""
    grid: list[list[dict[str, Any] | None]] = [[None] * 5 for _ in range(5)]
    for i, entry in enumerate(
        [tile("swan", 2), tile("elephant", 1), tile("swan", 4), tile("whale", 4), tile("swan", 5)]
    ):
        grid[i][i] = entry
    grid[4][0] = tile("pyramid", 3)
    grid[4][1] = tile("pyramid", 5, face_up=False)
    grid[4][2] = tile("spiral", 4)
    return {
        "players": ["anna", "ben"],
        "grid": grid,
        "visitors": [
            {"player": "anna", "tile": [0, 0], "dir": "SE"},
            {"player": "ben", "tile": [4, 0], "dir": "E"},
        ],
        "hands": {
            "anna": [{"shape": "swan", "value": 3}, {"shape": "whale", "value": 5}],
            "ben": [{"shape": "pyramid", "value": 1}],
        },
        "last_mover": "ben",
    }


def test_scores_the_position_with_checkable_lines() -> None:
    sheet, winners = GAME.score_position(position())
    assert sheet.to_json() == {
        "scores": {"anna": 17, "ben": 13},
        "lines": {
            "anna": [
                "spot 0:0:SE: swan 2, swan 4, swan 5 = 11, set bonus swan +3 = 14",
                "hand swan 3: 3 (spot 0:0:SE scores swan 4)",
                "hand whale 5: 0 (no visitor of yours scores a higher whale)",
            ],
            "ben": [
                "spot 4:0:E: pyramid 3, spiral 4, swan 5 = 12",
                "hand pyramid 1: 1 (spot 4:0:E scores pyramid 3)",
            ],
        },
    }
    assert winners == [0]


def tie(
    anna_line: list[dict[str, Any]],
    hands: dict[str, list[dict[str, Any]]],
    last: str,
) -> list[int]:
    """anna looks down column 0 (``anna_line``), ben down column 4 (swan 5 only); cleo has no
    visitor. Hands and the last mover decide ties."""
    grid: list[list[dict[str, Any] | None]] = [[None] * 5 for _ in range(5)]
    for row, entry in enumerate(anna_line):
        grid[row][0] = entry
    grid[0][4] = tile("swan", 5)
    data = {
        "players": ["anna", "ben", "cleo"],
        "grid": grid,
        "visitors": [
            {"player": "anna", "tile": [0, 0], "dir": "S"},
            {"player": "ben", "tile": [0, 4], "dir": "S"},
        ],
        "hands": hands,
        "last_mover": last,
    }
    return GAME.score_position(data)[1]


def test_tie_broken_by_hand_tile_points() -> None:
    # anna: whale 2, whale 4 = 6, set bonus +2 = 8, hand whale 1 scores 1: total 9.
    # ben: swan 5 = 5, hand swan 4 scores 4: total 9, with more hand points; he wins although
    # anna moved last.
    line = [tile("whale", 2), tile("whale", 4)]
    hands = {"anna": [{"shape": "whale", "value": 1}], "ben": [{"shape": "swan", "value": 4}]}
    assert tie(line, hands, last="anna") == [1]
    # Without the hand tiles anna's line alone (8) beats ben (5): no tie at all.
    assert tie(line, {}, last="ben") == [0]


def test_tie_broken_by_the_last_mover() -> None:
    # anna: whale 1, pyramid 4 = 5, hand pyramid 2 scores 2: 7. ben: swan 5 = 5, hand swan 2: 7.
    line = [tile("whale", 1), tile("pyramid", 4)]
    hands = {"anna": [{"shape": "pyramid", "value": 2}], "ben": [{"shape": "swan", "value": 2}]}
    assert tie(line, hands, last="ben") == [1]
    assert tie(line, hands, last="anna") == [0]
    # cleo moved last; of the tied anna and ben, ben moved after anna.
    assert tie(line, hands, last="cleo") == [1]


def test_without_a_last_mover_a_full_tie_stands() -> None:
    data = position()
    del data["last_mover"]
    data["grid"] = [[None] * 5 for _ in range(5)]
    data["hands"] = {}
    assert GAME.score_position(data)[1] == [0, 1]


def test_a_face_down_tile_is_skipped_but_still_counts_as_a_tile() -> None:
    data = position()
    data["hands"]["ben"] = [{"shape": "pyramid", "value": 5}]
    with pytest.raises(BadPosition, match=r"ben's hand\[0\]: pyramid 5 is already at grid 4:1"):
        GAME.score_position(data)


def broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(position())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["visitors"][0].update(dir="NW"),
            r"visitors\[0\]: 0:0:NW is not a spot; a visitor at 0:0 looks NE, E, SE, S, SW",
        ),
        (
            lambda d: d["visitors"][0].update(tile=[2, 2]),
            r"visitors\[0\]: 2:2:SE is not a spot; 2:2 is not a border tile",
        ),
        (
            lambda d: d["visitors"][0].update(tile=[7, 0]),
            r"7:0:SE is not a spot; the tiles are 0:0 to 4:4",
        ),
        (lambda d: d["visitors"][0].update(dir="up"), r"dir must be one of N, NE, E"),
        (lambda d: d["visitors"][0].update(dir=["N"]), r"dir must be one of .*not \['N'\]"),
        (lambda d: d["visitors"][0].update(dir={"to": "N"}), r"dir must be one of N, NE, E"),
        (
            lambda d: d["visitors"].append({"player": "ben", "tile": [0, 0], "dir": "SE"}),
            r"visitors\[2\]: spot 0:0:SE is already taken by visitors\[0\]",
        ),
        (lambda d: d["visitors"][1].update(player="zoe"), r"'zoe' is not one of the players"),
        (
            lambda d: d["grid"][1].__setitem__(3, tile("unicorn", 2)),
            r"grid 1:3: unknown shape 'unicorn'",
        ),
        (
            lambda d: d["grid"][1].__setitem__(3, tile("swan", 6)),
            r"grid 1:3: swan tiles have values 1, 2, 3, 4, 5, not 6",
        ),
        (
            lambda d: d["grid"][1].__setitem__(3, tile("swan", 4)),
            r"grid 2:2: swan 4 is already at grid 1:3; each tile exists once",
        ),
        (
            lambda d: d["hands"]["anna"].append({"shape": "swan", "value": 2}),
            r"anna's hand\[2\]: swan 2 is already at grid 0:0",
        ),
        (lambda d: d["hands"].update(zoe=[]), r"hands: 'zoe' is not one of the players"),
        (lambda d: d["grid"].pop(), r"grid must be 5 rows of 5 entries"),
        (lambda d: d.update(players=["anna"]), r"players must be 2 to 4 different names"),
        (lambda d: d.update(last_mover="zoe"), r"last_mover 'zoe' is not one of the players"),
        (lambda d: d.update(board=[]), r"unknown field\(s\) board"),
        (
            lambda d: (
                d["visitors"].extend(
                    {"player": "anna", "tile": [4, c], "dir": "N"} for c in range(5)
                )
                or d["visitors"].extend(
                    {"player": "anna", "tile": [r, 4], "dir": "W"} for r in range(1, 4)
                )
            ),
            r"anna has 9 visitors; with 2 players each has 8",
        ),
    ],
)
def test_bad_positions_are_clear_errors(change: Any, message: str) -> None:
    with pytest.raises(BadPosition, match=message):
        GAME.score_position(broken(change))


def test_not_an_object() -> None:
    with pytest.raises(BadPosition, match="JSON object"):
        GAME.score_position([])  # type: ignore[arg-type]
