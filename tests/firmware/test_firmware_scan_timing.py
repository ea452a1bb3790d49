"""The scan-period model (hardware/scan_timing.py) must count the SPI transfers the real
driver makes on each path, or the figures in docs/firmware.md would drift from the code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.scan_timing import (
    INVENTORY_TRANSFERS,
    SWITCH_TRANSFERS,
    TRANSACTIONS,
    unscheduled_scan_ms,
)


def test_model_transfer_counts_match_the_driver(micropython: Callable[[str], Any]) -> None:
    counted = micropython("""
import machine
from virtual_mfrc522 import VirtualChip, ready_tag
from mfrc522 import Mfrc522
chip = VirtualChip()
machine.CHIPS[3] = chip
cs = machine.Pin(3, machine.Pin.OUT, value=1)
reader = Mfrc522(machine.SPI(0), cs)
reader.init()
def transfers(call):
    cs.history.clear()
    call()
    return cs.history.count(0)
def frames(call):
    before = chip.transceives
    call()
    return chip.transceives - before
many = {'idle': transfers(lambda: reader.inventory())}
sent = {'idle': frames(lambda: reader.inventory())}
switch = transfers(lambda: (reader.antenna(False), reader.antenna(True)))
for n, uid in ((4, b'\\x04\\x01\\x02\\x03'), (7, b'\\x04\\x01\\x02\\x03\\x04\\x05\\x06')):
    chip.tag = ready_tag(uid)
    chip.tag = ready_tag(uid)  # a fresh tag, not halted: REQA finds it
    many['new%d' % n] = transfers(lambda: reader.inventory()) - many['idle']
    many['known%d' % n] = transfers(lambda: reader.inventory((uid,))) - many['idle']
    chip.tag = ready_tag(uid)
    sent['new%d' % n] = frames(lambda: reader.inventory()) - sent['idle']
    sent['known%d' % n] = frames(lambda: reader.inventory((uid,))) - sent['idle']
sent['switch'] = 2
report({'many': many, 'switch': switch, 'sent': sent})
""")
    assert counted["many"] == INVENTORY_TRANSFERS
    assert counted["switch"] == SWITCH_TRANSFERS
    assert counted["sent"] == TRANSACTIONS


def test_scan_time_grows_with_the_tags_present() -> None:
    empty, half, full = (
        unscheduled_scan_ms(64, {r: (7,) for r in range(n)}) for n in (0, 32, 64))
    assert empty < half < full
    assert unscheduled_scan_ms(64, {r: (4,) for r in range(64)}) < full
