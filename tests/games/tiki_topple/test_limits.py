"""Tiki Topple's limits: the action numbering and bounds OpenSpiel and the AI rely on."""

from __future__ import annotations

import random

import pytest

from games.core import BadSetup, random_step
from games.core.game import TERMINAL
from games.tiki_topple import GAME
from games.tiki_topple.components import load_edition


@pytest.mark.parametrize("edition", ["schmidt", "gamewright"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_numbered_action_is_canonical(players: int, edition: str) -> None:
    actions = GAME.limits(players, {"edition": edition}).actions
    assert list(actions) == sorted(set(actions))
    assert all(GAME.parse_action(action) == action for action in actions)


def test_the_numbering_follows_the_edition() -> None:
    schmidt = set(GAME.limits(2, {"edition": "schmidt"}).actions)
    gamewright = set(GAME.limits(2, {"edition": "gamewright"}).actions)
    assert "wiki kapu nani" in schmidt and "wiki kapu nani" not in gamewright
    assert any(a.startswith("aside ") for a in schmidt)
    assert not any(a.startswith("aside ") for a in gamewright)
    assert sum(a.startswith("build ") for a in schmidt) == 1296


def test_bounds_hold_for_seeded_games_and_the_best_possible_round() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        players = 2 + seed % 3
        options = {"edition": ("schmidt", "gamewright")[seed % 2]}
        limits = GAME.limits(players, options)
        numbered = set(limits.actions)
        state = GAME.initial([f"p{n}" for n in range(players)], options)
        steps = 0
        while GAME.actor(state) != TERMINAL:
            assert set(GAME.legal_actions(state)) <= numbered
            state = GAME.apply(state, random_step(GAME, state, rng))
            steps += 1
        assert steps <= limits.max_steps
        assert all(limits.min_score <= t <= limits.max_score for t in GAME.score(state).totals)
    # A mission fully on top every round reaches the bound exactly: the bound is tight.
    edition = load_edition("schmidt")
    best = sum(edition.points) * edition.rounds_by_players[4]
    assert GAME.limits(4, {"edition": "schmidt"}).max_score == best


def test_limits_refuse_a_bad_setup() -> None:
    with pytest.raises(BadSetup, match="2 to 4 players"):
        GAME.limits(5)
    with pytest.raises(BadSetup, match="edition"):
        GAME.limits(2, {"edition": "pirate"})
