"""``tabletop bench referee-search``: people dealing from the box (``BoxPlayers``) at a
``Table``, and what the table's searches for their unseen draws cost."""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from controller.compose.box_players import PREFER, BoxPlayers
from controller.journal import Journal
from controller.table import Table
from controller.unresolved import SEARCH_BUDGET, UNRESOLVED, SearchCost
from games.core.errors import GameError
from games.core.game import Game
from games.core.playout import seat_names
from games.registry import get_game

from . import BenchOptions, BenchResult, Progress, chosen_ids
from .measure import percentile

BENCH_GAMES = ("tiki_topple", "topiary", "hanging_gardens", "on_top", "trapper")
"""The games ``tabletop bench referee-search`` plays by default."""
BENCH_PLAYERS = 3
"""Seats per game: the typical table; a game not for three takes its most."""


def _new_costs(costs: list[SearchCost], last: SearchCost | None) -> list[SearchCost]:
    """The searches appended since ``last`` (the table keeps only its last 50; identity, not
    equality, since two searches may cost the same)."""
    for index in range(len(costs) - 1, -1, -1):
        if costs[index] is last:
            return costs[index + 1:]
    return list(costs)


def play_box_game(game: Game[Any], players: int, seed: int, directory: Path
                  ) -> dict[str, Any]:
    """One seeded game of ``BoxPlayers`` against a fresh ``Table`` (journal in ``directory``):
    every step's time, every search the table made, and whether it ended as the players' own
    engine did. A step the table refuses or does not take ends the game as a failure, kept
    with its seed (never retried with another)."""
    table = Table(game, Journal(directory / f"{game.id}-{seed}.sqlite3"), random.Random(seed))
    people = BoxPlayers(table, seat_names(players), seed=seed,
                        prefer=PREFER.get(game.id, lambda action: False))
    costs = list(table.searches.costs)
    last = costs[-1] if costs else None
    step_s: list[float] = []
    failure = None
    while failure is None and not game.is_terminal(people.state):
        start = time.perf_counter()
        try:
            action = people.step()
            people.show()
        except GameError as error:
            action = people.actions[-1]
            failure = (f"{type(error).__name__}: {error} (the table judged "
                       f"{type(table.decision).__name__})")
        step_s.append(time.perf_counter() - start)
        costs += _new_costs(table.searches.costs, last)
        last = table.searches.costs[-1] if table.searches.costs else last
        if failure is None and len(table.actions) < len(people.actions):
            failure = f"the table did not take it ({type(table.decision).__name__})"
        if failure is not None:
            failure = f"step {len(people.actions)} {action!r}: {failure}"
    if failure is None:
        try:
            people.show()
        except GameError as error:
            failure = f"showing the secrets: {type(error).__name__}: {error}"
        costs += _new_costs(table.searches.costs, last)
    recorded = len(table.actions) == len(people.actions) and all(
        known in (UNRESOLVED, real)
        for known, real in zip(table.actions, people.actions, strict=True))
    if failure is None and not recorded:
        failure = "the table's record differs from the actions played"
    status = table.status()
    real = game.score(people.state).to_json()["scores"]
    return {
        "seed": seed,
        "completed": failure is None,
        "failure": failure,
        "steps": len(people.actions),
        "step_s": step_s,
        "unseen": table.unseen,
        "reveals": len(table.reveals),
        "service_draws": table.service_draws,
        "scores_match": (failure is None and status.scores is not None
                         and status.scores.scores == real),
        "searches": [(cost.applies, cost.gave_up, cost.seconds)
                     for cost in costs],
        "gave_up": any(cost.gave_up for cost in costs),
    }


def referee_search_figures(game_ids: Sequence[str], games: int,
                           progress: Callable[[str], None] = lambda _: None
                           ) -> dict[str, dict[str, Any]]:
    """``tabletop bench referee-search``: per game, ``games`` seeded games (seeds 0 ..
    games-1) dealt from the box at a table of three (or the most the game takes), with what
    the table's searches for the unseen draws cost (``SEARCH_BUDGET`` applies each) and how long
    a step takes. A failed game is reported with its seed, never replaced by another."""
    figures: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="referee-search-") as folder:
        for game_id in game_ids:
            game = get_game(game_id)
            players = (BENCH_PLAYERS if game.min_players <= BENCH_PLAYERS <= game.max_players
                       else game.max_players)
            runs = []
            for seed in range(games):
                progress(f"referee-search: {game_id} game {seed + 1}/{games}")
                runs.append(play_box_game(game, players, seed, Path(folder)))
            figures[game_id] = _summary(players, runs)
    return figures


def _summary(players: int, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One game's figures over its runs; the seeds of what went wrong, to replay them."""
    ms = 1000
    searches = [search for run in runs for search in run["searches"]]
    applies = [float(search[0]) for search in searches]
    search_s = [search[2] for search in searches if search[2] is not None]
    step_s = [t for run in runs for t in run["step_s"]]
    row: dict[str, Any] = {
        "players": players,
        "games": len(runs),
        "completed": sum(run["completed"] for run in runs),
        "steps": sum(run["steps"] for run in runs),
        "unseen_draws": sum(run["unseen"] for run in runs),
        "reveals": sum(run["reveals"] for run in runs),
        "searches": len(searches),
        "search_budget": SEARCH_BUDGET,
    }
    for name, values, scale in (("search_applies", applies, 1), ("search_ms", search_s, ms),
                                ("step_ms", step_s, ms)):
        for label, share in (("p50", 0.5), ("p95", 0.95), ("max", 1.0)):
            value = percentile(values, share) * scale if values else None
            row[f"{name}_{label}"] = (None if value is None else int(value)
                                      if name == "search_applies" else round(value, 3))
    row.update({
        "searches_gave_up": sum(search[1] for search in searches),
        "scores_matched": sum(run["scores_match"] for run in runs),
        "service_draws": sum(run["service_draws"] for run in runs),
        "failures": [{"seed": run["seed"], "why": run["failure"]}
                     for run in runs if run["failure"] is not None],
        "score_mismatch_seeds": [run["seed"] for run in runs
                                 if run["completed"] and not run["scores_match"]],
        "gave_up_seeds": [run["seed"] for run in runs if run["gave_up"]],
    })
    return row


def bench_referee_search(options: BenchOptions, progress: Progress) -> BenchResult:
    """Players dealing from the box (issue: bound the search's cost and report it): seeded
    games per game at a table of three, what the table's searches for its unseen draws cost
    against the budget, how long a step takes, and whether the score came out as the players'
    own engine's with the service drawing nothing."""
    selected = chosen_ids(options, BENCH_GAMES)
    games = options.games or 5
    figures = referee_search_figures(selected, games, progress=progress)
    rows = tuple(
        tuple("-" if value is None else value for value in (  # no search: no figure
            game_id, f["players"], f["games"], f["completed"], f["steps"], f["unseen_draws"],
            f["reveals"], f["searches"], f["search_applies_p50"], f["search_applies_p95"],
            f["search_applies_max"], f["searches_gave_up"], f["search_ms_p50"],
            f["search_ms_p95"], f["search_ms_max"], f["step_ms_p50"], f["step_ms_p95"],
            f["step_ms_max"], f"{f['scores_matched']}/{f['games']}", f["service_draws"]))
        for game_id, f in figures.items()
    )
    return BenchResult(
        f"Players dealing from the box, seeds 0..{games - 1}: the table's searches for its "
        f"unseen draws (budget {SEARCH_BUDGET:,} applies each) and the time per step (ms)",
        ("game", "players", "games", "completed", "steps", "unseen", "reveals", "searches",
         "applies p50", "p95", "max", "gave up", "search ms p50", "p95", "max", "step ms p50",
         "p95", "max", "scores ok", "service draws"),
        rows,
        {"bench": "referee-search", "search_budget": SEARCH_BUDGET, "games": games,
         "referee_search": figures},
    )
