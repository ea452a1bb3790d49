"""One reader hub as the service sees it: its link, which of the profile's readers it scans,
how long its scan takes, and whether its region of the board can be trusted right now.

A big board has several hubs scanning in parallel, each on its own USB link (docs/wiring.md,
Several hubs). Each numbers its readers from 0; the profile says which of the board's readers
those are. A hub's region is *blind* from the moment its link drops until it has sent a full
snapshot again: the service never judges the board from what a silent hub said before.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from hardware.link import HubLink
from hardware.profile import HubSettings
from hardware.protocol import Heartbeat, ReaderFault, SetWatch, TagArrived, TagLeft, Watching

FIRST_SCAN_PERIOD = 1.0
"""Seconds a hub's scan is assumed to take before it has said hello: slower than any one-hub
board in docs/performance.md, so no move is judged half done."""
MODEL_MARGIN = 2.0
"""After the hello and until two heartbeats have measured the hub, its scan is assumed to take
this many times what ``hardware.scan_timing`` models for its schedule and the tags on it."""

WATCH_STRIDE = 4
"""A hub told which readers to watch reads its other stacks one scan in this many (an empty
reader every scan all the same). A judgement after the settle time waits until every reader
has been read: with 4 that round takes about the profiles' settle time (4 x 100 ms for The
Hanging Gardens late in a game); with 8 it took up to a second, and the bench's slides
waited for it (their p95 960 ms against 440)."""
LIFT_MARGIN = 0.25
"""Scans added to the miss limit's in ``Hub.lift_latency``."""

ReaderEvent = TypeVar("ReaderEvent", TagArrived, TagLeft, ReaderFault)


@dataclass(eq=False)
class Hub:
    settings: HubSettings
    link: HubLink
    miss_limit: int = 3
    """From its hello: a tag is reported gone after this many scans without it (3 until the
    hello says: the most cautious of the firmware's usual settings)."""
    period: float = FIRST_SCAN_PERIOD
    """Seconds one of its scans takes: measured from heartbeats, modelled until then."""
    last_beat: Heartbeat | None = None
    seen: bool = False
    """A snapshot came since it (re)connected: the tracker holds what its readers hear."""
    sites: frozenset[str] = frozenset()
    """The sites its readers see (its region of the board)."""
    wanted: tuple[int, ...] | None = None
    """Its readers (its own numbers) the service wants watched: those the next step could
    change (None: every reader every scan)."""
    watching: Watching | None = None
    """The watch the hub last confirmed (None: none since it said hello: it reads every
    reader every scan)."""

    @property
    def name(self) -> str:
        return self.settings.name

    def reader(self, local: int) -> int | None:
        """The profile's number of the hub's reader ``local`` (None: the profile has none)."""
        readers = self.settings.readers
        return readers[local] if 0 <= local < len(readers) else None

    def on_board(self, event: ReaderEvent) -> ReaderEvent | None:
        """The event with the profile's reader number (None for a reader it does not name)."""
        number = self.reader(event.reader)
        return None if number is None else replace(event, reader=number)

    def note_beat(self, beat: Heartbeat) -> bool:
        """Measure the scan period between two heartbeats (scans done over time passed,
        pauses included); True when it was measured."""
        last, self.last_beat = self.last_beat, beat
        if last is None or beat.scan_cycles <= last.scan_cycles or (
                beat.uptime_ms <= last.uptime_ms):  # the first, or across a reboot
            return False
        self.period = (beat.uptime_ms - last.uptime_ms) / (beat.scan_cycles - last.scan_cycles) \
            / 1000
        return True

    @property
    def watch(self) -> SetWatch:
        """The watch to ask for: the wanted readers, or every reader every scan."""
        if self.wanted is None:
            return SetWatch(1, ())
        return SetWatch(WATCH_STRIDE, self.wanted)

    @property
    def confirming(self) -> Watching:
        """What the hub answers when it watches what is wanted."""
        return Watching(self.watch.stride, self.watch.readers)

    @property
    def rescan(self) -> float:
        """Seconds within which every reader the next step could change is read again: a
        scan when the hub confirmed that it watches them all (or watches nothing: it reads
        every reader every scan), else as many scans as its stride."""
        watching = self.watching
        if watching is None or watching.stride == 1 or (
                self.wanted is not None and set(self.wanted) <= set(watching.readers)):
            return self.period
        return watching.stride * self.period

    @property
    def round(self) -> float:
        """Seconds within which it reads every reader at least once: its stride of scans while
        it may be watching (asked or confirmed), else one."""
        watching = self.watching.stride if self.watching is not None else 1
        return max(self.watch.stride, watching) * self.period

    @property
    def lift_latency(self) -> float:
        """How long after a tag arrives somewhere a lift done before it may still be
        unreported: the lifted tag's reader is read again within one scan (its first miss),
        the last of the miss limit's misses that many scans after the lift; a quarter scan
        more for the frame to come and a scan that ran long."""
        return (self.miss_limit + LIFT_MARGIN) * self.rescan
