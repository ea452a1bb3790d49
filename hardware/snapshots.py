"""The host's copy of what a hub's readers hold, rebuilt from small snapshot parts.

Why parts: on a cable that damages 5 % of the bytes, a frame of n bytes arrives whole with
probability 0.95**n. A version 2 snapshot of eleven readers (about 130 bytes) almost never
did; a part of one reader (14 to 24 bytes) does about one time in three, and a lost part is
asked for again on its own.

Why the change counter: parts arrive at different moments, and frames between them may be
lost. Every part carries the hub's count of change frames (TAG_ARRIVED, TAG_LEFT,
READER_FAULT) sent so far. The mirror counts the change frames it receives; when a part's
count equals its own, nothing that matters was lost, whatever frames the noise ate (a
heartbeat, another part). When it differs, a change went missing: only that part is trusted
and the rest is asked for again. So a damaged frame costs one small part to check, not a
whole snapshot, and a snapshot is handed on only when every part describes the same moment.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hardware.protocol import (
    ReaderFault,
    ReaderState,
    RequestSnapshot,
    Snapshot,
    SnapshotPart,
    TagArrived,
    TagLeft,
)

Change = TagArrived | TagLeft | ReaderFault


def applied(state: ReaderState, change: Change) -> ReaderState:
    """``state`` after ``change``, as the firmware keeps it: an arriving tag goes on top of
    the stack (again, if it was put back), a leaving one is taken out, a fault sets the
    status and keeps the tags."""
    match change:
        case TagArrived(_, uid):
            return ReaderState(state.status, (*(u for u in state.uids if u != uid), uid))
        case TagLeft(_, uid):
            return ReaderState(state.status, tuple(u for u in state.uids if u != uid))
        case ReaderFault(_, status):
            return ReaderState(status, state.uids)
    raise TypeError(f"not a change: {change!r}")


class Mirror:
    """Per reader the last known state, which of them are known to be current, and whether
    a frame was lost since the host last checked the hub's change counter."""

    def __init__(self, readers: int) -> None:
        self.readers = readers
        self.states: dict[int, ReaderState] = {}
        self.current: set[int] = set()
        """Readers whose state is the hub's now (as far as the change counter tells)."""
        self.changes: int | None = None
        """The hub's change counter, if every change since the last part was received."""
        self.doubt = True
        """A frame was lost since ``changes`` was last checked against a part."""
        self.owed = True
        """A Snapshot is owed to the consumer (after connecting, a missed change, or asked)."""
        self.missed = 0
        """Times a part showed that a change frame had been lost."""

    def lost(self) -> None:
        """A frame was damaged or skipped: it may have been a change."""
        self.doubt = True

    def ask(self) -> None:
        """The consumer wants the hub's word on every reader, not the mirror's."""
        self.current.clear()
        self.owed = True

    def change(self, event: Change) -> None:
        """A change frame received in order: count it, and keep the reader's state current."""
        if self.changes is not None:
            self.changes = (self.changes + 1) & 0xFFFF
        if event.reader in self.current:
            self.states[event.reader] = applied(self.states[event.reader], event)

    def part(self, part: SnapshotPart) -> Snapshot | None:
        """Take one part; the whole snapshot when it completes one that is owed."""
        if part.readers != self.readers:  # the hello said otherwise: trust the hub's count
            self.readers = part.readers
            self.current = {r for r in self.current if r < part.readers}
        if part.changes != self.changes:
            if self.changes is not None:
                self.missed += 1
            self.current.clear()  # the others may have changed since: ask for them again
            self.owed = True
            self.changes = part.changes
        self.doubt = False
        self.states[part.reader] = part.state
        self.current.add(part.reader)
        if self.owed and len(self.current) == self.readers:
            self.owed = False
            return Snapshot(tuple(self.states[r] for r in range(self.readers)))
        return None

    def missing(self) -> tuple[int, ...]:
        return tuple(r for r in range(self.readers) if r not in self.current)

    def wants(self, probe: int) -> tuple[int, ...] | None:
        """The readers to ask for now, or None when the mirror is sure and owes nothing. A
        doubt alone is settled by one part (reader ``probe``), whose change count says
        whether anything was lost."""
        missing = self.missing()
        if self.owed and missing:
            return missing
        if self.doubt:
            return missing[:1] or (probe % max(1, self.readers),)
        return None


@dataclass
class Pacer:
    """When the link may ask for parts again: one request in flight at a time, answered within
    ``base`` plus three times the parts' own time on the line (so that asking again and again
    fills at most a third of a 115200-baud line), jittered; and twice as long (up to
    ``maximum``, or the answer's own time if longer) after each request met by silence, so
    that a hub that does not answer is not flooded. A noisy cable is not silent: damaged
    answers keep the base pace, since the next small answer has the same chance as the last."""

    base: float = 0.05
    """Seconds the hub takes to answer (it reads commands between two readers' reads)."""
    per_part: float = 3 * 24 * 10 / 115_200
    """Seconds per part asked for: three times what one takes on a 115200-baud line (about
    24 bytes of 10 bits)."""
    maximum: float = 1.0
    jitter: float = 0.2
    rng: random.Random = field(default_factory=random.Random)
    next_at: float = float("-inf")
    factor: float = 1.0
    progress: bool = False
    requests: int = 0
    awaiting: int = 0
    """Frames of the last answer not yet in (parts, good or damaged)."""
    asked_at: float = float("-inf")
    answered_at: float | None = None
    """When the whole answer was in (each part arrived, or was damaged on the way)."""
    first_at: float | None = None
    """When its first frame came."""

    def due(self, now: float) -> bool:
        """After the wait; or sooner once the whole answer is in, after twice the time it took
        on the line (first frame to last: so that the answers fill at most a third of the
        line, however fast it is; the hub's delay before answering is no load on it)."""
        if now >= self.next_at:
            return True
        if self.answered_at is None or self.first_at is None:
            return False
        return now >= self.answered_at + max(0.01, 2 * (self.answered_at - self.first_at))

    def answered(self, now: float, frames: int = 1) -> None:
        """``frames`` frames of the answer came in at ``now`` (good parts, or damaged)."""
        if self.first_at is None:
            self.first_at = now
        self.awaiting -= frames
        if self.awaiting <= 0 and self.answered_at is None:
            self.answered_at = now

    def asked(self, now: float, parts: int) -> None:
        """A request for ``parts`` parts was sent at ``now``."""
        if not self.progress and self.requests:
            self.factor = min(self.factor * 2, self.maximum / self.base)
        else:
            self.factor = 1.0
        self.progress = False
        self.requests += 1
        self.awaiting, self.asked_at, self.answered_at, self.first_at = parts, now, None, None
        window = self.base + parts * self.per_part
        wait = max(window, min(self.maximum, window * self.factor))
        self.next_at = now + wait * self.rng.uniform(1 - self.jitter, 1 + self.jitter)

    def heard(self) -> None:
        """Bytes came back (a part, or anything damaged): keep asking at the base pace."""
        self.progress = True

    def reset(self) -> None:
        self.next_at, self.factor, self.progress = float("-inf"), 1.0, False
        self.awaiting, self.asked_at, self.answered_at, self.first_at = (
            0, float("-inf"), None, None)


def request_for(readers: tuple[int, ...], count: int) -> RequestSnapshot:
    """Every reader is asked for with an empty body (2 bytes shorter than a bitmap)."""
    return RequestSnapshot(() if len(readers) >= count else readers)
