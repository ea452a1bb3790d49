"""limits(): the action numbering is complete and canonical, and the bounds on game length and
scores hold in random games, in games pushed towards the longest, and at the data's extremes."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Mapping

import pytest

from games.core.errors import BadPosition, BadSetup
from games.core.game import CHANCE, TERMINAL, Limits
from games.core.playout import random_step
from games.on_top import GAME, OnTop
from games.on_top.components import load_components
from games.on_top.scoring import UNPLACED_PENALTY
from games.on_top.state import BLACK, EMPTY, OnTopState

COMPONENTS = GAME.components
GEOMETRY = GAME.geometry
SETUPS = [(2, {}), (3, {}), (4, {}), (4, {"partners": "on"})]


def names(n: int) -> list[str]:
    return [f"p{seat + 1}" for seat in range(n)]


# -- the action numbering ------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_actions_are_canonical_sorted_and_unique(players: int, options: dict[str, str]) -> None:
    actions = GAME.limits(players, options).actions
    assert list(actions) == sorted(set(actions))
    assert all(GAME.parse_action(action) == action for action in actions)


def test_actions_are_the_grammar_enumerated_from_the_data() -> None:
    actions = GAME.limits(2).actions
    kinds = Counter(action.split()[0] for action in actions)
    start = set(COMPONENTS.start)
    pairs = sum(
        1 for a, near in enumerate(GEOMETRY.neighbours) for b in near if not {a, b} & start
    )
    assert kinds == {
        "start": 1,
        "fill": 1,
        "draw": len(COMPONENTS.piece_ids),
        "tower": len(GEOMETRY.circles),
        "place": pairs,
    }
    assert len(actions) == 265  # with the data file as it is: 1 + 1 + 34 + 29 + 200
    start_names = {GEOMETRY.triangle_names[t] for t in start}
    assert not any(set(action.split()[1:]) & start_names for action in actions
                   if action.startswith("place"))


def test_player_counts_and_options_change_only_the_score_ceiling() -> None:
    limits = {(n, tuple(o.items())): GAME.limits(n, o) for n, o in SETUPS}
    assert len({lim.actions for lim in limits.values()}) == 1
    assert len({lim.max_steps for lim in limits.values()}) == 1
    assert {lim.min_score for lim in limits.values()} == {
        -UNPLACED_PENALTY * COMPONENTS.stones_per_player
    }
    highs = [GAME.limits(n, {"neutral": "off"}).max_score for n in (2, 3, 4)]
    assert highs == sorted(set(highs))  # more players, taller towers
    # neutral stones make towers as tall as with four players
    assert {GAME.limits(n).max_score for n in (2, 3, 4)} == {highs[-1]}
    assert GAME.limits(4, {"partners": "on"}) == GAME.limits(4)  # totals stay per player


@pytest.mark.parametrize(
    ("players", "options", "words"),
    [
        (1, {}, "2 to 4 players"),
        (5, {}, "2 to 4 players"),
        (3, {"partners": "on"}, "partner game is for 4 players"),
        (2, {"partners": "maybe"}, "partners must be one of"),
        (2, {"edition": "x"}, "no option 'edition'"),
    ],
)
def test_bad_setups_are_refused_like_initial(
    players: int, options: Mapping[str, str], words: str
) -> None:
    with pytest.raises(BadSetup, match=words):
        GAME.limits(players, options)
    with pytest.raises(BadSetup):
        GAME.initial(names(players), options)


def test_limits_are_made_once_per_engine() -> None:
    engine = OnTop()
    first = engine.limits(3)
    assert engine.limits(3, {"partners": "off"}) is first
    assert isinstance(first, Limits)


# -- random games --------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_random_games_stay_within_the_limits_term_by_term(
    players: int, options: dict[str, str]
) -> None:
    """Each term of the max_steps sum stays within its own bound, and the totals in range."""
    limits = GAME.limits(players, options)
    numbered = set(limits.actions)
    seen: set[str] = set()
    for seed in range(25):
        rng = random.Random(seed)
        state = GAME.initial(names(players), options)
        kinds: Counter[str] = Counter()
        while GAME.actor(state) != TERMINAL:
            legal = GAME.legal_actions(state)
            assert set(legal) <= numbered
            seen.update(legal)
            action = random_step(GAME, state, rng)
            kinds[action.split()[0]] += 1
            state = GAME.apply(state, action)
            totals = GAME.score(state).totals
            assert all(limits.min_score <= total <= limits.max_score for total in totals)
        assert kinds["start"] == 1 and kinds["place"] == kinds["draw"]
        assert kinds["draw"] <= len(COMPONENTS.piece_ids)
        assert kinds["fill"] <= COMPONENTS.black_triangles - len(COMPONENTS.start)
        assert kinds["tower"] <= len(GEOMETRY.circles)
        assert kinds.total() <= limits.max_steps
    assert seen == numbered  # no dead entries: the numbering is tight


def longest_minded_game(players: int, seed: int) -> int:
    """A game whose players lay each rhombus where it closes most circles or makes a hole:
    every such choice adds a step. Returns its number of steps."""
    rng = random.Random(seed)
    state = GAME.initial(names(players))
    steps = 0
    while GAME.actor(state) != TERMINAL:
        if GAME.actor(state) == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            def extra(text: str, state: OnTopState = state) -> tuple[int, float]:
                after = GAME.apply(state, text)
                return len(after.towers) + (after.phase == "fill"), rng.random()

            action = max(GAME.legal_actions(state), key=extra)
        state = GAME.apply(state, action)
        steps += 1
    return steps


def test_games_pushed_towards_the_longest_come_close_to_max_steps_but_not_over() -> None:
    limit = GAME.limits(2).max_steps
    lengths = [longest_minded_game(2, seed) for seed in range(6)]
    assert max(lengths) <= limit
    assert max(lengths) >= limit - 3  # the bound is nearly reached (105 of 106 today)


# -- the score extremes ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_nobody_placing_a_stone_is_exactly_min_score(players: int) -> None:
    limits = GAME.limits(players)
    colours = COMPONENTS.colours[:players]
    stones = COMPONENTS.stones_per_player
    sheet, _ = GAME.score_position({"unplaced": {colour: stones for colour in colours}})
    assert sheet.totals == (limits.min_score,) * players
    assert GAME.score(GAME.initial(names(players))).totals == (0,) * players  # running


@pytest.mark.parametrize("players", [2, 3, 4])
def test_topping_the_best_circles_with_every_stone_is_exactly_max_score(players: int) -> None:
    """The first colour on top of the fullest tower on the gold circles first, then plain
    ones, until its stones run out: that is max_score, and one more tower would need a stone
    it lacks (the scorer refuses it, as it refuses a colour twice in a tower). With neutral
    stones (the default) the colours nobody plays fill the towers too."""
    for neutral in ("on", "off"):
        limits = GAME.limits(players, {"neutral": neutral})
        colours = list(COMPONENTS.colours[:players])
        others = list(COMPONENTS.colours[players:]) if neutral == "on" else []
        stack = [*colours[1:], *others, colours[0]]
        golds = sorted(GEOMETRY.gold, reverse=True)
        towers = [{"stones": stack, "gold": gold} for gold in golds]
        stones = COMPONENTS.stones_per_player
        sheet, winners = GAME.score_position({"towers": towers[:stones], "neutral": others})
        assert sheet.totals[0] == limits.max_score and winners == [0]
        assert all(total == 0 for total in sheet.totals[1:]) and len(sheet.totals) == players
        with pytest.raises(BadPosition, match=f"only {stones} stones"):
            GAME.score_position({"towers": towers[: stones + 1], "neutral": others})
        with pytest.raises(BadPosition, match="at most one stone"):
            GAME.score_position({"towers": [{"stones": [*stack, colours[0]], "gold": True}]})


def test_the_fullest_tower_the_ceiling_assumes_is_built_by_the_rules() -> None:
    """Four players, a gold circle with corners 3-1-1-1: four stones, doubled, for seat 1 (the
    per-circle value max_score counts). One rhombus, all blue, closes it with one corner."""
    components = load_components()
    blue = ((0,) * 6,) * len(components.piece_ids)
    engine = OnTop(dataclasses.replace(components, segments=blue))
    start = set(components.start)
    ring, t, u = next(
        (ring, t, u)
        for c in range(len(GEOMETRY.circles))
        if GEOMETRY.gold[c]
        for ring in [[t for t, _ in GEOMETRY.circle_wedges[c]]]
        if not set(ring) & start
        for t, u in itertools.product(ring, range(len(GEOMETRY.triangles)))
        if u in GEOMETRY.neighbours[t] and u not in ring and u not in start
    )
    circle = next(c for c in range(len(GEOMETRY.circles))
                  if [w for w, _ in GEOMETRY.circle_wedges[c]] == ring)
    state = engine.apply(engine.initial(names(4)), "start")
    cells, wedges = list(state.cells), list(state.wedges)
    others = [(w, k) for w, k in GEOMETRY.circle_wedges[circle] if w != t]
    for (w, k), colour in zip(others, [0, 0, 1, 2, 3], strict=True):
        cells[w] = 2 * 33
        wedges[w * 3 + k] = colour
    assert cells[u] == EMPTY and BLACK not in (cells[w] for w in ring)
    state = state._replace(phase="place", drawn=0, bag=state.bag[1:], cells=tuple(cells),
                           wedges=tuple(wedges))
    names_ = GEOMETRY.triangle_names
    state = engine.apply(state, f"place {names_[t]} {names_[u]}")
    assert state.towers == ((circle, (1, 2, 3, 0)),)
    assert engine.score(state).totals[0] == 4 * 2
