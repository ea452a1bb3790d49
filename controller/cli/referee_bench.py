"""People at a table with the real box, driving a ``Table`` directly: ``tabletop bench
referee-search``, ``bench pi-budget``, the club's quick tables (``club_tables.lay_steps``) and
the tests of unseen draws.

They shuffle and draw the secrets themselves (seeded), make legal moves (at random, or the
ones ``prefer`` picks), confirm or choose what the board cannot tell, and lay their secrets
on the reveal site when the score waits for them. The table never sees their draws.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.core.errors import GameError
from games.core.game import CHANCE, Game, pile_value
from games.core.playout import seat_names
from games.registry import get_game

from ..journal import Journal
from ..referee import Choose
from ..table import Table
from ..unresolved import SEARCH_BUDGET, UNRESOLVED, SearchCost
from .measure import percentile


class BoxPlayers:
    """People at the table with the real box: they draw the secrets themselves (seeded), make
    legal moves, and lay their secrets on the reveal site when the score needs them."""

    def __init__(self, table: Table, players: list[str], options: dict[str, str] | None = None,
                 seed: int = 0, prefer: Callable[[str], bool] = lambda action: False,
                 observe: Callable[[dict[str, str]], Any] | None = None,
                 searched: Callable[[], Any] = lambda: None,
                 start: Callable[[list[str], dict[str, str] | None], Any] | None = None
                 ) -> None:
        self.table, self.game = table, table.game
        self._observe = observe
        """How the table is shown a board, if not by ``table.observe`` (``bench pi-budget``
        times it)."""
        self.searched = searched
        """Called after a confirm: a table that searches off its own path searches now."""
        self.state = self.game.initial(players, options)
        self.rng, self.prefer = random.Random(seed), prefer
        self.actions: list[str] = []
        self.to_show: list[tuple[int, tuple[str, ...]]] = []
        (start or table.new_game)(players, options)  # a service's new_game: its sweep too

    def observe(self, board: dict[str, str]) -> Any:
        return (self._observe or self.table.observe)(board)

    def choose(self) -> str:
        """What they do next: a draw from the box, or a legal move."""
        game, state = self.game, self.state
        if game.actor(state) == CHANCE:
            return game.sample_chance(state, self.rng)
        legal = game.legal_actions(state)
        return next((a for a in legal if self.prefer(a)), None) or self.rng.choice(legal)

    def step(self, action: str | None = None) -> str:
        game, state = self.game, self.state
        action = action or self.choose()
        self.state = game.apply(state, action)
        self.actions.append(action)
        for seat in game.needs_secrets(state, self.state):
            self.to_show.append((seat, game.revealed_pieces(state, seat)))
        self.observe(game.board(self.state))
        if len(self.table.actions) < len(self.actions) and self.table.may_look_further:
            self.table.confirm()  # they know the step is right: the table looks further
            self.searched()
        if len(self.table.actions) < len(self.actions):  # a step the board does not tell
            decision = self.table.decision
            if isinstance(decision, Choose):
                self.table.choose([s.action for s in decision.successors].index(action))
            else:
                self.table.confirm()
        return action

    def show(self) -> list[Any]:
        """Lay each secret the score waits for on the reveal site, then take it off."""
        site = self.game.reveal_site
        board = self.game.board(self.state)
        decisions = []
        while self.to_show and site not in board:
            _, pieces = self.to_show.pop(0)
            decisions.append(self.observe({**board, site: pile_value(pieces)}))
            self.observe(board)
        return decisions

    def play(self) -> None:
        while not self.game.is_terminal(self.state):
            self.step()
            self.show()
        self.show()


BENCH_GAMES = ("tiki_topple", "topiary", "hanging_gardens", "on_top", "trapper")
"""The games ``tabletop bench referee-search`` plays by default."""
BENCH_PLAYERS = 3
"""Seats per game: the typical table; a game not for three takes its most."""


def builds_and_takes_extras(action: str) -> bool:
    """Hanging Gardens: take the optional extra tile and build temples whenever legal, so hidden
    extra tiles (unseen draws) happen at all in random play."""
    return action == "take extra" or action.startswith("temple")


PREFER: dict[str, Callable[[str], bool]] = {"hanging_gardens": builds_and_takes_extras}


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
    costs = list(table.search_costs)
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
        costs += _new_costs(table.search_costs, last)
        last = table.search_costs[-1] if table.search_costs else last
        if failure is None and len(table.actions) < len(people.actions):
            failure = f"the table did not take it ({type(table.decision).__name__})"
        if failure is not None:
            failure = f"step {len(people.actions)} {action!r}: {failure}"
    if failure is None:
        try:
            people.show()
        except GameError as error:
            failure = f"showing the secrets: {type(error).__name__}: {error}"
        costs += _new_costs(table.search_costs, last)
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
