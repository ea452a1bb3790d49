"""How long one full scan of a hub's readers takes, and what it draws: a model built from the
register accesses the driver really makes, the air times ISO 14443-A fixes, and the hub's
wiring (run ``python -m hardware.scan_timing`` for the tables in docs/firmware.md).

Two ways of scanning are modelled:

- **v1**, the firmware's loop today: every field on all the time, one reader after another,
  each ``read_uid`` waiting for its own radio frames; behind multiplexers the address is set on
  every register access. On a board whose readers sit closer than the fields' interference
  distance this garbles (``simulator.radio``), and it hears one tag per reader at best.
- **scheduled**, the design the field schedule calls for: the readers' fields are switched in
  classes (``hardware.field_schedule``); a class's fields come on together and the hub waits
  the tags' power-up once; each reader's ``inventory`` reads every tag in its field; the
  transactions of one class overlap on the air (the hub talks to one chip over SPI while the
  others wait for their tags), and a multiplexer address is set once per transaction.

Per reader and scan, the driver makes a known number of SPI transfers on each path (counted
from firmware/mfrc522.py by tests/firmware/test_firmware_scan_timing.py). Only the cost of an
SPI transfer and of a pin write from MicroPython are estimates; every hub reports its real scan
time in its heartbeat (``cycle_us``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hardware.field_schedule import DEFAULT_RADIO, RadioSettings

SPI_TRANSFER_US = 30.0
"""One register access from MicroPython on a 125 MHz RP2040 (call, two pin toggles, 2 bytes at
4 MHz). The estimate the model rests on; the bytes on the wire take 4 us of it."""
PIN_WRITE_US = 3.0
"""One ``Pin.value()`` call from MicroPython on the RP2040 (ESTIMATE: a MicroPython loop
toggling a pin runs at a few hundred kHz)."""
MUX_SELECT_US = 8 * PIN_WRITE_US
"""Selecting and releasing a reader behind 74HC4067 multiplexers: four address lines, the
mux's enable and the common line, then enable and common again (firmware/chip_select.py)."""
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

TRANSFERS = {"empty": 7, "known4": 25, "known7": 35, "new4": 37, "new7": 59}
"""SPI transfers of one ``read_uid`` (v1) per path, as the driver makes them."""
INVENTORY_TRANSFERS = {"idle": 7, "known4": 25, "known7": 35, "new4": 37, "new7": 59}
"""SPI transfers of ``inventory``: ``idle`` is the closing REQA nobody answers (every scan of
a reader pays it), the others are per tag on top of it."""
SWITCH_TRANSFERS = 4
"""Switching one reader's field on and off (read and write TxControl each time)."""
TRANSACTIONS = {"idle": 1, "known4": 3, "known7": 4, "new4": 4, "new7": 6, "switch": 2}
"""Radio frames (one multiplexer selection each in the scheduled design) per path."""


def _exchange(tx_bytes: float, rx_bytes: int) -> float:
    return tx_bytes * BYTE_US + FRAME_DELAY_US + rx_bytes * BYTE_US


REQUEST_US = _exchange(7 / 9, 2)  # 7-bit short frame (REQA or WUPA), 2-byte ATQA
ANTICOLL_US = _exchange(2, 5)
SELECT_US = _exchange(9, 3) + 7 * CRC_BYTE_US
HLTA_US = 4 * BYTE_US + 2 * CRC_BYTE_US  # sent, not answered
AIR_US = {
    "empty": 7 / 9 * BYTE_US + TIMEOUT_US,
    "idle": 7 / 9 * BYTE_US + TIMEOUT_US,
    "known4": REQUEST_US + SELECT_US + HLTA_US,
    "known7": REQUEST_US + 2 * SELECT_US + HLTA_US,
    "new4": REQUEST_US + ANTICOLL_US + SELECT_US + HLTA_US,
    "new7": REQUEST_US + 2 * (ANTICOLL_US + SELECT_US) + HLTA_US,
}
"""Time on the air per path (no collisions: each collision costs one more anticollision
frame, rare once the tags on a reader are known)."""


@dataclass(frozen=True, slots=True)
class ReaderCost:
    path: str
    transfers: int
    air_us: float

    @property
    def micros(self) -> float:
        return self.transfers * SPI_TRANSFER_US + self.air_us + HUB_OVERHEAD_US


def reader_costs() -> dict[str, ReaderCost]:
    """Microseconds one reader costs per v1 scan on each path through ``read_uid``."""
    return {path: ReaderCost(path, TRANSFERS[path], AIR_US[path]) for path in TRANSFERS}


def scan_period_ms(readers: int, occupied: int, uid_bytes: int) -> float:
    """One full v1 scan with ``occupied`` readers holding a tag already known to the hub;
    behind multiplexers (more than 16 readers) every register access selects the reader."""
    if not 0 <= occupied <= readers:
        raise ValueError("occupied must be between 0 and the number of readers")
    costs = reader_costs()
    mux = MUX_SELECT_US if readers > DIRECT_CHIP_SELECTS else 0.0
    tag = costs["known4" if uid_bytes == 4 else "known7"]
    empty = costs["empty"]
    per_empty = empty.micros + empty.transfers * mux
    per_tag = tag.micros + tag.transfers * mux
    return ((readers - occupied) * per_empty + occupied * per_tag) / 1000


# -- the scheduled design ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class InventoryCost:
    """One reader's part of a scheduled scan: SPI and CPU time, and time on the air."""

    cpu_us: float
    air_us: float


def inventory_cost(tags: Sequence[int], mux: bool, known: bool = True) -> InventoryCost:
    """One reader in a scheduled scan holding tags with these UID lengths (4, 7 or 10
    bytes): switch its field on and off, check (``known``) or find each tag, and the closing
    REQA nobody answers."""
    kind = "known" if known else "new"
    paths = [f"{kind}{4 if size == 4 else 7}" for size in tags]
    transfers = SWITCH_TRANSFERS + INVENTORY_TRANSFERS["idle"] + sum(
        INVENTORY_TRANSFERS[p] for p in paths)
    selects = TRANSACTIONS["switch"] + TRANSACTIONS["idle"] + sum(TRANSACTIONS[p] for p in paths)
    cpu = transfers * SPI_TRANSFER_US + HUB_OVERHEAD_US + (selects * MUX_SELECT_US if mux else 0)
    air = AIR_US["idle"] + sum(AIR_US[p] for p in paths)
    return InventoryCost(cpu, air)


def class_window_us(costs: Iterable[InventoryCost], settings: RadioSettings) -> float:
    """One class: fields on, the tags' power-up, then the readers' transactions overlapped (the
    hub's CPU and SPI bus are shared, the waits for answers are not)."""
    costs = list(costs)
    if not costs:
        return 0.0
    cpu = sum(cost.cpu_us for cost in costs)
    return settings.power_up_ms * 1000 + max(cpu, max(c.cpu_us + c.air_us for c in costs))


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


def scheduled_scan(
    classes: Sequence[Sequence[int]], tags: Mapping[int, Sequence[int]],
    settings: RadioSettings = DEFAULT_RADIO,
) -> ScanFigures:
    """The figures of a hub scanning ``classes`` (reader numbers) with ``tags`` (reader to the
    UID lengths of the tags in its field)."""
    readers = sum(len(members) for members in classes)
    mux = readers > DIRECT_CHIP_SELECTS
    windows = []
    for members in classes:
        windows.append(class_window_us(
            (inventory_cost(tags.get(r, ()), mux) for r in members), settings))
    scan_us = sum(windows)
    worst = 0.0
    for members, window in zip(classes, windows, strict=True):
        for reader in members:
            held = list(tags.get(reader, ()))
            costs = [inventory_cost(tags.get(r, ()), mux) for r in members if r != reader]
            found = inventory_cost([*held, 7], mux, known=False)  # it finds the new tag
            worst = max(worst, scan_us - window + class_window_us([*costs, found], settings))
    largest = max((len(members) for members in classes), default=0)
    peak = largest * settings.field_ma + readers * settings.chip_ma
    return ScanFigures(readers, len(classes), round(scan_us / 1000, 1), round(worst / 1000, 1),
                       settings.field_ma, round(peak, 1))


def table() -> list[tuple[int, str, int, float, float]]:
    rows = []
    for readers in (56, 64):
        for occupied in (0, readers // 2, readers):
            for uid in (4, 7):
                if occupied == 0 and uid == 7:
                    continue
                period = scan_period_ms(readers, occupied, uid)
                label = "-" if occupied == 0 else f"{uid}-byte"
                rows.append((readers, label, occupied, round(period, 1), round(1000 / period, 1)))
    return rows


def main() -> None:
    costs = reader_costs()
    print("v1, per reader and scan:")
    for cost in costs.values():
        print(f"  {cost.path:7} {cost.transfers:3} SPI transfers  {cost.micros / 1000:5.2f} ms")
    print("\nreaders  tags     occupied  scan period ms  scans/s")
    for readers, label, occupied, period, rate in table():
        print(f"{readers:7}  {label:7}  {occupied:8}  {period:14}  {rate:7}")


if __name__ == "__main__":
    main()
