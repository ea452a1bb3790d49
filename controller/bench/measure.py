"""Measurements of the controller for ``tabletop bench``: figures, never pass/fail tests."""

from __future__ import annotations

import contextlib
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from controller.referee import Successors, decide
from games.core.game import CHANCE, Game, pile_pieces
from games.core.playout import random_step, seat_names


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def referee_timings(game: Game[Any], games: int, seed: int = 0,
                    progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """Per settle: ``decide`` on the board of the move really made, and separately on a wrong
    board (a discrepancy: the rarer, slower case, which also tries two quick steps).
    Per position change: building the successors (done right after each accepted move,
    while the players reach for the next piece)."""
    rng = random.Random(seed)
    settles: list[float] = []
    wrong_settles: list[float] = []
    builds: list[float] = []
    for number in range(games):
        state = game.initial(seat_names(game.max_players))
        while not game.is_terminal(state):
            start = time.perf_counter()
            successors = Successors(game, state)
            builds.append(time.perf_counter() - start)
            action = random_step(game, state, rng)
            after = game.apply(state, action)
            if not (game.actor(state) == CHANCE and successors.hidden_chance):
                board = game.board(after)
                start = time.perf_counter()
                decide(successors, board)
                settles.append(time.perf_counter() - start)
                wrong = dict(board)
                if wrong:
                    site = rng.choice(sorted(wrong))
                    wrong[site] = wrong[site] + ":x"  # a piece no move puts there
                    start = time.perf_counter()
                    decide(successors, wrong)
                    wrong_settles.append(time.perf_counter() - start)
            state = after
        progress(f"referee: {game.id} {number + 1}/{games} games")
    ms = 1000
    return {
        "games": games,
        "settles": len(settles),
        "settle_ms_p50": round(statistics.median(settles) * ms, 3),
        "settle_ms_p99": round(percentile(settles, 0.99) * ms, 3),
        "settle_ms_max": round(max(settles) * ms, 3),
        "wrong_board_ms_p50": round(statistics.median(wrong_settles) * ms, 3),
        "wrong_board_ms_p99": round(percentile(wrong_settles, 0.99) * ms, 3),
        "successors_ms_p50": round(statistics.median(builds) * ms, 3),
        "successors_ms_p99": round(percentile(builds, 0.99) * ms, 3),
        "successors_ms_max": round(max(builds) * ms, 3),
    }


def rss_mb() -> float:
    """Resident memory of this process, from /proc (Linux, as on the Pi)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class PtyHub:
    """Just enough hub to answer the link's hello and snapshot requests on a real pty, to send
    its heartbeat every second (a hub silent for longer is taken as down, its region blind),
    and to write tag frames at the moments the benchmark chooses."""

    def __init__(self, readers: int) -> None:
        import os
        import tty

        from hardware import codec

        self.codec = codec
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.readers = readers
        self.uids: dict[int, bytes] = {}
        self.seq = 0
        self.changes = 0
        """Tag frames sent, as the snapshot parts count them (docs/protocol.md)."""
        self.stop = False

    def send(self, message: Any) -> None:
        import os

        from hardware.protocol import TagArrived, TagLeft

        if isinstance(message, TagArrived | TagLeft):
            self.changes = (self.changes + 1) & 0xFFFF
            if isinstance(message, TagLeft):  # a snapshot asked for later says the same
                self.uids.pop(message.reader, None)
            else:
                self.uids[message.reader] = message.uid
        os.write(self.master, self.codec.encode(message, self.seq))
        self.seq = (self.seq + 1) & 0xFFFF

    def serve(self) -> None:
        import os
        import select

        from hardware.protocol import (
            PROTOCOL_VERSION,
            Heartbeat,
            Hello,
            ReaderState,
            ReaderStatus,
            RequestHello,
            RequestSnapshot,
            SnapshotPart,
        )

        decoder = self.codec.StreamDecoder()
        started = beat = time.monotonic()
        while not self.stop:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            now = time.monotonic()
            if now - beat >= 1.0:
                beat = now
                uptime = int((now - started) * 1000)
                self.send(Heartbeat(uptime, uptime // 10, 0, 0, 10_000))
            if not ready:
                continue
            for packet in decoder.feed(os.read(self.master, 4096)):
                if isinstance(packet.message, RequestHello):
                    self.send(Hello(PROTOCOL_VERSION, self.readers, 3, "bench"))
                elif isinstance(packet.message, RequestSnapshot):  # one part per reader
                    for n in packet.message.readers or range(self.readers):
                        self.send(SnapshotPart(self.changes, n, self.readers, ReaderState(
                            ReaderStatus.OK, (self.uids[n],) if n in self.uids else ())))


async def led_latency(events: int, rate: float,
                      progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """Time from a tag frame written to the hub's pty until the LED frame it causes is pushed.

    The settle time and the wait for unreported lifts are set to zero here: they are deliberate
    waits (the profile's ``settle_ms``; the hub's miss limit of scans after an arrival) that
    come on top of these figures. Each event lifts or puts back the bottom tiki, so each
    one changes what the LEDs show. The service deals the secrets (the digital dealer): the
    figure is the path from a frame to the light, not a search for another dealing.
    """
    import asyncio
    import tempfile
    import threading
    from pathlib import Path

    from gpiozero.pins.mock import MockFactory

    from controller.compose import build_service, load_board
    from hardware.leds import RecordingStrip
    from hardware.protocol import TagArrived, TagLeft

    profile = load_board("tiki_topple")
    hub = PtyHub(max(profile.readers) + 1)
    threading.Thread(target=hub.serve, daemon=True).start()
    stack = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
    with tempfile.TemporaryDirectory() as scratch:
        strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
        service, registry = build_service(profile, Path(scratch), urls=[hub.path], strip=strip,
                                          pin_factory=MockFactory(), rng=random.Random(0))
        for reader, tiki in enumerate(stack):
            uid = bytes([4, 0xA0, 0, 0, 0, 0, reader])
            registry.enroll(uid, f"tiki:{tiki}")
            hub.uids[reader] = uid
        service.wait_for_lifts = False  # the tracker's waits for the hub's scans: none
        service.watch_hubs = False  # this hub reads every reader every scan
        tracker = service.tracker
        tracker.settle_seconds = tracker.lift_latency = tracker.round_seconds = 0.0
        tracker.quick_seconds = tracker.tie_seconds = tracker.flicker_seconds = 0.0
        service.new_game(["anna", "ben"], {"edition": "gamewright"}, dealer="digital")
        pushes: list[float] = []
        relight = service.relight

        def timed_relight() -> None:
            before = service.lights.pushes
            relight()
            if service.lights.pushes != before:
                pushes.append(time.perf_counter())

        service.relight = timed_relight  # type: ignore[method-assign]
        task = asyncio.create_task(service.run())
        await service.link.wait_connected(10)
        deadline = time.perf_counter() + 10.0
        while service.table.status().phase != "play":  # the stack laid, as the hub says
            if time.perf_counter() > deadline:
                raise TimeoutError("the bench table never reached the phase 'play': the "
                                   f"hub's stack was judged {service.table.decision}")
            await asyncio.sleep(0.01)
        written: list[float] = []
        latencies: list[float] = []
        start = time.perf_counter()
        uid = hub.uids[8]
        peak = rss_mb()
        for number in range(events):
            due = start + number / rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            count = len(pushes)
            written.append(time.perf_counter())
            hub.send(TagLeft(8, uid) if number % 2 == 0 else TagArrived(8, uid))
            deadline = time.perf_counter() + 1.0
            while len(pushes) == count and time.perf_counter() < deadline:
                await asyncio.sleep(0.0005)
            if len(pushes) > count:
                latencies.append(pushes[count] - written[-1])
            if number % 200 == 0:
                peak = max(peak, rss_mb())
                progress(f"latency: {number}/{events} events")
        elapsed = time.perf_counter() - start
        hub.stop = True
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    ms = 1000
    return {
        "events": events,
        "rate_per_second": round(events / elapsed, 1),
        "lit": len(latencies),
        "latency_ms_p50": round(statistics.median(latencies) * ms, 2),
        "latency_ms_p99": round(percentile(latencies, 0.99) * ms, 2),
        "latency_ms_max": round(max(latencies) * ms, 2),
        "settle_ms_added_by_profile": profile.settle_ms,
        "rss_mb_peak": round(peak, 1),
    }


def tags_at_game_end(game: Game[Any], seed: int = 0) -> dict[str, int]:
    """The tags on each site at the end of a seeded random game with the most players: one
    per piece on the board, every stone of a tower (pile sites); covered cards under the top
    one are not counted (their games' boards report the top piece)."""
    rng = random.Random(seed)
    state = game.initial(seat_names(game.max_players))
    while not game.is_terminal(state):
        state = game.apply(state, random_step(game, state, rng))
    piles = {site.id for site in game.sites(game.max_players) if site.pile}
    return {site: len(pile_pieces(value)) if site in piles else 1
            for site, value in game.board(state).items()}


def hub_scan_figures(game: Game[Any], profile: Any) -> dict[str, Any]:
    """The scheduled scan of a game's profile with the tags of a finished game (UIDs as long
    as its ``[radio] uid_bytes``): readers,
    field classes, scan time, the worst time for a tag to be seen, currents. With several
    hubs: the scan of the hubs in step (each slot as long as its slowest hub), the busiest
    hub's worst seen time and the whole table's peak current."""
    from hardware.field_schedule import reader_layout, table_schedules
    from hardware.scan_timing import scheduled_scan, synced_scan_ms

    where = {site.id: (site.x, site.y) for site in game.sites(game.max_players)}
    positions = reader_layout(profile.readers, where, profile.radio)
    tags = tags_at_game_end(game)
    held = [{n: (profile.radio.uid_bytes,) * tags.get(profile.readers.get(reader, ""), 0)
             for n, reader in enumerate(hub.readers)} for hub in profile.hubs]
    schedules = table_schedules(positions, [hub.readers for hub in profile.hubs], profile.radio)
    each = [scheduled_scan(classes, tags_of, profile.radio)
            for classes, tags_of in zip(schedules, held, strict=True)]
    scan_ms = synced_scan_ms(schedules, held, profile.radio)
    return {"game": game.id, "readers": len(profile.readers), "hubs": len(profile.hubs),
            "field_classes": len(schedules[0]), "tags": sum(tags.values()),
            "scan_ms": scan_ms,
            "worst_seen_ms": round(max(f.worst_seen_ms - f.scan_ms for f in each) + scan_ms, 1),
            "field_ma": each[0].field_ma,
            "peak_ma": round(sum(f.peak_ma for f in each), 1)}
