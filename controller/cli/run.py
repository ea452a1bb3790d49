"""``tabletop run --profile P``: the table service on the Pi (see docs/service.md)."""

from __future__ import annotations

import argparse
import asyncio

from .common import add_ai_argument, parse_ai, parse_options, parse_players
from .compose import build_service, data_dir, load_board, serve


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="run the table service with real hardware")
    parser.add_argument("--profile", required=True, help="board profile name or .toml path")
    parser.add_argument("--data", help="folder for the journal and tag registry")
    parser.add_argument("--url", help="hub serial port, overriding the profile's")
    parser.add_argument("--host", default="0.0.0.0", help="address of the status page")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--players", help="start a new game with these players (a,b,c)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help="with --players: a game option (repeatable)")
    add_ai_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    profile = load_board(args.profile)
    service, _ = build_service(profile, data_dir(args.data), url=args.url)
    if args.players:
        players = parse_players(args.players)
        service.new_game(players, parse_options(args.option), parse_ai(args.ai, players))
    print(f"tabletop: {profile.name} on {args.url or profile.hub.url}; "
          f"status page on http://{args.host}:{args.port}/")
    asyncio.run(serve(service, args.host, args.port))
    return 0
