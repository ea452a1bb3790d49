"""``tabletop run --profile P``: the table service on the Pi (see docs/service.md)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from controller.club_broker import ClubBrokerError, Credentials
from controller.club_link import BrokerAddress, BrokerAddressError, ClubLink
from controller.club_messages import BadMessage
from controller.compose import (
    DEFAULT_PORT,
    build_service,
    data_dir,
    hub_urls,
    load_board,
    serve,
)
from controller.errors import UserError
from controller.service import TableService

from .common import add_ai_argument, parse_ai, parse_options, parse_players
from .token_cmd import table_token


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="run the table service with real hardware")
    parser.add_argument("--profile", required=True, help="board profile name or .toml path")
    parser.add_argument("--data", help="folder for the journal and tag registry")
    parser.add_argument("--url", action="append", metavar="[HUB=]PORT",
                        help="a hub's serial port, overriding the profile's (repeat as "
                             "HUB=PORT for each hub of a board with several)")
    parser.add_argument("--host", default="0.0.0.0", help="address of the status page")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--players", help="start a new game with these players (a,b,c)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help="with --players: a game option (repeatable)")
    parser.add_argument("--dealer", choices=("players", "digital"), default="players",
                        help="with --players: who deals the secrets, the players from the box "
                             "(default) or the service, shown on phones")
    parser.add_argument("--mqtt", metavar="URL",
                        help="publish this table to a club's broker: mqtt://user:password@host"
                             "[:port] (mqtts:// for TLS); docs/club.md")
    parser.add_argument("--table", help="with --mqtt: the table's name in the club's topics")
    parser.add_argument("--club-login", metavar="FILE",
                        help="the table's file from `tabletop install --club` (broker, login "
                             "and name), instead of --mqtt and --table")
    parser.add_argument("--mqtt-ca", metavar="FILE",
                        help="with mqtts://: the club's own CA certificate to trust")
    add_ai_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    profile = load_board(args.profile)
    urls = hub_urls(profile, args.url or [])
    data = data_dir(args.data)
    token = table_token(profile, data)  # a published token refuses to start, before any device
    service, _ = build_service(profile, data, urls=urls)
    if args.players:
        players = parse_players(args.players)
        service.new_game(players, parse_options(args.option), parse_ai(args.ai, players),
                         args.dealer)
    link = club_link(service, args)
    print(f"tabletop: {profile.name} on {', '.join(urls)}; "
          f"status page on http://{args.host}:{args.port}/"
          + (f"; club broker {link.broker} as table {link.table}" if link else ""))
    asyncio.run(serve(service, args.host, args.port, token, also=link.run() if link else None))
    return 0


def club_link(service: TableService, args: argparse.Namespace) -> ClubLink | None:
    """The link to a club's broker that ``--mqtt`` or ``--club-login`` asks for (None: none)."""
    if args.club_login:
        if args.mqtt or args.table:
            raise UserError("--club-login names the broker and the table: leave out --mqtt "
                            "and --table")
        try:
            login = Credentials.read(Path(args.club_login))
        except ClubBrokerError as error:
            raise UserError(str(error)) from None
        if login.table is None:
            raise UserError(f"{args.club_login} is the club's login, not a table's")
        url, table = login.login_url(), login.table
    elif args.mqtt:
        if not args.table:
            raise UserError("--mqtt needs --table NAME: the table's name in the club's topics")
        url, table = args.mqtt, args.table
    else:
        return None
    try:
        broker = BrokerAddress.parse(url, ca_file=Path(args.mqtt_ca) if args.mqtt_ca else None)
        return ClubLink(service, broker, table)
    except (BrokerAddressError, BadMessage) as error:
        raise UserError(str(error)) from None
