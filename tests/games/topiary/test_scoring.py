"""Line scoring, set bonus, hand tiles and tie-breaks, with the worked examples of the notes."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from games.topiary import GAME
from games.topiary.scoring import EMPTY, Scoring, rank_winners, score_line, score_table
from games.topiary.spots import Spot, all_spots, spot_index

COMPONENTS = GAME.components
SIZE = COMPONENTS.size


def spot(name: str) -> Spot:
    return all_spots(SIZE)[spot_index(SIZE)[name]]


def tile(shape: str, value: int) -> int:
    return COMPONENTS.tile_numbers[shape, value]


Entry = tuple[str, int, bool]


def grid_along(name: str, tiles: Sequence[Entry | None]) -> tuple[list[int], list[bool]]:
    """A grid holding ``tiles`` (shape, value, face up) along the line of spot ``name``."""
    grid = [EMPTY] * SIZE * SIZE
    face_up = [False] * SIZE * SIZE
    for cell, entry in zip(spot(name).line, tiles, strict=False):
        if entry is not None:
            grid[cell] = tile(entry[0], entry[1])
            face_up[cell] = entry[2]
    return grid, face_up


def line_total(name: str, tiles: Sequence[Entry | None]) -> int:
    grid, face_up = grid_along(name, tiles)
    return score_line(spot(name), grid, face_up, COMPONENTS).total


def up(shape: str, value: int) -> tuple[str, int, bool]:
    return (shape, value, True)


def down(shape: str, value: int) -> tuple[str, int, bool]:
    return (shape, value, False)


def test_rising_line_scores_every_tile() -> None:
    # Notes: 2-3-4-5 scores 14 (shapes all different, so no set bonus).
    tiles = [up("whale", 2), up("swan", 3), up("pyramid", 4), up("spiral", 5)]
    assert line_total("0:1:S", tiles) == 14


def test_only_tiles_above_the_last_scored_one_count() -> None:
    # Notes: 2-5-3-4 scores 7.
    tiles = [up("whale", 2), up("swan", 5), up("pyramid", 3), up("spiral", 4)]
    assert line_total("2:0:E", tiles) == 7


def test_set_bonus_example_of_the_notes() -> None:
    # Swan2, Elephant1, Swan4, Whale4, Swan5: 2 + 4 + 5 = 11, three swans +3 = 14.
    tiles = [up("swan", 2), up("elephant", 1), up("swan", 4), up("whale", 4), up("swan", 5)]
    grid, face_up = grid_along("0:0:SE", tiles)
    line = score_line(spot("0:0:SE"), grid, face_up, COMPONENTS)
    assert (line.base, line.total) == (11, 14)
    assert line.bonuses == (("swan", 3),)
    assert line.text(COMPONENTS) == (
        "spot 0:0:SE: swan 2, swan 4, swan 5 = 11, set bonus swan +3 = 14"
    )


def test_face_down_tiles_are_ignored() -> None:
    # The face-down 1 would score first if it counted, and the face-down 5 would block the 4.
    tiles = [down("pyramid", 1), up("swan", 2), down("whale", 5), up("spiral", 4)]
    assert line_total("4:3:N", tiles) == 6


def test_a_line_of_only_face_down_tiles_scores_nothing() -> None:
    grid, face_up = grid_along("0:3:SE", [down("swan", 4), down("pyramid", 2)])
    line = score_line(spot("0:3:SE"), grid, face_up, COMPONENTS)
    assert line.total == 0
    assert line.text(COMPONENTS) == "spot 0:3:SE: no face-up tile = 0"


def test_equal_values_do_not_score() -> None:
    tiles = [up("swan", 3), up("whale", 3), up("pyramid", 4), up("spiral", 4)]
    assert line_total("0:4:S", tiles) == 7


def test_several_shapes_bonused_in_one_line() -> None:
    # The sheet's picture: two T-Rex and two swans in one line, each scored tile +1.
    tiles = [up("swan", 1), up("trex", 2), up("swan", 3), up("trex", 4), up("pyramid", 5)]
    grid, face_up = grid_along("1:0:E", tiles)
    line = score_line(spot("1:0:E"), grid, face_up, COMPONENTS)
    assert line.base == 15
    assert line.bonuses == (("swan", 2), ("trex", 2))
    assert line.total == 19


def test_unscored_tiles_of_a_shape_give_no_bonus() -> None:
    # The second swan is lower than the whale before it, so it does not score: no bonus.
    tiles = [up("swan", 2), up("whale", 4), up("swan", 3)]
    assert line_total("0:2:S", tiles) == 6


def test_lines_of_one_tile_at_the_corners() -> None:
    assert line_total("0:0:SW", [up("cube", 4)]) == 4
    assert line_total("4:4:NE", [down("cube", 4)]) == 0
    assert line_total("0:4:SE", [up("whale", 1)]) == 1


def test_gaps_are_skipped() -> None:
    assert line_total("0:2:S", [None, up("swan", 2), None, up("pyramid", 3)]) == 5


def sheet_for(
    visitors: list[tuple[str, int]],
    tiles_at: dict[tuple[int, int], tuple[str, int]],
    hands: list[list[tuple[str, int]]],
) -> Scoring:
    """Score a table: visitors as (spot name, seat), tiles as {(r, c): (shape, value)}."""
    grid = [EMPTY] * SIZE * SIZE
    face_up = [False] * SIZE * SIZE
    for (row, col), (shape, value) in tiles_at.items():
        grid[row * SIZE + col] = tile(shape, value)
        face_up[row * SIZE + col] = True
    placed = [(spot(name), seat) for name, seat in visitors]
    hand_tiles = [[tile(*entry) for entry in hand] for hand in hands]
    return score_table(["anna", "ben"], placed, grid, face_up, hand_tiles, COMPONENTS)


EXAMPLE_LINE = {
    (0, 0): ("swan", 2),
    (1, 1): ("elephant", 1),
    (2, 2): ("swan", 4),
    (3, 3): ("whale", 4),
    (4, 4): ("swan", 5),
}


def test_hand_tiles_of_the_notes_example() -> None:
    # With the example line scored by anna: a Swan3 in hand scores 3, a Whale5 scores 0.
    result = sheet_for([("0:0:SE", 0)], EXAMPLE_LINE, [[("swan", 3), ("whale", 5)], []])
    assert result.sheet.totals == (17, 0)
    assert result.hand_points == (3, 0)
    assert [line.text for line in result.sheet.lines[0]] == [
        "spot 0:0:SE: swan 2, swan 4, swan 5 = 11, set bonus swan +3 = 14",
        "hand swan 3: 3 (spot 0:0:SE scores swan 4)",
        "hand whale 5: 0 (no visitor of yours scores a higher whale)",
    ]


def test_hand_tiles_need_a_visitor_of_their_owner() -> None:
    result = sheet_for([("0:0:SE", 0)], EXAMPLE_LINE, [[], [("swan", 3)]])
    assert result.sheet.totals == (14, 0)


def test_hand_tiles_need_a_scored_tile_not_just_one_in_the_line() -> None:
    # The whale 4 lies in anna's line but does not score (it only equals the swan 4 before it),
    # so a whale 3 in hand scores nothing, while a swan 1 does (the swans 2, 4, 5 scored).
    result = sheet_for([("0:0:SE", 0)], EXAMPLE_LINE, [[("whale", 3), ("swan", 1)], []])
    assert result.hand_points == (1, 0)


def test_each_hand_tile_scores_once() -> None:
    # Two of anna's visitors score a swan 5 and a swan 4: the swan 3 in hand still scores 3.
    tiles = {(0, 0): ("swan", 5), (0, 4): ("swan", 4)}
    result = sheet_for([("0:0:S", 0), ("0:4:S", 0)], tiles, [[("swan", 3), ("swan", 1)], []])
    assert result.hand_points == (4, 0)
    assert result.sheet.totals == (13, 0)


def test_running_score_without_hands() -> None:
    grid, face_up = grid_along("0:0:SE", [up("swan", 2)])
    result = score_table(["anna", "ben"], [(spot("0:0:SE"), 1)], grid, face_up, None, COMPONENTS)
    assert result.sheet.totals == (0, 2)
    assert result.hand_points == (0, 0)


def test_tie_break_more_hand_points_wins() -> None:
    assert rank_winners([20, 20, 15], [3, 5, 9], last_mover=0) == [1]


def test_tie_break_then_the_tied_player_who_moved_last() -> None:
    # Seat 2 moved last; among seats 0 and 1 (equal totals and hand points) seat 1 moved later.
    assert rank_winners([20, 20, 20], [4, 4, 1], last_mover=2) == [1]
    assert rank_winners([20, 20, 20], [4, 4, 1], last_mover=0) == [0]
    assert rank_winners([20, 20, 20, 20], [4, 4, 4, 4], last_mover=1) == [1]
    assert rank_winners([20, 20, 20, 20], [0, 4, 0, 4], last_mover=2) == [1]


def test_no_tie_break_needed() -> None:
    assert rank_winners([12, 30, 20], [9, 0, 0], last_mover=0) == [1]


def test_without_a_last_mover_the_tie_stands() -> None:
    assert rank_winners([5, 5], [0, 0], last_mover=None) == [0, 1]


LINE_TILES = st.lists(
    st.tuples(st.sampled_from(COMPONENTS.shapes), st.integers(1, 5), st.booleans()),
    min_size=1,
    max_size=SIZE,
    unique_by=lambda entry: (entry[0], entry[1]),
)


@given(LINE_TILES)
def test_scored_tiles_rise_and_start_with_the_first_face_up_one(tiles: list[Entry]) -> None:
    grid, face_up = grid_along("2:0:E", tiles)
    line = score_line(spot("2:0:E"), grid, face_up, COMPONENTS)
    values = [COMPONENTS.tiles[t][1] for t in line.scored]
    assert values == sorted(set(values))
    visible = [entry for entry in tiles if entry[2]]
    assert bool(line.scored) == bool(visible)
    if visible:
        assert COMPONENTS.tiles[line.scored[0]] == visible[0][:2]
        assert line.total >= line.base >= visible[0][1]


@given(LINE_TILES)
def test_turning_tiles_face_down_only_drops_them(tiles: list[Entry]) -> None:
    # Taking every face-down tile out of the line changes nothing about its score.
    grid, face_up = grid_along("0:2:S", tiles)
    with_hidden = score_line(spot("0:2:S"), grid, face_up, COMPONENTS)
    visible_only = [entry if entry[2] else None for entry in tiles]
    grid2, face_up2 = grid_along("0:2:S", visible_only)
    assert score_line(spot("0:2:S"), grid2, face_up2, COMPONENTS) == with_hidden


@given(LINE_TILES)
def test_bonus_counts_scored_tiles_per_shape(tiles: list[Entry]) -> None:
    grid, face_up = grid_along("4:0:NE", tiles)
    line = score_line(spot("4:0:NE"), grid, face_up, COMPONENTS)
    shapes = [COMPONENTS.tiles[t][0] for t in line.scored]
    expected = sum(shapes.count(shape) for shape in set(shapes) if shapes.count(shape) >= 2)
    assert line.total - line.base == expected
