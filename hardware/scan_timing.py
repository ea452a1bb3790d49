"""How long one full scan of a hub's readers takes, and what it draws: a model built from the
register accesses the driver really makes, the air times ISO 14443-A fixes, and the hub's
wiring (run ``python -m hardware.scan_timing`` for the tables in docs/firmware.md).

Two ways the hub scans are modelled, both reading every tag in each field (``inventory``):

- **unscheduled** (no ``FIELD_CLASSES`` in the hub's config): every field stays on, the readers
  are read one after another, each waiting for its own radio frames. Fine for readers far
  apart; on a board whose readers sit closer than the fields' interference distance it garbles
  (``simulator.radio``).
- **scheduled**: the readers' fields are switched in classes (``hardware.field_schedule``);
  a class's fields come on together, the hub waits the tags' power-up once, checks the
  readers' known tags with the readers taking turns frame by frame (each frame flies while the
  hub starts the others'), starts each reader's REQA, then collects the answers in the same
  order (firmware/hub.py): the REQA nobody answers waits while the hub works on the others.

Unscheduled, every reader forms one class, read the same way.

Behind multiplexers (more than 16 readers) the address lines change when the hub moves to
another reader (firmware/chip_select.py).

Per reader and scan, the driver makes a known number of SPI transfers on each path (counted
from firmware/mfrc522.py by tests/firmware/test_firmware_scan_timing.py). Only the cost of an
SPI transfer and of a pin write from MicroPython are estimates; every hub reports its real scan
time in its heartbeat (``cycle_us``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from hardware.field_schedule import DEFAULT_RADIO, RadioSettings

SPI_TRANSFER_US = 30.0
"""One register access from MicroPython on a 125 MHz RP2040 (call, two pin toggles, 2 bytes at
4 MHz). The estimate the model rests on; the bytes on the wire take 4 us of it."""
PIN_WRITE_US = 3.0
"""One ``Pin.value()`` call from MicroPython on the RP2040 (ESTIMATE: a MicroPython loop
toggling a pin runs at a few hundred kHz)."""
MUX_SELECT_US = 6 * PIN_WRITE_US
"""Pointing 74HC4067 multiplexers at another reader: four address lines and two enables
(firmware/chip_select.py keeps them between accesses, so a register access itself costs what
a direct chip select does)."""
DIRECT_CHIP_SELECTS = 16
"""Up to this many readers get a GPIO each; more go behind multiplexers (docs/wiring.md)."""
HUB_OVERHEAD_US = 50.0
"""Per reader: the hub's debounce bookkeeping and a look at the USB port for commands."""
BYTE_US = 9 / 106_000 * 1e6
"""One byte on the air at 106 kbit/s: 8 bits and a parity bit, ~85 us."""
FRAME_DELAY_US = 86.0
"""ISO 14443-3 frame delay time: 1172 carrier cycles before a tag answers."""
TIMEOUT_US = 500.0
"""The driver's no-answer timeout (mfrc522.TIMER_TICKS x 25 us)."""
CRC_BYTE_US = 8.0
"""Software CRC_A per byte in MicroPython."""

INVENTORY_TRANSFERS = {"idle": 7, "known4": 25, "known7": 35, "new4": 37, "new7": 59}
"""SPI transfers of ``inventory``: ``idle`` is the closing REQA nobody answers (every scan of
a reader pays it), the others are per tag on top of it."""
SWITCH_TRANSFERS = 4
"""Switching one reader's field on and off (read and write TxControl each time)."""
TRANSACTIONS = {"idle": 1, "known4": 3, "known7": 4, "new4": 4, "new7": 6, "switch": 2}
"""Radio frames sent per path (the field switch sends none; it is two register writes)."""


def _exchange(tx_bytes: float, rx_bytes: int) -> float:
    return tx_bytes * BYTE_US + FRAME_DELAY_US + rx_bytes * BYTE_US


REQUEST_US = _exchange(7 / 9, 2)  # 7-bit short frame (REQA or WUPA), 2-byte ATQA
ANTICOLL_US = _exchange(2, 5)
SELECT_US = _exchange(9, 3) + 7 * CRC_BYTE_US
HLTA_US = 4 * BYTE_US + 2 * CRC_BYTE_US  # sent, not answered
AIR_US = {
    "idle": 7 / 9 * BYTE_US + TIMEOUT_US,
    "known4": REQUEST_US + SELECT_US + HLTA_US,
    "known7": REQUEST_US + 2 * SELECT_US + HLTA_US,
    "new4": REQUEST_US + ANTICOLL_US + SELECT_US + HLTA_US,
    "new7": REQUEST_US + 2 * (ANTICOLL_US + SELECT_US) + HLTA_US,
}
"""Time on the air per path (no collisions: each collision costs one more anticollision
frame, rare once the tags on a reader are known)."""
CHECK_FRAMES = {"known4": (REQUEST_US, SELECT_US, HLTA_US),
                "known7": (REQUEST_US, SELECT_US, SELECT_US, HLTA_US)}
"""The frames of checking one known tag: WUPA, a SELECT per cascade level, HLTA."""


# -- the scheduled design ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class InventoryCost:
    """One reader's part of a scan: SPI and CPU time, and time on the air."""

    cpu_us: float
    air_us: float
    wait_us: float = AIR_US["idle"]
    """Of both, the wait for the answer to the first REQA (its timeout when no new tag is
    there), which the hub overlaps with its work on the class's other readers."""
    collect_us: float = 0.0
    """Of both, what comes after that answer: finding the new tags, and the REQA nobody
    answers after them."""
    checks: tuple[tuple[float, float], ...] = ()
    """The known tags' check frames, each (CPU and SPI time, air time), not counted above:
    the hub works them in turn with the class's other readers'."""


def inventory_cost(tags: Sequence[int], mux: bool, known: bool = True,
                   switching: bool = True) -> InventoryCost:
    """One reader holding tags with these UID lengths (4, 7 or 10 bytes): switch its field on
    and off (``switching``), check (``known``) or find each tag, and the closing REQA nobody
    answers; behind multiplexers each move to this reader pays a selection."""
    kind = "known" if known else "new"
    paths = [f"{kind}{4 if size == 4 else 7}" for size in tags]
    new = [p for p in paths if p.startswith("new")]
    checks = tuple((INVENTORY_TRANSFERS[p] * SPI_TRANSFER_US / len(CHECK_FRAMES[p]), air)
                   for p in paths if p in CHECK_FRAMES for air in CHECK_FRAMES[p])
    transfers = INVENTORY_TRANSFERS["idle"] + sum(INVENTORY_TRANSFERS[p] for p in new)
    transfers += SWITCH_TRANSFERS if switching else 0
    selects = (2 if switching else 0) + 2  # field on and off; check and request, collect
    cpu = transfers * SPI_TRANSFER_US + HUB_OVERHEAD_US + (selects * MUX_SELECT_US if mux else 0)
    air = AIR_US["idle"] + sum(AIR_US[p] for p in new)
    if not new:
        return InventoryCost(cpu, air, checks=checks)
    collect = sum(INVENTORY_TRANSFERS[p] * SPI_TRANSFER_US + AIR_US[p] for p in new)
    return InventoryCost(cpu, air, REQUEST_US, collect - REQUEST_US + AIR_US["idle"], checks)


def unscheduled_scan_ms(readers: int, tags: Mapping[int, Sequence[int]],
                        read: Collection[int] | None = None) -> float:
    """One scan with every field on: all readers form one class, without power-up (``read``:
    only these readers were due, the hub watching others, firmware/hub.py)."""
    mux = readers > DIRECT_CHIP_SELECTS
    costs = (inventory_cost(tags.get(r, ()), mux, switching=False) for r in range(readers)
             if read is None or r in read)
    return class_window_us(costs, power_up_ms=0.0) / 1000


def class_window_us(costs: Iterable[InventoryCost], power_up_ms: float) -> float:
    """One class: its fields on, the tags' power-up, the readers' known tags checked in turn
    frame by frame (a reader's next frame waits for its last one's answer), each reader's
    REQA started, then the answers collected in the same order (a reader's first REQA waits
    while the hub works on the others)."""
    costs = list(costs)
    if not costs:
        return 0.0
    now = power_up_ms * 1000
    frames = [list(cost.checks) for cost in costs]
    done = [now] * len(costs)  # when each reader's last frame has its answer
    while any(frames):
        for reader, waiting in enumerate(frames):
            if waiting:
                cpu, air = waiting.pop(0)
                now = max(now, done[reader]) + cpu
                done[reader] = now + air
    started = []
    for cost, checked in zip(costs, done, strict=True):
        now = max(now, checked) + cost.cpu_us + cost.air_us - cost.wait_us - cost.collect_us
        started.append(now)
    for cost, start in zip(costs, started, strict=True):
        now = max(now, start + cost.wait_us) + cost.collect_us
    return now


@dataclass(frozen=True, slots=True)
class ScanFigures:
    readers: int
    field_classes: int
    scan_ms: float
    """One full scheduled scan with the tags given, all known to the hub."""
    worst_seen_ms: float
    """A tag laid just after its reader's class was read: the rest of this scan, the next
    scan up to the end of that class's window, finding it new."""
    field_ma: float
    """One field on."""
    peak_ma: float
    """The largest class on at once, plus every chip's own supply."""


USB_PORT_MA = 500.0
"""What a USB 2.0 port must deliver at most (five unit loads of 100 mA, USB 2.0 specification
7.2.1): all a hub's readers get when they hang on the Pico's USB power."""


def peak_ma(classes: Sequence[Sequence[int]], readers: int,
            settings: RadioSettings = DEFAULT_RADIO) -> float:
    """The most a hub's readers draw at once from their 5 V supply: the largest class's fields
    on together plus every chip's own supply (no schedule: every field on at once)."""
    largest = max((len(members) for members in classes), default=0) if classes else readers
    return round(largest * settings.field_ma + readers * settings.chip_ma, 1)


def scheduled_scan(
    classes: Sequence[Sequence[int]], tags: Mapping[int, Sequence[int]],
    settings: RadioSettings = DEFAULT_RADIO, read: Collection[int] | None = None,
) -> ScanFigures:
    """The figures of a hub scanning ``classes`` (reader numbers) with ``tags`` (reader to the
    UID lengths of the tags in its field); ``read``: only these readers were due."""
    readers = sum(len(members) for members in classes)
    mux = readers > DIRECT_CHIP_SELECTS
    windows = []
    for members in classes:
        windows.append(class_window_us(
            (inventory_cost(tags.get(r, ()), mux) for r in members
             if read is None or r in read), settings.power_up_ms))
    scan_us = sum(windows)
    worst = 0.0
    for members, window in zip(classes, windows, strict=True):
        for reader in members:
            held = list(tags.get(reader, ()))
            costs = [inventory_cost(tags.get(r, ()), mux) for r in members if r != reader]
            found = inventory_cost([*held, 7], mux, known=False)  # it finds the new tag
            worst = max(worst, scan_us - window
                        + class_window_us([*costs, found], settings.power_up_ms))
    peak = peak_ma(classes, readers, settings)
    return ScanFigures(readers, len(classes), round(scan_us / 1000, 1), round(worst / 1000, 1),
                       settings.field_ma, round(peak, 1))


def synced_scan_ms(schedules: Sequence[Sequence[Sequence[int]]],
                   tags: Sequence[Mapping[int, Sequence[int]]],
                   settings: RadioSettings = DEFAULT_RADIO,
                   read: Sequence[Collection[int] | None] | None = None) -> float:
    """One scan of a table whose hubs keep to common slots: each slot lasts as long as its
    slowest hub needs (``schedules``, ``tags`` and ``read``, the readers due, per hub, by the
    hub's reader numbers)."""
    due = list(read) if read is not None else [None] * len(schedules)
    total = 0.0
    for slot in zip(*schedules, strict=True):
        total += max(class_window_us(
            (inventory_cost(held.get(r, ()), sum(map(len, schedule)) > DIRECT_CHIP_SELECTS)
             for r in members if reading is None or r in reading), settings.power_up_ms)
            for members, held, schedule, reading in zip(slot, tags, schedules, due,
                                                        strict=True))
    return round(total / 1000, 1)


def main() -> None:
    print("per reader and scan (inventory, every tag known):")
    for label, tags in (("no tag", ()), ("one 4-byte tag", (4,)), ("one 7-byte tag", (7,)),
                        ("three 7-byte tags", (7, 7, 7))):
        cost = inventory_cost(tags, mux=False, switching=False)
        print(f"  {label:18} {(cost.cpu_us + cost.air_us) / 1000:5.2f} ms")
    print("\nunscheduled, 7-byte tags: readers  occupied  scan ms")
    for readers in (10, 16, 64):
        for occupied in (0, readers // 2, readers):
            tags = {r: (7,) for r in range(occupied)}
            print(f"{readers:36}  {occupied:8}  {unscheduled_scan_ms(readers, tags):7.1f}")


if __name__ == "__main__":
    main()
