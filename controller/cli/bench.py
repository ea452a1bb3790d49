"""``tabletop bench NAME``: measured figures as a readable table, or one JSON object.

The benches are in ``controller.bench`` (``BENCHES``: each a function of the options that
returns a ``BenchResult``), and the one that runs the simulator in-process in
``controller.cli.virtual`` (``SIMULATED``); this reads the options, shows their progress on a
terminal and prints the result. Figures come from here, never from timed unit tests.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from typing import Any

from controller.bench import BENCHES, BenchOptions, BenchResult, Progress
from controller.bench import bench as room_bench
from controller.errors import UserError
from hardware.profile import PLAIN_MISTAKES

from .common import print_json, progress, progress_done

SIMULATED = {"noisy-link": "noisy_link:bench_noisy_link"}
"""The benches that compose the service with the simulator in this process: in
``controller.cli.virtual``, since only the command line may import the simulator."""
EVERY = sorted({*BENCHES, *SIMULATED})


def bench(name: str) -> Callable[[BenchOptions, Progress], BenchResult]:
    """The bench called ``name`` (its module imported now)."""
    if name not in SIMULATED:
        return room_bench(name)
    module, _, function = SIMULATED[name].partition(":")
    return getattr(importlib.import_module(f"{__package__}.virtual.{module}"), function)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="measure: " + ", ".join(EVERY))
    parser.add_argument("name", choices=EVERY, help="which benchmark")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=None,
                        help="time per measurement (3; load: per phase, 20; latency: 200 "
                             "events a second, 10; noisy-link: the wait for each move, 10)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--games", type=int, default=None,
                        help="ai: games per game (100); referee-search: (5)")
    parser.add_argument("--players", type=int, default=0, help="ai: seats (the fewest)")
    parser.add_argument("--simulations", type=int, default=0,
                        help="ai: the AI's strength, simulations per move (the default)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="ai, autoplay: games played at once (2)")
    parser.add_argument("--seeds", type=int, default=None,
                        help="autoplay, hand-to-light: seeds per game (50); mistakes (4), "
                             "pi-budget (3)")
    parser.add_argument("--no-hint", action="store_true",
                        help="pi-budget: leave out the AI hint (it needs OpenSpiel)")
    parser.add_argument("--ideal", action="store_true",
                        help="autoplay: on the ideal table instead of the realistic one")
    parser.add_argument("--plain-mistakes", choices=PLAIN_MISTAKES, default=None,
                        help="autoplay, hand-to-light, mistakes: when a piece laid where no "
                             "step lays one is red (the profile's [timing] plain_mistakes)")
    parser.add_argument("--clients", type=int, default=200, help="load: SSE clients (200)")
    parser.add_argument("--rate", type=float, default=50.0,
                        help="load: status requests a second (50)")
    parser.add_argument("--rounds", type=int, default=3, help="load: rounds of load (3)")
    parser.add_argument("--tables", type=int, default=100, help="club: tables (100)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="club: seconds between a table's steps, about (1.0)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    options = BenchOptions(
        game=tuple(args.game or ()), seconds=args.seconds, games=args.games,
        players=args.players, simulations=args.simulations, jobs=args.jobs, seeds=args.seeds,
        no_hint=args.no_hint, ideal=args.ideal, plain_mistakes=args.plain_mistakes,
        clients=args.clients, rate=args.rate,
        rounds=args.rounds, tables=args.tables, pace=args.pace).resolved(args.name)
    if options.seconds <= 0:
        raise UserError("--seconds must be positive")
    if ((options.games is not None and options.games < 1) or options.jobs < 1
            or options.seeds < 1 or options.simulations < 0 or options.players < 0):
        raise UserError("--games, --jobs and --seeds must be at least 1, --simulations and "
                        "--players not negative")
    try:
        result = bench(args.name)(options, progress)
    finally:
        progress_done()
    if args.json:
        print_json(result.figures)
    else:
        print(result.title)
        print(format_table(result.columns, result.rows))
    return 0 if result.ok else 1


def format_table(columns: tuple[str, ...], rows: tuple[tuple[Any, ...], ...]) -> str:
    cells = [list(map(str, columns))] + [[_cell(value) for value in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in
                       enumerate(zip(row, widths, strict=True))) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.3g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
