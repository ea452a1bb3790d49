"""Trapper's limits: the enumerated action space and the provable bounds on length and money."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from games.core.errors import BadSetup
from games.core.game import CHANCE, TERMINAL
from games.core.playout import random_step
from games.trapper import GAME, Trapper
from games.trapper.components import ANIMAL, CANOE, HERB, MUSHROOM
from games.trapper.display import Display, Sold, load_value
from games.trapper.state import TrapperState

from .helpers import turn_state

C = GAME.components
COUNTS = range(GAME.min_players, GAME.max_players + 1)
LAYOUT = len(C.tiles) - len(C.starts)
"""Cells the layout fills (every square but the centre)."""
COLOURS = len(C.colours)
CANOES = sum(tile.kind == CANOE for tile in C.tiles)
STEPS_PER_CELL = COLOURS * COLOURS  # each colour: its own card, or a joker of 3 others


def test_actions_are_canonical_sorted_and_unique() -> None:
    for n, placement in itertools.product(COUNTS, ("auto", "choose")):
        actions = GAME.limits(n, {"placement": placement}).actions
        assert list(actions) == sorted(set(actions))
        assert all(GAME.parse_action(action) == action for action in actions)


def test_action_counts_follow_from_the_data() -> None:
    fixed = 4 + 2 * COLOURS + len(C.species_chips)  # setup pass done retire, deal/draw, trade
    lays = LAYOUT * len(C.tiles)
    steps = LAYOUT * STEPS_PER_CELL
    auto = GAME.limits(2).actions
    choose = GAME.limits(2, {"placement": "choose"}).actions
    assert len(auto) == fixed + lays + steps == 4818
    assert len(choose) == len(auto) + steps * CANOES == 22098
    assert set(auto) < set(choose)
    assert all(" onto " in action for action in set(choose) - set(auto))
    # no action names a seat: the player count changes the bounds only
    for n in COUNTS:
        assert GAME.limits(n).actions == auto
        assert GAME.limits(n, {"placement": "choose"}).actions == choose


def test_centre_squares_never_appear() -> None:
    size = C.size
    centre = {f"{cell // size}:{cell % size}" for cell in C.starts}
    for action in GAME.limits(4, {"placement": "choose"}).actions:
        assert not centre & set(action.split()), action


def test_bad_counts_and_options_are_refused_and_results_cached() -> None:
    for bad in (1, 5, 0):
        with pytest.raises(BadSetup, match="2 to 4 players"):
            GAME.limits(bad)
    with pytest.raises(BadSetup, match="placement"):
        GAME.limits(3, {"placement": "sometimes"})
    with pytest.raises(BadSetup, match="no option"):
        GAME.limits(3, {"edition": "1"})
    assert GAME.limits(3) is GAME.limits(3, {"placement": "auto"})


def test_limits_are_made_once_per_engine() -> None:
    fresh = Trapper()
    choose = fresh.limits(4, {"placement": "choose"})
    assert fresh.limits(4, {"placement": "choose"}) is choose
    assert fresh.limits(4) is not choose


def test_bounds_come_from_the_data_file() -> None:
    base = GAME.limits(4)
    more_draws = Trapper(dataclasses.replace(C, draw_per_turn=C.draw_per_turn + 1)).limits(4)
    passes = 64 - 4 * C.hand_size + 2 * LAYOUT + 4 * 64
    assert more_draws.max_steps == base.max_steps + passes + LAYOUT
    richer = Trapper(dataclasses.replace(C, start_money=10)).limits(4)
    assert (richer.min_score, richer.max_score) == (base.min_score + 10, base.max_score + 10)
    # the longer game: every player's turn is a pass, a done or a retirement, plus its draws;
    # passes are bounded by the cards that can be drawn (box) or by the passes in a row
    assert [GAME.limits(n).max_steps for n in COUNTS] == [1221, 1402, 1583]
    first = {"reading": "revision1", "values": "first_guess"}
    assert [GAME.limits(n, first).max_steps for n in COUNTS] == [507, 697, 887]
    # herbs and mushrooms worth 6 (printed) or 1 (first_guess)
    assert (base.min_score, base.max_score) == (-170, 336)
    assert (GAME.limits(4, first).min_score, GAME.limits(4, first).max_score) == (-120, 236)


@pytest.mark.parametrize("placement", ["auto", "choose"])
def test_random_games_stay_within_the_limits(placement: str) -> None:
    kinds: set[str] = set()
    for n in COUNTS:
        limits = GAME.limits(n, {"placement": placement})
        numbered = frozenset(limits.actions)
        for seed in range(12):
            rng = random.Random(7919 * n + seed)
            state = GAME.initial([f"p{i}" for i in range(n)], {"placement": placement})
            steps = 0
            while GAME.actor(state) != TERMINAL:
                legal = GAME.legal_actions(state)
                assert numbered.issuperset(legal), set(legal) - numbered
                state = GAME.apply(state, random_step(GAME, state, rng))
                steps += 1
                assert steps <= limits.max_steps
                totals = GAME.score(state).totals
                assert all(limits.min_score <= t <= limits.max_score for t in totals)
                kinds.update(_kind(action) for action in legal)
    expected = {"setup", "lay", "deal", "draw", "step", "joker", "trade", "pass", "done",
                "retire"}
    assert kinds >= expected | ({"onto"} if placement == "choose" else set())


def _kind(action: str) -> str:
    words = action.split()
    if "onto" in words:
        return "onto"
    if "joker" in words:
        return "joker"
    return "step" if words[0] in C.colours else words[0]


def _long_game(n: int, seed: int, reading: str) -> tuple[int, TrapperState]:
    """Stretch a game: everybody passes while a pass is allowed (box: while a card can be
    drawn; revision1: until one more pass would end it), then one tile is taken and the turn
    ended; every chip that can be traded is."""
    rng = random.Random(seed)
    state = GAME.initial([f"p{i}" for i in range(n)], {"reading": reading})
    steps = 0
    while GAME.actor(state) != TERMINAL:
        legal = GAME.legal_actions(state)
        trades = [action for action in legal if action.startswith("trade ")]
        moves = [action for action in legal if _kind(action) in ("step", "joker")]
        may_pass = "pass" in legal and (reading == "box" or state.passes < n - 1)
        if GAME.actor(state) == CHANCE or legal == ["setup"]:
            action = random_step(GAME, state, rng)
        elif trades:
            action = trades[0]
        elif "done" in legal:
            action = "done"
        elif may_pass or not moves:
            action = "pass" if "pass" in legal else "retire"
        else:
            action = rng.choice([m for m in moves if "joker" not in m] or moves)
        state = GAME.apply(state, action)
        steps += 1
    return steps, state


def test_a_stretched_game_is_longer_than_random_ones_but_within_max_steps() -> None:
    for n in COUNTS:
        steps, state = _long_game(n, seed=n, reading="revision1")
        assert all(t == -1 for t in state.grid)  # every tile was taken
        # 1 setup, the layout, the deal, and per tile at least a step, a done, n - 1 passes
        assert 1 + LAYOUT + n * C.hand_size + LAYOUT * (n + 1) <= steps
        assert steps <= GAME.limits(n, {"reading": "revision1"}).max_steps
        longer, state = _long_game(n, seed=n, reading="box")
        assert GAME.is_terminal(state) and longer <= GAME.limits(n).max_steps


def _all_sold() -> tuple[Sold, ...]:
    """Every animal, herb and mushroom in the box sold: the data's richest display."""
    tiles = C.tiles
    sold: list[tuple[int, list[int]]] = []
    for species in range(len(C.species)):
        animals = sorted((t for t, info in enumerate(tiles)
                          if info.kind == ANIMAL and info.species == species),
                         key=lambda t: tiles[t].value)
        for canoe in sorted((t for t, info in enumerate(tiles)
                             if info.kind == CANOE and info.species == species),
                            key=lambda t: tiles[t].value):
            sold.append((canoe, [animals.pop() for _ in range(tiles[canoe].value)]))
        assert not animals  # the capacities of a species' canoes hold all its animals
    for kind in (HERB, MUSHROOM):
        extras = [t for t, info in enumerate(tiles) if info.kind == kind]
        for (_, load), extra in zip(sold, extras, strict=False):
            load.append(extra)
    return tuple(Sold(canoe, tuple(load), 2 * load_value(tuple(load), C))
                 for canoe, load in sold)


def test_the_richest_and_poorest_positions_of_the_data_meet_the_score_bounds() -> None:
    limits = GAME.limits(2)
    sales = _all_sold()
    assert sum(len(s.load) for s in sales) == sum(t.kind != CANOE for t in C.tiles)
    rich = turn_state({"2:3": "bear-3"})._replace(
        sales=(sales, ()), bonus=(0,) * len(C.bonus_chips),
        species=(0,) * len(C.species_chips))
    assert GAME.score(rich).totals[0] <= limits.max_score  # running: sales only
    assert GAME.score(rich._replace(phase="over")).totals[0] == limits.max_score
    # everything laid out lies loose with one player: the costliest tiles of the box
    costly = sorted(range(len(C.tiles)), key=lambda t: -C.tiles[t].value)[:LAYOUT]
    poor = turn_state({"2:3": "bear-3"})._replace(
        phase="over", displays=(Display(loose=tuple(sorted(costly))), Display()))
    assert GAME.score(poor).totals[0] == limits.min_score
