"""The rules: setup, drawing, placing, black triangles, closing circles, stones, the end."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence

import pytest

from games.core.errors import BadActionText, BadSetup, BadState, IllegalAction
from games.core.game import CHANCE, TERMINAL
from games.on_top import GAME, OnTop
from games.on_top.components import load_components
from games.on_top.state import BLACK, EMPTY, NEUTRAL, OnTopState

GEOMETRY = GAME.geometry
MARKER = 2 * 33
"""A cell value standing for some rhombus half in hand-built positions."""


def engine_with_one_colour(colour: int) -> OnTop:
    """An engine whose rhombi have all six segments in one colour (for exact counts)."""
    components = load_components()
    segments = ((colour,) * 6,) * len(components.piece_ids)
    return OnTop(dataclasses.replace(components, segments=segments))


def started(
    engine: OnTop = GAME, players: Sequence[str] = ("anna", "ben"),
    options: dict[str, str] | None = None,
) -> OnTopState:
    return engine.apply(engine.initial(list(players), options), "start")


def closing_position(
    engine: OnTop, circle: str, others: Sequence[int | None], players: int = 2,
    options: dict[str, str] | None = None,
) -> tuple[OnTopState, str]:
    """A position where four triangles of ``circle`` are covered, their corners at the circle
    showing ``others`` (a seat's colour, or None for a black triangle), and the drawn rhombus
    can close it: returns the state and that placement."""
    index = GEOMETRY.circle_names.index(circle)
    triangles = [t for t, _ in GEOMETRY.circle_wedges[index]]
    text, a, b = next((t, a, b) for t, a, b, _, _ in engine.placements
                      if a in triangles and b in triangles)
    state = started(engine, [f"p{n}" for n in range(players)], options)
    cells, wedges = list(state.cells), list(state.wedges)
    rest = [(t, k) for t, k in GEOMETRY.circle_wedges[index] if t not in (a, b)]
    for (t, k), colour in zip(rest, others, strict=True):
        cells[t] = BLACK if colour is None else MARKER
        wedges[t * 3 + k] = NEUTRAL if colour is None else colour
    bag = tuple(p for p in state.bag if p != 0)
    state = state._replace(phase="place", drawn=0, bag=bag, cells=tuple(cells),
                           wedges=tuple(wedges))
    return state, text


# -- setup, drawing, placing ---------------------------------------------------------------------
def test_setup_puts_the_black_start_triangles_then_the_draw_is_chance() -> None:
    state = GAME.initial(["anna", "ben"])
    assert GAME.legal_actions(state) == ["start"] and GAME.board(state) == {}
    state = GAME.apply(state, "start")
    assert GAME.board(state) == {"tri:2:4": "black", "tri:3:10": "black"}
    assert GAME.actor(state) == CHANCE
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 34 and outcomes[0][0] == "draw 01"
    assert sum(p for _, p in outcomes) == 1


def test_the_drawn_rhombus_lies_on_the_draw_pad_a_half_down() -> None:
    state = GAME.apply(started(), "draw 07")
    assert GAME.board(state)["pad:draw"] == "rhombus:07:a"
    assert 6 not in state.bag and GAME.actor(state) == 0


def test_the_first_rhombus_must_touch_a_start_triangle() -> None:
    state = GAME.apply(started(), "draw 07")
    legal = GAME.legal_actions(state)
    starts = {GEOMETRY.triangle("2:4"), GEOMETRY.triangle("3:10")}
    for text in legal:
        touching = GAME.placements[GAME.place_index[text]][3]
        assert starts & set(touching)
    # every triangle next to a start triangle can take either half, both ways round
    assert "place 2:3 1:2" in legal and "place 1:2 2:3" in legal
    assert legal == sorted(legal)
    with pytest.raises(IllegalAction, match="share a side with a piece already on the board"):
        GAME.apply(state, "place 0:0 0:1")


def test_placing_covers_two_triangles_with_both_halves() -> None:
    state = GAME.apply(GAME.apply(started(), "draw 07"), "place 2:3 1:2")
    board = GAME.board(state)
    assert board["tri:2:3"] == "rhombus:07:a" and board["tri:1:2"] == "rhombus:07:b"
    assert "pad:draw" not in board
    assert GAME.actor(state) == CHANCE and state.seat == 1
    state = GAME.apply(state, "draw 01")
    with pytest.raises(IllegalAction, match="already covered"):
        GAME.apply(state, "place 2:3 2:2")


@pytest.mark.parametrize("neutral", ["on", "off"])
def test_the_segments_land_counterclockwise_from_half_a_sharp_corner(neutral: str) -> None:
    """With neutral=off the colours nobody plays (red, white with two players) count for
    nobody; with neutral=on every colour counts."""
    state = started(options={"neutral": neutral})
    state = GAME.apply(GAME.apply(state, "draw 07"), "place 2:3 1:2")
    slots = GAME.placements[GAME.place_index["place 2:3 1:2"]][4]
    segments = GAME.components.segments[6]
    assert {2, 3} <= set(segments)
    for slot, colour in zip(slots, segments, strict=True):
        assert state.wedges[slot] == (colour if colour < 2 or neutral == "on" else NEUTRAL)


def test_refusals_say_why() -> None:
    state = started()
    with pytest.raises(IllegalAction, match="not now: anna: draw a rhombus from the bag"):
        GAME.apply(state, "place 2:3 1:2")
    with pytest.raises(BadActionText, match="the forms are"):
        GAME.apply(state, "lay 2:3")
    drawn = GAME.apply(state, "draw 07")
    with pytest.raises(IllegalAction, match="not now"):
        GAME.apply(drawn, "draw 08")
    with pytest.raises(IllegalAction, match="not in the bag"):
        GAME.apply(GAME.apply(GAME.apply(drawn, "place 2:3 1:2"), "draw 08")._replace(
            phase="draw"), "draw 07")


def test_typed_text_is_forgiving() -> None:
    assert GAME.parse_action("  PLACE  2:3 1:2 ") == "place 2:3 1:2"
    assert GAME.parse_action("Draw 07") == "draw 07"
    with pytest.raises(BadActionText):
        GAME.parse_action("place 2:3 2:3")


# -- closing circles -------------------------------------------------------------------------
def test_majority_on_top_second_below() -> None:
    engine = engine_with_one_colour(0)
    state, text = closing_position(engine, "3:4", [0, 0, 1, None])
    after = engine.apply(state, text)
    assert after.towers == ((GEOMETRY.circle_names.index("3:4"), (1, 0)),)
    assert after.phase == "tower" and after.stones_left == (19, 19, 20, 20)  # + neutral
    assert engine.legal_actions(after) == ["tower 3:4"]
    assert "bottom to top: yellow (p1), then blue (p0)" in str(engine.describe_step(after))
    built = engine.apply(after, "tower 3:4")
    # the circle's reader hears the tower's stones, bottom to top
    assert engine.board(built)["circle:3:4"] == "stone:yellow / stone:blue"
    assert {site.id: site.pile for site in engine.sites(2)}["circle:3:4"]
    assert built.phase == "draw" and built.seat == 1
    line = engine.score(built).lines[0][0]
    assert (line.text, line.points, line.sites) == (
        "tower 3:4: blue on top of yellow: 2 stones = 2", 2, ("circle:3:4",))


def test_tied_seconds_all_place_a_stone() -> None:
    engine = engine_with_one_colour(0)
    state, text = closing_position(engine, "3:4", [1, 2, None, None], players=3)
    after = engine.apply(state, text)
    assert after.towers[0][1] == (1, 2, 0)
    assert after.stones_left == (19, 19, 19, 20)


def test_a_tie_for_first_places_no_stone() -> None:
    engine = engine_with_one_colour(0)
    state, text = closing_position(engine, "3:4", [1, 1, None, None])
    after = engine.apply(state, text)
    assert after.towers == () and after.phase == "draw"
    assert after.stones_left == (20, 20, 20, 20)


def test_one_colour_alone_places_only_its_stone() -> None:
    engine = engine_with_one_colour(1)
    state, text = closing_position(engine, "3:4", [None, None, None, None])
    assert engine.apply(state, text).towers[0][1] == (1,)


def test_with_neutral_off_colours_nobody_plays_count_for_nobody() -> None:
    engine = engine_with_one_colour(3)  # white: a fourth player's colour
    off = {"neutral": "off"}
    state, text = closing_position(engine, "3:4", [None, None, None, None], options=off)
    assert engine.apply(state, text).towers == ()
    state, text = closing_position(engine, "3:4", [0, None, None, None], options=off)
    assert engine.apply(state, text).towers[0][1] == (0,)  # 1 blue against 2 white
    assert state.stones_left == (20, 20)


def test_neutral_colours_place_stones_that_score_for_nobody() -> None:
    """Two players: the rhombus closing 3:4 brings two white segments; white (nobody's)
    has the majority, so a neutral white stone tops the tower over blue."""
    engine = engine_with_one_colour(3)
    state, text = closing_position(engine, "3:4", [0, None, None, None])
    after = engine.apply(state, text)
    white, circle = 3, GEOMETRY.circle_names.index("3:4")
    assert after.towers == ((circle, (0, white)),)
    assert after.stones_left == (19, 20, 20, 19)
    assert "bottom to top: blue (p0), then white (neutral)" in str(engine.describe_step(after))
    built = engine.apply(after, "tower 3:4")
    assert engine.score(built).totals == (0, 0)  # blue's stone is under a neutral one
    view = engine.view(built, None)
    assert view["towers"][0]["neutral_top"] and view["neutral_stones_left"] == {
        "red": 20, "white": 19}
    assert view["stones_left"] == {"p0": 19, "p1": 20}


@pytest.mark.parametrize("seed", range(3))
def test_a_game_with_neutral_stones_is_saved_and_read_back(seed: int) -> None:
    state = play_out(seed, players=3)
    neutral = [tower for tower in state.towers if 3 in tower[1]]
    assert neutral  # white stones stand in some towers
    saved = GAME.state_to_json(state)
    assert saved["neutral"] and any(
        "neutral white" in tower["stones"] for tower in saved["towers"])
    assert GAME.state_from_json(json.loads(json.dumps(saved))) == state
    topped = sum(1 for _, stones in state.towers if stones[-1] == 3)
    lines = sum(len([x for x in lines if x.text.startswith("tower")])
                for lines in GAME.score(state).lines)
    assert lines == len(state.towers) - topped  # neutral tops score for nobody


def test_neutral_stones_only_with_fewer_than_four_players() -> None:
    three = GAME.initial(["a", "b", "c"])
    four = GAME.initial(["a", "b", "c", "d"])
    assert three.neutral and three.stones_left == (20,) * 4
    assert not four.neutral and four.stones_left == (20,) * 4
    assert not GAME.initial(["a", "b"], {"neutral": "off"}).neutral


def test_the_sudden_win_ends_the_game_when_a_player_places_the_last_stone() -> None:
    engine = engine_with_one_colour(0)
    options = {"sudden_win": "last_stone"}
    state, text = closing_position(engine, "3:4", [0, 0, 1, None], options=options)
    state = state._replace(stones_left=(1, 5, 20, 20))
    after = engine.apply(engine.apply(state, text), "tower 3:4")
    assert engine.is_terminal(after)
    assert engine.winners(after) == [0]  # blue: 2 points, yellow 0 but 5 unplaced
    # without the option the game goes on
    plain, text = closing_position(engine, "3:4", [0, 0, 1, None])
    plain = engine.apply(engine.apply(plain._replace(stones_left=(1, 5, 20, 20)), text),
                         "tower 3:4")
    assert not engine.is_terminal(plain) and plain.phase == "draw"


def test_the_sudden_win_beats_a_higher_total() -> None:
    """Blue's last stone goes under yellow's: placing it still ends the game, and blue wins
    though yellow has more points."""
    engine = engine_with_one_colour(1)  # the closing rhombus brings two yellow corners
    state, text = closing_position(engine, "3:4", [0, None, None, None],
                                   options={"sudden_win": "last_stone"})
    gold = next(c for c in range(len(GEOMETRY.circles)) if GEOMETRY.gold[c])
    state = state._replace(stones_left=(1, 2, 20, 20), towers=((gold, (1,)),), built=1)
    after = engine.apply(engine.apply(state, text), "tower 3:4")
    assert after.towers[-1][1] == (0, 1)
    # yellow: 2 (gold) + 2 - 1 unplaced x 2 = 2, blue 0
    assert engine.is_terminal(after) and engine.score(after).totals == (0, 2)
    assert engine.winners(after) == [0]


def test_a_player_without_stones_places_none() -> None:
    engine = engine_with_one_colour(0)
    state, text = closing_position(engine, "3:4", [0, 0, 1, None])
    assert engine.apply(state._replace(stones_left=(20, 0)), text).towers[0][1] == (0,)
    # without the stone on top there is no tower at all: nobody can be on top
    assert engine.apply(state._replace(stones_left=(0, 20)), text).towers == ()


def test_gold_towers_score_double() -> None:
    engine = engine_with_one_colour(0)
    state, text = closing_position(engine, "1:1", [0, 1, None, None])
    after = engine.apply(engine.apply(state, text), "tower 1:1")
    assert GEOMETRY.gold[GEOMETRY.circle_names.index("1:1")]
    line = engine.score(after).lines[0][0]
    assert line.text == "tower 1:1 (gold): blue on top of yellow: 2 stones x 2 = 4"
    assert line.points == 4


def test_one_rhombus_can_close_several_circles_built_in_turn() -> None:
    engine = engine_with_one_colour(0)
    state = started(engine)
    text = "place 3:6 2:6"
    _, a, b, _, _ = engine.placements[engine.place_index[text]]
    cells = tuple(EMPTY if t in (a, b) else BLACK for t in range(len(state.cells)))
    state = state._replace(phase="place", drawn=0, bag=state.bag[1:], cells=cells)
    after = engine.apply(state, text)
    closed = [GEOMETRY.circle_names[c] for c, _ in after.towers]
    corners = {p for t in (a, b) for p in GEOMETRY.triangles[t]}
    inner = [GEOMETRY.circle_names[i] for i, n in enumerate(GEOMETRY.circles)
             if GEOMETRY.points[n] in corners]
    assert closed == sorted(inner) and len(closed) == 4
    with pytest.raises(IllegalAction, match="in the order they were closed"):
        engine.apply(after, f"tower {closed[1]}")
    for name in closed:
        assert after.phase == "tower"
        after = engine.apply(after, f"tower {name}")
    assert engine.actor(after) == TERMINAL  # nothing left to cover


def test_a_hole_gets_a_black_triangle_which_can_close_a_circle() -> None:
    engine = engine_with_one_colour(0)
    state = started(engine)
    text = "place 3:6 2:6"
    _, a, b, _, _ = engine.placements[engine.place_index[text]]
    hole = next(t for t in GEOMETRY.neighbours[a] if t != b)
    keep = {a, b, hole}
    cells = tuple(EMPTY if t in keep else BLACK for t in range(len(state.cells)))
    state = state._replace(phase="place", drawn=0, bag=state.bag[1:], cells=cells, black_left=3)
    placed = engine.apply(state, text)
    assert placed.phase == "fill" and engine.legal_actions(placed) == ["fill"]
    before = {c for c, _ in placed.towers}
    filled = engine.apply(placed, "fill")
    assert filled.cells[hole] == BLACK and filled.black_left == 2
    assert engine.board(filled)[f"tri:{GEOMETRY.triangle_names[hole]}"] == "black"
    closed_by_fill = {c for c, _ in filled.towers} - before
    assert closed_by_fill and all(c in GEOMETRY.circles_of_triangle[hole] for c in closed_by_fill)


def test_without_black_triangles_a_hole_stays_open() -> None:
    engine = engine_with_one_colour(0)
    state = started(engine)
    text = "place 3:6 2:6"
    _, a, b, _, _ = engine.placements[engine.place_index[text]]
    hole = next(t for t in GEOMETRY.neighbours[a] if t != b)
    cells = tuple(EMPTY if t in (a, b, hole) else BLACK for t in range(len(state.cells)))
    state = state._replace(phase="place", drawn=0, bag=state.bag[1:], cells=cells, black_left=0)
    placed = engine.apply(state, text)
    assert placed.cells[hole] == EMPTY and placed.phase in ("tower", "over")
    assert not any(c in GEOMETRY.circles_of_triangle[hole] for c, _ in placed.towers)


# -- the end ---------------------------------------------------------------------------------
def play_out(seed: int, players: int = 2, options: dict[str, str] | None = None) -> OnTopState:
    rng = random.Random(seed)
    state = GAME.initial([f"p{n}" for n in range(players)], options)
    while GAME.actor(state) != TERMINAL:
        if GAME.actor(state) == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    return state


@pytest.mark.parametrize("seed", range(6))
def test_the_game_ends_when_no_rhombus_fits_and_unplaced_stones_cost_two(seed: int) -> None:
    final = play_out(seed)
    assert not final.bag or not GAME._can_place(final.cells)
    assert len(final.stones_left) == 4  # two players, two neutral colours
    sheet = GAME.score(final)
    for seat, lines in enumerate(sheet.lines):
        left = final.stones_left[seat]
        penalty = [line for line in lines if "unplaced" in line.text]
        assert sum(line.points for line in penalty) == -2 * left
        used = sum(len(stones) for c, stones in final.towers if stones[-1] == seat)
        assert sum(line.points for line in lines if line.text.startswith("tower")) >= used
    assert final.stones_left == tuple(
        20 - sum(seat in stones for _, stones in final.towers) for seat in range(4)
    )


def test_the_running_score_leaves_out_unplaced_stones() -> None:
    state = GAME.apply(started(), "draw 07")
    assert GAME.score(state).totals == (0, 0)


def test_partner_game_needs_four_and_partners_win_together() -> None:
    with pytest.raises(BadSetup, match="partner game is for 4 players"):
        GAME.initial(["a", "b", "c"], {"partners": "on"})
    final = play_out(1, 4, {"partners": "on"})
    totals = GAME.score(final).totals
    winners = GAME.winners(final)
    team = 0 if totals[0] + totals[2] >= totals[1] + totals[3] else 1
    assert team in winners and team + 2 in winners
    if totals[0] + totals[2] != totals[1] + totals[3]:
        assert sorted(winners) == [team, team + 2]
    assert "teams" in GAME.view(final, None)


def test_ties_let_every_tied_player_win() -> None:
    state = started()
    assert GAME.winners(state) == [0, 1]


# -- serialisation ---------------------------------------------------------------------------
def test_json_round_trip_and_bad_states() -> None:
    state = play_out(3)
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert GAME.state_from_json(data) == state
    broken = dict(data, rhombi=data["rhombi"][1:])
    with pytest.raises(BadState, match="rhombi are missing"):
        GAME.state_from_json(broken)
    with pytest.raises(BadState):
        GAME.state_from_json({"players": ["a"]})


def test_the_terminal_picture_shows_the_strips_and_the_drawn_rhombus() -> None:
    state = GAME.apply(GAME.apply(GAME.apply(started(), "draw 07"), "place 2:3 1:2"), "draw 01")
    text = GAME.render(state, None)
    assert "07a" in text and "07b" in text and " ##" in text
    assert "drawn: rhombus 01:" in text and "ben: lay rhombus 01 from the draw pad" in text


@pytest.mark.parametrize("seed", range(3))
def test_every_step_is_its_own_visible_change_on_the_table(seed: int) -> None:
    """The referee can tell every legal action (and every draw) apart by the board alone,
    and no step leaves the table as it was (none needs the confirm button)."""
    rng = random.Random(seed)
    state = GAME.initial(["anna", "ben", "cleo"])
    while GAME.actor(state) != TERMINAL:
        board = GAME.board(state)
        boards = [GAME.board(GAME.apply(state, action)) for action in GAME.legal_actions(state)]
        assert board not in boards
        assert len({frozenset(b.items()) for b in boards}) == len(boards)
        if GAME.actor(state) == CHANCE:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
