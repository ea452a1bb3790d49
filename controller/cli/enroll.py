"""``tabletop enroll --profile P``: teach the table which tag is which piece.

The person lays each piece of the profile's game on any reader when asked; the tag registry
remembers it. ``--import``/``--export`` share a registry as a file. The logic lives in
hardware.enrollment; this module only parses arguments and talks to the person.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

from controller.errors import UserError
from games.registry import get_game
from hardware.enrollment import (
    AlreadyKnown,
    Enrolled,
    EnrollmentEvent,
    EnrollmentSession,
    LiftTag,
    Prompt,
    UnstableRead,
    enroll_from_hub,
)
from hardware.link import HubLink
from hardware.profile import find_profile, load_profile
from hardware.registry import TagRegistry

DEFAULT_REGISTRY = Path.home() / ".local" / "share" / "tabletop" / "tags.sqlite3"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "enroll", help="lay each piece on a reader so the table learns its tag"
    )
    parser.add_argument("--profile", required=True, help="board profile name or .toml path")
    parser.add_argument(
        "--registry",
        default=os.environ.get("TABLETOP_TAGS", str(DEFAULT_REGISTRY)),
        help="tag registry file (default: $TABLETOP_TAGS or %(default)s)",
    )
    parser.add_argument("--port", help="hub serial URL (default: the profile's)")
    parser.add_argument("--piece", action="append", default=[], help="only this piece")
    parser.add_argument("--replace", action="store_true", help="re-enroll pieces already known")
    parser.add_argument("--reads", type=int, default=5, help="reads per tag for the vote")
    parser.add_argument("--import", dest="import_file", help="add the tags in this file")
    parser.add_argument("--export", dest="export_file", help="write all tags to this file")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for the hub")
    parser.set_defaults(run=run)


def say(event: EnrollmentEvent) -> None:
    match event:
        case Prompt(piece, number, total):
            print(f"[{number}/{total}] lay {piece} on any reader")
        case Enrolled(piece, uid, reader):
            print(f"      stored: tag {uid} on reader {reader} is {piece}")
        case AlreadyKnown(uid, piece, reader):
            print(f"      tag {uid} on reader {reader} is already {piece}: use another tag")
        case UnstableRead(reader, votes):
            print(f"      reader {reader} read {', '.join(votes)}: no clear answer, try again")
        case LiftTag(reader):
            print(f"      lift it from reader {reader}")


def run(args: argparse.Namespace) -> int:
    if args.reads < 1:
        raise UserError("--reads must be at least 1")
    profile = load_profile(find_profile(args.profile))
    game = get_game(profile.game)
    sites = [site.id for site in game.sites(game.max_players)]
    profile = load_profile(profile.source, sites)
    with TagRegistry(args.registry) as registry:
        if args.import_file:
            report = registry.import_file(args.import_file, replace=args.replace)
            print(f"{args.import_file}: {report.added} added, {report.replaced} replaced, "
                  f"{report.unchanged} already known")
            return 0
        if args.export_file:
            count = registry.export_file(args.export_file)
            print(f"wrote {count} tags to {args.export_file}")
            return 0
        session = EnrollmentSession(registry, game.pieces(), only=args.piece,
                                    replace=args.replace)
        if session.prompt() is None:
            print(f"every piece of {profile.game} is enrolled ({len(registry)} tags known)")
            return 0
        url = args.port or profile.hub.url
        done = asyncio.run(_enroll(url, profile.hub.baudrate, session, args))
        print(f"enrolled {len(done)} of {session.total} pieces into {args.registry}")
    return 0


async def _enroll(
    url: str, baudrate: int, session: EnrollmentSession, args: argparse.Namespace
) -> list[Enrolled]:
    link = HubLink(url, baudrate=baudrate)
    task = asyncio.create_task(link.run())
    try:
        try:
            hello = await link.wait_connected(args.wait)
        except TimeoutError:
            reason = link.health().last_error or "it did not answer"
            raise UserError(f"no hub at {url}: {reason}") from None
        print(f"hub {hello.firmware_version} with {hello.reader_count} readers is ready")
        quorum = args.reads // 2 + 1
        return await enroll_from_hub(link, session, say, reads=args.reads, quorum=quorum)
    finally:
        task.cancel()
