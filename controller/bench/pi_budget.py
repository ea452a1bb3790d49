"""``tabletop bench pi-budget``: what each judgement costs in CPU time, here and on a Pi.

The service runs on a Raspberry Pi 4 or a Zero 2 W, several times slower than a desktop in pure
Python. Seeded games are replayed through a ``Table`` by people dealing from the box
(``BoxPlayers``), some of their moves preceded by a mistake (a piece from the box laid on an
empty site no legal step changes, judged, lifted again, judged). Every judgement's CPU time
is measured in this thread: the settled board judged (successors built when a position is
new, matching, accepting), the LED roles, and a status render. The searches for another
dealing run as the service runs them, timed apart: an early search a scan after a board no
step explains, before it is judged, and the search after the judgement that asked for it (the
table does not search inline): the likely verdict no longer waits for them
(they run behind it and may only withdraw it); the judgement of their answer is a judgement
again. An AI hint is timed too.

The Pi figures scale this machine's CPU times by a factor measured in the same run:
``calibration`` runs a fixed pure-Python workload whose time on each board is published
(docs/performance.md names the source), and the factor is that time over ours.
"""

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
from games.core.game import CHANCE, Game
from games.core.playout import seat_names
from games.registry import get_game

from . import BenchOptions, BenchResult, Progress, chosen_ids
from .measure import percentile
from .referee_search import BENCH_GAMES, BENCH_PLAYERS

MISTAKE_SHARE = 0.3
"""Share of the players' moves preceded by a piece from the box laid on a wrong site."""


def calibration() -> dict[str, float]:
    """This machine's time for the published workload, and the factor to each Pi."""
    from .pi_calibration import PUBLISHED_SECONDS, workload

    best = float("inf")
    for _ in range(5):  # the fastest of five: the machine's speed, not its neighbours' load
        start = time.thread_time()
        workload()
        best = min(best, time.thread_time() - start)
    return {"local_s": round(best, 4),
            **{board: round(seconds / best, 2) for board, seconds in PUBLISHED_SECONDS.items()}}


class Meter:
    """Shows a ``Table`` boards as the service does, timing every judgement, and runs the
    searches it asks for, timing them apart."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.judgements: list[float] = []
        self.searches: list[float] = []
        self.early_searches: list[float] = []

    def judge(self, board: dict[str, str]) -> Any:
        self.search_early(board)
        self._judge(board)
        self.search()
        return self.table.decision

    def search_early(self, board: dict[str, str]) -> None:
        """The early search the service starts a scan after a change (``Judgement``), if
        the board asks one: its answer is kept for the judgement that follows."""
        table = self.table
        start = time.thread_time()
        early = table.early_search(board)
        if early is not None:
            table.early_searched(early, early.run())
            self.early_searches.append(time.thread_time() - start)

    def _judge(self, board: dict[str, str]) -> None:
        table = self.table
        start = time.thread_time()
        table.observe(board)
        table.led_roles()
        table.status().model_dump_json()
        self.judgements.append(time.thread_time() - start)

    def search(self) -> None:
        """The searches the table asks for, each answer judged (as ``TableService._run_search``)."""
        table = self.table
        while (asked := table.search_asked) is not None:
            start = time.thread_time()
            found, costs = asked.run(lambda: not table.searches.wants(asked))
            self.searches.append(time.thread_time() - start)
            table.searched(asked, found, costs)
            self._judge(table.last_board)


def stray_board(game: Game[Any], state: Any, rng: random.Random) -> dict[str, str] | None:
    """The board with a piece from the box laid on an empty site no legal step changes (not
    a pad); None if there is no such site or piece."""
    board = game.board(state)
    changed = set()
    for action in game.legal_actions(state):
        after = game.board(game.apply(state, action))
        changed |= {site for site in board.keys() | after.keys()
                    if board.get(site) != after.get(site)}
    pads = {game.choice_site, game.reveal_site}
    empty = [site.id for site in game.sites(len(game.players(state)))
             if site.id not in board and site.id not in changed and site.id not in pads]
    box = sorted(set(game.pieces()) - set(board.values()))
    if not empty or not box:
        return None
    return {**board, rng.choice(empty): rng.choice(box)}


def replay(game: Game[Any], seed: int, directory: Path, mistakes: float = MISTAKE_SHARE,
           hint: Callable[[Table], float | None] | None = None) -> dict[str, Any]:
    """One seeded game of people dealing from the box, with mistakes: every judgement's and
    search's CPU seconds, and a hint's halfway through (``hint``)."""
    players = BENCH_PLAYERS if game.min_players <= BENCH_PLAYERS <= game.max_players else (
        game.max_players)
    table = Table(game, Journal(directory / f"{game.id}-{seed}.sqlite3"), random.Random(seed))
    meter = Meter(table)
    people = BoxPlayers(table, seat_names(players), seed=seed,
                        prefer=PREFER.get(game.id, lambda action: False), observe=meter.judge,
                        searched=meter.search)
    rng, hinted, made = random.Random(f"mistakes {seed}"), None, 0
    while not game.is_terminal(people.state):
        action = people.choose()
        if game.actor(people.state) != CHANCE and rng.random() < mistakes and (
                wrong := stray_board(game, people.state, rng)) is not None:
            meter.judge(wrong)  # laid: a mistake
            meter.judge(game.board(people.state))  # lifted again
            made += 1
        people.step(action)
        people.show()
        if hint is not None and hinted is None and len(people.actions) >= 40 and (
                game.actor(people.state) >= 0 and len(game.legal_actions(people.state)) > 1):
            hinted = hint(table)  # a choice to think about (one legal move takes no time)
    people.show()
    return {"judgements": meter.judgements, "searches": meter.searches,
            "early_searches": meter.early_searches, "hint": hinted,
            "mistakes": made, "finished": game.is_terminal(table.state)}


def ai_hint(table: Table) -> float | None:
    """The CPU seconds of the AI's hint for the player on turn at the default strength, as the
    first hint of a game setup costs it (the AI for the setup is built then), with OpenSpiel
    already imported (a service imports it once); None: no AI installed."""
    from controller.advice import ai_advisor

    advisor = ai_advisor(table.game)
    if advisor is None:
        return None
    import games.ai  # noqa: F401  (loaded before the clock starts)

    table.request_hint()
    request = table.advice_request()
    if request is None:
        return None
    start = time.thread_time()
    advisor(request)
    return time.thread_time() - start


def pi_budget(game_ids: Sequence[str], seeds: int, hints: bool = True,
              progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """The figures of ``bench pi-budget``: per game the judgements' CPU time here and scaled
    to each Pi, the searches behind them, and a hint."""
    progress("pi-budget: calibrating")
    factor = calibration()
    games = []
    with tempfile.TemporaryDirectory(prefix="tabletop-pi-budget-") as scratch:
        for game_id in game_ids:
            game = get_game(game_id)
            judgements: list[float] = []
            searches: list[float] = []
            early: list[float] = []
            hinted: list[float] = []
            made = 0
            for seed in range(seeds):
                progress(f"pi-budget: {game_id} game {seed + 1}/{seeds}")
                run = replay(game, seed, Path(scratch), hint=ai_hint if hints else None)
                judgements += run["judgements"]
                searches += run["searches"]
                early += run["early_searches"]
                made += run["mistakes"]
                if run["hint"] is not None:
                    hinted.append(run["hint"])
            games.append(_figures(game_id, judgements, (early, searches), hinted, made,
                                  factor))
    return {"factor": {board: factor[board] for board in ("pi4", "zero2w")},
            "calibration_local_s": factor["local_s"], "seeds": seeds, "games": games}


def _figures(game_id: str, judgements: list[float],
             looked: tuple[list[float], list[float]], hinted: list[float], mistakes: int,
             factor: dict[str, float]) -> dict[str, Any]:
    """``looked``: the early searches' and the searches' CPU seconds."""
    early, searches = looked

    def ms(values: list[float], share: float, board: str | None = None) -> float | None:
        if not values:
            return None
        return round(percentile(values, share) * 1000 * (factor[board] if board else 1), 1)

    return {
        "game": game_id, "judgements": len(judgements), "mistakes": mistakes,
        "cpu_p95_ms": ms(judgements, 0.95), "cpu_max_ms": ms(judgements, 1.0),
        "pi4_p95_ms": ms(judgements, 0.95, "pi4"), "pi4_max_ms": ms(judgements, 1.0, "pi4"),
        "zero2w_p95_ms": ms(judgements, 0.95, "zero2w"),
        "zero2w_max_ms": ms(judgements, 1.0, "zero2w"),
        "searches": len(searches), "search_cpu_p95_ms": ms(searches, 0.95),
        "search_pi4_max_s": None if not searches else round(
            max(searches) * factor["pi4"], 2),
        "early_searches": len(early), "early_search_cpu_p95_ms": ms(early, 0.95),
        "early_search_pi4_max_s": None if not early else round(max(early) * factor["pi4"], 2),
        "hint_cpu_s": round(max(hinted), 2) if hinted else None,
        "hint_pi4_s": round(max(hinted) * factor["pi4"], 2) if hinted else None,
        "hint_zero2w_s": round(max(hinted) * factor["zero2w"], 2) if hinted else None,
    }


def bench_pi_budget(options: BenchOptions, progress: Progress) -> BenchResult:
    """Issue 35's Pi budget: every judgement's CPU time in seeded games of players dealing
    from the box with mistakes, scaled to a Raspberry Pi 4 and a Zero 2 W by a factor
    calibrated in the same run (goal: Pi 4 p95 <= 100 ms and max <= 1,000 ms in every game);
    the searches behind the verdicts and an AI hint beside them."""
    selected = chosen_ids(options, BENCH_GAMES)
    figures = pi_budget(selected, options.seeds, hints=not options.no_hint, progress=progress)
    factor = figures["factor"]
    rows = tuple((g["game"], g["judgements"], g["cpu_p95_ms"], g["cpu_max_ms"], g["pi4_p95_ms"],
                  g["pi4_max_ms"], g["zero2w_p95_ms"], g["early_searches"],
                  g["early_search_pi4_max_s"], g["searches"], g["search_pi4_max_s"],
                  g["hint_pi4_s"]) for g in figures["games"])
    return BenchResult(
        f"CPU time per judgement here and scaled to a Pi (x{factor['pi4']} for a Pi 4, "
        f"x{factor['zero2w']} for a Zero 2 W), players dealing, mistakes, seeds "
        f"0..{options.seeds - 1}; ms (goal: Pi 4 p95 <= 100, max <= 1,000)",
        ("game", "judgements", "cpu p95", "cpu max", "Pi 4 p95", "Pi 4 max", "Zero 2 W p95",
         "early searches", "early Pi 4 max s", "searches", "search Pi 4 max s",
         "hint Pi 4 s"),
        rows, {"bench": "pi-budget", **figures})
