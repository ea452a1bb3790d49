"""The limits OpenSpiel and search rely on: an action numbering enumerated from the data, and
bounds on game length and scores that hold by derivation, checked against played games, games
played to be long, and every collection of score tiles of a small box."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from games.core import BadSetup, random_step
from games.core.game import CHANCE, TERMINAL
from games.hanging_gardens import GAME, HangingGardens
from games.hanging_gardens import limits as space
from games.hanging_gardens.components import Components
from games.hanging_gardens.scoring import score_sheet
from games.hanging_gardens.state import HangingGardensState

from .helpers import BOX, playing
from .test_conformance import few_tiles

NAMES = ["anna", "ben", "cleo", "dan"]


# -- the numbering -----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_numbered_action_is_canonical_sorted_and_unique(players: int) -> None:
    actions = GAME.limits(players).actions
    assert list(actions) == sorted(set(actions))
    assert all(GAME.parse_action(action) == action for action in actions)


def test_the_numbering_is_the_whole_grammar_of_the_box() -> None:
    actions = GAME.limits(2).actions
    cards, fields = len(BOX.cards), BOX.fields
    anchors = (BOX.rows - 3 + 1) * (BOX.cols - 2 + 1)
    kinds = Counter(action.split()[0] for action in actions)
    moves = sum(" from " in action for action in actions)
    assert kinds["draw"] == kinds["discard"] == cards
    assert kinds["place"] == cards * 2 * anchors == 4200
    assert kinds["temple"] - moves == fields
    assert moves == fields * (fields - 1)
    assert kinds["no"] == 1
    assert kinds["tile"] == BOX.tile_columns * BOX.tile_rows
    assert kinds["reveal"] == kinds["extra"] == len(BOX.kinds)
    assert len(actions) == 7488  # with take extra
    assert {"place c60 4:6 down", "temple 6:7 from 0:0", "tile 3:2", "extra guard"} <= set(actions)
    assert not {"temple 3:4 from 3:4", "tile 4:1", "place c01 5:0 up"} & set(actions)
    # the engine's parser knows exactly these texts: nothing it accepts is left unnumbered
    assert set(GAME.parsed) == set(actions)


def test_player_counts_share_the_numbering_and_differ_in_rounds() -> None:
    two, three, four = (GAME.limits(n) for n in (2, 3, 4))
    assert two.actions == three.actions == four.actions
    # 15 rounds with 2 and 4 players (4 cards a round), 20 with 3 (3 cards)
    assert (two.max_steps, three.max_steps, four.max_steps) == (289, 327, 327)
    assert two.min_score == three.min_score == four.min_score == 0
    assert two.max_score == four.max_score < three.max_score


@pytest.mark.parametrize("players", [0, 1, 5, True, "2"])
def test_a_bad_player_count_is_refused(players: object) -> None:
    with pytest.raises(BadSetup, match="2 to 4 players"):
        GAME.limits(players)  # type: ignore[arg-type]


def test_options_are_checked_like_initial() -> None:
    with pytest.raises(BadSetup, match="no option 'edition'"):
        GAME.limits(2, {"edition": "first"})
    assert GAME.limits(2, {}) is GAME.limits(2, None)


def test_limits_are_made_once_per_engine() -> None:
    game = HangingGardens()
    first = game.limits(4)
    assert game.limits(4) is first


# -- played games ------------------------------------------------------------------------------
def play(
    game: HangingGardens,
    players: int,
    choose: Callable[[HangingGardensState, list[str]], str],
    rng: random.Random,
) -> tuple[HangingGardensState, list[str]]:
    """Play to the end, checking every legal action, running total and the length."""
    limits = game.limits(players)
    numbered = set(limits.actions)
    state = game.initial(NAMES[:players])
    history: list[str] = []
    while True:
        totals = game.score(state).totals
        assert all(limits.min_score <= t <= limits.max_score for t in totals), (totals, history)
        actor = game.actor(state)
        if actor == TERMINAL:
            return state, history
        legal = game.legal_actions(state)
        assert set(legal) <= numbered, set(legal) - numbered
        action = random_step(game, state, rng) if actor == CHANCE else choose(state, legal)
        state = game.apply(state, action)
        history.append(action)
        assert len(history) <= limits.max_steps


def at_random(state: HangingGardensState, legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def long_game(state: HangingGardensState, legal: list[str], rng: random.Random) -> str:
    """Build whenever allowed, else play at random: temples make the most steps (a take, a
    refill, perhaps an extra tile) and use up the score tiles."""
    temples = [a for a in legal if a.startswith("temple")]
    if temples:
        return rng.choice(temples)
    return rng.choice(legal)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_random_games_stay_within_the_limits(players: int) -> None:
    for seed in range(8):
        rng = random.Random(seed)
        play(GAME, players, lambda s, legal, rng=rng: at_random(s, legal, rng), random.Random(seed))


def step_counts(history: list[str]) -> Counter[str]:
    groups = {"discard": "place", "no": "temple", "extra": "reveal"}
    return Counter(groups.get(a.split()[0], a.split()[0]) for a in history)


@pytest.mark.parametrize("box", ["full", "few tiles"])
def test_each_part_of_the_step_bound_holds_in_games_played_to_be_long(
    box: str, tmp_path: Path
) -> None:
    """The derivation in ``limits.max_steps`` part by part: if a rule change broke one
    (two temples a round, a refill without a take), these counts would show it."""
    game = GAME if box == "full" else few_tiles(tmp_path)
    c = game.components
    cards, tiles = len(c.cards), sum(c.kind_counts)
    longest, ran_out = {}, 0
    for players in (2, 3, 4):
        rounds = space.rounds(c, players)
        builds_cap = rounds * min(players, c.display_cards[players])
        for seed in range(6):
            rng = random.Random(100 + seed)
            final, history = play(
                game, players, lambda s, legal, r=rng: long_game(s, legal, r), rng
            )
            n = step_counts(history)
            builds = sum(a.startswith("temple") for a in history)
            assert n["draw"] <= cards and n["place"] == n["draw"]
            assert n["temple"] <= n["place"]
            assert n["tile"] <= builds <= builds_cap and n["tile"] <= n["reveal"]
            assert n["reveal"] <= tiles
            assert final.round + 1 <= rounds
            assert all(m <= space.tiles_per_temple(c) for m in final.missing)
            for seat in range(players):
                held = sum(final.collected[seat]) + final.missing[seat]
                assert held <= space.tiles_per_temple(c) * rounds
            longest[players] = max(longest.get(players, 0), len(history))
            ran_out += n["reveal"] == tiles
        assert longest[players] <= game.limits(players).max_steps
    if box == "few tiles":
        assert ran_out  # the tile part of the bound is reached


# -- the score range ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_highest_total_is_reached_by_a_collection_the_rules_allow(players: int) -> None:
    limits = GAME.limits(players)
    _, high = space.score_extremes(BOX, players)
    assert high.total == limits.max_score
    assert all(have <= box for have, box in zip(high.counts, BOX.kind_counts, strict=True))
    assert high.missing <= 2
    assert sum(high.counts) + high.missing <= 2 * space.rounds(BOX, players)
    others = tuple((0,) * len(BOX.kinds) for _ in range(players - 1))
    state = playing(players)._replace(
        phase="over",
        collected=(high.counts, *others),
        missing=(high.missing,) + (0,) * (players - 1),
    )
    assert GAME.score(state).totals[0] == limits.max_score


def test_random_collections_of_the_full_box_stay_within_the_range() -> None:
    rng = random.Random(7)
    pool = [k for k, count in enumerate(BOX.kind_counts) for _ in range(count)]
    for players in (2, 3):
        limits = GAME.limits(players)
        cap = 2 * space.rounds(BOX, players)
        for _ in range(2000):
            missing = rng.randrange(3)
            counts = Counter(rng.sample(pool, rng.randrange(min(cap - missing, len(pool)) + 1)))
            collection = tuple(counts[k] for k in range(len(BOX.kinds)))
            total = score_sheet(["a"], [collection], [missing], BOX).totals[0]
            assert limits.min_score <= total <= limits.max_score


def small_box(tmp_path: Path, variant: str) -> Components:
    """One tile of each kind and 8 cards (2 rounds with 2 players: at most 4 tiles); the
    variants give scoring values below zero."""
    c = few_tiles(tmp_path).components
    c = dataclasses.replace(c, cards=c.cards[:8], card_names=c.card_names[:8])
    if variant == "missing costs":
        c = dataclasses.replace(c, missing_points=-5)
    if variant == "guard and priest cost":
        persons = dict(c.persons)
        persons["priest"] = dataclasses.replace(persons["priest"], alone=-4)
        c = dataclasses.replace(c, guard_per_gate=-3, missing_points=0, persons=persons)
    return c


@pytest.mark.parametrize("variant", ["as printed", "missing costs", "guard and priest cost"])
def test_the_range_is_exact_over_every_collection_of_a_small_box(
    tmp_path: Path, variant: str
) -> None:
    """Brute force over every collection the limits allow, scored by the real scoring code:
    the range must hold every total and be reached (negative values move the low end)."""
    c = small_box(tmp_path, variant)
    per_temple = space.tiles_per_temple(c)
    scored = [
        (sum(picked) + missing, score_sheet(["a"], [picked], [missing], c).totals[0])
        for picked in itertools.product(*(range(n + 1) for n in c.kind_counts))
        for missing in range(per_temple + 1)
    ]
    for players in (2, 3, 4):
        cap = per_temple * space.rounds(c, players)
        totals = [total for held, total in scored if held <= cap]
        low, high = space.score_extremes(c, players)
        assert (low.total, high.total) == (min(totals), max(totals))
        limits = HangingGardens(c).limits(players)
        assert (limits.min_score, limits.max_score) == (min(totals), max(totals))
    assert (HangingGardens(c).limits(2).min_score < 0) == (variant != "as printed")
