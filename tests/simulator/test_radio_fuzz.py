"""Radio fuzz: hands lay and take tags at random sites, heights and moments of the hub's scan
(between any two field classes), and the host's stacks always come to the true ones in time.

The whole chain runs: the firmware's hub and MFRC522 driver (CPython), register-level chips,
the radio, the hub protocol decoded by the host's codec, and the controller's tracker. Time is a
fake clock that moves only while the hub waits for the tags' power-up, so a hand can act
between any two classes of any scan.

The documented worst cases (docs/performance.md) are in scans: a tag laid down is reported
within two scans (the rest of this one, then the next up to its reader's class); a tag taken
away is reported once it has been missed ``MISS_LIMIT`` scans in a row, within one more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.tracker import Tracker
from hardware.codec import StreamDecoder
from hardware.field_schedule import DEFAULT_RADIO, field_classes, layout_mm
from hardware.protocol import Snapshot, TagArrived, TagLeft
from hardware.registry import uid_hex
from simulator.firmware_runtime import load_firmware
from simulator.radio import Radio
from simulator.virtual_mfrc522 import ChipBus, VirtualChip

FIRMWARE = load_firmware()
MISS_LIMIT = 3
GRID = layout_mm({row * 4 + col: (float(col), float(row)) for row in range(4) for col in range(4)})
"""Sixteen readers on a square grid, one pitch (40 mm) apart."""
CLASSES = field_classes(GRID)
TALLEST = 12
"""Stacks up to 12 pieces (24 mm: within reach; the driver reads up to 16 tags a field)."""


class Clock:
    """Fake time in microseconds; ``sleep_ms`` (the hub's power-up wait) lets hands act."""

    def __init__(self) -> None:
        self.us = 0
        self.hands: list = []

    def ticks_us(self) -> int:
        return self.us

    def ticks_ms(self) -> int:
        return self.us // 1000

    def ticks_add(self, a: int, b: int) -> int:
        return a + b

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_ms(self, ms: int) -> None:
        for hand in self.hands:
            hand()
        self.us += ms * 1000


class Port:
    def __init__(self) -> None:
        self.sent = bytearray()

    def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        self.sent += data


@dataclass
class Bench:
    """A 4 x 4 board of readers on a hub, and what its host makes of it."""

    clock: Clock = field(default_factory=Clock)
    radio: Radio = field(default_factory=lambda: Radio(GRID))
    port: Port = field(default_factory=Port)
    decoder: StreamDecoder = field(default_factory=StreamDecoder)
    tracker: Tracker = field(default_factory=lambda: Tracker(
        {reader: f"site{reader}" for reader in GRID}, lambda uid: uid, 0.0))
    truth: dict[int, list[bytes]] = field(default_factory=dict)
    """Per reader the tags on it, bottom to top."""
    laid: int = 0

    def __post_init__(self) -> None:
        drivers = []
        for reader in sorted(GRID):
            bus = ChipBus(VirtualChip(clock=self.clock, field=self.radio.antenna(reader)))
            drivers.append(FIRMWARE.mfrc522.Mfrc522(bus, bus, self.clock))
        self.hub = FIRMWARE.Hub(drivers, self.port, self.clock, "fuzz", miss_limit=MISS_LIMIT,
                                schedule=[list(members) for members in CLASSES])
        self.hub.boot()

    def scan(self) -> None:
        self.hub.scan_cycle()
        for packet in self.decoder.feed(bytes(self.port.sent)):
            message = packet.message
            if isinstance(message, TagArrived):
                self.tracker.tag_arrived(message.reader, uid_hex(message.uid), 0.0)
            elif isinstance(message, TagLeft):
                self.tracker.tag_left(message.reader, uid_hex(message.uid), 0.0)
            elif isinstance(message, Snapshot):
                raise AssertionError("nobody asked for a snapshot")
        self.port.sent.clear()
        assert not self.decoder.errors

    def lay(self, reader: int, uid: bytes, offset: tuple[float, float]) -> None:
        stack = self.truth.setdefault(reader, [])
        x, y = GRID[reader]
        height = len(stack) * DEFAULT_RADIO.layer_mm
        self.radio.place(uid, (x + offset[0], y + offset[1]), height, self.clock.ticks_us())
        stack.append(uid)
        self.laid += 1

    def take(self, reader: int, index: int) -> None:
        stack = self.truth[reader]
        self.radio.remove(stack.pop(index))
        for layer, uid in enumerate(stack):  # the ones above sink
            self.radio.set_height(uid, layer * DEFAULT_RADIO.layer_mm)
        if not stack:
            del self.truth[reader]

    def seen(self) -> dict[str, tuple[str, ...]]:
        return self.tracker.stacks

    def true_stacks(self) -> dict[str, tuple[str, ...]]:
        return {f"site{reader}": tuple(uid_hex(uid) for uid in stack)
                for reader, stack in sorted(self.truth.items())}


Move = tuple[str, int, int, tuple[float, float], int]
"""(lay or take, reader, index in the stack to take, offset of a laid tag in mm, the class of
the scan it happens before)."""

moves = st.lists(st.tuples(
    st.sampled_from(["lay", "lay", "take"]), st.sampled_from(sorted(GRID)),
    st.integers(0, 5), st.tuples(st.floats(-3, 3), st.floats(-3, 3)),
    st.integers(0, len(CLASSES) - 1)), min_size=1, max_size=25)


@settings(max_examples=100, deadline=None)
@given(moves)
def test_the_hosts_stacks_follow_the_hands_within_the_worst_case(plan: list[Move]) -> None:
    bench = Bench()
    uids = iter(bytes((0x04, 0x11, n >> 8, n & 0xFF, 0x22, 0x33, 0x44)) for n in range(10_000))
    bench.scan()
    for kind, reader, index, offset, at_class in plan:
        if ((kind == "take" and reader not in bench.truth)
                or (kind == "lay" and len(bench.truth.get(reader, ())) >= TALLEST)):
            continue
        moment = {"class": 0}

        def hand(kind=kind, reader=reader, index=index, offset=offset, at_class=at_class,
                 moment=moment) -> None:
            if moment["class"] == at_class:
                if kind == "lay":
                    bench.lay(reader, next(uids), offset)
                else:
                    bench.take(reader, index % len(bench.truth[reader]))
            moment["class"] += 1

        bench.clock.hands = [hand]
        bench.scan()  # the hand acts before its class
        bench.clock.hands = []
        wanted = bench.true_stacks()
        limit = 2 if kind == "lay" else MISS_LIMIT + 1
        for _ in range(limit):
            if bench.seen() == wanted:
                break
            bench.scan()
        assert bench.seen() == wanted, f"not seen after {limit} more scans"
    assert bench.laid > 0 or all(kind == "take" for kind, *_ in plan)
    assert bench.radio.noisy_exchanges == 0
