"""``tabletop sim``: the whole table with virtual hardware (see docs/simulator.md).

The service runs exactly as on the Pi; only the hub (a virtual one on a pseudo-terminal, running
the real firmware), the LED strip (a recording one) and the GPIO pins (gpiozero's mock pins)
are virtual. The simulator page at /sim lets a person play with the mouse. The work is in
``controller.compose`` (``virtual``, ``scenarios``, ``autoplay``); this reads the options and
prints.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from controller.cli.virtual.autoplay import autoplay_one, summarize
from controller.cli.virtual.scenarios import run_scenario, scenario_file, scenario_games
from controller.cli.virtual.table import (
    HEADLESS_SETTLE_MS,
    IDEAL_SCAN_MS,
    serve_virtual,
    virtual_service,
)
from controller.compose import DEFAULT_PORT, data_dir
from controller.errors import UserError
from controller.setup.token import install_token
from controller.table import DEALERS
from games.registry import get_game
from hardware.profile import PLAIN_MISTAKES

from .common import (
    add_ai_argument,
    load_advisor_class,
    parse_ai,
    parse_options,
    parse_players,
    print_json,
    progress,
    progress_done,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sim", help="the table with virtual hardware: a play page, a scenario, or autoplay")
    parser.add_argument("--game", default="tiki_topple", help="game id (default tiki_topple)")
    parser.add_argument("--players", default="anna,ben", help="names, comma separated")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--scenario", metavar="FILE|NAME",
                       help="run a scenario headless: a file, or the name of a shipped one")
    which.add_argument("--list-scenarios", action="store_true",
                       help="print the shipped scenarios' names and the game of each")
    parser.add_argument("--autoplay", metavar="GAME", help="bots play whole games headless")
    parser.add_argument("--games", type=int, default=1, help="with --autoplay: how many")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the autoplay bots, and of the page's next-step moves")
    parser.add_argument("--mistakes", type=float, default=0.1,
                        help="with --autoplay: share of actions done wrong first, then fixed")
    parser.add_argument("--mistake-kinds", default="wrong_site,illegal_move",
                        help="with --autoplay: which mistakes the bots make, comma separated "
                             "(wrong_site, illegal_move, stray_piece: a piece from the box laid "
                             "on a site no legal step changes, then lifted)")
    parser.add_argument("--slides", type=float, default=0.0,
                        help="with --autoplay: share of the steps ending with a piece laid "
                             "whose piece a hand drags over two wrong sites first (the table "
                             "must not judge them mid-way)")
    parser.add_argument("--pause-ms", type=float, default=0.0,
                        help="with --autoplay: after each action the table judged, the bots "
                             "wait a random time up to this before the next (a hand reaching "
                             "for a piece; without it they move in step with the hubs' scans)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE")
    parser.add_argument("--dealer", choices=DEALERS, default="players",
                        help="who deals the secrets: the players from the box (default; the "
                             "bots draw their own), or the service (a digital dealer)")
    add_ai_argument(parser)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--data", help="keep the journal here, --autoplay games included "
                                       "(default: a fresh temporary folder)")
    parser.add_argument("--profile-settle", action="store_true",
                        help="with --autoplay: the profile's settle time, as at a real table "
                             f"(default {HEADLESS_SETTLE_MS} ms: no human hand to wait for)")
    parser.add_argument("--plain-mistakes", choices=PLAIN_MISTAKES, default=None,
                        help="when a piece laid where no step lays one is red: after the "
                             "settle time, or quick (the profile's [timing] plain_mistakes, "
                             "settle unless it says otherwise)")
    parser.add_argument("--ideal", action="store_true",
                        help="an ideal radio (every tag read at once, a scan every "
                             f"{IDEAL_SCAN_MS:g} ms) instead of the realistic default")
    parser.set_defaults(run=run)


def scan_ms(args: argparse.Namespace) -> float | str:
    return IDEAL_SCAN_MS if args.ideal else "realistic"


def settle_ms(args: argparse.Namespace) -> int | None:
    return None if args.profile_settle else HEADLESS_SETTLE_MS


def run(args: argparse.Namespace) -> int:
    if args.list_scenarios:
        games = scenario_games()
        width = max(map(len, games), default=0)
        for name, game in games.items():
            print(f"{name:<{width}}  {game}")
        return 0
    if args.scenario:
        with (scenario_file(args.scenario) as path,
              tempfile.TemporaryDirectory(prefix="tabletop-sim-") as scratch):
            report = asyncio.run(run_scenario(path, Path(scratch), scan_ms(args),
                                              args.plain_mistakes))
        for line in report.lines():
            print(line)
        return 0 if report.passed else 1
    if args.autoplay:
        return autoplay(args)
    game = get_game(args.game)
    players = parse_players(args.players)
    options = parse_options(args.option)
    game.initial(players, options)  # bad players or options: a clear error before anything runs
    ai = parse_ai(args.ai, players)
    if ai:
        load_advisor_class()
    with tempfile.TemporaryDirectory(prefix="tabletop-sim-") as scratch:
        data = data_dir(args.data) if args.data else Path(scratch)
        asyncio.run(interactive(args.game, players, options, data, args.host, args.port, ai,
                                scan_ms(args), args.dealer, args.seed, args.plain_mistakes))
    return 0


async def interactive(game_id: str, players: list[str], options: dict[str, str], data: Path,
                      host: str, port: int, ai: dict[str, int] | None = None,
                      scan: float | str = "realistic", dealer: str = "players",
                      seed: int = 0, plain_mistakes: str | None = None) -> None:
    """``seed``: the page's "do the next step for me" picks its random moves with it."""
    table, service = virtual_service(game_id, data, plain_mistakes=plain_mistakes,
                                     scan_ms=scan)
    try:
        if not service.table.started:
            service.new_game(players, options, ai, dealer)
        names = [f"{name} (AI)" if name in (ai or {}) else name for name in players]
        print(f"tabletop sim: {service.table.game.name} for {', '.join(names)}")
        print(f"  play with the mouse:  http://{host}:{port}/sim")
        print(f"  the referee's page:   http://{host}:{port}/")
        token, _ = install_token(data)  # a simulated table is guarded as a real one
        print(f"  token for the API:    {token}")
        await serve_virtual(table, service, host, port, token, seed)
    finally:
        table.close()


def autoplay(args: argparse.Namespace) -> int:
    game = get_game(args.autoplay)
    players = parse_players(args.players)
    options = parse_options(args.option)
    game.initial(players, options)
    if args.games < 1 or not 0 <= args.mistakes <= 1 or not 0 <= args.slides <= 1 or not (
            0 <= args.pause_ms < float("inf")):
        raise UserError("--games must be at least 1, --mistakes and --slides shares from 0 "
                        "to 1, --pause-ms not negative")
    from simulator.autoplay import MISTAKE_KINDS

    kinds = tuple(kind.strip() for kind in args.mistake_kinds.split(",") if kind.strip())
    if not kinds or not set(kinds) <= set(MISTAKE_KINDS):
        raise UserError(f"--mistake-kinds: some of {', '.join(MISTAKE_KINDS)}, comma "
                        f"separated, not {args.mistake_kinds!r}")
    ai = parse_ai(args.ai, players)
    if ai:
        load_advisor_class()
    results = []
    for number in range(args.games):
        with tempfile.TemporaryDirectory(prefix="tabletop-autoplay-") as scratch:
            data = data_dir(args.data) if args.data else Path(scratch)
            results.append(asyncio.run(autoplay_one(game.id, players, options, data,
                                                    args.seed + number, args.mistakes, ai,
                                                    scan_ms(args), settle_ms(args),
                                                    args.dealer, args.slides,
                                                    args.pause_ms / 1000, kinds,
                                                    args.plain_mistakes)))
        progress(f"autoplay: {number + 1}/{args.games} games")
    progress_done()
    summary = summarize(game.id, players, "ideal" if args.ideal else "realistic", ai, results)
    print_json(summary)
    return 0 if summary["scores_match"] and summary["records_match"] else 1
