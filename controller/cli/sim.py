"""``tabletop sim``: the whole table with virtual hardware (see docs/simulator.md).

The service runs exactly as on the Pi; only the hub (a virtual one on a pseudo-terminal, running
the real firmware), the LED strip (a recording one) and the GPIO pins (gpiozero's mock pins)
are virtual. The simulator page at /sim lets a person play with the mouse.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import tempfile
from pathlib import Path

from games.registry import get_game
from simulator.page import simulator_router
from simulator.virtual_table import VirtualTable

from .common import parse_options, parse_players
from .compose import build_service, data_dir, serve


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("sim", help="the table with virtual hardware and a play page")
    parser.add_argument("--game", default="tiki_topple", help="game id (default tiki_topple)")
    parser.add_argument("--players", default="anna,ben", help="names, comma separated")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--data", help="keep the journal here (default: a fresh temporary folder)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    players = parse_players(args.players)
    options = parse_options(args.option)
    game.initial(players, options)  # bad players or options: a clear error before anything runs
    with tempfile.TemporaryDirectory(prefix="tabletop-sim-") as scratch:
        data = data_dir(args.data) if args.data else Path(scratch)
        asyncio.run(interactive(args.game, players, options, data, args.host, args.port))
    return 0


def virtual_service(game_id: str, data: Path, settle_ms: int | None = None, **table_options):
    """A started virtual table and a service wired to it, with every virtual tag enrolled.

    The hub is reached through a stable link in ``data`` (as udev's by-id links are on a Pi),
    so an unplugged and replugged virtual hub is found again at the same path.
    """
    table_options.setdefault("link_path", data / "hub")
    table = VirtualTable.for_game(game_id, **table_options).start()
    profile = table.profile
    if settle_ms is not None:
        profile = dataclasses.replace(profile, settle_ms=settle_ms)
    service, registry = build_service(profile, data, url=table.url, strip=table.strip.strip,
                                      pin_factory=table.buttons.factory)
    for uid, piece in table.tag_map().items():
        registry.enroll(uid, piece, replace=True)
    return table, service


async def interactive(game_id: str, players: list[str], options: dict[str, str], data: Path,
                      host: str, port: int) -> None:
    table, service = virtual_service(game_id, data)
    try:
        if not service.table.started:
            service.table.new_game(players, options)
        print(f"tabletop sim: {service.table.game.name} for {', '.join(players)}")
        print(f"  play with the mouse:  http://{host}:{port}/sim")
        print(f"  the referee's page:   http://{host}:{port}/")
        print(f"  token for the API:    {table.profile.web_token}")
        await serve(service, host, port,
                    extra_routes=lambda app: app.include_router(simulator_router(table, "/")))
    finally:
        table.close()
