"""The slot line driver (firmware/slot_line.py): under MicroPython with fake pins, and as a
table of hubs in CPython threads on a simulated wired-AND bus, whose work intervals must never
put two hubs in different slots at once."""

from __future__ import annotations

import importlib.util
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
LINES = ("P0", "P1", "P2", "FRAME")


def load_driver() -> ModuleType:
    """The firmware file itself, imported as plain Python (it imports nothing)."""
    spec = importlib.util.spec_from_file_location("firmware_slot_line", FIRMWARE / "slot_line.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SlotLine = load_driver().SlotLine


# -- MicroPython --------------------------------------------------------------------------------

MPY_LONE_HUB = """
from slot_line import SlotLine

class Clock:
    def __init__(self):
        self.us = 0
    def ticks_us(self):
        self.us += 7
        return self.us
    def ticks_diff(self, a, b):
        return a - b

class Line:
    def __init__(self):
        self.holders = 0
        self.history = []
    def value(self, level=None):
        if level is None:
            return 0 if self.holders else 1
        self.holders = 0 if level else 1
        self.history.append(level)

class Clamped:
    def value(self, level=None):
        return 0

clock = Clock()
lines = [Line() for _ in range(4)]
alone = SlotLine(lines, 4, clock, timeout_ms=5, join_ms=2, dwell_us=50)
seen = []
for scan in range(5):
    for index in range(4):
        alone.slot(index)
        seen.append(alone.at)
frame_holds = lines[3].history.count(0)
joined_after = clock.us

stuck = SlotLine([Line(), Clamped(), Line(), Line()], 4, Clock(), timeout_ms=5, join_ms=2)
calls = 0
for scan in range(3):
    for index in range(4):
        stuck.slot(index)
        calls += 1
report({'seen': seen, 'timeouts': alone.timeouts, 'joins': alone.joins,
        'frame_holds': frame_holds, 'in_step': alone.in_step, 'us': joined_after,
        'stuck_timeouts': stuck.timeouts, 'calls': calls, 'stuck_in_step': stuck.in_step})
"""


def test_under_micropython_a_lone_hub_runs_its_slots_and_a_clamped_line_times_out(
        micropython: Callable[[str], Any]) -> None:
    result = micropython(MPY_LONE_HUB)
    assert result["seen"] == [0, 1, 2, 3] * 5  # the padding slots 4, 5 pass inside slot(0)
    assert result["timeouts"] == 0 and result["joins"] == 0 and result["in_step"]
    assert result["frame_holds"] == 5  # one FRAME per scan: the first when it started alone
    assert result["us"] < 5 * 1000 + 20_000  # the join wait (2 ms), then no waits to speak of
    assert result["calls"] == 12  # every call came back
    assert result["stuck_timeouts"] >= 1


def test_main_builds_the_slot_line_from_config(micropython: Callable[[str], Any]) -> None:
    out = micropython("""
import machine
machine.Pin.OPEN_DRAIN = 2   # the shim knows no open drain; the rp2 port does
import config, main
plain = main.build_hub()
config.SLOT_PINS = (10, 11, 12, 13)
config.FIELD_CLASSES = [[0, 1, 2, 3, 4], [], [5, 6, 7, 8, 9], []]
hub = main.build_hub()
hub.sync.slot(0)
report({'plain': plain.sync is None, 'slots': hub.sync.slots, 'period': hub.sync.period,
        'timeout_us': hub.sync.timeout_us,
        'at': hub.sync.at, 'p0': machine.PINS[10].history[-1]})
""")
    assert out["plain"] is True  # SLOT_PINS = None: one hub, no line
    assert out["slots"] == 4 and out["period"] == 6  # two padding slots
    assert out["timeout_us"] == 1_000_000  # config.SLOT_TIMEOUT_MS
    assert out["at"] == 0 and out["p0"] == 0  # alone on the (fake) lines: started, P0 held


# -- a table of hubs in CPython -------------------------------------------------------------


class Bus:
    """Four wired-AND lines: a line reads low while any hub holds it."""

    def __init__(self) -> None:
        self.held: dict[str, set[object]] = {name: set() for name in LINES}
        self.lock = threading.Lock()

    def pins(self, owner: object) -> list[Pin]:
        return [Pin(self, name, owner) for name in LINES]

    def hold(self, owner: object, *names: str) -> None:
        with self.lock:
            for name in names:
                self.held[name].add(owner)

    def release(self, owner: object) -> None:
        """The owner is gone (unplugged, rebooting, or its fault cleared): its lines float."""
        with self.lock:
            for holders in self.held.values():
                holders.discard(owner)


class Pin:
    """An open-drain pin of one hub on the bus."""

    def __init__(self, bus: Bus, name: str, owner: object) -> None:
        self.bus, self.name, self.owner = bus, name, owner
        self.dead = False

    def value(self, level: int | None = None) -> int | None:
        if level is None:
            time.sleep(0.00003)  # a poll takes time; lets the other hubs' threads run
            return 0 if self.bus.held[self.name] else 1
        if self.dead:  # a frozen hub: its pins keep what they had
            return None
        with self.bus.lock:
            if level:
                self.bus.held[self.name].discard(self.owner)
            else:
                self.bus.held[self.name].add(self.owner)
        return None


class Clock:
    def ticks_us(self) -> int:
        return time.monotonic_ns() // 1000

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b


Interval = tuple[str, int, float, float, bool]
"""(hub, slot index, start, end, in step) of one slot a hub worked."""


class Hub:
    """A hub's scan loop (hub.py's scan_cycle) in a thread: each slot random work, sometimes a
    stall (a GC pause, a long USB write)."""

    def __init__(self, name: str, bus: Bus, slots: int, log: list[Interval], *,
                 timeout_ms: int = 1000, join_ms: int = 300, stall_ms: float = 40,
                 seed: int = 0) -> None:
        self.name = name
        self.bus = bus
        self.slots = slots
        self.log = log
        self.pins = bus.pins(self)
        self.line = SlotLine(self.pins, slots, Clock(), timeout_ms=timeout_ms, join_ms=join_ms,
                             dwell_us=3000)
        self.stall_ms = stall_ms
        self.rng = random.Random(seed)
        self.scans = 0
        self.stop = threading.Event()
        self.freeze = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self) -> Hub:
        self.thread.start()
        return self

    def run(self) -> None:
        while not self.stop.is_set():
            for index in range(self.slots):
                self.line.slot(index)
                start = time.monotonic()
                in_step = self.line.in_step
                work = self.rng.uniform(0.0002, 0.002)
                if self.rng.random() < 0.01:
                    work = self.stall_ms / 1000
                time.sleep(work)
                if self.freeze.is_set():  # stops answering mid-slot, its line held
                    for pin in self.pins:
                        pin.dead = True
                    return
                self.log.append((self.name, index, start, time.monotonic(), in_step))
            self.scans += 1
        self.bus.release(self)  # unplugged: the others no longer wait for it

    def halt(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        assert not self.thread.is_alive()


def overlaps(log: list[Interval], since: float = 0.0) -> list[tuple[Interval, Interval]]:
    """Pairs of in-step intervals of two hubs in different slots at overlapping times."""
    found = []
    active: list[Interval] = []
    for interval in sorted((i for i in log if i[4] and i[2] >= since), key=lambda i: i[2]):
        active = [a for a in active if a[3] > interval[2]]
        found += [(a, interval) for a in active if a[0] != interval[0] and a[1] != interval[1]]
        active.append(interval)
    return found


@pytest.fixture(autouse=True)
def quick_switching() -> Iterator[None]:
    """Hand the GIL around often, as each board has its own CPU."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.0002)
    yield
    sys.setswitchinterval(before)


def check_in_step(hub: Hub, log: list[Interval]) -> None:
    """The hub read every slot in step, but perhaps one scan when it joined: a join that
    misses the others' FRAME (this process descheduled for a moment, or a GC pause on a board)
    counts a timeout and reads that scan alone."""
    own = [i for i in log if i[0] == hub.name]
    assert hub.line.timeouts <= 1 and hub.line.slips == 0, hub.name
    assert sum(1 for i in own if not i[4]) <= hub.slots * hub.line.timeouts, hub.name
    assert hub.scans >= 10, (hub.name, hub.scans)


def run_for(seconds: float, hubs: list[Hub]) -> None:
    """Let the hubs run, then unplug them all at once (one by one, the last ones would wait
    for the first ones' lines)."""
    time.sleep(seconds)
    for hub in hubs:
        hub.stop.set()
    for hub in hubs:
        hub.halt()


def test_the_overlap_check_sees_hubs_out_of_step() -> None:
    log = [("a", 0, 0.0, 1.0, True), ("b", 1, 0.5, 1.5, True), ("c", 1, 0.2, 0.3, False),
           ("b", 0, 2.0, 3.0, True), ("a", 0, 2.5, 3.5, True)]
    assert overlaps(log) == [(log[0], log[1])]


def test_a_hub_alone_runs_at_full_speed() -> None:
    bus = Bus()
    line = SlotLine(bus.pins("alone"), 4, Clock(), timeout_ms=1000, join_ms=20, dwell_us=100)
    started = time.monotonic()
    for _scan in range(200):
        for index in range(4):
            line.slot(index)
            assert line.at == index
    took = time.monotonic() - started
    assert line.timeouts == 0 and line.slips == 0 and line.joins == 0
    assert took < 0.02 + 200 * 0.02, took  # the join wait once; then microseconds a slot
    assert bus.held["P0"] == {"alone"} and not bus.held["FRAME"]  # working slot 0: P0 only


@pytest.mark.parametrize("slots", [1, 3, 4])
def test_hubs_keep_in_step_and_a_late_one_joins(slots: int) -> None:
    """Three hubs booting together, a fourth 0.6 s later; work times differ, stalls happen."""
    bus, log = Bus(), []
    hubs = [Hub(f"hub{n}", bus, slots, log, seed=n).start() for n in range(3)]
    time.sleep(0.6)
    late = Hub("late", bus, slots, log, seed=9).start()
    run_for(1.4, [*hubs, late])
    assert not overlaps(log), [(h.name, h.line.timeouts, h.line.slips) for h in [*hubs, late]]
    for hub in [*hubs, late]:
        check_in_step(hub, log)
    assert late.line.joins == 1
    assert sum(hub.line.joins for hub in hubs) <= 2  # the first to wait out join_ms started


def test_a_restarted_hub_joins_in_step() -> None:
    bus, log = Bus(), []
    hubs = [Hub(f"hub{n}", bus, 4, log, seed=n).start() for n in range(3)]
    time.sleep(0.6)
    hubs[1].halt()  # rebooting: its pins float
    time.sleep(0.1)
    again = Hub("hub1 again", bus, 4, log, seed=11).start()
    run_for(0.9, [hubs[0], hubs[2], again])
    assert not overlaps(log)
    assert again.line.joins == 1
    for hub in [hubs[0], hubs[2], again]:
        check_in_step(hub, log)


@pytest.mark.parametrize("held", [("P1",), LINES], ids=["stuck hub", "unpowered hub"])
def test_hubs_go_on_without_a_hub_holding_lines_and_step_again_once_it_is_gone(
        held: tuple[str, ...]) -> None:
    """A hub stops answering holding its line (and P1), or an unpowered one clamps all four
    low: the others time out and go on, and once it is gone they run in step again."""
    bus, log = Bus(), []
    hubs = [Hub(f"hub{n}", bus, 4, log, timeout_ms=60, join_ms=60, seed=n).start()
            for n in range(3)]
    time.sleep(0.5)
    if held == ("P1",):
        hubs[2].freeze.set()  # stops mid-slot, whatever line it held then stays held
        hubs[2].thread.join(timeout=5)
        dead: object = hubs[2]
        live = hubs[:2]
    else:
        dead = "unpowered"  # a fourth hub, switched off, its pins clamping every line low
        live = hubs
    bus.hold(dead, *held)
    before = [hub.scans for hub in live]
    time.sleep(1.0)
    assert all(hub.line.timeouts > 0 for hub in live)
    assert all(hub.scans >= b + 3 for hub, b in zip(live, before, strict=True))  # go on
    bus.release(dead)  # unplugged from the bus, or powered again
    gone = time.monotonic()
    time.sleep(0.3)
    settled = time.monotonic()
    counts = [hub.line.timeouts for hub in live]
    run_for(0.6, live)
    assert not overlaps(log, since=gone)  # hubs in step never overlap, even while recovering
    assert not overlaps(log)
    assert [hub.line.timeouts for hub in live] == counts  # in step again, no more timeouts
    for hub in live:
        tail = [i for i in log if i[0] == hub.name and i[2] >= settled]
        assert len(tail) >= 40 and all(i[4] for i in tail), hub.name


def test_hubs_three_slots_apart_notice_it_and_realign() -> None:
    """Two hubs that started alone at nearly the same time can agree on the phase line and
    still be 3 slots apart: FRAME shows it and one of them rejoins."""
    bus, log = Bus(), []
    first = Hub("first", bus, 4, log, seed=1)
    second = Hub("second", bus, 4, log, seed=2)
    first.line.at = 0  # as if each had started alone, 3 slots apart: same phase (P0)
    bus.hold(first, "P0")
    second.line.at = 3
    bus.hold(second, "P0")
    first.line.since = second.line.since = Clock().ticks_us()  # entered their slots just now
    first.start()
    second.start()
    time.sleep(0.6)
    realigned = time.monotonic()
    run_for(0.6, [first, second])
    assert first.line.slips + second.line.slips >= 1
    assert first.line.joins + second.line.joins >= 1
    assert not overlaps(log, since=realigned)
    assert first.line.in_step and second.line.in_step
