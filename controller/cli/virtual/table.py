"""The table with virtual hardware (see docs/simulator.md): a virtual table, and the service
wired to it exactly as on the Pi.

Only the hub (a virtual one on a pseudo-terminal, running the real firmware), the LED strip
(a recording one) and the GPIO pins (gpiozero's mock pins) are virtual. The simulator is
imported when used: ``tabletop run`` shares a command line with ``tabletop sim``, and must not
load it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from controller.compose import build_service, serve
from controller.service import TableService
from hardware.profile import BoardProfile

if TYPE_CHECKING:
    from simulator.virtual_table import VirtualTable

HEADLESS_SETTLE_MS = 80
"""Settle time for scenarios and autoplay: no human hand to wait for, so keep them quick."""
IDEAL_SCAN_MS = 10.0
"""``--ideal``: every reader reports exactly the tags over its site, a full scan every 10 ms."""


def virtual_service(game_id: str, data: Path, settle_ms: int | None = None,
                    rng: random.Random | None = None, plain_mistakes: str | None = None,
                    **table_options: Any) -> tuple[VirtualTable, TableService]:
    """A started virtual table and a service wired to it, with every virtual tag enrolled.

    ``rng``: the service's draws of what the table cannot see (seeded in tests);
    ``plain_mistakes``: the profile's ``[timing] plain_mistakes`` instead of its own.

    Each hub is reached through a stable link in ``data`` (as udev's by-id links are on a Pi),
    so an unplugged and replugged virtual hub is found again at the same path.
    """
    from simulator.virtual_table import VirtualTable

    table_options.setdefault("link_path", data / "hub")
    table = VirtualTable.for_game(game_id, **table_options).start()
    profile = table.profile
    if settle_ms is not None:
        profile = dataclasses.replace(profile, settle_ms=settle_ms)
    if plain_mistakes is not None:
        profile = dataclasses.replace(profile, timing=dataclasses.replace(
            profile.timing, plain_mistakes=plain_mistakes))
    service, registry = build_service(profile, data, urls=table.urls, strip=table.strip.strip,
                                      pin_factory=table.buttons.factory, rng=rng)
    for uid, piece in table.tag_map().items():
        registry.enroll(uid, piece, replace=True)
    service.watch_hubs = table_options.get("scan_ms", "realistic") == "realistic"
    return table, service


async def serve_virtual(table: VirtualTable, service: TableService, host: str, port: int,
                        token: str, seed: int = 0) -> None:
    """The service and its pages with the simulator's page at /sim beside them, until
    cancelled. ``seed``: the page's "do the next step for me" picks its random moves with
    it."""
    from simulator.page import simulator_router

    from .sim_next import next_step_for

    await serve(service, host, port, token,
                extra_routes=lambda app: app.include_router(simulator_router(
                    table, "/", next_step_for(table, service, seed))))


Start = Literal["new", "unless resumed", "no"]
"""What ``running`` does with the game: start a new one (any resumed game is aborted: each run
of a scenario or a club table begins afresh), keep a game the journal resumed (a test that
restarts the service on the same folder), or start none (the caller starts its own)."""


@contextlib.asynccontextmanager
async def running(game_id: str, data: Path, players: Sequence[str], options: Mapping[str, str],
                  ai: dict[str, int] | None = None, scan: float | str = "realistic",
                  settle_ms: int | None = HEADLESS_SETTLE_MS, dealer: str = "players", *,
                  rng: random.Random | None = None, start: Start = "new",
                  plain_mistakes: str | None = None
                  ) -> AsyncIterator[tuple[VirtualTable, TableService]]:
    """A virtual table and its service, running once every hub has said hello, with a game
    started as ``start`` says (``settle_ms`` None: the profile's settle time; ``rng``: the
    service's secret draws, seeded so that tests repeat)."""
    table, service = virtual_service(game_id, data, settle_ms=settle_ms, rng=rng,
                                     plain_mistakes=plain_mistakes, scan_ms=scan)
    task = asyncio.create_task(service.run())
    try:
        await service.wait_connected(10)
        if start == "new" or (start == "unless resumed" and not service.table.started):
            service.new_game(list(players), dict(options), ai, dealer)
        yield table, service
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        table.close()


@contextlib.contextmanager
def virtual_hubs(profile: BoardProfile, folder: Path, firmware: str | None
                 ) -> Iterator[tuple[Any, list[str]]]:
    """A profile's hubs and strip on a virtual table, running (``tabletop doctor
    --simulate``): its recording strip and its hubs' ports, each hub saying ``firmware`` (this
    install's version) when it is known."""
    from games.registry import get_game
    from simulator.virtual_table import VirtualTable

    table = VirtualTable(profile, get_game(profile.game), link_path=folder / "hub")
    for hub in table.hubs:
        if firmware is not None:
            hub.firmware_version = firmware
    table.start()
    try:
        yield table.strip.strip, table.urls
    finally:
        table.close()
