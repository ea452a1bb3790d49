"""Measurements of the controller for ``tabletop bench``: figures, never pass/fail tests."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.core.game import CHANCE, Game
from games.core.playout import random_step, seat_names

from .referee import Successors, decide


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def referee_timings(game: Game[Any], games: int, seed: int = 0,
                    progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """Per settle: ``decide`` on the board of the move really made, and separately on a wrong
    board (a discrepancy: the rarer, slower case, which also tries two quick steps).
    Per position change: building the successors (done right after each accepted move,
    while the players reach for the next piece)."""
    rng = random.Random(seed)
    settles: list[float] = []
    wrong_settles: list[float] = []
    builds: list[float] = []
    for number in range(games):
        state = game.initial(seat_names(game.max_players))
        while not game.is_terminal(state):
            start = time.perf_counter()
            successors = Successors(game, state)
            builds.append(time.perf_counter() - start)
            action = random_step(game, state, rng)
            after = game.apply(state, action)
            if not (game.actor(state) == CHANCE and successors.hidden_chance):
                board = game.board(after)
                start = time.perf_counter()
                decide(successors, board)
                settles.append(time.perf_counter() - start)
                wrong = dict(board)
                if wrong:
                    site = rng.choice(sorted(wrong))
                    wrong[site] = wrong[site] + ":x"  # a piece no move puts there
                    start = time.perf_counter()
                    decide(successors, wrong)
                    wrong_settles.append(time.perf_counter() - start)
            state = after
        progress(f"referee: {game.id} {number + 1}/{games} games")
    ms = 1000
    return {
        "games": games,
        "settles": len(settles),
        "settle_ms_p50": round(statistics.median(settles) * ms, 3),
        "settle_ms_p99": round(percentile(settles, 0.99) * ms, 3),
        "settle_ms_max": round(max(settles) * ms, 3),
        "wrong_board_ms_p50": round(statistics.median(wrong_settles) * ms, 3),
        "wrong_board_ms_p99": round(percentile(wrong_settles, 0.99) * ms, 3),
        "successors_ms_p50": round(statistics.median(builds) * ms, 3),
        "successors_ms_p99": round(percentile(builds, 0.99) * ms, 3),
        "successors_ms_max": round(max(builds) * ms, 3),
    }
