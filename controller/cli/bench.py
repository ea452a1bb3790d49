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

from controller.errors import UserError
from games.core.playout import random_playout, seat_names
from games.registry import all_games

from .common import print_json, progress, progress_done


@dataclass(frozen=True)
class BenchResult:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    figures: dict[str, Any]
    """The same figures, for ``--json``."""
    ok: bool = True
    """False when the run found a fault (the command then exits 1)."""


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
    """The hub per game (its default profile): readers, field classes, the scheduled scan time
    with a finished game's tags, the worst time for a new tag to be seen, and the currents;
    plus the host's frame decoding against what 115200 baud carries."""
    from controller.compose import load_board
    from hardware.throughput import measure_decode_throughput

    from .measure import hub_scan_figures

    games = []
    for game in all_games():
        if args.game and game.id not in args.game:
            continue
        progress(f"hub: {game.id}")
        games.append(hub_scan_figures(game, load_board(game.id)))
    if not games:
        raise UserError(f"no game matches {', '.join(args.game)}")
    progress("hub: frame decoding")
    f = measure_decode_throughput(args.seconds)
    progress_done()
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


def bench_referee(args: argparse.Namespace) -> BenchResult:
    """Referee time per settle (target p99 <= 2 ms) and per position change, per game."""
    from .measure import referee_timings

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


def bench_referee_search(args: argparse.Namespace) -> BenchResult:
    """Players dealing from the box (issue: bound the search's cost and report it): seeded
    games per game at a table of three, what the table's searches for its unseen draws cost
    against the budget, how long a step takes, and whether the score came out as the players'
    own engine's with the service drawing nothing."""
    from ..unresolved import SEARCH_BUDGET
    from .referee_bench import BENCH_GAMES, referee_search_figures

    selected = [game_id for game_id in BENCH_GAMES if not args.game or game_id in args.game]
    if not selected:
        raise UserError(f"no game matches {', '.join(args.game)}")
    games = args.games or 5
    figures = referee_search_figures(selected, games, progress=progress)
    progress_done()
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


def bench_latency(args: argparse.Namespace) -> BenchResult:
    """Hub frame on the pty to LED frame pushed (target p99 <= 20 ms), and service memory."""
    import asyncio

    from .measure import led_latency

    events = max(100, int(args.seconds * 200))
    row = asyncio.run(led_latency(events, 200.0, progress=progress))
    progress_done()
    return BenchResult(
        "Tag frame on the hub's pty to LED frame pushed (ms), settle time excluded",
        ("events", "per s", "p50", "p99", "max", "+ settle", "RSS MB"),
        ((row["events"], row["rate_per_second"], row["latency_ms_p50"], row["latency_ms_p99"],
          row["latency_ms_max"], row["settle_ms_added_by_profile"], row["rss_mb_peak"]),),
        {"bench": "latency", "latency": row},
    )


def bench_ai(args: argparse.Namespace) -> BenchResult:
    """The AI in one seat (rotating) against random players: win share and thinking time."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from .measure import percentile

    try:
        from games.ai import DEFAULT_SIMULATIONS, play_match
    except ImportError as error:
        raise UserError(f"the AI needs OpenSpiel: pip install '.[ai]' ({error})") from None
    simulations = args.simulations or DEFAULT_SIMULATIONS
    games = args.games or 100
    rows = []
    figures: dict[str, Any] = {}
    selected = [game for game in all_games() if not args.game or game.id in args.game]
    if not selected:
        raise UserError(f"no game matches {', '.join(args.game)}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for game in selected:
            players = args.players or game.min_players
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
    progress_done()
    return BenchResult(
        f"AI ({simulations} simulations a move) against random players; thinking in seconds",
        ("game", "players", "games", "AI wins", "random seat wins", "fair share",
         "think p50", "p95", "max"),
        tuple(rows),
        {"bench": "ai", "ai": figures},
    )


GAME_TIMEOUT = 3600
"""Seconds one autoplay game of a bench may take (its settle waits have their own limits)."""


def _autoplay_games(args: argparse.Namespace, seeds: int, mistakes: float, label: str,
                    *extra: str) -> dict[str, list[dict[str, Any]]]:
    """``tabletop sim --autoplay`` for ``seeds`` seeds per selected game (players rotating),
    each in a process of its own, ``--jobs`` at once (they mostly wait for scans, so more jobs
    than cores is fine); per game the runs, each with its summary."""
    import json
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor, as_completed

    selected = [game for game in all_games() if not args.game or game.id in args.game]
    if not selected:
        raise UserError(f"no game matches {', '.join(args.game)}")

    def one(game_id: str, seed: int, players: int) -> dict[str, Any]:
        started = time.perf_counter()
        command = [sys.executable, "-m", "controller.cli", "sim", "--autoplay", game_id,
                   "--seed", str(seed), "--players", ",".join(seat_names(players)),
                   "--mistakes", str(mistakes), *(["--ideal"] if args.ideal else []), *extra]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=GAME_TIMEOUT)
        except subprocess.TimeoutExpired:
            return {"game": game_id, "seed": seed, "players": players, "ok": False, "moves": 0,
                    "mistakes": 0, "wall_s": GAME_TIMEOUT, "summary": {},
                    "error": f"the game did not end within {GAME_TIMEOUT} s: "
                             f"{' '.join(command[2:])}"}
        wall = time.perf_counter() - started
        try:
            summary = json.loads(run.stdout)
        except ValueError:
            summary = {}
        good = (run.returncode == 0 and summary.get("completed") == 1
                and summary.get("scores_match") and summary.get("records_match"))
        return {"game": game_id, "seed": seed, "players": players, "ok": bool(good),
                "moves": summary.get("moves", 0), "mistakes": summary.get("mistakes_made", 0),
                "wall_s": wall, "summary": summary,
                "error": "" if good else (run.stderr.strip()[-600:] or run.stdout.strip()[-600:])}

    runs = [(game.id, seed, game.min_players + seed % (game.max_players - game.min_players + 1))
            for game in selected for seed in range(seeds)]
    results: dict[str, list[dict[str, Any]]] = {game.id: [] for game in selected}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(one, *run) for run in runs]
        for done, future in enumerate(as_completed(futures), start=1):
            result = future.result()
            results[result["game"]].append(result)
            failed = sum(not r["ok"] for rs in results.values() for r in rs)
            progress(f"{label}: {done}/{len(runs)} games, {failed} failed")
    progress_done()
    return results


def bench_autoplay(args: argparse.Namespace) -> BenchResult:
    """``tabletop sim --autoplay`` over many seeds per game, on the realistic table unless
    ``--ideal``: how many games complete with the scores and records agreeing, and how long a
    game takes."""
    import statistics

    results = _autoplay_games(args, args.seeds, 0.1, "autoplay")
    rows = []
    figures: dict[str, Any] = {}
    for game_id, games in results.items():
        walls = sorted(r["wall_s"] for r in games)
        figures[game_id] = {
            "games": len(games),
            "completed": sum(r["ok"] for r in games),
            "failed_seeds": sorted(r["seed"] for r in games if not r["ok"]),
            "errors": [r["error"] for r in games if not r["ok"]][:3],
            "moves": sum(r["moves"] for r in games),
            "mistakes": sum(r["mistakes"] for r in games),
            "wall_s_p50": round(statistics.median(walls), 1),
            "wall_s_max": round(walls[-1], 1),
        }
        row = figures[game_id]
        rows.append((game_id, row["games"], row["completed"], row["moves"], row["mistakes"],
                     row["wall_s_p50"], row["wall_s_max"]))
    radio = "ideal" if args.ideal else "realistic"
    return BenchResult(
        f"Autoplay on the {radio} table, seeds 0..{args.seeds - 1}, players rotating, 10% "
        "mistakes; a game counts as completed when its scores and record agree",
        ("game", "games", "completed", "moves", "mistakes", "wall s p50", "wall s max"),
        tuple(rows),
        {"bench": "autoplay", "radio": radio, "autoplay": figures},
    )


SLIDES = 0.1
"""Share of the steps ending with a piece laid whose piece a hand drags over two wrong sites
first, in ``bench hand-to-light``."""
PAUSE_MS = 500
"""In ``bench hand-to-light`` the bots wait a random time up to this after each judged action:
a player's next move does not start in step with the hubs' scans. Without it the bots moved
within 20 ms of the judgement, which comes a scan after the last change, so their next piece
landed just after its reader was read and waited most of a scan to be seen (The Hanging
Gardens: 0.8 of a scan at the median, where a hand at a random moment waits half)."""


def bench_hand_to_light(args: argparse.Namespace) -> BenchResult:
    """What a player feels (issue 18's targets: put p95 <= 300 ms, lift p95 <= 400 ms, no wrong
    judgement): autoplay games on the realistic table with each game's profile (its hubs),
    and per step the time from the hand that finished it to the LEDs confirming it; with the
    profiles' settle time, as at a real table. One step in ten that ends with a piece laid
    ends with it dragged over two wrong sites (a slide, timed from where it lands). A wrong
    judgement is a game whose record or score differs from the bots', or the table judging
    the board wrong (the bots make no mistakes): any makes the command exit 1."""
    from controller.compose import load_board

    from .measure import percentile

    results = _autoplay_games(args, args.seeds, 0.0, "hand-to-light", "--profile-settle",
                              "--slides", str(SLIDES), "--pause-ms", str(PAUSE_MS))
    rows, games = [], []
    for game_id, runs in results.items():
        profile = load_board(game_id)
        timings = [result.get("hand_to_light", {}) for r in runs
                   for result in r["summary"].get("results", [])]
        wrong = sum(r["summary"].get("records_match") is not True
                    or r["summary"].get("scores_match") is not True for r in runs)
        wrong += sum(timing.get("judged_wrong", 0) for timing in timings)
        times = {kind: sorted(t for timing in timings for t in timing.get(f"{kind}_ms", []))
                 for kind in ("scan", "put", "lift", "slide")}

        def ms(kind: str, share: float, times: dict[str, list[float]] = times) -> float | None:
            return round(percentile(times[kind], share), 1) if times[kind] else None

        row: dict[str, Any] = {
            "game": game_id, "readers": len(profile.readers), "hubs": len(profile.hubs),
            "scan_ms": ms("scan", 0.5), "put_p50_ms": ms("put", 0.5),
            "put_p95_ms": ms("put", 0.95), "lift_p50_ms": ms("lift", 0.5),
            "lift_p95_ms": ms("lift", 0.95), "slide_p95_ms": ms("slide", 0.95),
            "puts": len(times["put"]), "lifts": len(times["lift"]),
            "slides": len(times["slide"]),
            "amended": sum(timing.get("amended", 0) for timing in timings),
            "withdrawn": sum(timing.get("withdrawn", 0) for timing in timings)}
        row.update({"games": len(runs), "completed": sum(r["ok"] for r in runs),
                    "wrong_judgements": wrong,
                    "errors": [r["error"] for r in runs if not r["ok"]][:3]})
        games.append(row)
        rows.append((game_id, row["readers"], row["hubs"], row["scan_ms"], row["completed"],
                     row["puts"], row["put_p50_ms"], row["put_p95_ms"], row["lifts"],
                     row["lift_p50_ms"], row["lift_p95_ms"], row["slides"],
                     row["slide_p95_ms"], wrong))
    radio = "ideal" if args.ideal else "realistic"
    return BenchResult(
        f"Hand to light on the {radio} table, seeds 0..{args.seeds - 1}, ms (targets: put p95 "
        "<= 300, lift p95 <= 400, no wrong judgement)",
        ("game", "readers", "hubs", "scan", "completed", "puts", "put p50", "put p95",
         "lifts", "lift p50", "lift p95", "slides", "slide p95", "wrong"),
        tuple(rows),
        {"bench": "hand-to-light", "radio": radio, "games": games},
        ok=all(row["wrong_judgements"] == 0 and row["completed"] == row["games"]
               for row in games),
    )


MISTAKE_SHARE = 0.5
"""In ``bench mistakes`` the share of the bots' moves before which a piece from the box is laid
on an empty site no legal step changes, judged, and lifted again (the issue's mistake; a
piece moved wrong waits, besides, for its lift to be reported: docs/performance.md)."""


def bench_mistakes(args: argparse.Namespace) -> BenchResult:
    """How fast a mistake lights red and clears (issue 35's goals: red p95 <= the settle time
    + two scans and <= 3 x put p95; cleared p95 <= two scans + 100 ms; no wrong verdict):
    autoplay games on the realistic table, players dealing, with each game's profile and its
    settle time; half the moves go wrong first. Red is timed from the hand that finished the
    wrong board, cleared from the hand that put it back; a put from the hand to the move's
    green light, as in ``hand-to-light``. Any wrong verdict makes the command exit 1."""
    from controller.compose import load_board

    from .measure import percentile

    results = _autoplay_games(args, args.seeds, MISTAKE_SHARE, "mistakes", "--profile-settle",
                              "--mistake-kinds", "stray_piece",
                              "--pause-ms", str(PAUSE_MS))
    rows, games = [], []
    for game_id, runs in results.items():
        profile = load_board(game_id)
        timings = [result.get("hand_to_light", {}) for r in runs
                   for result in r["summary"].get("results", [])]
        times = {kind: sorted(t for timing in timings for t in timing.get(f"{kind}_ms", []))
                 for kind in ("scan", "put", "red", "cleared")}

        def ms(kind: str, share: float, times: dict[str, list[float]] = times) -> float | None:
            return round(percentile(times[kind], share), 1) if times[kind] else None

        wrong = sum(r["summary"].get("records_match") is not True
                    or r["summary"].get("scores_match") is not True for r in runs)
        wrong += sum(timing.get("judged_wrong", 0) for timing in timings)
        scan, red, put, cleared = ms("scan", 0.5), ms("red", 0.95), ms("put", 0.95), ms(
            "cleared", 0.95)
        row: dict[str, Any] = {
            "game": game_id, "mistakes": sum(r["mistakes"] for r in runs),
            "red_p50_ms": ms("red", 0.5), "red_p95_ms": red, "red_max_ms": ms("red", 1.0),
            "cleared_p95_ms": cleared, "put_p95_ms": put, "wrong_verdicts": wrong,
            "withdrawn": sum(timing.get("withdrawn", 0) for timing in timings),
            "read_as_under_way": sum(timing.get("not_red", 0) for timing in timings),
            "settle_ms": profile.settle_ms, "scan_ms": scan, "cleared": len(times["cleared"]),
            "games": len(runs), "completed": sum(r["ok"] for r in runs),
            "errors": [r["error"] for r in runs if not r["ok"]][:3]}
        if None not in (scan, red, put, cleared):
            row["goals"] = {"red_within_settle_and_two_scans": red <= profile.settle_ms + 2 * scan,
                            "red_within_three_puts": red <= 3 * put,
                            "cleared_within_two_scans_and_100_ms": cleared <= 2 * scan + 100,
                            "no_wrong_verdict": wrong == 0}
        games.append(row)
        rows.append((game_id, row["settle_ms"], scan, row["completed"], row["mistakes"],
                     row["red_p50_ms"], red, cleared, put, row["withdrawn"], wrong))
    radio = "ideal" if args.ideal else "realistic"
    return BenchResult(
        f"Mistakes on the {radio} table, players dealing, seeds 0..{args.seeds - 1}, ms "
        "(goals: red p95 <= settle + 2 scans and <= 3 x put p95; cleared p95 <= 2 scans + "
        "100; no wrong verdict)",
        ("game", "settle", "scan", "completed", "mistakes", "red p50", "red p95",
         "cleared p95", "put p95", "withdrawn", "wrong"),
        tuple(rows),
        {"bench": "mistakes", "radio": radio, "games": games},
        ok=all(row["wrong_verdicts"] == 0 and row["completed"] == row["games"]
               for row in games),
    )


def bench_pi_budget(args: argparse.Namespace) -> BenchResult:
    """Issue 35's Pi budget: every judgement's CPU time in seeded games of players dealing
    from the box with mistakes, scaled to a Raspberry Pi 4 and a Zero 2 W by a factor
    calibrated in the same run (goal: Pi 4 p95 <= 100 ms and max <= 1,000 ms in every game);
    the searches behind the verdicts and an AI hint beside them."""
    from .pi_budget import pi_budget
    from .referee_bench import BENCH_GAMES

    selected = [game_id for game_id in BENCH_GAMES if not args.game or game_id in args.game]
    if not selected:
        raise UserError(f"no game matches {', '.join(args.game)}")
    figures = pi_budget(selected, args.seeds, hints=not args.no_hint, progress=progress)
    progress_done()
    factor = figures["factor"]
    rows = tuple((g["game"], g["judgements"], g["cpu_p95_ms"], g["cpu_max_ms"], g["pi4_p95_ms"],
                  g["pi4_max_ms"], g["zero2w_p95_ms"], g["searches"], g["search_pi4_max_s"],
                  g["hint_pi4_s"]) for g in figures["games"])
    return BenchResult(
        f"CPU time per judgement here and scaled to a Pi (x{factor['pi4']} for a Pi 4, "
        f"x{factor['zero2w']} for a Zero 2 W), players dealing, mistakes, seeds "
        f"0..{args.seeds - 1}; ms (goal: Pi 4 p95 <= 100, max <= 1,000)",
        ("game", "judgements", "cpu p95", "cpu max", "Pi 4 p95", "Pi 4 max", "Zero 2 W p95",
         "searches", "search Pi 4 max s", "hint Pi 4 s"),
        rows, {"bench": "pi-budget", **figures})


def bench_load(args: argparse.Namespace) -> BenchResult:
    """A crowd of readers against ``tabletop run`` (issue 20): refereeing rate with and without
    ``--clients`` SSE clients and ``--rate`` status requests a second, status latency, and
    the service's own memory over ``--rounds`` rounds of load (see ``load_bench``)."""
    from .load_bench import run_load

    if args.clients < 0 or args.rate <= 0 or args.rounds < 1:
        raise UserError("--clients must not be negative, --rate positive, --rounds at least 1")
    figures = run_load(args.clients, args.rate, args.rounds, args.seconds, progress=progress)
    progress_done()
    memory, latency = figures["rss_mb"], figures["status_ms"]
    return BenchResult(
        f"{args.clients} SSE clients and {args.rate:g} status requests/s against tabletop run "
        f"({figures['game']}, {args.seconds:g} s a phase); memory of the service alone, MB",
        ("actions/s quiet", "with crowd", "status p50", "p95", "p99", "max", "RSS start",
         "after game", "after rounds", "peak"),
        ((figures["accepted_per_second_no_clients"], figures["accepted_per_second_with_clients"],
          latency["p50"], latency["p95"], latency["p99"], latency["max"], memory["started"],
          memory["after_quiet_game"], " ".join(map(str, memory["after_rounds"])),
          memory["peak"]),),
        {"bench": "load", "load": figures},
    )


def bench_noisy_link(args: argparse.Namespace) -> BenchResult:
    """Play over a noisy cable (issue 20, finding 7): the virtual Tiki Topple hub with 0-10 %
    of its bytes changed or lost (and 5 % changed both ways), read through the real HubLink.
    Per cable: the time to connect and to the first whole snapshot, then eight moves (puts and
    lifts), each timed from the hand until the host's board shows it; boards seen that were
    never on the table; the link's own estimate of the bad bytes; and the bytes each way (a
    storm would show there).
    "mid-game": the cable turns noisy after connecting, the snapshot is asked for on it."""
    import asyncio

    from simulator.noisy_link import measure

    rows = []
    figures: list[dict[str, Any]] = []
    for kind in ("bad", "lost", "bad both ways"):
        for rate in (0.0, 0.01, 0.05, 0.1):
            for from_start in (True, False):
                if (rate == 0.0 and (kind != "bad" or not from_start)) or (
                        kind == "bad both ways" and rate != 0.05):
                    continue
                label = f"{rate:.0%} {kind} bytes" if kind != "bad both ways" else (
                    f"{rate:.0%} bad bytes both ways")
                progress(f"noisy-link: {label}{'' if from_start else ' mid-game'}")
                run = asyncio.run(measure(0.0 if kind == "lost" else rate,
                                          rate if kind == "lost" else 0.0, moves=8,
                                          timeout=args.seconds, from_start=from_start,
                                          host_to_hub=kind == "bad both ways"))
                f = {"cable": label, "from_start": from_start, **run.figures(),
                     "byte_errors": None if run.health is None or run.health.byte_errors is None
                     else round(run.health.byte_errors, 3)}
                figures.append(f)
                rows.append((label, "start" if from_start else "mid-game", f["connected_s"],
                             f["first_snapshot_s"], f"{f['moves_seen']}/{f['moves']}",
                             f["move_s_mean"], f["move_s_max"], f["wrong_boards"],
                             f["byte_errors"], f["frame_loss"], f["too_noisy"],
                             f["host_bytes_per_s"], f["hub_bytes_per_s"]))
    progress_done()
    return BenchResult(
        f"A noisy cable: virtual Tiki Topple hub (realistic scan), 8 moves, {args.seconds:g} s "
        "timeout; "
        "seconds (target: every move seen within 2 s, no wrong board up to 5 %)",
        ("cable", "noisy from", "connect", "snapshot", "moves seen", "move mean", "move max",
         "wrong", "bad bytes est.", "frame loss", "too noisy", "host B/s", "hub B/s"),
        tuple(rows), {"bench": "noisy-link", "runs": figures})


def bench_club(args: argparse.Namespace) -> BenchResult:
    """Issue 36: ``--tables`` tables (100) on one Mosquitto and one club, each playing a game
    with a step every ``--pace`` seconds or so (1.0); goals: nothing lost or counted twice,
    a table's event in the club's view within 200 ms (p99), the referee's rate with its link
    within 10 % of its rate without."""
    from .club_bench import club_bench

    if args.tables < 1 or args.pace < 0:
        raise UserError("--tables must be at least 1, --pace not negative")
    figures = club_bench(args.tables, args.pace, progress=progress)
    progress_done()
    ok = figures["lost"] == 0 and figures["duplicates_counted"] == 0
    return BenchResult(
        f"{args.tables} tables on one broker and one club, a step every ~{args.pace:g} s "
        f"({figures['seconds']:g} s); ms (goals: lost 0, counted twice 0, club update p99 "
        "<= 200, referee rate with link / without within 0.9..1.1)",
        ("tables", "messages", "publish p99", "club update p50", "p99", "lost",
         "counted twice", "referee steps/s", "with link", "ratio"),
        ((figures["tables"], figures["messages"], figures["publish_p99_ms"],
          figures["club_update_p50_ms"], figures["club_update_p99_ms"], figures["lost"],
          figures["duplicates_counted"], figures["referee_steps_per_s_alone"],
          figures["referee_steps_per_s_linked"], figures["referee_rate_ratio"]),),
        {"bench": "club", **figures}, ok)


BENCHES: dict[str, Callable[[argparse.Namespace], BenchResult]] = {
    "club": bench_club,
    "autoplay": bench_autoplay,
    "load": bench_load,
    "hand-to-light": bench_hand_to_light,
    "mistakes": bench_mistakes,
    "pi-budget": bench_pi_budget,
    "latency": bench_latency,
    "engines": bench_engines,
    "referee": bench_referee,
    "referee-search": bench_referee_search,
    "hub": bench_hub,
    "noisy-link": bench_noisy_link,
    "ai": bench_ai,
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="measure: " + ", ".join(BENCHES))
    parser.add_argument("name", choices=sorted(BENCHES), help="which benchmark")
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
    parser.add_argument("--clients", type=int, default=200, help="load: SSE clients (200)")
    parser.add_argument("--rate", type=float, default=50.0,
                        help="load: status requests a second (50)")
    parser.add_argument("--rounds", type=int, default=3, help="load: rounds of load (3)")
    parser.add_argument("--tables", type=int, default=100, help="club: tables (100)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="club: seconds between a table's steps, about (1.0)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.seconds is None:
        args.seconds = {"load": 20.0, "latency": 10.0, "noisy-link": 10.0}.get(args.name, 3.0)
    if args.seeds is None:
        args.seeds = {"mistakes": 4, "pi-budget": 3}.get(args.name, 50)
    if args.seconds <= 0:
        raise UserError("--seconds must be positive")
    if ((args.games is not None and args.games < 1) or args.jobs < 1 or args.seeds < 1
            or args.simulations < 0 or args.players < 0):
        raise UserError("--games, --jobs and --seeds must be at least 1, --simulations and "
                        "--players not negative")
    result = BENCHES[args.name](args)
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
