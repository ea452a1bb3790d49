"""The virtual table: pieces with virtual tags on the sites of a board profile, read by the
virtual hubs' readers (as many hubs as the profile names, each on its own pty), plus the
virtual buttons and LED strip. It is what a person's hands and
eyes do at a real table, and nothing else: the controller only learns about it through the hub
protocol on the pty, the gpiozero pins and the strip it drives.

By default the table is **realistic**: every reader is the firmware's own MFRC522 driver
talking to a register-level chip in the table's radio (``simulator.radio``: tags with ISO
14443-3 states, collisions, power-up, reach and stack heights, neighbouring fields that
garble), each hub switches its fields in the field classes of its own readers, and a scan takes
as long as ``hardware.scan_timing`` says it takes on the real board. Several hubs scan side by side
in one radio, kept in the table's common slots by a slot line (``simulator.slot_line``): a
field of one hub would garble a nearby field of another on at the same moment, so the slots
are coloured over the whole table (``table_schedules``). ``scan_ms=<number>`` gives the
**ideal** table instead: each reader reports exactly the tags over its site, every
``scan_ms`` milliseconds (fast, for unit tests).

`put`, `lift` and the fault knobs return at once (they only change what lies in the readers'
fields; the hub thread reports it on its next scan). `slide`, `press` and `hold` take real time
and are coroutines. The table's own state is lock-protected, so a page's worker threads and
the event loop may both use it.
"""

from __future__ import annotations

import asyncio
import math
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from games.core.game import Game, Site, pile_value
from games.registry import get_game
from hardware.field_schedule import reader_layout, table_schedules
from hardware.profile import PROFILES_DIR, BoardProfile, find_profile, load_profile
from hardware.profile_writer import generated_profile, unique_sites
from hardware.registry import uid_hex
from hardware.scan_timing import synced_scan_ms
from simulator.firmware_runtime import load_firmware
from simulator.radio import Radio
from simulator.slot_line import SlotLine
from simulator.virtual_buttons import VirtualButtons
from simulator.virtual_hub import LinkFaults, MonotonicClock, VirtualHub
from simulator.virtual_mfrc522 import ChipBus, VirtualChip
from simulator.virtual_readers import ReaderFaults, TagField, VirtualReader
from simulator.virtual_strip import VirtualStrip
from simulator.virtual_tags import TagSet, VirtualTag, copies_seen

FOREIGN_PREFIX = "uid:"
"""How a tag from outside the box shows in `board()`: ``uid:04A1B2C3``."""


class TableError(ValueError):
    """A physical step that cannot be done (the message says why); nothing was changed."""


class NoSuchSite(TableError):
    """The profile has no reader under that site name."""


class SiteOccupied(TableError):
    """A piece already lies there: take it off first (only a stacking site takes a piece over
    another)."""


class SiteEmpty(TableError):
    """Nothing lies there to lift or slide."""


class NoTagLeft(TableError):
    """Every tag of that piece already lies on the table."""


class VirtualTable:
    def __init__(
        self,
        profile: BoardProfile,
        game: Game[Any],
        *,
        players: int | None = None,
        tags: TagSet | None = None,
        link_path: Path | None = None,
        on_path: Callable[[str], None] | None = None,
        scan_ms: float | Literal["realistic"] = "realistic",
        field_schedule: bool = True,
        miss_limit: int | None = None,
        heartbeat_ms: int | None = None,
        retry_ms: int | None = None,
        seed: int = 0,
    ) -> None:
        self.profile = profile
        self.game = game
        self.tags = tags or TagSet(game.pieces(), copies=copies_seen(game),
                                   uid_bytes=profile.radio.uid_bytes)
        self.sites = profile.sites
        counts = [players] if players else range(game.min_players, game.max_players + 1)
        self._coordinates: Mapping[str, Site] = {
            site.id: site for n in counts for site in game.sites(n)
        }
        rng = random.Random(seed)
        count = max(max(hub.readers) for hub in profile.hubs) + 1
        self.radio: Radio | None = None
        """The realistic table's radio (None for the ideal one)."""
        antennas: dict[int, tuple[float, float]] = {}
        schedules: list[tuple[tuple[int, ...], ...] | None] = [None] * len(profile.hubs)
        drivers: list[object | None] = [None] * count
        if scan_ms == "realistic":
            where = {site.id: (site.x, site.y) for site in self._coordinates.values()}
            antennas = reader_layout(profile.readers, where, profile.radio)
            self.radio = Radio(antennas, profile.radio)
            if field_schedule:  # off: all fields on, all the time
                schedules = list(table_schedules(antennas, [hub.readers for hub in profile.hubs],
                                                 profile.radio))
            clock = MonotonicClock()
            driver = load_firmware().mfrc522.Mfrc522
            drivers = []
            for reader in range(count):
                bus = ChipBus(VirtualChip(clock=clock, field=self.radio.antenna(reader)))
                drivers.append(driver(bus, bus, clock))
            self.field = TagField(self.radio, {profile.readers[r]: point
                                               for r, point in antennas.items()}, clock)
        else:
            self.field = TagField()
        self.readers = tuple(
            VirtualReader(profile.readers.get(i), self.field, random.Random(rng.random()),
                          drivers[i])
            for i in range(count)
        )
        line = SlotLine() if len(profile.hubs) > 1 and schedules[0] is not None else None
        self.hubs = tuple(
            VirtualHub(
                [self.readers[reader] for reader in hub.readers],
                scan_ms=scan_ms,
                schedule=schedules[number],
                radio=profile.radio,
                miss_limit=miss_limit,
                heartbeat_ms=heartbeat_ms,
                retry_ms=retry_ms,
                link_path=_link_of(link_path, hub.name, len(profile.hubs)),
                on_path=on_path,
                seed=seed * 64 + number,
                hub_id=bytes.fromhex(hub.unique_id) if hub.unique_id else None,
                slot_line=line,
            )
            for number, hub in enumerate(profile.hubs)
        )
        if line is not None:  # in step, a scan takes as long as its slots' slowest hubs
            for hub in self.hubs:
                hub.period_model = self._synced_period_ms
        self._hub_of = {reader: (virtual, local)
                        for hub, virtual in zip(profile.hubs, self.hubs, strict=True)
                        for local, reader in enumerate(hub.readers)}
        """The profile's reader number to its hub and the hub's own number for it."""
        self.buttons = VirtualButtons(profile.buttons)
        self.strip = VirtualStrip(profile.leds, profile.colours)
        self._stacking = frozenset(site.id for site in self._coordinates.values() if site.stacks)
        self.pile_sites = frozenset(site.id for site in self._coordinates.values() if site.pile)
        """Sites whose whole pile is their board value (towers: ``Site.pile``)."""
        self._on_site: dict[str, list[VirtualTag | bytes]] = {}
        """Per site its pieces, bottom to top (more than one only on a stacking site)."""
        self._lock = threading.RLock()
        self.on_change: Callable[[dict[str, str]], None] | None = None
        """Called with the new `board()` after every change (for a live page)."""

    @classmethod
    def for_game(
        cls, game_id: str, profile: str | Path | None = None, **options: Any
    ) -> VirtualTable:
        """A table for a registered game, with its shipped profile unless one is named (a game
        with none gets the default profile generated from its sites)."""
        game = get_game(game_id)
        counts = [options["players"]] if options.get("players") else range(
            game.min_players, game.max_players + 1)
        known = {site.id for n in counts for site in game.sites(n)}
        if profile is None and not (PROFILES_DIR / f"{game_id}.toml").exists():
            # A new game with no profile yet: the default one `tabletop profile new` writes.
            every = range(game.min_players, game.max_players + 1)
            sites = unique_sites(site for n in every for site in game.sites(n))
            return cls(generated_profile(game.id, game.name, sites), game, **options)
        return cls(load_profile(find_profile(str(profile or game_id)), known), game, **options)

    # -- life cycle ---------------------------------------------------------------------------

    def start(self) -> VirtualTable:
        """Power the hubs up (their threads start scanning and their ptys appear)."""
        for hub in self.hubs:
            hub.start()
        return self

    def close(self) -> None:
        for hub in self.hubs:
            hub.close()
        self.buttons.factory.close()

    def __enter__(self) -> VirtualTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _synced_period_ms(self) -> float:
        """One scan of hubs kept in common slots, with the tags on the table now."""
        schedules = [hub.schedule or [] for hub in self.hubs]
        tags = [hub.tag_lengths() for hub in self.hubs]
        read = [hub.read_last() for hub in self.hubs]
        return max(0.5, synced_scan_ms(schedules, tags, self.profile.radio, read))

    @property
    def hub(self) -> VirtualHub:
        """The first hub (the only one on most boards)."""
        return self.hubs[0]

    def hub_named(self, name: str) -> VirtualHub:
        for settings, hub in zip(self.profile.hubs, self.hubs, strict=True):
            if settings.name == name:
                return hub
        names = ", ".join(hub.name for hub in self.profile.hubs)
        raise TableError(f"no hub {name!r} on this table (hubs: {names})")

    def hub_of(self, site: str) -> VirtualHub:
        """The hub whose reader sees ``site``."""
        return self._hub_of[self.reader_of(site)][0]

    @property
    def url(self) -> str:
        """What the controller's HubLink opens (the first hub's)."""
        return self.hub.url

    @property
    def urls(self) -> list[str]:
        """Every hub's port, in the profile's order."""
        return [hub.url for hub in self.hubs]

    @property
    def coordinates(self) -> Mapping[str, Site]:
        """Each site's drawing position (from the game's `sites()`), for a page or a path."""
        return MappingProxyType(dict(self._coordinates))

    def tag_map(self) -> dict[str, str]:
        """UID hex -> piece for every virtual tag, to fill the controller's tag registry."""
        return self.tags.mapping()

    # -- what lies where ----------------------------------------------------------------------

    def board(self) -> dict[str, str]:
        """The physical truth: site -> piece (``uid:HEX`` for a tag from outside the box); on
        a pile site the whole pile, bottom to top, as the game's ``board()`` names it."""
        with self._lock:
            return {site: pile_value([_name(item) for item in stack]) if site in self.pile_sites
                    else _name(stack[-1]) for site, stack in sorted(self._on_site.items())}

    def stacks(self) -> dict[str, tuple[str, ...]]:
        """Every site's pieces, bottom to top."""
        with self._lock:
            return {site: tuple(map(_name, stack)) for site, stack in sorted(self._on_site.items())}

    def stacks_here(self, site: str) -> bool:
        """Does a piece laid on ``site`` cover the one there (a card over cards)?"""
        return site in self._stacking

    def piece_at(self, site: str) -> str | None:
        self._check_site(site)
        stack = self._on_site.get(site)
        return None if not stack else _name(stack[-1])

    def piece_under(self, site: str) -> str | None:
        """The piece right under the top one of a stack (None when there is none)."""
        stack = self._on_site.get(site, [])
        return _name(stack[-2]) if len(stack) > 1 else None

    def _check_site(self, site: str) -> None:
        if site not in self.sites:
            known = ", ".join(self.sites)
            raise NoSuchSite(f"{site!r} is not a site of this table (sites: {known})")

    def in_box(self) -> list[str]:
        """The pieces of which a copy is still in the box (none of its tags on the table)."""
        with self._lock:
            used = {item for stack in self._on_site.values() for item in stack
                    if isinstance(item, VirtualTag)}
        return sorted(piece for piece in self.tags.pieces
                      if any(tag not in used for tag in self.tags.tags_of(piece)))

    def _free_tag(self, piece: str) -> VirtualTag:
        if piece not in self.tags.pieces:
            raise TableError(f"{piece!r} is not a piece of {self.game.name}")
        used = {item for stack in self._on_site.values() for item in stack
                if isinstance(item, VirtualTag)}
        for tag in self.tags.tags_of(piece):
            if tag not in used:
                return tag
        count = len(self.tags.tags_of(piece))
        raise NoTagLeft(f"all {count} of {piece} in the box are on the table already (covered "
                        "ones included): take one off before laying another")

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.board())

    # -- hands ---------------------------------------------------------------------------------

    def _check_free(self, site: str) -> None:
        if site in self._on_site and site not in self._stacking:
            raise SiteOccupied(f"{site} already holds {_name(self._on_site[site][-1])}")

    def put(self, piece: str, site: str, towards: str | None = None) -> None:
        """Lay a piece (a free copy of it) on an empty site, or on top of a stacking site's;
        with ``towards``, over the edge towards that site, so that the reader there hears it
        too (a tile pushed half off its square, a card between two fields)."""
        with self._lock:
            self._check_site(site)
            if towards is not None:
                self._check_site(towards)
            self._check_free(site)
            tag = self._free_tag(piece)
            self._on_site.setdefault(site, []).append(tag)
            self.field.add(site, tag.uid, edge_of=towards)
            self._changed()

    def put_across(self, piece: str, site: str, towards: str) -> None:
        """``put`` over the edge towards ``towards``."""
        self.put(piece, site, towards)

    def put_tag(self, uid: bytes | str, site: str) -> None:
        """Lay a bare tag (from outside the box, or any UID) on an empty site."""
        with self._lock:
            raw = bytes.fromhex(uid_hex(uid))
            self._check_site(site)
            self._check_free(site)
            if any(_uid(item) == raw for stack in self._on_site.values() for item in stack):
                raise TableError(f"tag {uid_hex(raw)} already lies on the table")
            self._on_site.setdefault(site, []).append(_known_or_raw(self.tags, raw))
            self.field.add(site, raw)
            self._changed()

    def lift(self, site: str) -> str:
        """Take the (top) piece off a site; returns what it was."""
        with self._lock:
            self._check_site(site)
            item = self._pop(site)
            if item is None:
                raise SiteEmpty(f"{site} is empty: there is nothing to lift")
            self.field.remove(site, _uid(item))
            self._changed()
            return _name(item)

    def pull(self, site: str, piece: str) -> None:
        """Pull a piece out from under others (a stone out of a tower, a card from under a
        card): the ones above it sink a layer and stay."""
        with self._lock:
            self._check_site(site)
            stack = self._on_site.get(site, [])
            found = [item for item in stack if _name(item) == piece]
            if not found:
                raise TableError(f"{piece} is not on {site} (it holds "
                                 f"{', '.join(map(_name, stack)) or 'nothing'})")
            stack.remove(found[-1])
            if not stack:
                del self._on_site[site]
            self.field.remove(site, _uid(found[-1]))
            self._changed()

    def _pop(self, site: str) -> VirtualTag | bytes | None:
        stack = self._on_site.get(site)
        if not stack:
            return None
        item = stack.pop()
        if not stack:
            del self._on_site[site]
        return item

    def path(self, start: str, end: str) -> tuple[str, ...]:
        """The sites a piece passes over on the straight line from `start` to `end`."""
        a, b = self._coordinates.get(start), self._coordinates.get(end)
        if a is None or b is None:
            return ()
        others = [s for s in self._coordinates.values() if s.id not in (start, end)]
        spacing = min(
            (math.dist((p.x, p.y), (q.x, q.y)) for p in self._coordinates.values()
             for q in self._coordinates.values() if p.id < q.id),
            default=1.0,
        ) or 1.0
        dx, dy = b.x - a.x, b.y - a.y
        length2 = dx * dx + dy * dy
        if not length2:
            return ()
        between = []
        for site in others:
            t = ((site.x - a.x) * dx + (site.y - a.y) * dy) / length2
            if not 0 < t < 1:
                continue
            off_line = math.dist((site.x, site.y), (a.x + t * dx, a.y + t * dy))
            if off_line <= 0.3 * spacing and site.id in self.sites:
                between.append((t, site.id))
        return tuple(site for _, site in sorted(between))

    async def slide(self, start: str, end: str, scans_per_site: int = 2) -> str:
        """Slide a piece from `start` to the empty site `end`, over the sites between; each
        reader on the way has it in its field for `scans_per_site` full scans of the hub."""
        self._check_site(start)
        self._check_site(end)
        with self._lock:
            if not self._on_site.get(start):
                raise SiteEmpty(f"{start} is empty: there is nothing to slide")
            self._check_free(end)
            item = self._pop(start)
            assert item is not None
            uid = _uid(item)
            # board() shows it there from now: the hand is on its way
            self._on_site.setdefault(end, []).append(item)
            self.field.remove(start, uid)
        await self._carry(uid, self.path(start, end), end, scans_per_site)
        return _name(item)

    async def drag(self, piece: str, site: str, over: Sequence[str],
                   scans_per_site: int = 2) -> None:
        """Lay a piece (a free copy of it) on `site` after dragging it over the sites `over`,
        one after the other: each reader on the way has it in its field for
        `scans_per_site` full scans of its hub (long enough to be read there: a slow hand)."""
        for passed in (site, *over):
            self._check_site(passed)
        with self._lock:
            self._check_free(site)
            tag = self._free_tag(piece)
            # board() shows it there from now: the hand is on its way
            self._on_site.setdefault(site, []).append(tag)
        await self._carry(tag.uid, over, site, scans_per_site)

    async def _carry(self, uid: bytes, over: Sequence[str], end: str,
                     scans_per_site: int) -> None:
        """A hand carries the tag over the sites `over`, each reader having it in its field
        for `scans_per_site` scans of its hub, and lays it on `end`."""
        try:
            for site in over:
                self.field.add(site, uid)
                try:
                    await asyncio.to_thread(self.hub_of(site).wait_scans, scans_per_site)
                except TimeoutError:
                    pass  # an unplugged hub scans nothing; the hand moves on all the same
                finally:
                    self.field.remove(site, uid)
        finally:  # even if cancelled half way, the piece ends where the hand was going
            self.field.add(end, uid)
            self._changed()

    async def press(self, role: str) -> None:
        await self.buttons.press(role)

    async def hold(self, role: str, ms: float) -> None:
        await self.buttons.hold(role, ms)

    # -- eyes ----------------------------------------------------------------------------------

    def led(self, site: str) -> str:
        """The colour name a site's LEDs show, blinking ignored (see VirtualStrip.colour)."""
        self._check_site(site)
        return self.strip.colour(site)

    # -- fault knobs ---------------------------------------------------------------------------

    def reader_of(self, site: str) -> int:
        self._check_site(site)
        return self.profile.reader_of(site)

    def set_reader_faults(self, site: str, faults: ReaderFaults) -> None:
        hub, local = self._hub_of[self.reader_of(site)]
        hub.set_reader_faults(local, faults)

    def kill_reader(self, site: str, dead: bool = True) -> None:
        """The reader under `site` stops answering (or answers again with dead=False)."""
        faults = self.readers[self.reader_of(site)].faults
        self.set_reader_faults(site, replace(faults, dead=dead))

    def flicker(self, site: str, rate: float) -> None:
        """The tag on `site` is missed by a share `rate` of the scans."""
        faults = self.readers[self.reader_of(site)].faults
        self.set_reader_faults(site, replace(faults, flicker_rate=rate))

    def slow_reader(self, site: str, ms: float) -> None:
        faults = self.readers[self.reader_of(site)].faults
        self.set_reader_faults(site, replace(faults, slow_ms=ms))

    def miss(self, site: str, scans: int) -> None:
        """The tag on `site` is missed for exactly `scans` scans in a row."""
        hub, local = self._hub_of[self.reader_of(site)]
        hub.miss(local, scans)

    def _hubs(self, name: str | None) -> tuple[VirtualHub, ...]:
        return self.hubs if name is None else (self.hub_named(name),)

    def set_link_faults(self, faults: LinkFaults, hub: str | None = None) -> None:
        """Noise on the cables of every hub, or of the one named."""
        for virtual in self._hubs(hub):
            virtual.set_link_faults(faults)

    def freeze(self, seconds: float, hub: str | None = None) -> None:
        """Every hub's loop, or the named one's, stalls for ``seconds`` (cable still in)."""
        for virtual in self._hubs(hub):
            virtual.freeze(seconds)

    def unplug(self, hub: str | None = None) -> None:
        """Pull the cables of every hub, or of the one named."""
        for virtual in self._hubs(hub):
            virtual.unplug()

    def replug(self, hub: str | None = None) -> str:
        """Plug in again (unplugging first); returns the (first) hub's new url."""
        for virtual in self._hubs(hub):
            virtual.replug()
        return self._hubs(hub)[0].url


def _link_of(link_path: Path | None, hub: str, hubs: int) -> Path | None:
    """Each hub's stable link: ``link_path`` itself on a one-hub table, else one beside it
    per hub (``hub-hub1``, ``hub-hub2``, ...), as udev gives each its own by-id name."""
    if link_path is None or hubs == 1:
        return link_path
    return link_path.with_name(f"{link_path.name}-{hub}")


def _uid(item: VirtualTag | bytes) -> bytes:
    return item.uid if isinstance(item, VirtualTag) else item


def _name(item: VirtualTag | bytes) -> str:
    return item.piece if isinstance(item, VirtualTag) else FOREIGN_PREFIX + uid_hex(item)


def _known_or_raw(tags: TagSet, raw: bytes) -> VirtualTag | bytes:
    piece = tags.piece_of(raw)
    if piece is None:
        return raw
    return next(tag for tag in tags.tags_of(piece) if tag.uid == raw)
