"""The real MFRC522 driver and chip-select wiring under MicroPython, against a register-level
fake chip with an ISO 14443-A tag model (simulator/virtual_mfrc522.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SETUP = """
import time
from binascii import hexlify
hx = lambda b: hexlify(b or b'').decode()
import machine
from virtual_mfrc522 import VirtualChip, ready_tag
from mfrc522 import Mfrc522, ReaderBusError
spi = machine.SPI(0)
def reader(pin, chip):
    machine.CHIPS[pin] = chip
    return Mfrc522(spi, machine.Pin(pin, machine.Pin.OUT, value=1))
"""


def test_reads_4_7_and_10_byte_uids_and_sees_empty_readers(
    micropython: Callable[[str], Any],
) -> None:
    out = micropython(SETUP + """
chips = [VirtualChip() for _ in range(4)]
readers = [reader(10 + i, c) for i, c in enumerate(chips)]
uids = [b'\\x04\\xa1\\xb2\\xc3', b'\\x04\\x11\\x22\\x33\\x44\\x55\\x66', bytes(range(1, 11)), None]
for chip, uid in zip(chips, uids):
    chip.tag = ready_tag(uid) if uid else None
res = {'versions': [r.version() for r in readers]}
for r in readers:
    r.init()
res['resets'] = [c.soft_resets for c in chips]
first = [r.inventory() for r in readers]
res['first'] = [[hx(u) for u in found] for found in first]
res['again'] = [[hx(u) for u in r.inventory(tuple(found))] for r, found in zip(readers, first)]
res['states'] = [c.tag.state if c.tag else None for c in chips]
report(res)
""")
    assert out["versions"] == [0x92] * 4
    assert out["resets"] == [1] * 4
    expected = [["04a1b2c3"], ["04112233445566"], ["0102030405060708090a"], []]
    assert out["first"] == out["again"] == expected  # HLTA + WUPA: read again every scan
    assert out["states"] == ["HALT", "HALT", "HALT", None]


def test_known_uid_is_checked_with_select_only(micropython: Callable[[str], Any]) -> None:
    out = micropython(SETUP + """
chip = VirtualChip()
r = reader(5, chip)
r.init()
chip.tag = ready_tag(b'\\x04\\x11\\x22\\x33\\x44\\x55\\x66')
uid = r.inventory()[0]
before = chip.transceives
same = r.inventory((uid,))
cheap = chip.transceives - before
chip.tag = ready_tag(b'\\x04\\x99\\x88\\x77\\x66\\x55\\x44')   # swapped between two scans
swapped = r.inventory((uid,))
report({'same': [hx(u) for u in same], 'cheap': cheap, 'full': before,
        'swapped': [hx(u) for u in swapped]})
""")
    assert out["same"] == ["04112233445566"]
    assert out["swapped"] == ["04998877665544"]  # the old one missed, the new one found
    assert out["cheap"] < out["full"]  # WUPA + 2 SELECT + HLTA instead of 2 more anticollisions


def test_dead_chip_is_a_bus_error_not_a_hang(micropython: Callable[[str], Any]) -> None:
    out = micropython(SETUP + """
chip = VirtualChip(dead=True)
r = reader(6, chip)
version = r.version()
try:
    r.inventory()
    raised = None
except ReaderBusError as exc:
    raised = str(exc)
report({'version': version, 'raised': raised})
""")
    assert out["version"] == 0
    assert "never finished" in out["raised"]


def test_hub_with_real_driver_end_to_end(micropython: Callable[[str], Any]) -> None:
    out = micropython(SETUP + """
import binascii
from hub import Hub
from fakes import FakePort
chips = [VirtualChip(), VirtualChip(dead=True), VirtualChip()]
readers = [reader(20 + i, c) for i, c in enumerate(chips)]
chips[2].tag = ready_tag(b'\\x04\\xa1\\xb2\\xc3')
port = FakePort()
hub = Hub(readers, port, time, 'fw')
hub.boot()
hub.scan_cycle()
chips[2].tag = None
for _ in range(3):
    hub.scan_cycle()
report(binascii.hexlify(port.take()).decode())
""")
    from hardware.codec import StreamDecoder
    from hardware.protocol import ReaderStatus, SelfTest, TagArrived, TagLeft

    decoder = StreamDecoder()
    got = [p.message for p in decoder.feed(bytes.fromhex(out))]
    assert decoder.dropped == 0
    assert isinstance(got[1], SelfTest)
    assert [c.status for c in got[1].readers] == [
        ReaderStatus.OK,
        ReaderStatus.NO_RESPONSE,
        ReaderStatus.OK,
    ]
    uid = bytes.fromhex("04a1b2c3")
    assert got[2:] == [TagArrived(2, uid), TagLeft(2, uid)]


def test_mux_chip_select_drives_address_enable_and_signal(
    micropython: Callable[[str], Any],
) -> None:
    out = micropython("""
import machine
from chip_select import chip_selects
class Config:
    CHIP_SELECT = 'mux'
    MUX_ADDRESS_PINS = [2, 3, 4, 5]
    MUX_ENABLE_PINS = [6, 7, 8, 9]
    MUX_SIGNAL_PIN = 17
    READER_COUNT = 64
pins = chip_selects(Config, lambda n: machine.Pin(n, machine.Pin.OUT, value=1))
levels = lambda: [machine.PINS[n].level for n in (2, 3, 4, 5, 6, 7, 8, 9, 17)]
pins[37].value(0)
selected = levels()
pins[37].value(1)
released = levels()
writes = lambda: sum(len(machine.PINS[n].history) for n in (2, 3, 4, 5, 6, 7, 8, 9, 17))
before = writes()
pins[37].value(0); pins[37].value(1)   # the next register access of the same transaction
same = writes() - before
pins[3].value(0)                       # another reader, on mux 0
other = levels()
try:
    chip_selects(type('C', (), {'CHIP_SELECT': 'spi'}), None)
    error = None
except ValueError as exc:
    error = str(exc)
report({'n': len(pins), 'selected': selected, 'released': released, 'error': error,
        'same': same, 'other': other})
""")
    assert out["n"] == 64
    # reader 37 = mux 2, channel 5 (S0=1, S1=0, S2=1, S3=0); only EN2 low; SIG low
    assert out["selected"] == [1, 0, 1, 0, 1, 1, 0, 1, 0]
    assert out["released"] == [1, 0, 1, 0, 1, 1, 0, 1, 1]  # SIG high deselects; address kept
    assert out["same"] == 2  # the same reader again: SIG low and high, nothing else
    # reader 3 = mux 0, channel 3: EN2 back high, EN0 low
    assert out["other"] == [1, 1, 0, 0, 0, 1, 1, 1, 0]
    assert "'direct' or 'mux'" in out["error"]


def test_main_builds_the_hub_from_config(micropython: Callable[[str], Any]) -> None:
    out = micropython("""
import machine
import main, config
hub = main.build_hub()
report({'readers': len(hub.readers), 'cs': sorted(machine.PINS), 'misses': hub.miss_limit})
""")
    assert out["readers"] == 10
    assert set(range(10)) <= set(out["cs"])
    assert out["misses"] == 1  # config.MISS_LIMIT


def test_safe_mode_jumper_leaves_the_repl_alone(micropython: Callable[[str], Any]) -> None:
    out = micropython("""
import machine
machine.LEVELS[22] = 0
import main
main.run()   # returns at once: no hub, no readers, Ctrl-C left working
report({'spi_pins_claimed': 18 in machine.PINS, 'cs_pins_claimed': 0 in machine.PINS})
""")
    assert out == {"spi_pins_claimed": False, "cs_pins_claimed": False}
