"""Shared pieces of the simulator tests: a Tiki Topple virtual table on a pty, and a stand-in
for the controller's tracker that reads the table back through the real `HubLink`.

No controller code is used (the simulator must not depend on it): `LinkWatcher` is the least a
host needs to turn hub events into a board, so the tests can say "the host saw exactly this".
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from games.core.game import pile_value
from hardware.link import Backoff, HubLink, LinkEvent
from hardware.protocol import Snapshot, TagArrived, TagLeft
from hardware.registry import uid_hex
from simulator.virtual_table import FOREIGN_PREFIX, VirtualTable

FAST = Backoff(initial=0.02, factor=2.0, maximum=0.2)
SLOWDOWN = float(os.environ.get("TABLETOP_TEST_SLOWDOWN", "1"))
"""How many times slower than a PC this machine runs the tests (.ci/pi-check sets 8 under
qemu): waits for the simulated hardware stretch by it, what they wait for does not change."""


class LinkWatcher:
    """Follows a virtual table through a HubLink per hub: every event, and the board the host
    sees (by the profile's reader numbers)."""

    def __init__(self, table: VirtualTable) -> None:
        self.table = table
        self.links = [HubLink(url, backoff=FAST, hello_timeout=0.3) for url in table.urls]
        self.link = self.links[0]
        self.events: list[LinkEvent] = []
        self.readings: dict[int, list[bytes]] = {}
        """Per reader the tags in its field, in arrival order (the newest on top)."""
        self._tasks: list[asyncio.Task[Any]] = []

    async def __aenter__(self) -> LinkWatcher:
        for link, hub in zip(self.links, self.table.profile.hubs, strict=True):
            self._tasks += [asyncio.create_task(link.run()),
                            asyncio.create_task(self._follow(link, hub.readers))]
        for link in self.links:
            await link.wait_connected(5)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _follow(self, link: HubLink, readers: tuple[int, ...]) -> None:
        while True:
            event = await link.next_event()
            self.events.append(event)
            if isinstance(event, Snapshot):
                for local, reader in enumerate(readers):
                    self.readings.pop(reader, None)
                    if local < len(event.readers) and event.readers[local].uids:
                        self.readings[reader] = list(event.readers[local].uids)
            elif isinstance(event, TagArrived):  # new, or put back on top of its stack
                stack = self.readings.setdefault(readers[event.reader], [])
                if event.uid in stack:
                    stack.remove(event.uid)
                stack.append(event.uid)
            elif isinstance(event, TagLeft):
                stack = self.readings.get(readers[event.reader], [])
                if event.uid in stack:
                    stack.remove(event.uid)
                    if not stack:
                        del self.readings[readers[event.reader]]

    def board(self) -> dict[str, str]:
        """Per site the top piece, or on a pile site (a tower) the whole pile."""
        board = {}
        for reader, uids in self.readings.items():
            site = self.table.profile.readers.get(reader)
            if site is None:
                continue
            names = [self.table.tags.piece_of(uid) or FOREIGN_PREFIX + uid_hex(uid)
                     for uid in uids]
            board[site] = pile_value(names) if site in self.table.pile_sites else names[-1]
        return dict(sorted(board.items()))

    async def until(self, condition: Callable[[], bool], timeout: float = 3.0) -> None:
        async with asyncio.timeout(timeout * SLOWDOWN):
            while not condition():
                await asyncio.sleep(0.005)

    async def settle(self) -> None:
        """Until the host's board is the table's physical board (generous: a loaded CI box)."""
        await self.until(lambda: self.board() == self.table.board(), timeout=10.0)

    def of(self, kind: type) -> list[Any]:
        return [event for event in self.events if isinstance(event, kind)]


@pytest.fixture
def make_table(tmp_path: Path) -> Iterator[Callable[..., VirtualTable]]:
    """Tiki Topple tables reached through stable links in tmp_path; `prepare` runs before the
    hub powers up (to break a reader before its self-test). All are closed afterwards."""
    tables: list[VirtualTable] = []

    def make(prepare: Callable[[VirtualTable], None] | None = None, **options: Any) -> VirtualTable:
        options.setdefault("scan_ms", 4)
        link = tmp_path / f"ttyHUB{len(tables)}"
        table = VirtualTable.for_game("tiki_topple", link_path=link, **options)
        tables.append(table)
        if prepare is not None:
            prepare(table)
        return table.start()

    yield make
    for table in tables:
        table.close()


@pytest.fixture
def table(make_table: Callable[..., VirtualTable]) -> VirtualTable:
    return make_table()


Body = Callable[[LinkWatcher], Awaitable[None]]


def follow(table: VirtualTable, body: Body) -> None:
    """Run an async test body with a LinkWatcher on `table`."""

    async def main() -> None:
        async with LinkWatcher(table) as watcher:
            await body(watcher)

    asyncio.run(main())


@pytest.fixture
def watch(table: VirtualTable) -> Callable[..., None]:
    """`follow` for the `table` fixture, or for the table given as `on`."""

    def run(body: Body, on: VirtualTable | None = None) -> None:
        follow(on or table, body)

    return run


@pytest.fixture
def watch_any() -> Callable[[VirtualTable, Body], None]:
    """`follow` for tables a test builds itself (other games, other profiles)."""
    return follow
