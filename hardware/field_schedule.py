"""Which reader fields may be on together: the radio figures of a board, and the field classes
a hub switches through so that no two nearby fields are ever on at once.

Two MFRC522 fields on at the same time near each other garble each other (a tag between them
is driven by both carriers, and each receiver hears the other's modulation). Real boards
therefore switch fields in a schedule: readers are split into classes, all fields of one class
are switched on together, their tags read, and the class switched off before the next. Here the
classes are a colouring of the "too close" graph (DSATUR, which gives the 9-class 3 x 3 pattern
on a square grid whose pitch is about one antenna diameter).

The figures are the profile's ``[radio]`` table; the defaults and their sources are below.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class RadioSettings:
    """A board's radio geometry and the chip figures the timing and power model use."""

    pitch_mm: float = 40.0
    """How far apart the two closest readers' antennas are (ASSUMED: about one card field or
    tile; measure your board). The game's site coordinates are scaled to it."""
    antenna_mm: float = 35.0
    """Antenna loop diameter (ASSUMED: a small PCB loop that fits under one site)."""
    reach_mm: float = 35.0
    """How far from an antenna's centre a tag still answers (ASSUMED: one antenna diameter,
    what a reader with full transmitter power gets from a tag of similar size). A loop's field
    falls off as a^2 / (a^2 + z^2)^(3/2) along its axis (Microchip AN710), so a tag high in a
    stack, or beside the antenna, fades out quickly: measure with `tabletop enroll`."""
    interference_mm: float = 100.0
    """Two fields closer than this garble each other (ASSUMED 2.5 pitches: the 3 x 3 pattern of
    nine classes on a square grid keeps same-class fields three pitches apart)."""
    power_up_ms: float = 5.0
    """After a field comes on, a tag may take this long to answer (ISO/IEC 14443-3, 6.1: at
    most 5 ms before it must accept a REQA)."""
    field_ma: float = 100.0
    """Transmitter current while a field is on (MFRC522 data sheet rev. 3.9, table 168:
    ITVDD typically 60 mA, at most 100 mA; the budget takes the maximum)."""
    chip_ma: float = 13.5
    """Every chip's own supply, field on or off (same table: 6.5 mA digital and 7 mA analog,
    typical)."""
    max_fields_on: int = 8
    """The most fields a hub switches on at once: 8 x 100 mA = 0.8 A, which a 5 V supply
    beside the LEDs can spare (a larger class is read in parts of at most this many)."""
    uid_bytes: int = 4
    """How long the board's tags' UIDs are: 4 (MIFARE Classic 1K "S50" stickers, what the bill
    of materials in docs/wiring.md lists and docs/firmware.md recommends) or 7 (NTAG21x,
    MIFARE Ultralight). Checking a known 7-byte tag takes a second SELECT (ISO/IEC 14443-3,
    cascade level 2): about 1.2 ms more of every scan for every tag on the board."""
    layer_mm: float = 2.0
    """How much higher each piece in a stack lies (ASSUMED: 2 mm, a cardboard tile; a tag
    sixteen layers up is still within reach over its own antenna)."""

    def reads(self, antenna: Point, tag: Point, height_mm: float = 0.0) -> bool:
        """Does a tag at ``tag`` (mm), ``height_mm`` above the antenna plane, answer the
        antenna at ``antenna`` (mm)?"""
        return math.hypot(math.dist(antenna, tag), height_mm) <= self.reach_mm

    def interfere(self, a: Point, b: Point) -> bool:
        return math.dist(a, b) < self.interference_mm


DEFAULT_RADIO = RadioSettings()
"""The figures a profile without a ``[radio]`` table gets."""


def layout_mm(positions: Mapping[int, Point], settings: RadioSettings = DEFAULT_RADIO
              ) -> dict[int, Point]:
    """Readers' site coordinates (the game's drawing units) in millimetres on the board: scaled
    so that the two closest readers are ``pitch_mm`` apart."""
    points = list(positions.values())
    closest = min((math.dist(p, q) for i, p in enumerate(points) for q in points[i + 1:]),
                  default=1.0) or 1.0
    scale = settings.pitch_mm / closest
    return {reader: (x * scale, y * scale) for reader, (x, y) in positions.items()}


def reader_layout(readers: Mapping[int, str], where: Mapping[str, Point],
                  settings: RadioSettings = DEFAULT_RADIO) -> dict[int, Point]:
    """A profile's readers (number to site) at their sites' drawing positions, in mm; readers
    under a site without a position (or under none) are left out."""
    return layout_mm({reader: where[site] for reader, site in readers.items() if site in where},
                     settings)


def hub_regions(positions: Mapping[int, Point], hubs: int) -> tuple[tuple[int, ...], ...]:
    """The readers at ``positions`` split into ``hubs`` stripes across the board's longer
    side, as even in count as they go: each hub's readers lie together, so only a stripe's
    edge borders another hub. Each stripe lists its readers in order."""
    if hubs < 1:
        raise ValueError(f"a board needs at least one hub, not {hubs}")
    xs = [x for x, _ in positions.values()] or [0.0]
    ys = [y for _, y in positions.values()] or [0.0]
    across = 0 if max(xs) - min(xs) >= max(ys) - min(ys) else 1
    ordered = sorted(positions, key=lambda r: (positions[r][across], positions[r][1 - across], r))
    cuts = [round(i * len(ordered) / hubs) for i in range(hubs + 1)]
    return tuple(tuple(sorted(ordered[cuts[i]:cuts[i + 1]])) for i in range(hubs))


def field_classes(
    positions: Mapping[int, Point], settings: RadioSettings = DEFAULT_RADIO
) -> tuple[tuple[int, ...], ...]:
    """Readers (at ``positions`` in mm) split into classes whose fields never interfere
    (``_colours``); a class larger than ``max_fields_on`` is split into parts."""
    size = max(1, settings.max_fields_on)
    return tuple(tuple(members[i:i + size]) for members in _colours(positions, settings)
                 for i in range(0, len(members), size))


def table_schedules(positions: Mapping[int, Point], hubs: Sequence[Sequence[int]],
                    settings: RadioSettings = DEFAULT_RADIO) -> tuple[tuple[tuple[int, ...], ...],
                                                                      ...]:
    """Each hub's ``FIELD_CLASSES`` (by its own reader numbers) on a table of several hubs
    that keep to common slots: the table's readers are coloured together, so two readers in
    one slot never interfere whichever hubs they are on; each hub switches at most
    ``max_fields_on`` fields a slot (a colour takes as many slots as its largest share
    needs), and its readers under no site get slots of their own at the end."""
    size = max(1, settings.max_fields_on)
    local = [{reader: n for n, reader in enumerate(readers)} for readers in hubs]
    slots: list[list[list[int]]] = []  # per slot, per hub
    for members in _colours(positions, settings):
        shares = [[number[r] for r in members if r in number] for number in local]
        for i in range(0, max(len(share) for share in shares), size):
            slots.append([share[i:i + size] for share in shares])
    spares = [[n for reader, n in number.items() if reader not in positions] for number in local]
    for i in range(0, max(len(spare) for spare in spares), size):
        slots.append([spare[i:i + size] for spare in spares])
    return tuple(tuple(tuple(slot[hub]) for slot in slots) for hub in range(len(hubs)))


def _colours(positions: Mapping[int, Point], settings: RadioSettings
             ) -> list[list[int]]:
    """Readers split into colours whose fields never interfere: DSATUR colouring (the reader
    with the most differently-coloured neighbours next, ties to the most neighbours, then the
    lowest number), so the result is the same on every run. Each lists its readers in order."""
    readers = sorted(positions)
    near = {
        r: [s for s in readers if s != r and settings.interfere(positions[r], positions[s])]
        for r in readers
    }
    colour: dict[int, int] = {}
    while len(colour) < len(readers):
        def urgency(r: int) -> tuple[int, int, int]:
            seen = {colour[s] for s in near[r] if s in colour}
            return (-len(seen), -len(near[r]), r)

        reader = min((r for r in readers if r not in colour), key=urgency)
        taken = {colour[s] for s in near[reader] if s in colour}
        colour[reader] = next(c for c in range(len(readers)) if c not in taken)
    count = max(colour.values(), default=-1) + 1
    return [[r for r in readers if colour[r] == c] for c in range(count)]


def clashes(
    classes: tuple[tuple[int, ...], ...], positions: Mapping[int, Point],
    settings: RadioSettings = DEFAULT_RADIO,
) -> list[tuple[int, int]]:
    """Pairs of readers in one class whose fields interfere (empty for a good schedule)."""
    return [
        (a, b)
        for members in classes
        for i, a in enumerate(members)
        for b in members[i + 1:]
        if settings.interfere(positions[a], positions[b])
    ]
