"""The scan-period model (hardware/scan_timing.py) must count the SPI transfers the real
driver makes on each path, or the figures in docs/firmware.md would drift from the code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.scan_timing import TRANSFERS, scan_period_ms


def test_model_transfer_counts_match_the_driver(micropython: Callable[[str], Any]) -> None:
    counted = micropython("""
import machine
from fake_mfrc522 import FakeChip, FakeTag
from mfrc522 import Mfrc522
chip = FakeChip()
machine.CHIPS[3] = chip
cs = machine.Pin(3, machine.Pin.OUT, value=1)
reader = Mfrc522(machine.SPI(0), cs)
reader.init()
def transfers(call):
    cs.history.clear()
    call()
    return cs.history.count(0)
out = {'empty': transfers(lambda: reader.read_uid())}
for n, uid in ((4, b'\\x04\\x01\\x02\\x03'), (7, b'\\x04\\x01\\x02\\x03\\x04\\x05\\x06')):
    chip.tag = FakeTag(uid)
    out['new%d' % n] = transfers(lambda: reader.read_uid())
    out['known%d' % n] = transfers(lambda: reader.read_uid(uid))
report(out)
""")
    assert counted == TRANSFERS


def test_period_grows_with_occupied_readers() -> None:
    empty, half, full = (scan_period_ms(64, n, 7) for n in (0, 32, 64))
    assert empty < half < full
    assert scan_period_ms(64, 64, 4) < full
