"""A Trapper service with no hubs whose readers the test feeds by hand: the provisional-step
and likely-verdict tests drive its tracker with snapshots at times they choose."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from controller.compose import build_service, load_board
from controller.service import TableService
from games.registry import get_game
from hardware.leds import RecordingStrip

TRAPPER = get_game("trapper")


def hand_fed_trapper(tmp_path: Path) -> tuple[TableService, dict[str, str], dict[str, str]]:
    """The service (three hubs, one scan 0.1 s, a lift reported 1.25 scans after it), each
    piece's tag uid (a card's twin, ``#2``, for a pair of one colour) and each site's reader."""
    profile = load_board("trapper")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, registry = build_service(
        profile, tmp_path, urls=[str(tmp_path / f"no-hub{n}") for n in range(len(profile.hubs))],
        strip=strip, pin_factory=MockFactory(), rng=random.Random(1))
    pieces = [*TRAPPER.pieces(), *(f"{piece}#2" for piece in TRAPPER.pieces() if "card:" in piece)]
    uid_of = {piece: f"{number:08x}" for number, piece in enumerate(pieces, start=1)}
    for piece, uid in uid_of.items():
        registry.enroll(uid, piece.removesuffix("#2"))
    for hub in service.hubs:
        hub.seen, hub.period, hub.miss_limit = True, 0.1, 1
    service._hub_timing()
    reader_of = {site: reader for reader, site in profile.readers.items()}
    return service, uid_of, reader_of


@contextlib.asynccontextmanager
async def working(service: TableService) -> AsyncIterator[None]:
    """The service's workers (searches, early searches, the AI) running as on the Pi, while the
    test feeds the tracker and judges at the times it chooses."""
    workers = asyncio.create_task(service.work())
    try:
        yield
    finally:
        workers.cancel()
        await asyncio.gather(workers, return_exceptions=True)
