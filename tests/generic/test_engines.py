"""Every engine keeps the contract: conformance, seeded playouts, scores that survive JSON."""

from __future__ import annotations

import inspect
import random
from pathlib import Path
from typing import Any

import pytest

from games.core import BadPosition, Game
from games.core.conformance import check_game
from games.core.game import CHANCE, TERMINAL

from .conftest import players_for

SEEDS = (1, 2, 3)


def play_out(game: Game[Any], players: list[str], seed: int) -> tuple[Any, list[str]]:
    """A seeded random game to its end, checking the step contract on the way."""
    rng = random.Random(seed)
    state = game.initial(players, {})
    actions: list[str] = []
    limit = game.limits(len(players)).max_steps
    while game.actor(state) != TERMINAL:
        assert len(actions) < limit, f"no end after {limit} steps"
        actor = game.actor(state)
        seat = game.to_act(state)
        assert seat is None or 0 <= seat < len(players)
        if actor >= 0:
            assert seat == actor, "the seat to act is the actor at a player's decision"
        assert str(game.describe_step(state)).strip(), "every step is described"
        assert isinstance(game.phase(state), str) and game.phase(state)
        if actor == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        actions.append(action)
        state = game.apply(state, action)
    assert game.legal_actions(state) == []
    assert str(game.describe_step(state)).strip()
    return state, actions


def test_the_conformance_check_passes(game: Game[Any]) -> None:
    report = check_game(game, games=3, seed=7)
    assert report.games == 3 * (game.max_players - game.min_players + 1)


def test_seeded_playouts_end_and_repeat_for_every_player_count(game: Game[Any]) -> None:
    for count in range(game.min_players, game.max_players + 1):
        players = players_for(game, count)
        for seed in SEEDS[:1] if count > game.min_players else SEEDS:
            first, actions = play_out(game, players, seed)
            again, same = play_out(game, players, seed)
            assert (same, again) == (actions, first), "a seeded playout must repeat exactly"
            winners = game.winners(first)
            assert winners and all(0 <= seat < count for seat in winners)


def test_the_final_state_and_its_scores_survive_json(game: Game[Any]) -> None:
    state, _ = play_out(game, players_for(game), seed=5)
    back = game.state_from_json(game.state_to_json(state))
    assert back == state
    assert game.score(back) == game.score(state)
    assert game.winners(back) == game.winners(state)


def test_the_public_view_at_the_end_scores_the_same_if_the_game_takes_it(
    game: Game[Any],
) -> None:
    """``tabletop score`` reads positions; a game whose position is its final public view
    (the toy game's is) must score it exactly as the engine did. Others say so and skip."""
    state, _ = play_out(game, players_for(game), seed=5)
    try:
        sheet, winners = game.score_position(game.view(state, None))
    except BadPosition as error:
        pytest.skip(f"{game.id}'s positions are not its public view ({error})")
    assert sheet == game.score(state)
    assert winners == game.winners(state)



def test_games_come_from_this_checkout(game: Game[Any]) -> None:
    """The engine under test is this project's, not an installed copy of another checkout."""
    root = Path(__file__).resolve().parents[2]
    assert Path(inspect.getfile(type(game))).resolve().is_relative_to(root / "games")
