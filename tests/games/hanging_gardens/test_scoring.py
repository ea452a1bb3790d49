"""The rule sheet's scoring examples and ``tabletop score``'s position format."""

from __future__ import annotations

import pytest

from games.core.errors import BadPosition
from games.hanging_gardens import GAME
from games.hanging_gardens.scoring import series_points


def score(**players: dict) -> tuple[dict[str, int], list[str]]:
    """Totals by name and the winners; one named player gets an opponent with no tiles."""
    if len(players) == 1:
        players["zoe"] = {}
    sheet, winners = GAME.score_position({"players": players})
    totals = dict(zip(sheet.players, sheet.totals, strict=True))
    return totals, [sheet.players[seat] for seat in winners]


@pytest.mark.parametrize(("gardens", "points"), [(1, 2), (2, 8), (3, 16), (4, 18), (6, 32)])
def test_a_garden_series_scores_2_8_16_and_more_tiles_start_a_new_series(gardens, points):
    totals, _ = score(anna={"tiles": ["garden"] * gardens})
    assert totals["anna"] == points


def test_series_points_counts_full_series_and_the_rest():
    assert series_points((2, 8, 16), 7) == (34, 2, 1)
    assert series_points((2, 8, 16), 0) == (0, 0, 0)


def test_a_person_alone_scores_3():
    totals, _ = score(anna={"tiles": ["gardener"]}, ben={"tiles": ["gardener"][:0]})
    assert totals == {"anna": 3, "ben": 0}


def test_a_person_with_a_full_series_of_its_kind_scores_12():
    totals, _ = score(anna={"tiles": ["gardener", "garden", "garden", "garden"]})
    assert totals["anna"] == 16 + 12


def test_a_person_with_an_unfinished_series_still_scores_3():
    totals, _ = score(anna={"tiles": ["gardener", "garden", "garden"]})
    assert totals["anna"] == 8 + 3


def test_every_person_has_its_series():
    persons = {"animal_handler": "tiger", "sculptor": "statue", "priest": "chalice"}
    for person, kind in persons.items():
        size = len(GAME.components.series[kind].points)
        full = GAME.components.series[kind].points[-1]
        totals, _ = score(anna={"tiles": [person] + [kind] * size})
        assert totals["anna"] == full + 12, person


def test_the_guard_alone_scores_nothing():
    totals, _ = score(anna={"tiles": ["guard"]})
    assert totals["anna"] == 0


def test_gates_score_3_each_with_the_guard_and_nothing_without_it():
    """The sheet: the guard alone 0; each blue gate is worth 3 when the guard is there."""
    totals, _ = score(anna={"tiles": ["guard", "gate", "gate"]}, ben={"tiles": ["gate"]})
    assert totals == {"anna": 2 * 3, "ben": 0}
    totals, _ = score(anna={"tiles": ["guard"]}, ben={"tiles": ["gate", "gate", "gate"]})
    assert totals == {"anna": 0, "ben": 0}


def test_gates_scored_as_a_series_in_rules_revision_1():
    gates = GAME.components.series["gate"].points
    position = {"players": {"anna": {"tiles": ["guard", "gate", "gate"]},
                            "ben": {"tiles": ["gate"]}}, "gates": "series"}
    sheet, _ = GAME.score_position(position)
    assert sheet.totals == (gates[1] + 2 * 3, gates[0]) and gates[0] > 0


def test_missing_tiles_are_worth_5_each():
    totals, _ = score(anna={"tiles": [], "missing": 2})
    assert totals["anna"] == 10


def test_lines_say_what_scored():
    sheet, _ = GAME.score_position(
        {"players": {"anna": {"tiles": ["guard", "gate", "gardener"] + ["garden"] * 3}, "ben": {}}}
    )
    texts = [line.text for line in sheet.lines[0]]
    assert "garden x3: 1 full series of 3 = 16" in texts
    assert "gardener with a full garden series = 12" in texts
    assert "guard with 1 gate tile: 1 x 3 = 3" in texts


def test_a_tie_goes_to_more_score_tiles_then_all_tied_win():
    # 8 points each: two gardens (2 tiles) against gardener + queen 3 + ... = equal points
    totals, winners = score(
        anna={"tiles": ["garden", "garden"]},  # 8 from 2 tiles
        ben={"tiles": ["gardener", "guard", "queen"], "missing": 0},  # 3 + 0 + 3 = 6
        cleo={"tiles": ["tiger", "statue", "chalice", "gate", "queen"]},  # 2+2+1+0+3 = 8
    )
    assert totals == {"anna": 8, "ben": 6, "cleo": 8}
    assert winners == ["cleo"]  # 5 tiles beat 2
    totals, winners = score(
        anna={"tiles": ["garden", "garden"]},
        ben={"tiles": ["tiger", "statue", "queen", "chalice"]},  # 2 + 2 + 3 + 1 = 8, 4 tiles
    )
    assert totals["anna"] == totals["ben"] == 8
    assert winners == ["ben"]
    _, winners = score(anna={"tiles": ["garden"]}, ben={"tiles": ["tiger"]})
    assert winners == ["anna", "ben"]


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ([], 'is {"players"'),
        ({"players": {"anna": {"tiles": ["dragon"]}, "ben": {}}}, "'dragon' is not a score tile"),
        ({"players": {"anna": {"tiles": [["chalice"]]}, "ben": {}}}, "not a score tile"),
        ({"players": {"anna": {"tiles": "garden"}, "ben": {}}}, "tiles must be a list"),
        ({"players": {"anna": {"missing": -1}, "ben": {}}}, "missing must be a whole number"),
        ({"players": {"anna": {"hand": []}, "ben": {}}}, "unknown field(s) hand"),
        ({"players": {"anna": {"tiles": ["guard", "guard"]}, "ben": {}}}, "holds 1 guard"),
        ({"players": {"anna": {"tiles": ["gardener"]}, "ben": {"tiles": ["gardener"]}}},
         "holds 1 gardener"),
        ({"players": {"anna": {"tiles": ["chalice"] * 11}, "ben": {}}}, "holds 10 chalice"),
        ({"players": {}, "round": 3}, "unknown field(s) round"),
        ({"players": {"anna": {}}}, "for 2 to 4 players, not 1"),
        ({"players": {name: {} for name in "abcde"}}, "for 2 to 4 players, not 5"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(position, message):
    with pytest.raises(BadPosition, match=None) as error:
        GAME.score_position(position)
    assert message in str(error.value)


def test_the_documented_position_scores_as_the_docs_say():
    """docs/games/hanging_gardens.md, "Scoring a position"."""
    players = {"anna": {"tiles": ["garden", "garden", "garden", "gardener", "guard", "gate"],
                        "missing": 1},
               "ben": {"tiles": ["queen", "queen", "tiger"]}}
    sheet, winners = GAME.score_position({"players": players})
    assert sheet.totals == (16 + 12 + 3 + 5, 10 + 2) == (36, 12) and winners == [0]
    sheet, _ = GAME.score_position({"players": players, "gates": "series"})
    assert sheet.totals == (37, 12)
