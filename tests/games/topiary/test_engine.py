"""The engine: setup as chance, the three steps of a turn, the draft, refusals, views, board."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.errors import BadActionText, BadSetup, BadState, IllegalAction
from games.core.game import CHANCE, TERMINAL
from games.core.playout import random_playout, random_step
from games.registry import get_game
from games.topiary import GAME
from games.topiary.state import TopiaryState

COMPONENTS = GAME.components
NAMES = ["anna", "ben", "cleo", "dan"]
VISITORS = {2: 8, 3: 6, 4: 5}


def set_up(
    players: Sequence[str],
    draft: str = "off",
    layout: Sequence[str] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    removed: str = "spiral",
) -> TopiaryState:
    """Deal a game by hand: the first tiles of the supply (or ``layout``) face down in reading
    order, then ``hands`` (or the next tiles) one at a time round the table, each over the pad."""
    state = GAME.initial(players, {"draft": draft})
    if state.phase == "remove":
        state = GAME.apply(state, f"remove {removed}")
    supply = [COMPONENTS.tile_names[tile] for tile in state.supply]
    layout = list(layout or supply[:25])
    for cell, name in enumerate(layout):
        state = GAME.apply(state, f"lay {cell // 5}:{cell % 5} {name}")
    rest = [name for name in supply if name not in layout]
    n = len(players)
    hands = hands or [rest[seat::n][:3] for seat in range(n)]
    for round_ in range(3):
        for seat in range(n):
            assert GAME.actor(state) == CHANCE
            state = GAME.apply(state, f"deal {hands[seat][round_]}")
            assert GAME.actor(state) == seat
            state = GAME.apply(state, "pick")
    return state


def hand_names(state: TopiaryState, seat: int) -> list[str]:
    return [COMPONENTS.tile_names[tile] for tile in state.hands[seat]]


def play_setup(players: int, draft: str, seed: int) -> TopiaryState:
    """Random chance (and random draft choices) until the first visitor is due."""
    rng = random.Random(seed)
    state = GAME.initial(NAMES[:players], {"draft": draft})
    while state.phase != "visitor":
        state = GAME.apply(state, random_step(GAME, state, rng))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("draft", ["off", "on"])
def test_setup(players: int, draft: str) -> None:
    state = play_setup(players, draft, seed=players)
    removed = set(COMPONENTS.tiles_of(state.removed)) if state.removed else set()
    assert bool(state.removed) == (players < 4)
    assert all(tile != -1 for tile in state.grid)
    assert [cell for cell, up in enumerate(state.face_up) if up] == [12]
    assert all(len(hand) == 3 for hand in state.hands)
    in_play = 40 - len(removed)
    assert len(state.supply) == in_play - 25 - 3 * players
    everywhere = list(state.grid) + list(state.supply) + [t for h in state.hands for t in h]
    assert sorted(everywhere) == sorted(set(range(40)) - removed)
    assert GAME.actor(state) == 0
    view = GAME.view(state, None)
    assert view["visitors_left"] == {name: VISITORS[players] for name in NAMES[:players]}


def test_the_players_choose_the_removed_shape() -> None:
    """The sheet: with 2 or 3 players "ein beliebiges Motiv-Set" leaves the game: any set the
    players pick, not a hidden draw. The start player puts it back; nothing on the table
    changes, so a tile of the shape laid on the deal pad tells the table (or the page)."""
    state = GAME.initial(NAMES[:3])
    assert GAME.actor(state) == 0 and GAME.chance_outcomes(state) == []
    assert GAME.legal_actions(state) == [f"remove {shape}" for shape in sorted(COMPONENTS.shapes)]
    boards = {GAME.board(GAME.apply(state, a)) == GAME.board(state)
              for a in GAME.legal_actions(state)}
    assert boards == {True}
    assert "lay one of its tiles on the deal pad" in str(GAME.describe_step(state))
    pieces = GAME.choice_pieces(state)
    assert GAME.choice_site == "pad:deal" and len(pieces) == len(COMPONENTS.tiles)
    assert {pieces[f"topiary:{shape}:1"] for shape in COMPONENTS.shapes} == set(
        GAME.legal_actions(state))
    assert GAME.choice_pieces(GAME.apply(state, "remove swan")) == {}


def test_chance_outcomes_are_uniform_and_exact() -> None:
    state = GAME.apply(GAME.initial(NAMES[:3]), "remove swan")
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 35 and sum(p for _, p in outcomes) == 1
    assert all(a.startswith("lay 0:0 ") and "swan" not in a for a, _ in outcomes)
    assert GAME.chance_outcomes(GAME.initial(NAMES)) == [
        (f"lay 0:0 {name}", Fraction(1, 40)) for name in sorted(COMPONENTS.tile_names)
    ]


def test_sampling_draws_only_legal_outcomes() -> None:
    rng = random.Random(5)
    state = GAME.initial(NAMES[:2])
    seen = set()
    for _ in range(200):
        outcome = GAME.sample_chance(state, rng)
        assert outcome in GAME.legal_actions(state)
        seen.add(outcome)
    assert len(seen) == 8


def test_the_three_steps_of_a_turn_and_what_the_table_shows() -> None:
    state = set_up(NAMES[:2])
    before = GAME.board(state)
    assert len(before) == 25 and all(p.startswith("topiary:") for p in before.values())

    state = GAME.apply(state, "visitor 0:2:S")
    assert (state.phase, GAME.actor(state)) == ("take", 0)
    assert GAME.board(state) == {**before, "spot:0:2:S": "visitor:red"}
    # Column 2 holds five tiles; the centre one is face up and may not be taken.
    assert GAME.legal_actions(state) == ["take 0:2", "take 1:2", "take 3:2", "take 4:2"]

    taken = COMPONENTS.tile_names[state.grid[7]]
    state = GAME.apply(state, "take 1:2")
    assert state.phase == "place"
    board = GAME.board(state)
    assert "grid:1:2" not in board and board["spot:0:2:S"] == "visitor:red"
    assert len(state.hands[0]) == 4
    assert len(GAME.legal_actions(state)) == 4
    assert all(action.startswith("place 1:2 ") for action in GAME.legal_actions(state))

    hand_tile = next(name for name in hand_names(state, 0) if name != taken)
    state = GAME.apply(state, f"place 1:2 {hand_tile}")
    assert GAME.board(state)["grid:1:2"] == "topiary:" + hand_tile.replace(" ", ":")
    assert state.face_up[7] and len(state.hands[0]) == 3
    assert taken in hand_names(state, 0)
    assert (state.phase, GAME.actor(state)) == ("visitor", 1)


def test_the_taken_tile_may_go_straight_back_face_up() -> None:
    state = GAME.apply(set_up(NAMES[:2]), "visitor 0:0:SE")
    tile = COMPONENTS.tile_names[state.grid[0]]
    state = GAME.apply(GAME.apply(state, "take 0:0"), f"place 0:0 {tile}")
    assert COMPONENTS.tile_names[state.grid[0]] == tile and state.face_up[0]


def test_a_line_without_face_down_tiles_ends_the_turn_after_the_visitor() -> None:
    state = set_up(NAMES[:3])
    # Turn the lone tile of the corner line 0:0:SW face up, then visit it from the other side.
    state = GAME.apply(state, "visitor 0:0:SW")
    state = GAME.apply(state, "take 0:0")
    state = GAME.apply(state, GAME.legal_actions(state)[0])
    state = GAME.apply(state, "visitor 0:0:NE")
    assert (state.phase, GAME.actor(state)) == ("visitor", 2)
    assert GAME.board(state)["spot:0:0:NE"] == "visitor:blue"


def test_illegal_steps_are_refused_with_reasons() -> None:
    state = GAME.apply(set_up(NAMES[:2]), "visitor 0:2:S")
    with pytest.raises(IllegalAction, match="not in the line of the visitor at 0:2:S"):
        GAME.apply(state, "take 1:1")
    with pytest.raises(IllegalAction, match="not face down"):
        GAME.apply(state, "take 2:2")
    with pytest.raises(IllegalAction, match="take a face-down tile"):
        GAME.apply(state, "visitor 0:3:S")
    state = GAME.apply(state, "take 0:2")
    with pytest.raises(IllegalAction, match="goes into the gap on 0:2, not on 1:2"):
        GAME.apply(state, f"place 1:2 {hand_names(state, 0)[0]}")
    stranger = next(n for n in COMPONENTS.tile_names if n not in hand_names(state, 0))
    with pytest.raises(IllegalAction, match=f"anna does not hold {stranger}"):
        GAME.apply(state, f"place 0:2 {stranger}")
    state = GAME.apply(state, f"place 0:2 {hand_names(state, 0)[0]}")
    with pytest.raises(IllegalAction, match="spot 0:2:S is taken by anna's visitor"):
        GAME.apply(state, "visitor 0:2:S")


def test_setup_steps_are_refused_with_reasons() -> None:
    state = GAME.apply(GAME.initial(NAMES[:2]), "remove whale")
    with pytest.raises(IllegalAction, match="next tile goes on 0:0, not 3:3"):
        GAME.apply(state, "lay 3:3 swan 1")
    with pytest.raises(IllegalAction, match="whale 1 is not in the supply"):
        GAME.apply(state, "lay 0:0 whale 1")
    with pytest.raises(IllegalAction, match="not now: anna: lay a face-down tile on square 0:0"):
        GAME.apply(state, "visitor 0:2:S")
    finished = random_playout(GAME, NAMES[:2], rng=random.Random(3)).final
    with pytest.raises(IllegalAction, match=r"(?i)game over"):
        GAME.apply(finished, "visitor 0:2:S")


@pytest.mark.parametrize(
    "text",
    [
        "no such action 42",
        "visitor 2:2:S",
        "visitor 0:2:UP",
        "take 5:5",
        "place 1:1 unicorn 3",
        "lay 0:0 swan 6",
        "keep swan 4",
        "pass swan 9",
        "pick swan 4",
        "box 1",
        "",
    ],
)
def test_text_that_is_no_action_is_bad_action_text(text: str) -> None:
    with pytest.raises(BadActionText):
        GAME.parse_action(text)
    with pytest.raises(BadActionText):
        GAME.apply(set_up(NAMES[:2]), text)


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("  VISITOR 0:2:s ", "visitor 0:2:S"),
        ("visitor   4:4:nw", "visitor 4:4:NW"),
        ("Take 1:2", "take 1:2"),
        ("place 1:2  Swan 4", "place 1:2 swan 4"),
        (" PASS  Whale 5", "pass whale 5"),
        ("Pick", "pick"),
        ("BOX ", "box"),
    ],
)
def test_typed_actions_become_canonical(typed: str, canonical: str) -> None:
    assert GAME.parse_action(typed) == canonical


def test_deal_goes_over_the_pad_one_tile_at_a_time() -> None:
    state = GAME.apply(GAME.initial(NAMES[:2]), "remove spiral")
    for _ in range(25):
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    laid = GAME.board(state)
    state = GAME.apply(state, "deal whale 4")
    assert (GAME.actor(state), GAME.legal_actions(state)) == (0, ["pick"])
    assert GAME.board(state) == {**laid, "pad:deal": "topiary:whale:4"}
    assert GAME.view(state, 0)["pad"] == GAME.view(state, None)["pad"] == {"face_up": False}
    with pytest.raises(IllegalAction, match="anna: take the tile from the deal pad"):
        GAME.apply(state, "deal whale 5")
    state = GAME.apply(state, "pick")
    assert GAME.board(state) == laid
    assert hand_names(state, 0) == ["whale 4"]
    assert GAME.actor(state) == CHANCE and "deal whale 4" not in GAME.legal_actions(state)


def test_draft_variant_with_four_players() -> None:
    state = set_up(NAMES, draft="on")
    assert (state.phase, GAME.actor(state)) == ("draft", 3)
    # 40 tiles - 25 on the grid - 12 dealt: dan takes the last 3 as well and passes 3 of 6.
    assert len(state.hands[3]) == 6 and state.supply == ()
    assert GAME.legal_actions(state) == [f"pass {name}" for name in hand_names(state, 3)]
    with pytest.raises(IllegalAction, match="dan does not hold"):
        GAME.apply(state, f"pass {hand_names(state, 0)[0]}")
    for seat in (3, 2, 1, 0):
        assert GAME.actor(state) == seat and len(state.hands[seat]) == 6
        passed = hand_names(state, seat)[:3]
        for name in passed:
            state = GAME.apply(state, f"pass {name}")
            assert GAME.board(state)["pad:deal"] == "topiary:" + name.replace(" ", ":")
            # The passer knows the tile on the pad; the receiver does not see it yet.
            assert GAME.view(state, seat)["pad"] == {"face_up": False, "tile": name}
            if seat:
                assert GAME.view(state, seat - 1)["pad"] == {"face_up": False}
                assert (GAME.actor(state), GAME.legal_actions(state)) == (seat - 1, ["pick"])
                state = GAME.apply(state, "pick")
                assert name in hand_names(state, seat - 1)
            else:
                assert (GAME.actor(state), GAME.legal_actions(state)) == (0, ["box"])
                state = GAME.apply(state, "box")
            assert "pad:deal" not in GAME.board(state)
        assert len(state.hands[seat]) == 3
    assert (state.phase, GAME.actor(state)) == ("visitor", 0)
    assert [COMPONENTS.tile_names[t] for t in state.supply] == sorted(passed)
    assert all(len(hand) == 3 for hand in state.hands)


@pytest.mark.parametrize(("players", "first_hand"), [(2, 7), (3, 4)])
def test_draft_variant_with_fewer_players(players: int, first_hand: int) -> None:
    state = set_up(NAMES[:players], draft="on")
    assert GAME.actor(state) == players - 1
    assert len(state.hands[players - 1]) == first_hand
    steps = 0
    while state.phase != "visitor":
        state = GAME.apply(state, GAME.legal_actions(state)[-1])
        steps += 1
    assert all(len(hand) == 3 for hand in state.hands)
    assert len(state.supply) == first_hand - 3
    # Each player passes the extra tiles one at a time, and each is picked up or boxed.
    assert steps == players * (first_hand - 3) * 2


def test_draft_is_off_by_default_and_options_are_checked() -> None:
    assert set_up(NAMES).phase == "visitor"
    with pytest.raises(BadSetup, match="draft must be one of off, on"):
        GAME.initial(NAMES, {"draft": "maybe"})
    with pytest.raises(BadSetup, match="2 to 4 players"):
        GAME.initial([*NAMES, "eve"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_places_every_visitor(players: int) -> None:
    final = random_playout(GAME, NAMES[:players], rng=random.Random(players)).final
    assert GAME.actor(final) == TERMINAL and GAME.legal_actions(final) == []
    assert len(final.visitors) == players * VISITORS[players]
    board = GAME.board(final)
    for seat, colour in enumerate(COMPONENTS.colours[:players]):
        spots = [site for site, piece in board.items() if piece == f"visitor:{colour}"]
        assert len(spots) == VISITORS[players], seat
    # Hands are shown at the end and scored.
    sheet = GAME.score(final)
    assert all(
        sum(1 for line in lines if line.text.startswith("hand ")) == len(hand)
        for lines, hand in zip(sheet.lines, final.hands, strict=True)
    )
    assert all(isinstance(v, list) for v in GAME.view(final, None)["hands"].values())


def test_running_score_counts_visitors_only() -> None:
    state = GAME.apply(set_up(NAMES[:2]), "visitor 2:0:E")  # the centre is face up in row 2
    centre = COMPONENTS.tiles[state.grid[12]]
    sheet = GAME.score(state)
    assert sheet.totals == (centre[1], 0)
    assert sheet.lines[0][0].text == f"spot 2:0:E: {centre[0]} {centre[1]} = {centre[1]}"
    assert sheet.lines[1] == ()


def test_views_hide_face_down_tiles_and_other_hands() -> None:
    state = set_up(NAMES[:3])
    hidden = [COMPONENTS.tile_names[t] for c, t in enumerate(state.grid) if not state.face_up[c]]
    public = json.dumps(GAME.view(state, None))
    assert not any(f'"{name}"' in public for name in hidden)
    for seat in range(3):
        view = GAME.view(state, seat)
        assert view["hands"][NAMES[seat]] == hand_names(state, seat)
        for other in set(range(3)) - {seat}:
            assert view["hands"][NAMES[other]] == {"count": 3}
        assert not any(f'"{name}"' in json.dumps(view) for name in hidden)


def test_resample_keeps_what_a_player_sees() -> None:
    state = set_up(NAMES[:3])
    rng = random.Random(1)
    changed = 0
    for seat in (None, 0, 1, 2):
        other = GAME.resample(state, seat, rng)
        assert GAME.view(other, seat) == GAME.view(state, seat)
        changed += other != state
        assert sorted(other.grid + other.supply + sum(other.hands, ())) == sorted(
            state.grid + state.supply + sum(state.hands, ())
        )
    assert changed == 4


def test_state_json_round_trip_and_bad_states() -> None:
    drafting = set_up(NAMES[:2], draft="on")
    state = GAME.apply(drafting, GAME.legal_actions(drafting)[0])
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert GAME.state_from_json(data) == state
    doubled = {**data, "supply": [*data["supply"], data["hands"][0][0]]}
    with pytest.raises(BadState, match="two places"):
        GAME.state_from_json(doubled)
    with pytest.raises(BadState, match="unknown phase"):
        GAME.state_from_json({**data, "phase": "lunch"})
    with pytest.raises(BadState, match="unknown tile"):
        GAME.state_from_json({**data, "supply": ["unicorn 3"]})
    with pytest.raises(BadState):
        GAME.state_from_json([1, 2])


def test_winners_break_ties_by_the_last_mover() -> None:
    final = random_playout(GAME, NAMES[:3], rng=random.Random(11)).final
    # Turn every tile face down and empty the hands: all score 0 with 0 hand points, so the
    # player who moved last (the last seat) wins.
    tied = final._replace(
        face_up=(False,) * 25,
        hands=((), (), ()),
        supply=tuple(sorted(final.supply + sum(final.hands, ()))),
    )
    assert GAME.score(tied).totals == (0, 0, 0)
    assert GAME.winners(tied) == [2]
    # The same tie one step earlier: the last visitor (cleo's) is not yet placed, so ben,
    # who moved before her, is now the tied player who moved last.
    earlier = tied._replace(visitors=tied.visitors[:-1])
    assert GAME.winners(earlier) == [1]


def test_registered_under_its_id() -> None:
    assert get_game("topiary") is GAME
    assert len(GAME.pieces()) == len(set(GAME.pieces())) == 44
    assert "topiary:swan:4" in GAME.pieces() and "visitor:red" in GAME.pieces()


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    players=st.sampled_from([2, 3, 4]),
    draft=st.sampled_from(["off", "on"]),
)
def test_random_games_keep_every_tile_and_turn_one_up_per_turn(
    seed: int, players: int, draft: str
) -> None:
    rng = random.Random(seed)
    state = GAME.initial(NAMES[:players], {"draft": draft})
    state = GAME.apply(state, random_step(GAME, state, rng))
    in_play = sorted(state.grid + state.supply + sum(state.hands, ()))
    in_play = [tile for tile in in_play if tile != -1]
    places = 0
    while GAME.actor(state) != TERMINAL:
        action = random_step(GAME, state, rng)
        state = GAME.apply(state, action)
        places += action.startswith("place ")
        tiles = [
            t for t in (*state.grid, *state.supply, state.pad, *sum(state.hands, ())) if t != -1
        ]
        assert sorted(tiles) == in_play
    assert sum(state.face_up) == 1 + places
    assert all(tile != -1 for tile in state.grid)
    counts = [sum(1 for _, seat in state.visitors if seat == s) for s in range(players)]
    assert counts == [VISITORS[players]] * players


@given(st.text(max_size=40))
def test_parsing_any_text_gives_a_canonical_action_or_bad_action_text(text: str) -> None:
    try:
        canonical = GAME.parse_action(text)
    except BadActionText as error:
        assert str(error)
    else:
        assert GAME.parse_action(canonical) == canonical


@given(st.data())
def test_legal_actions_survive_retyping(data: st.DataObject) -> None:
    state = set_up(NAMES[:2], draft="on")
    action = data.draw(st.sampled_from(GAME.legal_actions(state)))
    words = action.replace(",", " , ").split()
    typed = "  ".join(data.draw(st.sampled_from([w.upper(), w.lower(), w])) for w in words)
    assert GAME.parse_action(typed) == action


def test_render_shows_the_view_and_nothing_hidden() -> None:
    state = GAME.apply(set_up(NAMES[:2]), "visitor 2:0:E")
    text = GAME.render(state, 1)
    centre = COMPONENTS.tile_names[state.grid[12]]
    assert "anna 2:0:E" in text and centre in text and "anna: 3 tiles" in text
    assert ", ".join(hand_names(state, 1)) in text
    hidden = [COMPONENTS.tile_names[t] for c, t in enumerate(state.grid) if not state.face_up[c]]
    assert not any(name in text.split("hands:")[0] for name in hidden)
    assert ", ".join(hand_names(state, 0)) not in text


def _first_take(options: dict[str, str]) -> TopiaryState:
    rng = random.Random(2)
    state = GAME.initial(NAMES[:2], options)
    while state.phase != "take":
        state = GAME.apply(state, random_step(GAME, state, rng))
    return state


def test_taking_from_the_line_is_compulsory_as_the_sheet_says() -> None:
    state = _first_take({})
    assert "no take" not in GAME.legal_actions(state)
    with pytest.raises(IllegalAction, match="take=may makes it optional"):
        GAME.apply(state, "no take")


def test_with_take_may_the_player_may_leave_the_line_as_it_is() -> None:
    """Some printings: the take is optional. Leaving it ends the turn with no gap to fill,
    and the table sees nothing change: the confirm button."""
    state = _first_take({"take": "may"})
    assert "no take" in GAME.legal_actions(state)
    after = GAME.apply(state, "no take")
    assert after.phase in ("visitor", "over") and after.seat != state.seat
    assert after.hands == state.hands and after.grid == state.grid
    assert GAME.board(after) == GAME.board(state)
