"""Seeded random playouts: the engine's smoke test, benchmark and simplest bot."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .game import CHANCE, TERMINAL, Game


@dataclass(frozen=True, slots=True)
class Playout:
    final: Any
    actions: tuple[str, ...]


def random_step(game: Game[Any], state: Any, rng: random.Random) -> str:
    """A uniformly random legal action, or a chance outcome drawn with its probability."""
    if game.actor(state) == CHANCE:
        return game.sample_chance(state, rng)
    return rng.choice(game.legal_actions(state))


def random_playout(
    game: Game[Any],
    players: Sequence[str],
    options: Mapping[str, str] | None = None,
    rng: random.Random | None = None,
    max_steps: int = 100_000,
) -> Playout:
    rng = rng or random.Random()
    state = game.initial(players, options)
    actions: list[str] = []
    while game.actor(state) != TERMINAL:
        if len(actions) >= max_steps:
            raise RuntimeError(f"{game.id}: no end after {max_steps} steps")
        action = random_step(game, state, rng)
        state = game.apply(state, action)
        actions.append(action)
    return Playout(state, tuple(actions))


def seat_names(count: int) -> list[str]:
    return [f"p{seat + 1}" for seat in range(count)]
