"""How long one full scan of the hub's readers takes: a model built from the reader timings
the firmware really has (run `python -m hardware.scan_timing` for the table in docs/firmware.md).

Per reader and scan, firmware/mfrc522.py makes a known number of SPI transfers (counted from the
driver itself by tests/firmware/test_firmware_scan_timing.py) and waits for radio frames whose
length ISO 14443-A fixes at 106 kbit/s. Only the cost of one SPI transfer from MicroPython is
an estimate; every hub reports the real figure in its heartbeat (`cycle_us`).
"""

from __future__ import annotations

from dataclasses import dataclass

SPI_TRANSFER_US = 30.0
"""One register access from MicroPython on a 125 MHz RP2040 (call, two pin toggles, 2 bytes at
4 MHz). The estimate the model rests on; the bytes on the wire take 4 us of it."""
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

# SPI transfers per read_uid() path, as the driver makes them (checked by a firmware test).
TRANSFERS = {"empty": 7, "known4": 28, "known7": 38, "new4": 39, "new7": 60}


def _exchange(tx_bytes: float, rx_bytes: int) -> float:
    return tx_bytes * BYTE_US + FRAME_DELAY_US + rx_bytes * BYTE_US


WUPA_US = _exchange(7 / 9, 2)  # 7-bit short frame, 2-byte ATQA
ANTICOLL_US = _exchange(2, 5)
SELECT_US = _exchange(9, 3) + 7 * CRC_BYTE_US
HLTA_US = 4 * BYTE_US + 2 * CRC_BYTE_US  # sent, not answered


@dataclass(frozen=True, slots=True)
class ReaderCost:
    path: str
    transfers: int
    air_us: float

    @property
    def micros(self) -> float:
        return self.transfers * SPI_TRANSFER_US + self.air_us + HUB_OVERHEAD_US


def reader_costs() -> dict[str, ReaderCost]:
    """Microseconds one reader costs per scan on each path through the driver."""
    air = {
        "empty": 7 / 9 * BYTE_US + TIMEOUT_US,
        "known4": WUPA_US + SELECT_US + HLTA_US,
        "known7": WUPA_US + 2 * SELECT_US + HLTA_US,
        "new4": WUPA_US + ANTICOLL_US + SELECT_US + HLTA_US,
        "new7": WUPA_US + 2 * (ANTICOLL_US + SELECT_US) + HLTA_US,
    }
    return {path: ReaderCost(path, TRANSFERS[path], air[path]) for path in TRANSFERS}


def scan_period_ms(readers: int, occupied: int, uid_bytes: int) -> float:
    """One full scan with `occupied` readers holding a tag already known to the hub."""
    if not 0 <= occupied <= readers:
        raise ValueError("occupied must be between 0 and the number of readers")
    costs = reader_costs()
    tag = costs["known4" if uid_bytes == 4 else "known7"].micros
    return ((readers - occupied) * costs["empty"].micros + occupied * tag) / 1000


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
    print("per reader and scan:")
    for cost in costs.values():
        print(f"  {cost.path:7} {cost.transfers:3} SPI transfers  {cost.micros / 1000:5.2f} ms")
    print("\nreaders  tags     occupied  scan period ms  scans/s")
    for readers, label, occupied, period, rate in table():
        print(f"{readers:7}  {label:7}  {occupied:8}  {period:14}  {rate:7}")


if __name__ == "__main__":
    main()
