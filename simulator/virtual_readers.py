"""The RFID side of the virtual table: which tags lie in which reader's field, and readers that
answer the firmware the way an MFRC522 driver does, with their faults.

`VirtualReader` implements the calls `firmware/hub.py` makes on a reader (``version``,
``init``, ``antenna``, ``checking``, ``request``, ``collect``), so the firmware's own self-test,
debouncing and fault handling decide what the host is told. Two kinds of table:

- **realistic** (the default): each reader is the firmware's own MFRC522 driver talking to a
  register-level chip (``virtual_mfrc522``) whose antenna is part of the table's radio
  (``radio``): tags have ISO 14443-3 states, collide, need their power-up, are heard by a
  neighbour in reach, and fields on together nearby garble each other.
- **ideal**: a reader answers with exactly the tags over its site, at once.

Readers are read from the hub thread and changed from the caller's thread; `TagField`, the
radio and `ReaderFaults` are the only shared state and are lock-protected or immutable.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass

from hardware.field_schedule import Point
from simulator.radio import Radio

MFRC522_VERSION = 0x92
"""Version register of a genuine MFRC522 v2.0: passes the firmware's self-test."""
SILENT_BUS = 0x00
"""What the version register reads as when no chip answers on the SPI bus."""


class ReaderBusError(OSError):
    """A transfer to a dead reader failed (the firmware driver raises an OSError too)."""


@dataclass(frozen=True, slots=True)
class ReaderFaults:
    """What is wrong with one reader. The default is a healthy reader."""

    dead: bool = False
    """No chip answers: self-test NO_RESPONSE at boot, and every scan fails while running."""
    flicker_rate: float = 0.0
    """Chance that a scan misses a tag that is there (a tag at the edge of the field)."""
    slow_ms: float = 0.0
    """Extra time each scan of this reader takes (a long cable, a marginal antenna)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.flicker_rate <= 1.0:
            raise ValueError(f"flicker_rate is a probability 0..1, got {self.flicker_rate}")
        if not 0.0 <= self.slow_ms <= 1000.0:
            raise ValueError(f"slow_ms must be 0..1000 ms, got {self.slow_ms}")


class TagField:
    """Which tags are over which site right now: several where pieces stack, or while one
    slides across another. With a radio, each tag is also placed in it over its site's
    antenna, one ``layer_mm`` higher per piece under it."""

    def __init__(self, radio: Radio | None = None, where_mm: Mapping[str, Point] | None = None,
                 clock: object | None = None) -> None:
        self._lock = threading.Lock()
        self._uids: dict[str, list[bytes]] = {}
        self.radio = radio
        self._where = dict(where_mm or {})
        self._edges: dict[bytes, str] = {}
        """Tags lying across an edge: the other site whose reader hears them."""
        self._clock = clock

    def add(self, site: str, uid: bytes, edge_of: str | None = None) -> None:
        """A tag over ``site``; with ``edge_of``, lying across the edge towards that site,
        so that its reader hears the tag too (the ideal field lists it there as well; in the
        radio it lies half way between the two antennas)."""
        with self._lock:
            tags = self._uids.setdefault(site, [])
            tags.append(bytes(uid))
            if edge_of is not None:
                self._uids.setdefault(edge_of, []).append(bytes(uid))
                self._edges[bytes(uid)] = edge_of
            radio = self.radio
            if radio is not None and site in self._where:
                height = (len(tags) - 1) * radio.settings.layer_mm
                where = self._where[site]
                if edge_of in self._where:
                    other = self._where[edge_of]
                    where = ((where[0] + other[0]) / 2, (where[1] + other[1]) / 2)
                radio.place(bytes(uid), where, height, self._clock.ticks_us())

    def remove(self, site: str, uid: bytes) -> None:
        with self._lock:
            tags = self._uids.get(site, [])
            if uid not in tags:
                raise KeyError(f"tag {uid.hex()} is not over {site}")
            tags.remove(uid)
            if not tags:
                del self._uids[site]
            edge_of = self._edges.pop(bytes(uid), None)
            if edge_of is not None:
                self._uids[edge_of].remove(uid)
                if not self._uids[edge_of]:
                    del self._uids[edge_of]
            radio = self.radio
            if radio is not None and site in self._where:
                radio.remove(bytes(uid))
                for layer, under in enumerate(tags):  # the ones above sink a layer
                    radio.set_height(under, layer * radio.settings.layer_mm)

    def at(self, site: str) -> tuple[bytes, ...]:
        with self._lock:
            return tuple(self._uids.get(site, ()))

    def items(self) -> dict[str, tuple[bytes, ...]]:
        with self._lock:
            return {site: tuple(uids) for site, uids in self._uids.items()}


class VirtualReader:
    """One reader under one site (or under no site: a reader the profile does not use)."""

    def __init__(self, site: str | None, field: TagField, rng: random.Random,
                 driver: object | None = None) -> None:
        self.site = site
        self.field = field
        self.driver = driver
        """Realistic: the firmware's MFRC522 driver on a chip in the radio; None: ideal."""
        self.faults = ReaderFaults()
        self.forced_misses = 0
        """Scans still to miss in a row, whatever lies there (a deterministic flicker)."""
        self._heard: tuple[bytes, ...] = ()
        """What the ideal reader heard in this scan's ``checking``."""
        self._rng = rng
        self.scans = 0

    # -- the firmware's reader interface --------------------------------------------------

    def version(self) -> int:
        if self.faults.dead:
            return SILENT_BUS
        return self.driver.version() if self.driver is not None else MFRC522_VERSION

    def init(self, antenna: bool = True) -> None:
        if self.faults.dead:
            raise ReaderBusError("no answer on the SPI bus")
        if self.driver is not None:
            self.driver.init(antenna)

    def antenna(self, on: bool) -> None:
        """A field the hub switches (with a field schedule); the ideal field ignores it."""
        if self.faults.dead:
            raise ReaderBusError("no answer on the SPI bus")
        if self.driver is not None:
            self.driver.antenna(on)

    def checking(self, known: tuple[bytes, ...] = ()) -> Generator[None, None, list[bytes]]:
        """The known tags still heard (the first part of an inventory), frame by frame as
        the firmware's driver checks them (the ideal reader hears its field in one go)."""
        faults = self.faults
        self.scans += 1
        if faults.slow_ms:
            time.sleep(faults.slow_ms / 1000)
        if faults.dead:
            raise ReaderBusError("no answer on the SPI bus")
        if self.driver is not None:
            present = yield from self.driver.checking(known)
            return [bytes(uid) for uid in present]
        self._heard = self.field.at(self.site) if self.site is not None else ()
        return [bytes(uid) for uid in known if bytes(uid) in self._heard]

    def request(self) -> None:
        if self.faults.dead:
            raise ReaderBusError("no answer on the SPI bus")
        if self.driver is not None:
            self.driver.request()

    def collect(self, present: list[bytes]) -> list[bytes]:
        """Every tag heard, the known ones first; a flicker misses each tag on its own."""
        if self.faults.dead:
            raise ReaderBusError("no answer on the SPI bus")
        if self.driver is not None:
            uids = [bytes(uid) for uid in self.driver.collect(list(present))]
        else:  # the ideal reader hears in one go what ``checking`` heard
            uids = list(present) + [uid for uid in self._heard if uid not in present]
        if not uids:
            return []
        if self.forced_misses > 0:
            self.forced_misses -= 1
            return []
        if self.faults.flicker_rate:
            uids = [uid for uid in uids if self._rng.random() >= self.faults.flicker_rate]
        return uids
