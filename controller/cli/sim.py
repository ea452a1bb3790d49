"""``tabletop sim``: the whole table with virtual hardware (see docs/simulator.md).

The service runs exactly as on the Pi; only the hub (a virtual one on a pseudo-terminal, running
the real firmware), the LED strip (a recording one) and the GPIO pins (gpiozero's mock pins)
are virtual. The simulator page at /sim lets a person play with the mouse.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import random
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.errors import UserError
from controller.table import DEALERS, Table
from controller.unresolved import UNRESOLVED
from games.registry import get_game

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
from .compose import build_service, data_dir, serve
from .hand_to_light import HandToLight
from .settling import settled
from .token_cmd import install_token

if TYPE_CHECKING:  # the simulator is imported when used: `tabletop run` must not load it
    from importlib.resources.abc import Traversable


HEADLESS_SETTLE_MS = 80
"""Settle time for scenarios and autoplay: no human hand to wait for, so keep them quick."""
IDEAL_SCAN_MS = 10.0
"""``--ideal``: every reader reports exactly the tags over its site, a full scan every 10 ms."""
SCENARIO_SUFFIX = ".scenario"
SCENARIO_DEFAULT_GAME = "tiki_topple"
"""The game of a scenario that names none."""


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
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--data", help="keep the journal here, --autoplay games included "
                                       "(default: a fresh temporary folder)")
    parser.add_argument("--profile-settle", action="store_true",
                        help="with --autoplay: the profile's settle time, as at a real table "
                             f"(default {HEADLESS_SETTLE_MS} ms: no human hand to wait for)")
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
        return list_scenarios()
    if args.scenario:
        with (scenario_file(args.scenario) as path,
              tempfile.TemporaryDirectory(prefix="tabletop-sim-") as scratch):
            return asyncio.run(run_scenario(path, Path(scratch), scan_ms(args)))
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
                                scan_ms(args), args.dealer, args.seed))
    return 0


def virtual_service(game_id: str, data: Path, settle_ms: int | None = None,
                    rng: random.Random | None = None, **table_options):
    """A started virtual table and a service wired to it, with every virtual tag enrolled.

    ``rng``: the service's draws of what the table cannot see (seeded in tests).

    Each hub is reached through a stable link in ``data`` (as udev's by-id links are on a Pi),
    so an unplugged and replugged virtual hub is found again at the same path.
    """
    from simulator.virtual_table import VirtualTable

    table_options.setdefault("link_path", data / "hub")
    table = VirtualTable.for_game(game_id, **table_options).start()
    profile = table.profile
    if settle_ms is not None:
        profile = dataclasses.replace(profile, settle_ms=settle_ms)
    service, registry = build_service(profile, data, urls=table.urls, strip=table.strip.strip,
                                      pin_factory=table.buttons.factory, rng=rng)
    for uid, piece in table.tag_map().items():
        registry.enroll(uid, piece, replace=True)
    service.watch_hubs = table_options.get("scan_ms", "realistic") == "realistic"
    return table, service


async def interactive(game_id: str, players: list[str], options: dict[str, str], data: Path,
                      host: str, port: int, ai: dict[str, int] | None = None,
                      scan: float | str = "realistic", dealer: str = "players",
                      seed: int = 0) -> None:
    """``seed``: the page's "do the next step for me" picks its random moves with it."""
    from simulator.page import simulator_router

    from .sim_next import next_step_for

    table, service = virtual_service(game_id, data, scan_ms=scan)
    try:
        if not service.table.started:
            service.new_game(players, options, ai, dealer)
        names = [f"{name} (AI)" if name in (ai or {}) else name for name in players]
        print(f"tabletop sim: {service.table.game.name} for {', '.join(names)}")
        print(f"  play with the mouse:  http://{host}:{port}/sim")
        print(f"  the referee's page:   http://{host}:{port}/")
        token, _ = install_token(data)  # a simulated table is guarded as a real one
        print(f"  token for the API:    {token}")
        await serve(service, host, port, token,
                    extra_routes=lambda app: app.include_router(simulator_router(
                        table, "/", next_step_for(table, service, seed))))
    finally:
        table.close()


@contextlib.asynccontextmanager
async def running(game_id: str, data: Path, players, options, ai=None, scan="realistic",
                  settle_ms: int | None = HEADLESS_SETTLE_MS, dealer: str = "players"):
    """A virtual table and its service, running, with a new game started (``settle_ms``
    None: the profile's settle time)."""
    table, service = virtual_service(game_id, data, settle_ms=settle_ms, scan_ms=scan)
    task = asyncio.create_task(service.run())
    try:
        await service.wait_connected(10)
        service.new_game(list(players), dict(options), ai, dealer)
        yield table, service
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        table.close()


def shipped_scenarios() -> dict[str, Traversable]:
    """The scenarios the package ships, by name (the file stem), sorted. Found through the
    package, not the checkout, so a wheel installed on a Pi has them wherever pip put them."""
    folder = resources.files("simulator") / "scenarios"
    entries = sorted(folder.iterdir(), key=lambda entry: entry.name)
    return {entry.name.removesuffix(SCENARIO_SUFFIX): entry for entry in entries
            if entry.name.endswith(SCENARIO_SUFFIX)}


def scenario_file(given: str) -> contextlib.AbstractContextManager[Path]:
    """The file ``--scenario`` names: an existing file first (a maker's own scenario), else a
    shipped scenario by name, with or without ``.scenario`` (a context: a packaged file may
    only be a path while it is open)."""
    if Path(given).is_file():
        return contextlib.nullcontext(Path(given))
    shipped = shipped_scenarios()
    entry = shipped.get(given.removesuffix(SCENARIO_SUFFIX))
    if entry is None:
        raise UserError(f"{given}: no such scenario file, nor a shipped scenario of that name "
                        f"(shipped: {', '.join(shipped)})")
    return resources.as_file(entry)


def list_scenarios() -> int:
    """Print each shipped scenario's name and its game, so a maker without the checkout
    knows what ``--scenario NAME`` can run."""
    from simulator.scenario import load_scenario

    shipped = shipped_scenarios()
    width = max(map(len, shipped), default=0)
    for name, entry in shipped.items():
        with resources.as_file(entry) as path:
            game = load_scenario(path).game or SCENARIO_DEFAULT_GAME
        print(f"{name:<{width}}  {game}")
    return 0


async def run_scenario(path: Path, data: Path, scan: float | str = "realistic") -> int:
    from simulator.scenario import ScenarioError, load_scenario
    from simulator.scenario_runner import ScenarioRunner

    try:
        scenario = load_scenario(path)
    except (OSError, ScenarioError) as error:
        raise UserError(str(error)) from None
    game = get_game(scenario.game or SCENARIO_DEFAULT_GAME)
    players = scenario.players or ("anna", "ben")
    game.initial(players, dict(scenario.options))
    async with running(game.id, data, players, scenario.options, scan=scan) as (table, service):
        runner = ScenarioRunner(table, lambda: service.status().model_dump(mode="json"),
                                settle=lambda: settled(table, service))
        try:
            report = await runner.run(scenario)
        except ScenarioError as error:  # names a site, piece or colour this table lacks
            raise UserError(str(error)) from None
    for line in report.lines():
        print(line)
    return 0 if report.passed else 1


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
                                                    args.pause_ms / 1000, kinds)))
        progress(f"autoplay: {number + 1}/{args.games} games")
    progress_done()
    summary = {
        "game": game.id,
        "players": players,
        "games": args.games,
        "radio": "ideal" if args.ideal else "realistic",
        "completed": sum(r["finished"] for r in results),
        "moves": sum(r["moves"] for r in results),
        "mistakes_made": sum(r["mistakes"] for r in results),
        "mistakes_recovered": sum(r["mistakes"] for r in results if r["finished"]),
        "slides": sum(r["slides"] for r in results),
        "service_draws": sum(r["service_draws"] for r in results),
        "scores_match": all(r["scores_match"] for r in results),
        "records_match": all(r["records_match"] for r in results),
        "ai": ai,
        "ai_moves": sum(r["ai_moves"] for r in results),
        "wins": {name: sum(name in r["winners"] for r in results) for name in players},
        "results": results,
    }
    print_json(summary)
    return 0 if summary["scores_match"] and summary["records_match"] else 1


async def autoplay_one(game_id: str, players, options, data: Path, seed: int,
                       mistakes: float, ai: dict[str, int] | None = None,
                       scan: float | str = "realistic",
                       settle: int | None = HEADLESS_SETTLE_MS, dealer: str = "players",
                       slides: float = 0.0, pause: float = 0.0,
                       mistake_kinds: Sequence[str] = ("wrong_site", "illegal_move")) -> dict:
    from simulator.autoplay import AutoplayBot

    ai_moves = 0
    async with running(game_id, data, players, options, ai, scan, settle, dealer) as (
            table, service):
        digital = service.table.dealer == "digital"  # asked for, or an AI seat needs it
        async def drawn_by_the_service(index: int) -> str:
            """The secret draw the service made at ``index`` (it may still be handling the
            button press that led to it)."""
            for _ in range(500):
                if len(service.table.actions) > index:
                    return service.table.actions[index]
                await asyncio.sleep(0.01)
            raise TimeoutError(f"the service drew nothing at action {index}")

        async def move_of_the_ai(seat: int) -> str | None:
            """An AI seat's move, once the service has lit it (a person then makes it)."""
            nonlocal ai_moves
            if seat not in service.table.ai:
                return None
            await settled(table, service)
            for _ in range(6000):
                advice = service.table.current_advice()
                if advice is not None and advice.kind == "ai":
                    ai_moves += 1
                    return advice.action
                await asyncio.sleep(0.01)
            raise TimeoutError(f"the AI did not choose a move for {players[seat]}")

        timing = HandToLight(table, service)
        hand = random.Random(f"pause {seed}")  # its own: the same game with pauses or without

        async def judged_and_reached() -> None:
            await settled(table, service)
            if pause:
                await asyncio.sleep(hand.uniform(0.0, pause))

        bot = AutoplayBot(table, players, options, settle=judged_and_reached,
                          seed=seed, mistake_rate=mistakes, settle_every="action",
                          hidden_chance=drawn_by_the_service if digital else None,
                          decide=move_of_the_ai, show_secrets=not digital,
                          looks_further=lambda: service.table.may_look_further,
                          slide_rate=slides, mistake_kinds=mistake_kinds)  # type: ignore[arg-type]
        timing.mistake = lambda: bot.wrong_board
        timing.mistakes_made = lambda: len(bot.mistakes)
        result = await bot.play()
        for _ in range(500):  # a last button press (a silent last action) may still be handled
            if len(service.table.actions) >= len(result.record["actions"]):
                break
            await asyncio.sleep(0.01)
        game = service.table.game
        replayed = game.initial(players, options)
        for action in result.record["actions"]:
            replayed = game.apply(replayed, action)
        engine = game.score(replayed).to_json()["scores"]
        scores = service.status().scores
        table_scores = scores.scores if scores is not None else None
        known = service.table.actions
        difference = first_difference(service.table, result.record["actions"])
        return {**result.summary(), "seed": seed, "controller_scores": table_scores,
                "ai_moves": ai_moves, "hand_to_light": timing.figures(), "slides": bot.slides,
                "dealer": service.table.dealer, "service_draws": service.table.service_draws,
                "unseen_draws": known.count(UNRESOLVED),
                "scores_match": engine == table_scores,
                "records_match": difference is None,
                **({"first_difference": difference} if difference is not None else {})}


def first_difference(table: Table, theirs: Sequence[str]) -> dict[str, Any] | None:
    """Where the table's record first differs from the bots' (None: nowhere; an unseen draw,
    ``?``, agrees with any draw), with the actions around it on both sides, the table's guess
    of the unseen draws there and its last log lines: where to look first."""
    known = table.actions
    differ = next((index for index, (mine, truth) in enumerate(zip(known, theirs, strict=False))
                   if mine not in (UNRESOLVED, truth)), min(len(known), len(theirs)))
    if differ == len(known) == len(theirs):
        return None
    around = slice(max(0, differ - 3), differ + 6)
    return {"index": differ, "table": known[around], "bots": list(theirs[around]),
            "table_guess": table.history.actions[around],
            "table_log": [event.text for event in table.events[-12:]],
            "bots_record": list(theirs)}
