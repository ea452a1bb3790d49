"""The radio as it is: ISO 14443-3 tag states, collisions, power-up, reach, neighbouring fields;
read by the real driver (firmware/mfrc522.py, run in CPython) through the register-level chip.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.field_schedule import RadioSettings, clashes, field_classes, layout_mm
from simulator import iso14443
from simulator.iso14443 import REQA, WUPA, Field, Tag, crc_a, to_bits
from simulator.radio import Radio
from simulator.virtual_mfrc522 import ChipBus, VirtualChip

DRIVER_PATH = "firmware/mfrc522.py"


def load_driver() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mfrc522_driver", DRIVER_PATH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DRIVER = load_driver()


class Clock:
    """Microseconds that pass with each look at the clock, and when a test waits."""

    def __init__(self) -> None:
        self.us = 0

    def ticks_us(self) -> int:
        self.us += 1
        return self.us

    def ticks_add(self, a: int, b: int) -> int:
        return a + b

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b


def driver_for(field: object, clock: Clock) -> object:
    chip = VirtualChip(clock=clock, field=field)
    bus = ChipBus(chip)
    reader = DRIVER.Mfrc522(bus, bus, clock)
    reader.init()
    return reader


def frame(*data: int) -> list[int]:
    return to_bits(bytes(data))


def with_crc(*data: int) -> list[int]:
    return to_bits(bytes(data) + crc_a(bytes(data)))


# -- the tag's states -------------------------------------------------------------------------
def test_a_halted_tag_answers_wupa_only_and_falls_back_to_halt() -> None:
    tag = Tag(bytes.fromhex("04a1b2c3"), 0)
    tag.field_on(0)
    assert tag.ready_to_answer(0) and tag.state == "IDLE"
    assert tag.hear(frame(REQA)[:7]) is not None and tag.state == "READY"
    uid_bcc = bytes.fromhex("04a1b2c3") + bytes((0x04 ^ 0xA1 ^ 0xB2 ^ 0xC3,))
    sak = tag.hear(with_crc(0x93, 0x70, *uid_bcc))
    assert sak is not None and tag.state == "ACTIVE"
    assert tag.hear(with_crc(0x50, 0x00)) is None and tag.state == "HALT"
    assert tag.hear(frame(REQA)[:7]) is None and tag.state == "HALT"  # REQA: halted tags sleep
    assert tag.hear(frame(WUPA)[:7]) is not None and tag.state == "READY*"
    other = bytes.fromhex("04000000") + bytes((0x04,))
    assert tag.hear(with_crc(0x93, 0x70, *other)) is None
    assert tag.state == "HALT"  # a SELECT for another tag: back to HALT, not IDLE


def test_a_tag_needs_its_power_up_time_and_forgets_its_state_without_field() -> None:
    tag = Tag(bytes.fromhex("04a1b2c3"))
    field = Field([tag])
    field.switch(True, 1000)
    assert field.exchange(frame(REQA)[:7], 1000 + iso14443.POWER_UP_US - 1) == (None, None)
    bits, collision = field.exchange(frame(REQA)[:7], 1000 + iso14443.POWER_UP_US)
    assert bits == to_bits(b"\x04\x00") and collision is None
    field.switch(False, 9000)
    assert tag.state == "POWER_OFF"


def test_two_tags_collide_at_their_first_differing_uid_bit() -> None:
    a, b = Tag(bytes.fromhex("04a1b2c3"), 0), Tag(bytes.fromhex("04a1b2c7"), 0)
    field = Field([a, b])
    field.switch(True, 0)
    assert field.exchange(frame(REQA)[:7], 0)[1] is None  # equal ATQAs add up cleanly
    bits, collision = field.exchange(frame(0x93, 0x20), 0)
    assert collision == 3 * 8 + 2  # 0xc3 and 0xc7 differ in bit 2 of the fourth byte
    assert bits == to_bits(bytes.fromhex("04a1b2"))[:26] + [1, 1]


@settings(max_examples=60, deadline=None)
@given(st.sets(st.binary(min_size=4, max_size=4) | st.binary(min_size=7, max_size=7)
               | st.binary(min_size=10, max_size=10), min_size=1, max_size=6))
def test_the_driver_reads_every_tag_in_a_field(uids: set[bytes]) -> None:
    field = Field([Tag(uid, 0) for uid in uids])
    reader = driver_for(field, Clock())
    first = reader.inventory()
    assert sorted(first) == sorted(uids)
    assert sorted(reader.inventory(tuple(first))) == sorted(uids)
    assert all(tag.state == "HALT" for tag in field.tags)


# -- several antennas ---------------------------------------------------------------------------
SITES = {row * 3 + col: (float(col), float(row)) for row in range(3) for col in range(3)}
GRID = layout_mm(SITES)
"""Nine readers on a square grid, 40 mm apart (the default pitch)."""
UIDS = {reader: bytes((0x04, reader, 0x10 + reader, 0x20 + reader)) for reader in GRID}


def radio_with_a_tag_on_every_site(radio_settings: RadioSettings) -> Radio:
    radio = Radio(GRID, radio_settings)
    for reader, where in GRID.items():
        radio.place(UIDS[reader], where, 0.0, power_up_us=0)
    return radio


def test_all_fields_on_at_once_read_nothing_but_noise() -> None:
    """The crosstalk a schedule must defeat: every field on (the v1 firmware's way) garbles
    each reader's answers on a board whose readers sit one pitch apart."""
    radio = radio_with_a_tag_on_every_site(RadioSettings())
    clock = Clock()
    readers = {n: driver_for(radio.antenna(n), clock) for n in GRID}
    assert radio.on == set(GRID)
    assert all(reader.inventory() == [] for reader in readers.values())
    assert radio.noisy_exchanges >= len(GRID)


def test_the_field_schedule_reads_each_tag_where_it_lies() -> None:
    radio_settings = RadioSettings()
    radio = radio_with_a_tag_on_every_site(radio_settings)
    classes = field_classes(GRID, radio_settings)
    assert 1 < len(classes) <= 9 and not clashes(classes, GRID, radio_settings)
    clock = Clock()
    readers = {n: driver_for(radio.antenna(n), clock) for n in GRID}
    for reader in readers.values():
        reader.antenna(False)
    seen = {}
    for members in classes:
        for n in members:
            readers[n].antenna(True)
        assert radio.current_ma() == len(members) * 100.0 + 9 * 13.5
        for n in members:
            seen[n] = readers[n].inventory()
        for n in members:
            readers[n].antenna(False)
    assert seen == {n: [UIDS[n]] for n in GRID}
    assert radio.noisy_exchanges == 0


def test_close_antennas_hear_their_neighbours_tags_and_height_fades_a_tag() -> None:
    close = RadioSettings(pitch_mm=25.0)  # antennas 25 mm apart, reach 35 mm
    grid = layout_mm(SITES, close)
    radio = Radio(grid, close)
    radio.place(UIDS[4], grid[4], 0.0, power_up_us=0)
    assert sorted(n for n in grid if UIDS[4] in radio.heard_by(n)) == [1, 3, 4, 5, 7]
    radio.place(UIDS[4], grid[4], 30.0, power_up_us=0)  # high in a stack
    assert [n for n in grid if UIDS[4] in radio.heard_by(n)] == [4]
    radio.place(UIDS[4], grid[4], 40.0, power_up_us=0)
    assert radio.heard_by(4) == []


def test_a_tower_of_tags_is_read_whole_and_a_lifted_top_is_missed() -> None:
    radio = Radio({0: (0.0, 0.0)})
    tower = [bytes((0x04, 0xAA, 0x00, level)) for level in range(4)]
    for level, uid in enumerate(tower):
        radio.place(uid, (0.0, 0.0), level * 8.0, power_up_us=0)  # stones 8 mm high
    reader = driver_for(radio.antenna(0), Clock())
    assert sorted(reader.inventory()) == sorted(tower)
    radio.remove(tower[-1])
    assert sorted(reader.inventory(tuple(tower))) == sorted(tower[:-1])


@pytest.mark.parametrize("rows", [2, 4, 6])
def test_classes_on_a_square_grid_never_clash_and_use_at_most_nine(rows: int) -> None:
    grid = layout_mm({r * rows + c: (float(c), float(r))
                      for r, c in itertools.product(range(rows), repeat=2)})
    classes = field_classes(grid)
    assert sorted(itertools.chain(*classes)) == sorted(grid)
    assert not clashes(classes, grid) and len(classes) <= 9
    assert field_classes(grid) == classes  # the same on every run


def test_a_random_layout_gets_a_schedule_without_clashes() -> None:
    rng = random.Random(3)
    layout = {n: (rng.uniform(0, 300), rng.uniform(0, 300)) for n in range(60)}  # mm
    classes = field_classes(layout)
    assert not clashes(classes, layout)
    assert clashes(((*range(60),),), layout)  # one class for all would clash
    assert all(len(members) <= 8 for members in classes)  # at most 0.8 A of fields at once
