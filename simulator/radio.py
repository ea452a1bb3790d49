"""The table's radio: every reader antenna and every tag, where they are, which fields are on.

A tag answers every antenna whose field reaches it (its own reader, and a neighbour's when the
antennas are closer than their reach; a tag high in a stack reaches less far). It has power
while any field that reaches it is on, and loses its state when the last one goes off. A
receiver whose field is on while another field nearby is on too hears only noise: that is what
the hub's field schedule (``hardware.field_schedule``) exists to prevent.

``Radio.antenna(n)`` is one reader's view of it, with the ``switch`` and ``exchange`` of an
``iso14443.Field``, so the register-level chip (``virtual_mfrc522``) and the real driver run
on it unchanged. A reader with no position (under no site) hears nothing and disturbs nobody.

Hands (``place``, ``lift``, ``stack_height``) and the hub thread's frames may come from
different threads: every call takes the radio's lock.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from hardware.field_schedule import Point, RadioSettings
from simulator.iso14443 import NOISE, POWER_UP_US, Tag, superpose


@dataclass(slots=True)
class PlacedTag:
    tag: Tag
    where: Point
    """On the board, in mm (``hardware.field_schedule.layout_mm``)."""
    height_mm: float
    """Above the antenna plane: 0 for a piece on the board, more for one higher in a stack."""


@dataclass
class Radio:
    antennas: Mapping[int, Point]
    """Reader number to its antenna's centre, in mm."""
    settings: RadioSettings = field(default_factory=RadioSettings)
    tags: dict[bytes, PlacedTag] = field(default_factory=dict)
    on: set[int] = field(default_factory=set)
    noisy_exchanges: int = 0
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    # -- hands ----------------------------------------------------------------------------

    def place(self, uid: bytes, where: Point, height_mm: float = 0.0, now_us: int = 0,
              power_up_us: int = POWER_UP_US) -> None:
        """A tag laid down (or moved): it powers up from now if a field reaches it."""
        with self._lock:
            if uid in self.tags:
                self.remove(uid)
            placed = PlacedTag(Tag(uid, power_up_us), where, height_mm)
            self.tags[bytes(uid)] = placed
            if any(self._reaches(reader, placed) for reader in self.on):
                placed.tag.field_on(now_us)

    def remove(self, uid: bytes) -> None:
        with self._lock:
            self.tags.pop(bytes(uid)).tag.field_off()

    def set_height(self, uid: bytes, height_mm: float) -> None:
        """A tag that sinks (a piece under it taken out) or rises, keeping its state: the
        fields that reached it still do, or it loses power when none does any more."""
        with self._lock:
            placed = self.tags[bytes(uid)]
            placed.height_mm = height_mm
            if not any(self._reaches(reader, placed) for reader in self.on):
                placed.tag.field_off()

    # -- fields ---------------------------------------------------------------------------

    def _reaches(self, reader: int, placed: PlacedTag) -> bool:
        antenna = self.antennas.get(reader)
        return antenna is not None and self.settings.reads(antenna, placed.where,
                                                           placed.height_mm)

    def heard_by(self, reader: int) -> list[bytes]:
        """The tags within reach of this reader's antenna, field on or not."""
        with self._lock:
            return [uid for uid, placed in self.tags.items() if self._reaches(reader, placed)]

    def switch(self, reader: int, on: bool, now_us: int) -> None:
        with self._lock:
            if on == (reader in self.on):
                return
            if on:
                self.on.add(reader)
            else:
                self.on.discard(reader)
            for placed in self.tags.values():
                if not self._reaches(reader, placed):
                    continue
                if on:
                    placed.tag.field_on(now_us)
                elif not any(self._reaches(other, placed) for other in self.on):
                    placed.tag.field_off()

    def current_ma(self) -> float:
        """What the fields and chips draw now."""
        s = self.settings
        return len(self.on) * s.field_ma + len(self.antennas) * s.chip_ma

    def exchange(self, reader: int, bits: list[int], now_us: int) -> tuple[object, int | None]:
        """One frame from ``reader``: (answer bits, collision index) as ``iso14443.Field``
        gives them, (None, None) for silence, (NOISE, None) when a field nearby is on too."""
        with self._lock:
            here = self.antennas.get(reader)
            if reader not in self.on or here is None:
                return None, None
            if any(other != reader and other in self.antennas
                   and self.settings.interfere(here, self.antennas[other]) for other in self.on):
                self.noisy_exchanges += 1
                return NOISE, None
            answers = []
            for placed in self.tags.values():
                if self._reaches(reader, placed) and placed.tag.ready_to_answer(now_us):
                    answer = placed.tag.hear(bits)
                    if answer is not None:
                        answers.append(answer)
            return superpose(answers) if answers else (None, None)

    def antenna(self, reader: int) -> Antenna:
        return Antenna(self, reader)


@dataclass(frozen=True, slots=True)
class Antenna:
    """One reader's antenna, shaped like an ``iso14443.Field`` for the register-level chip."""

    radio: Radio
    reader: int

    def switch(self, on: bool, now_us: int) -> None:
        self.radio.switch(self.reader, on, now_us)

    def exchange(self, bits: list[int], now_us: int) -> tuple[object, int | None]:
        return self.radio.exchange(self.reader, bits, now_us)
