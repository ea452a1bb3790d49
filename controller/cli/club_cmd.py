"""``tabletop club --mqtt URL``: the club's page of every table on a broker (docs/club.md).

The work is in ``controller.club_service`` (the broker, the store), ``controller.club_web``
(the page) and ``controller.club_standings`` (the ratings); this only reads the options.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from datetime import time as clock_time
from pathlib import Path

from controller import club_standings
from controller.club_link import BrokerAddress, BrokerAddressError, cancel_all
from controller.club_service import ClubNameError, ClubService
from controller.club_store import ClubStoreError
from controller.compose import data_dir
from controller.errors import UserError

DEFAULT_PORT = 8090


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "club", help="the club's page: every table on an MQTT broker, results and standings")
    parser.add_argument("--mqtt", metavar="URL",
                        help="the broker: mqtt://[user[:password]@]host[:port], or mqtts:// "
                             "for TLS (the password may come from $TABLETOP_MQTT_PASSWORD)")
    parser.add_argument("--ca-file", metavar="PEM",
                        help="with mqtts://: the CA to check the broker with, instead of "
                             "the system's (the club's own)")
    parser.add_argument("--data", help="folder for the club's store (club.sqlite3)")
    parser.add_argument("--host", default="127.0.0.1", help="address of the club's page")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--name", default="club",
                        help="the club's name: its MQTT session is tabletop-club-NAME")
    parser.add_argument("--since", metavar="HH:MM", default="06:00",
                        help="the time of day an evening begins (default 06:00)")
    parser.add_argument("--demo", type=int, metavar="TABLES",
                        help="a club evening to look at: this many simulated tables (bots, "
                             "the ideal radio) on a Mosquitto of its own (`make club`)")
    parser.set_defaults(run=run)


def parse_since(text: str) -> clock_time:
    """``HH:MM`` (24 hours) as a time of day."""
    hours, sep, minutes = text.strip().partition(":")
    if sep and hours.isdigit() and minutes.isdigit() and len(minutes) == 2:
        hour, minute = int(hours), int(minutes)
        if hour < 24 and minute < 60:
            return clock_time(hour, minute)
    raise UserError(f"--since {text!r}: give the time of day an evening begins as HH:MM, "
                    "such as 06:00 or 18:30")


def build_club(args: argparse.Namespace) -> ClubService:
    """The club service for these options, or one ``UserError`` line saying what is wrong."""
    try:
        club_standings.model()  # the standings need OpenSkill: say so before anything starts
    except club_standings.RatingUnavailable as error:
        raise UserError(str(error)) from None
    since = parse_since(args.since)
    ca_file = Path(args.ca_file) if args.ca_file else None
    if ca_file is not None and not ca_file.is_file():
        raise UserError(f"--ca-file {args.ca_file}: no such file")
    try:
        broker = BrokerAddress.parse(args.mqtt, password=os.environ.get(
            "TABLETOP_MQTT_PASSWORD"), ca_file=ca_file)
        return ClubService(broker, data_dir(args.data), name=args.name, since=since)
    except (BrokerAddressError, ClubNameError, ClubStoreError) as error:
        raise UserError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise UserError(f"--port {args.port}: a port is a number from 1 to 65535")
    if args.demo is not None:
        return demo(args)
    if not args.mqtt:
        raise UserError("give the club's broker with --mqtt URL (or --demo TABLES to see a "
                        "simulated evening)")
    club = build_club(args)
    print(f"tabletop club {club.name}: listening to {club.broker}; "
          f"page on http://{args.host}:{args.port}/")
    try:
        asyncio.run(serve_club(club, args.host, args.port))
    finally:
        club.close()
    return 0


def demo(args: argparse.Namespace) -> int:
    """``--demo N``: a private Mosquitto, the club and N simulated tables playing."""
    from controller.cli.virtual.club_tables import play_evening
    from controller.compose.quick_tables import local_broker

    if not 1 <= args.demo <= 30 or args.mqtt:
        raise UserError("--demo TABLES: 1 to 30 simulated tables, on a broker of their own "
                        "(without --mqtt)")
    with tempfile.TemporaryDirectory(prefix="tabletop-club-") as scratch, \
            local_broker(Path(scratch) / "broker") as url:
        args.mqtt = url
        args.data = args.data or str(Path(scratch) / "club")
        club = build_club(args)
        print(f"tabletop club: {args.demo} simulated tables on {url}; "
              f"page on http://{args.host}:{args.port}/ (Ctrl-C ends the evening)")

        async def evening() -> None:
            tables = asyncio.create_task(play_evening(BrokerAddress.parse(url),
                                                      Path(scratch) / "tables", args.demo,
                                                      games=None, pause=0.3))
            try:
                await serve_club(club, args.host, args.port)
            finally:
                await cancel_all([tables])

        try:
            asyncio.run(evening())
        finally:
            club.close()
    return 0


async def serve_club(club: ClubService, host: str, port: int) -> None:
    """The club and its page on one loop, until cancelled (Ctrl-C)."""
    import uvicorn

    from controller.club_web import create_club_app

    server = uvicorn.Server(uvicorn.Config(create_club_app(club), host=host, port=port,
                                           log_level="warning"))
    listening = asyncio.create_task(club.run(), name="club")
    try:
        await server.serve()
    finally:
        await cancel_all([listening])
