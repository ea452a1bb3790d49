"""Every tag in one field: the driver's inventory under MicroPython against the fake chip, whose
field holds the simulator's ISO 14443-A tags answering together (collisions bit by bit)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

SETUP = """
from binascii import hexlify, unhexlify
hx = lambda b: hexlify(b or b'').decode()
import machine
from fakes import FakeClock
from virtual_mfrc522 import VirtualChip, ready_tag
from iso14443 import Tag
from mfrc522 import Mfrc522
spi = machine.SPI(0)
def reader(chip, pin=5, clock=None):
    machine.CHIPS[pin] = chip
    r = Mfrc522(spi, machine.Pin(pin, machine.Pin.OUT, value=1), clock) if clock else Mfrc522(
        spi, machine.Pin(pin, machine.Pin.OUT, value=1))
    r.init()
    return r
"""

STACK = ["04a1b2c3", "04112233445566", "04112233445577", "0411223344ff66", "8811aa00"]
"""A 4-byte UID and three 7-byte ones differing only in their last bits (long anticollision
walks), plus a 4-byte UID starting with 0x88 like a cascade tag."""

STACK_LAID = SETUP + f"""
chip = VirtualChip()
r = reader(chip)
for uid in {STACK!r}:
    chip.put(ready_tag(unhexlify(uid)))
"""
"""One reader with every tag of ``STACK`` in its field."""


def test_a_stack_of_tags_is_read_whole_and_then_cheaply(
    micropython: Callable[[str], Any],
) -> None:
    out = micropython(STACK_LAID + """
first = r.inventory()
states = sorted(t.state for t in chip.field.tags)
before = chip.transceives
again = r.inventory(tuple(first))
report({'first': sorted(hx(u) for u in first), 'again': sorted(hx(u) for u in again),
        'states': states, 'known_cost': chip.transceives - before, 'new_cost': before})
""")
    assert out["first"] == out["again"] == sorted(STACK)
    assert out["states"] == ["HALT"] * 5  # every tag read was halted
    # known tags: per tag WUPA, SELECT per cascade level, HLTA, and one REQA nobody answers
    assert out["known_cost"] == 5 * 2 + (1 + 2 + 2 + 2 + 1) + 1
    assert out["new_cost"] > out["known_cost"]  # the anticollision walks cost more


def test_new_tags_are_found_beside_known_ones_and_gone_ones_are_not_reported(
    micropython: Callable[[str], Any],
) -> None:
    out = micropython(SETUP + """
chip = VirtualChip()
r = reader(chip)
a, b, c = (ready_tag(unhexlify(u)) for u in ('04a1b2c3', '04112233445566', '04112233445577'))
chip.put(a); chip.put(b)
first = r.inventory()
chip.take(a); chip.put(c)   # the top tile lifted, another laid
second = r.inventory(tuple(first))
report({'first': sorted(hx(u) for u in first), 'second': sorted(hx(u) for u in second)})
""")
    assert out["first"] == ["04112233445566", "04a1b2c3"]
    assert out["second"] == ["04112233445566", "04112233445577"]


def test_a_tag_answers_only_after_its_power_up_time(micropython: Callable[[str], Any]) -> None:
    """ISO/IEC 14443-3 lets a tag take up to 5 ms after the field comes on."""
    out = micropython(SETUP + """
clock = FakeClock()
chip = VirtualChip(clock=clock)
r = reader(chip, clock=clock)
chip.put(Tag(unhexlify('04a1b2c3')))
early = r.inventory()
clock.advance_ms(5)
late = r.inventory()
report({'early': [hx(u) for u in early], 'late': [hx(u) for u in late]})
""")
    assert out == {"early": [], "late": ["04a1b2c3"]}


def test_random_stacks_are_always_read_whole(micropython: Callable[[str], Any]) -> None:
    """Random fields of 1 to 6 tags with 4, 7 and 10-byte UIDs sharing long prefixes. One
    interpreter per field: the WASI build's garbage collector cannot see the wasm stack, so a
    run must stay below its first collection."""
    rng = random.Random(7)
    for _ in range(12):
        prefix = bytes(rng.randrange(256) for _ in range(rng.choice((0, 2, 5))))
        uids: set[str] = set()
        while len(uids) < rng.randint(1, 6):
            size = rng.choice((4, 7, 10))
            uid = (prefix + bytes(rng.randrange(256) for _ in range(size)))[:size]
            uids.add(uid.hex())
        first, again = micropython(SETUP + f"""
chip = VirtualChip()
r = reader(chip)
for uid in {sorted(uids)!r}:
    chip.put(ready_tag(unhexlify(uid)))
first = r.inventory()
report([sorted(hx(u) for u in first), sorted(hx(u) for u in r.inventory(tuple(first)))])
""")
        assert first == again == sorted(uids)


def test_checking_yields_once_a_frame_and_finds_what_check_finds(
    micropython: Callable[[str], Any],
) -> None:
    out = micropython(STACK_LAID + """
known = tuple(r.inventory())
chip.field.tags.pop()  # one tag taken away
before = chip.transceives
steps = r.checking(known)
yields = 0
while True:
    try:
        next(steps)
        yields += 1
    except StopIteration as done:
        present = done.value
        break
frames = chip.transceives - before
report({'present': sorted(hx(u) for u in present), 'check': sorted(hx(u) for u in r.check(known)),
        'yields': yields, 'frames': frames})
""")
    assert out["present"] == out["check"] and len(out["present"]) == 4
    assert out["yields"] == out["frames"]  # it hands over while every frame is on the air
    # at least: per tag there WUPA, a SELECT per cascade level (1 or 2) and HLTA
    assert out["frames"] > sum(2 + (2 if len(u) == 14 else 1) for u in out["present"])


def test_the_hub_works_a_class_of_readers_checks_frame_by_frame(
    micropython: Callable[[str], Any],
) -> None:
    out = micropython("""
from hub import Hub
from fakes import FakeClock, FakePort, FakeReader
order = []
class Turns(FakeReader):
    def __init__(self, name, frames):
        super().__init__()
        self.name, self.frames = name, frames
    def checking(self, known=()):
        for n in range(self.frames):
            order.append(self.name + str(n))
            yield
        return list(known)
readers = [Turns('a', 3), Turns('b', 1), Turns('c', 2)]
hub = Hub(readers, FakePort(), FakeClock(), 'fw')
hub.boot()
hub.scan_cycle()
report({'order': order})
""")
    assert out["order"] == ["a0", "b0", "c0", "a1", "c1", "a2"]
