"""``tabletop score trapper POSITION.json``: the documented example and every refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from controller.cli import main
from games.core.errors import BadPosition
from games.trapper import GAME

EXAMPLE: dict[str, Any] = {
    "players": ["anna", "ben"],
    "money": {"anna": 40, "ben": 22},
    "canoes": {
        "anna": [
            {"canoe": "bear 3", "animals": ["bear 4", "bear 2"], "herb": True},
            {"canoe": "wolf 1", "animals": ["wolf 3"], "sold": True},
        ],
        "ben": [{"canoe": "lynx 2", "animals": [], "mushroom": True}],
    },
    "loose": {"anna": ["moose 1"], "ben": ["canoe salmon 3", "mink 4", "herb"]},
    "chips": {"anna": ["bonus 24", "species 2"], "ben": ["bonus 18", "species 3"]},
}


def test_the_documented_example_scores_as_written_in_the_docs() -> None:
    sheet, winners = GAME.score_position(EXAMPLE)
    # anna: 40 + unfinished bear canoe 4+2+6 = 12 - loose moose 1 + bonus 24 (12) + species 2 (8)
    # ben: 22 + lynx canoe with a mushroom 6 - 3 - 4 - 6 + bonus 18 (8) + species 3 (12)
    assert sheet.totals == (40 + 12 - 1 + 12 + 8, 22 + 6 - 3 - 4 - 6 + 8 + 12) == (71, 35)
    assert winners == [0]
    texts = [line.text for line in sheet.lines[1]]
    assert "loose canoe-salmon-3: -3 (capacity)" in texts


def test_a_position_names_its_value_set() -> None:
    """Herbs and mushrooms worth 1 each (values=first_guess, rules revision 1)."""
    sheet, _ = GAME.score_position({**EXAMPLE, "values": "first_guess"})
    assert sheet.totals == (40 + 7 - 1 + 12 + 8, 22 + 1 - 3 - 4 - 1 + 8 + 12)


def test_an_empty_canoe_costs_its_capacity_listed_either_way() -> None:
    as_canoe, _ = GAME.score_position({"players": ["anna", "ben"],
                                       "canoes": {"anna": [{"canoe": "bear 2"}]}})
    as_loose, _ = GAME.score_position({"players": ["anna", "ben"],
                                       "loose": {"anna": ["canoe bear 2"]}})
    assert as_canoe.totals == as_loose.totals == (-2, 0)


def test_the_command_prints_the_sheet(tmp_path, capsys) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(EXAMPLE))
    assert main(["score", "trapper", str(path)]) == 0
    assert "anna" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["anna"]}, "2 to 4"),
        ({"coins": {}}, "unknown field"),
        ({"money": {"anna": "lots"}}, "whole number"),
        ({"money": {"anna": -5}}, "money starts at 0"),
        ({"money": {"cleo": 3}}, "not one of the players"),
        ({"canoes": {"anna": [{"canoe": "bear 5"}]}}, "no 'canoe bear 5'"),
        ({"canoes": {"anna": [{"canoe": "bear 2", "animals": ["wolf 1"]}]}}, "only bear"),
        ({"canoes": {"anna": [{"canoe": "bear 1", "animals": ["bear 1", "bear 2"]}]}},
         "carries 1"),
        ({"canoes": {"anna": [{"canoe": "bear 1", "animals": ["bear 1"]}]}}, "sold already"),
        ({"canoes": {"anna": [{"canoe": "bear 2", "animals": ["bear 1"], "sold": True}]}},
         "sold exactly"),
        ({"values": "cheap"}, "values must be one of printed, first_guess"),
        ({"values": ["printed"]}, "values must be one of"),
        ({"loose": {"anna": ["bear 4", "bear 4"]}}, "no more"),
        ({"loose": {"anna": ["dragon 2"]}}, "not a piece"),
        ({"chips": {"anna": ["bonus 17"]}}, "no bonus chip 17"),
        ({"chips": {"anna": ["species 2"], "ben": ["species 2"]}}, "already held"),
    ],
)
def test_mistakes_are_refused_with_where_they_are(change: dict[str, Any], message: str) -> None:
    position = {"players": ["anna", "ben"], **change}
    with pytest.raises(BadPosition, match=message):
        GAME.score_position(position)
