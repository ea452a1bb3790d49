"""``tabletop score on_top``: towers for the top colour, doubled on gold, -2 per unplaced stone."""

from __future__ import annotations

import pytest

from games.core.errors import BadPosition
from games.on_top import GAME

EXAMPLE = {
    "towers": [
        {"stones": ["red", "blue"], "gold": True},
        {"stones": ["yellow", "red", "blue"], "gold": False},
        {"stones": ["red"], "gold": False},
        {"stones": ["blue", "red"], "gold": True},
    ],
    "unplaced": {"blue": 17, "yellow": 19, "red": 16},
}


def test_the_example_position() -> None:
    sheet, winners = GAME.score_position(EXAMPLE)
    assert sheet.to_json() == {
        "scores": {"blue": -27, "yellow": -38, "red": -27},
        "lines": {
            "blue": [
                "tower (gold): blue on top of red: 2 stones x 2 = 4",
                "tower: blue on top of yellow, red: 3 stones = 3",
                "17 unplaced stones x -2 = -34",
            ],
            "yellow": ["19 unplaced stones x -2 = -38"],
            "red": [
                "tower: red alone: 1 stone = 1",
                "tower (gold): red on top of blue: 2 stones x 2 = 4",
                "16 unplaced stones x -2 = -32",
            ],
        },
    }
    assert winners == [0, 2]  # all tied players win


def test_a_position_of_rules_revision_1_has_21_stones_a_player() -> None:
    sheet, _ = GAME.score_position({**EXAMPLE, "reading": "revision1",
                                    "unplaced": {"blue": 18, "yellow": 20, "red": 17}})
    assert sheet.totals == (-29, -40, -29)


def test_players_are_the_colours_named_in_seat_order() -> None:
    sheet, winners = GAME.score_position(
        {"towers": [{"stones": ["white", "yellow"]}], "unplaced": {"white": 19, "yellow": 19}}
    )
    assert sheet.players == ("yellow", "white") and sheet.totals == (2 - 38, 0 - 38)
    assert winners == [0]


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ([], "JSON object"),
        ({"towers": [], "bonus": 1}, "unknown field"),
        ({"towers": [{"stones": ["green"]}], "unplaced": {"red": 1}}, "unknown colour 'green'"),
        ({"towers": [{"stones": ["red", "red"]}], "unplaced": {"blue": 1}}, "at most one stone"),
        ({"towers": [{"stones": []}]}, "bottom to top"),
        ({"towers": [{"stones": ["red"], "gold": "yes"}], "unplaced": {"blue": 0}}, "gold"),
        ({"unplaced": {"red": -1, "blue": 0}}, "whole number"),
        ({"unplaced": {"red": 20}}, "at least two players' colours"),
        ({"towers": [{"stones": ["red"]}], "unplaced": {"red": 20, "blue": 20}}, "only 20"),
        ({"towers": [{"stones": ["red"]}], "unplaced": {"red": 18, "blue": 20}},
         "1 in towers plus 18 unplaced leaves 1 nowhere"),
        ({"towers": [{"stones": ["red", "blue"]}]}, "leaves 19 nowhere"),
        ({"towers": [{"stones": ["red"]}], "unplaced": {"red": 21, "blue": 21},
          "reading": "revision1"}, "only 21"),
        ({"unplaced": {"red": 20, "blue": 20}, "reading": "sheet"}, "reading must be one of"),
        ({"towers": [{"stones": [c]} for c in ("red", "blue") for _ in range(15)],
          "unplaced": {"red": 5, "blue": 5}}, "30 towers, but the board has only 29 circles"),
        ({"towers": [{"stones": [c], "gold": True} for c in ("red", "blue") for _ in range(9)],
          "unplaced": {"red": 11, "blue": 11}}, "18 gold towers, but only 16 circles are gold"),
    ],
)
def test_mistakes_in_a_position_are_named(position: object, message: str) -> None:
    with pytest.raises(BadPosition, match=message):
        GAME.score_position(position)  # type: ignore[arg-type]
