"""Play over a noisy cable: the virtual hub with byte noise or lost bytes, read through the
real `HubLink`, and how long the host takes to see the table.

Used by the tests (tests/simulator/test_noisy_link.py: a move is seen within 2 s at 5 % noise,
never a wrong board) and by ``tabletop bench noisy-link`` for the figures in
docs/performance.md. The host's view is kept the way the controller keeps it (snapshots
replace, TagArrived puts on top, TagLeft takes out); every view it passes through is checked
against the table: only the board before the move or after it may ever be seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from hardware.link import Backoff, HubLink, LinkHealth
from hardware.protocol import Snapshot, TagArrived, TagLeft
from simulator.virtual_hub import LinkFaults
from simulator.virtual_table import VirtualTable

MOVES = (("tiki:nani", "stack:1"), ("tiki:kapu", "stack:4"), ("tiki:eepo", "stack:7"))
"""Tiki Topple pieces laid (and later lifted) one after the other."""


@dataclass
class NoisyRun:
    """What one run over a noisy cable measured (seconds; None: not within the timeout)."""

    noise_rate: float
    drop_rate: float
    connected_s: float | None = None
    first_snapshot_s: float | None = None
    moves_s: list[float | None] = field(default_factory=list)
    """Per put or lift, the time from the hand until the host's board showed it."""
    wrong: list[str] = field(default_factory=list)
    """Boards the host saw that were neither the one before a move nor the one after it."""
    health: LinkHealth | None = None
    seconds: float = 0.0
    """How long the run took, connecting included."""
    host_bytes: int = 0
    """Bytes the host wrote to the hub (its requests): what a storm would show."""
    hub_bytes: int = 0

    def figures(self) -> dict[str, Any]:
        seen = [t for t in self.moves_s if t is not None]
        health = self.health
        return {
            "noise_rate": self.noise_rate, "drop_rate": self.drop_rate,
            "connected_s": _round(self.connected_s),
            "first_snapshot_s": _round(self.first_snapshot_s),
            "moves": len(self.moves_s), "moves_seen": len(seen),
            "move_s_max": _round(max(seen)) if seen else None,
            "move_s_mean": _round(sum(seen) / len(seen)) if seen else None,
            "wrong_boards": len(self.wrong),
            "frame_loss": None if health is None or health.frame_loss is None
            else round(health.frame_loss, 3),
            "too_noisy": None if health is None else health.too_noisy,
            "snapshot_requests": None if health is None else health.snapshot_requests,
            "seconds": round(self.seconds, 2),
            "host_bytes_per_s": round(self.host_bytes / self.seconds) if self.seconds else None,
            "hub_bytes_per_s": round(self.hub_bytes / self.seconds) if self.seconds else None,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


class _View:
    """The host's board, as the controller's tracker would build it from the link's events."""

    def __init__(self, table: VirtualTable, run: NoisyRun) -> None:
        self.table = table
        self.run = run
        self.readings: dict[int, list[bytes]] = {}
        self.allowed: list[dict[str, str]] = [table.board()]
        self.snapshots = 0

    def board(self) -> dict[str, str]:
        names = {}
        for reader, uids in self.readings.items():
            site = self.table.profile.readers.get(reader)
            if site is not None and uids:
                names[site] = self.table.tags.piece_of(uids[-1]) or uids[-1].hex()
        return dict(sorted(names.items()))

    def take(self, event: object) -> None:
        if isinstance(event, Snapshot):
            self.snapshots += 1
            self.readings = {n: list(r.uids) for n, r in enumerate(event.readers) if r.uids}
        elif isinstance(event, TagArrived):
            stack = self.readings.setdefault(event.reader, [])
            if event.uid in stack:
                stack.remove(event.uid)
            stack.append(event.uid)
        elif isinstance(event, TagLeft):
            stack = self.readings.get(event.reader, [])
            if event.uid in stack:
                stack.remove(event.uid)
        else:
            return
        if self.snapshots and self.board() not in self.allowed:
            self.run.wrong.append(f"{self.board()} while the table showed {self.allowed}")


async def measure(noise_rate: float = 0.0, drop_rate: float = 0.0, *, moves: int = 6,
                  timeout: float = 10.0, seed: int = 0,
                  scan_ms: float | Literal["realistic"] = "realistic",
                  host_to_hub: bool = False, from_start: bool = True) -> NoisyRun:
    """Connect to a fresh Tiki Topple hub over a cable with these faults, wait for the first
    snapshot, then put pieces on and lift them one move at a time, timing each until the host
    sees it (a move not seen within ``timeout`` counts as None and ends the run).

    ``from_start=False``: the cable turns noisy once the hub is connected (a cable knocked
    mid-game); the first snapshot is then one asked for on the noisy cable, so that it is
    timed apart from the hello (the longest frame, which decides when a hub can connect)."""
    run = NoisyRun(noise_rate, drop_rate)
    table = VirtualTable.for_game("tiki_topple", scan_ms=scan_ms, seed=seed)
    faults = LinkFaults(noise_rate, drop_rate, host_to_hub)
    if from_start:
        table.hub.set_link_faults(faults)
    table.start()
    link = HubLink(table.url, backoff=Backoff(0.02, 2.0, 0.2))
    view = _View(table, run)

    async def follow() -> None:
        while True:
            view.take(await link.next_event())

    tasks = [asyncio.create_task(link.run()), asyncio.create_task(follow())]
    start = time.monotonic()
    try:
        try:
            await link.wait_connected(timeout)
            run.connected_s = time.monotonic() - start
            if not from_start:
                await _until(lambda: view.snapshots > 0, timeout)
                table.hub.set_link_faults(faults)
                start, seen = time.monotonic(), view.snapshots
                await link.request_snapshot()
                await _until(lambda: view.snapshots > seen, timeout)
            await _until(lambda: view.snapshots > 0, timeout)
            run.first_snapshot_s = time.monotonic() - start
        except TimeoutError:
            return run
        for number in range(moves):
            piece, site = MOVES[number // 2 % len(MOVES)]
            before = table.board()
            if number % 2 == 0:
                table.put(piece, site)
            else:
                table.lift(site)
            after = table.board()
            view.allowed = [before, after]
            hand = time.monotonic()
            try:
                await _until(lambda after=after: view.board() == after, timeout)  # type: ignore[misc]
            except TimeoutError:
                run.moves_s.append(None)
                break
            run.moves_s.append(time.monotonic() - hand)
            view.allowed = [after]
            await asyncio.sleep(0.1)  # a moment between two moves
    finally:
        run.health = link.health()
        run.seconds = time.monotonic() - start
        stats = table.hub.port_stats()
        run.host_bytes, run.hub_bytes = stats.bytes_in, stats.bytes_out
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        table.close()
    return run


async def _until(condition: Any, timeout: float) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.005)


async def judged(noise_rate: float = 0.0, drop_rate: float = 0.0, *, within: float = 5.0,
                 seed: int = 0) -> LinkHealth:
    """The link's health on a cable with these faults, once it says the cable is too noisy
    or after ``within`` seconds (the hub connected or not)."""
    table = VirtualTable.for_game("tiki_topple", seed=seed)
    table.hub.set_link_faults(LinkFaults(noise_rate, drop_rate))
    table.start()
    link = HubLink(table.url, backoff=Backoff(0.02, 2.0, 0.2))
    task = asyncio.create_task(link.run())
    try:
        with contextlib.suppress(TimeoutError):
            await _until(lambda: link.health().too_noisy, within)
        return link.health()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        table.close()
