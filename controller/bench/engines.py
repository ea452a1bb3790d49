"""Benches of the engines and the table's parts, in this process: random playouts
(``engines``), the referee's time per settle (``referee``), the hub's scheduled scan
(``hub``), a tag frame to its LED frame (``latency``) and the AI against random players
(``ai``)."""

from __future__ import annotations

import random
import time
from typing import Any

from controller.errors import UserError
from games.core.playout import random_playout, seat_names

from . import BenchOptions, BenchResult, Progress, chosen_games


def bench_engines(options: BenchOptions, progress: Progress) -> BenchResult:
    """Random full games per second per engine, with the most players, on one core."""
    rows = []
    figures: dict[str, Any] = {}
    for game in chosen_games(options):
        names = seat_names(game.max_players)
        rng = random.Random(0)
        games = steps = 0
        start = time.perf_counter()
        while True:
            steps += len(random_playout(game, names, rng=rng).actions)
            games += 1
            elapsed = time.perf_counter() - start
            progress(f"engines: {game.id} {games} games")
            if elapsed >= options.seconds and games >= 5:
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
    return BenchResult(
        "Random playouts, one core",
        ("game", "players", "games", "games/s", "steps/s"),
        tuple(rows),
        {"bench": "engines", "engines": figures},
    )


def bench_hub(options: BenchOptions, progress: Progress) -> BenchResult:
    """The hub per game (its default profile): readers, field classes, the scheduled scan time
    with a finished game's tags, the worst time for a new tag to be seen, and the currents;
    plus the host's frame decoding against what 115200 baud carries."""
    from controller.compose import load_board
    from hardware.throughput import measure_decode_throughput

    from .measure import hub_scan_figures

    games = []
    for game in chosen_games(options):
        progress(f"hub: {game.id}")
        games.append(hub_scan_figures(game, load_board(game.id)))
    progress("hub: frame decoding")
    f = measure_decode_throughput(options.seconds)
    rows = tuple(
        (g["game"], g["readers"], g["hubs"], g["field_classes"], g["tags"], g["scan_ms"],
         g["worst_seen_ms"], g["field_ma"], g["peak_ma"])
        for g in games
    )
    title = (f"Scheduled scan per game (default profile, tags of a finished random game; "
             f"target scan_ms <= 150). Host decoding: {f['decoded_frames_per_second']:,} "
             f"frames/s against {f['link_frames_per_second_at_115200']:,} a 115200-baud link "
             f"carries (headroom {f['headroom']}x, target 20x)")
    return BenchResult(title, ("game", "readers", "hubs", "field classes", "tags", "scan ms",
                               "worst seen ms", "mA per field", "peak mA"), rows,
                       {"bench": "hub", **f, "games": games})


def bench_referee(options: BenchOptions, progress: Progress) -> BenchResult:
    """Referee time per settle (target p99 <= 2 ms) and per position change, per game."""
    from .measure import referee_timings

    figures: dict[str, Any] = {}
    rows = []
    for game in chosen_games(options):
        row = referee_timings(game, max(2, int(options.seconds * 2)), progress=progress)
        figures[game.id] = row
        rows.append((game.id, row["settles"], row["settle_ms_p50"], row["settle_ms_p99"],
                     row["settle_ms_max"], row["wrong_board_ms_p99"], row["successors_ms_p50"],
                     row["successors_ms_p99"]))
    return BenchResult(
        "Referee time per settle and per position change (ms), most players",
        ("game", "settles", "p50", "p99", "max", "wrong board p99", "successors p50",
         "successors p99"),
        tuple(rows),
        {"bench": "referee", "referee": figures},
    )


def bench_latency(options: BenchOptions, progress: Progress) -> BenchResult:
    """Hub frame on the pty to LED frame pushed (target p99 <= 20 ms), and service memory."""
    import asyncio

    from .measure import led_latency

    events = max(100, int(options.seconds * 200))
    row = asyncio.run(led_latency(events, 200.0, progress=progress))
    return BenchResult(
        "Tag frame on the hub's pty to LED frame pushed (ms), settle time excluded",
        ("events", "per s", "p50", "p99", "max", "+ settle", "RSS MB"),
        ((row["events"], row["rate_per_second"], row["latency_ms_p50"], row["latency_ms_p99"],
          row["latency_ms_max"], row["settle_ms_added_by_profile"], row["rss_mb_peak"]),),
        {"bench": "latency", "latency": row},
    )


def bench_ai(options: BenchOptions, progress: Progress) -> BenchResult:
    """The AI in one seat (rotating) against random players: win share and thinking time."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from .measure import percentile

    try:
        from games.ai import DEFAULT_SIMULATIONS, play_match
    except ImportError as error:
        raise UserError(f"the AI needs OpenSpiel: pip install '.[ai]' ({error})") from None
    simulations = options.simulations or DEFAULT_SIMULATIONS
    games = options.games or 100
    rows = []
    figures: dict[str, Any] = {}
    selected = chosen_games(options)
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        for game in selected:
            players = options.players or game.min_players
            if not game.min_players <= players <= game.max_players:
                raise UserError(f"{game.name} is for {game.min_players}-{game.max_players} "
                                "players")
            started = time.perf_counter()
            futures = [
                pool.submit(play_match, game, players, number % players, None, simulations,
                            number)
                for number in range(games)
            ]
            shares: list[float] = []
            others: list[float] = []
            thinking: list[float] = []
            for done, future in enumerate(as_completed(futures), start=1):
                result = future.result()
                shares.append(result.shares[result.ai_seat])
                others.extend(s for seat, s in enumerate(result.shares) if seat != result.ai_seat)
                thinking.extend(result.thinking)
                progress(f"ai: {game.id} {done}/{games} games, "
                         f"AI share so far {sum(shares) / len(shares):.0%}")
            thinking.sort()
            p50, p95 = (percentile(thinking, q) if thinking else 0.0 for q in (0.5, 0.95))
            row = {
                "players": players,
                "games": games,
                "simulations": simulations,
                "ai_win_share": round(sum(shares) / len(shares), 3),
                "random_seat_share": round(sum(others) / len(others), 3),
                "fair_share": round(1 / players, 3),
                "decisions": len(thinking),
                "think_s_p50": round(p50, 3),
                "think_s_p95": round(p95, 3),
                "think_s_max": round(thinking[-1], 3) if thinking else 0.0,
                "wall_s": round(time.perf_counter() - started, 1),
            }
            figures[game.id] = row
            rows.append((game.id, players, games, f"{row['ai_win_share']:.0%}",
                         f"{row['random_seat_share']:.0%}", f"{row['fair_share']:.0%}",
                         row["think_s_p50"], row["think_s_p95"], row["think_s_max"]))
    return BenchResult(
        f"AI ({simulations} simulations a move) against random players; thinking in seconds",
        ("game", "players", "games", "AI wins", "random seat wins", "fair share",
         "think p50", "p95", "max"),
        tuple(rows),
        {"bench": "ai", "ai": figures},
    )
