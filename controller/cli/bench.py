"""``tabletop bench NAME``: measured figures as a readable table, or one JSON object.

Every benchmark is a function in ``BENCHES`` that takes the parsed arguments and returns a
``BenchResult``. Figures come from here, never from timed unit tests.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.core.playout import random_playout, seat_names
from games.registry import all_games

from .common import UserError, print_json, progress, progress_done


@dataclass(frozen=True)
class BenchResult:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    figures: dict[str, Any]
    """The same figures, for ``--json``."""


def bench_engines(args: argparse.Namespace) -> BenchResult:
    """Random full games per second per engine, with the most players, on one core."""
    rows = []
    figures: dict[str, Any] = {}
    for game in all_games():
        if args.game and game.id not in args.game:
            continue
        names = seat_names(game.max_players)
        rng = random.Random(0)
        games = steps = 0
        start = time.perf_counter()
        while True:
            steps += len(random_playout(game, names, rng=rng).actions)
            games += 1
            elapsed = time.perf_counter() - start
            progress(f"engines: {game.id} {games} games")
            if elapsed >= args.seconds and games >= 5:
                break
        figures[game.id] = {
            "players": game.max_players,
            "games": games,
            "seconds": round(elapsed, 3),
            "games_per_second": round(games / elapsed, 1),
            "steps_per_second": round(steps / elapsed),
            "steps_per_game": round(steps / games, 1),
        }
        row = figures[game.id]
        rows.append(
            (game.id, row["players"], games, row["games_per_second"], row["steps_per_second"])
        )
    progress_done()
    if not rows:
        raise UserError(f"no game matches {', '.join(args.game)}")
    return BenchResult(
        "Random playouts, one core",
        ("game", "players", "games", "games/s", "steps/s"),
        tuple(rows),
        {"bench": "engines", "engines": figures},
    )


def bench_hub(args: argparse.Namespace) -> BenchResult:
    """Host decode throughput of hub frames vs what 115200 baud carries (hardware/)."""
    from hardware.throughput import measure_decode_throughput

    f = measure_decode_throughput(args.seconds)
    rows = (
        ("decoded by the host", f["decoded_frames_per_second"], f["mean_frame_bytes"]),
        ("115200-baud link", f["link_frames_per_second_at_115200"], f["mean_frame_bytes"]),
        ("headroom (target 20x)", f["headroom"], ""),
    )
    return BenchResult("Hub frame decoding", ("", "frames/s", "bytes/frame"), rows,
                       {"bench": "hub", **f})


def bench_referee(args: argparse.Namespace) -> BenchResult:
    """Referee time per settle (target p99 <= 2 ms) and per position change, per game."""
    from controller.measure import referee_timings

    figures: dict[str, Any] = {}
    rows = []
    for game in all_games():
        if args.game and game.id not in args.game:
            continue
        row = referee_timings(game, max(2, int(args.seconds * 2)), progress=progress)
        figures[game.id] = row
        rows.append((game.id, row["settles"], row["settle_ms_p50"], row["settle_ms_p99"],
                     row["settle_ms_max"], row["wrong_board_ms_p99"], row["successors_ms_p50"],
                     row["successors_ms_p99"]))
    progress_done()
    if not rows:
        raise UserError(f"no game matches {', '.join(args.game)}")
    return BenchResult(
        "Referee time per settle and per position change (ms), most players",
        ("game", "settles", "p50", "p99", "max", "wrong board p99", "successors p50",
         "successors p99"),
        tuple(rows),
        {"bench": "referee", "referee": figures},
    )


def bench_latency(args: argparse.Namespace) -> BenchResult:
    """Hub frame on the pty to LED frame pushed (target p99 <= 20 ms), and service memory."""
    import asyncio

    from controller.measure import led_latency

    events = max(2000, int(args.seconds * 200))
    row = asyncio.run(led_latency(events, 200.0, progress=progress))
    progress_done()
    return BenchResult(
        "Tag frame on the hub's pty to LED frame pushed (ms), settle time excluded",
        ("events", "per s", "p50", "p99", "max", "+ settle", "RSS MB"),
        ((row["events"], row["rate_per_second"], row["latency_ms_p50"], row["latency_ms_p99"],
          row["latency_ms_max"], row["settle_ms_added_by_profile"], row["rss_mb_peak"]),),
        {"bench": "latency", "latency": row},
    )


BENCHES: dict[str, Callable[[argparse.Namespace], BenchResult]] = {
    "latency": bench_latency,
    "engines": bench_engines,
    "referee": bench_referee,
    "hub": bench_hub,
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="measure: " + ", ".join(BENCHES))
    parser.add_argument("name", choices=sorted(BENCHES), help="which benchmark")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.seconds <= 0:
        raise UserError("--seconds must be positive")
    result = BENCHES[args.name](args)
    if args.json:
        print_json(result.figures)
        return 0
    print(result.title)
    print(format_table(result.columns, result.rows))
    return 0


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
