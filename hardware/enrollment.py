"""Enrollment: a person lays each piece of a game on any reader; we learn its tag's UID.

`EnrollmentSession` is the bookkeeping (which piece is next, "already known", progress) and
does no I/O. `enroll_from_hub` drives it from a live `HubLink`: it waits for a tag to arrive,
reads that reader several times through snapshots and takes the majority (a tag at the edge
of a reader's field can misread; the Certabo board drivers vote the same way), stores it, and
waits for the tag to be lifted before asking for the next piece.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hardware.link import HubLink
from hardware.protocol import Snapshot, TagArrived, TagLeft
from hardware.registry import RegistryError, TagRegistry, pieces_left, uid_hex


class UnknownPiece(RegistryError):
    """Asked to enroll a piece that is not in this game's box."""


@dataclass(frozen=True, slots=True)
class Prompt:
    piece: str
    number: int
    total: int


@dataclass(frozen=True, slots=True)
class Enrolled:
    piece: str
    uid: str
    reader: int


@dataclass(frozen=True, slots=True)
class AlreadyKnown:
    """The tag laid down is enrolled already (as `piece`); it does not count for this one."""

    uid: str
    piece: str
    reader: int


@dataclass(frozen=True, slots=True)
class UnstableRead:
    reader: int
    votes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LiftTag:
    reader: int


EnrollmentEvent = Prompt | Enrolled | AlreadyKnown | UnstableRead | LiftTag


def majority(reads: Sequence[bytes | None], quorum: int) -> bytes | None:
    """The UID read at least `quorum` times, or None (no tag counts as a vote too)."""
    if not reads:
        return None
    value, count = Counter(reads).most_common(1)[0]
    return value if count >= quorum else None


class EnrollmentSession:
    def __init__(
        self,
        registry: TagRegistry,
        pieces: Sequence[str],
        *,
        only: Sequence[str] = (),
        replace: bool = False,
    ) -> None:
        box = list(pieces)
        unknown = sorted(set(only) - set(box))
        if unknown:
            raise UnknownPiece(f"not a piece of this game: {', '.join(unknown)}")
        wanted = [p for p in box if p in set(only)] if only else box
        self.registry = registry
        self.replace = replace
        self.todo = list(wanted) if replace else pieces_left(wanted, registry)
        self.total = len(self.todo)
        self.done: list[Enrolled] = []
        self._used: dict[str, str] = {}

    def next_piece(self) -> str | None:
        return self.todo[0] if self.todo else None

    def prompt(self) -> Prompt | None:
        piece = self.next_piece()
        return None if piece is None else Prompt(piece, len(self.done) + 1, self.total)

    def offer(self, uid: bytes, reader: int) -> Enrolled | AlreadyKnown:
        """The tag now on a reader is offered as the next piece."""
        piece = self.next_piece()
        if piece is None:
            raise RegistryError("every piece is enrolled already")
        key = uid_hex(uid)
        known = self.registry.lookup(key)
        if key in self._used:  # the same tag twice in one session
            return AlreadyKnown(key, self._used[key], reader)
        if known is not None and not self.replace:
            return AlreadyKnown(key, known, reader)
        if known != piece:
            self.registry.enroll(key, piece, replace=self.replace)
        self.todo.pop(0)
        self._used[key] = piece
        event = Enrolled(piece, key, reader)
        self.done.append(event)
        return event


async def _next(
    link: HubLink, kind: type, timeout: float | None, reader: int | None = None
) -> Any:
    async with asyncio.timeout(timeout):
        while True:
            event = await link.next_event()
            if isinstance(event, kind) and (reader is None or event.reader == reader):
                return event


async def _vote(link: HubLink, reader: int, reads: int, timeout: float) -> list[bytes | None]:
    votes: list[bytes | None] = []
    for _ in range(reads):
        await link.request_snapshot()
        snapshot: Snapshot = await _next(link, Snapshot, timeout)
        uids = snapshot.readers[reader].uids if reader < len(snapshot.readers) else ()
        votes.append(uids[0] if len(uids) == 1 else None)  # two tags at once: no vote
    return votes


async def _wait_lifted(link: HubLink, reader: int) -> None:
    """Until the reader is empty. Asks with snapshots too: the TagLeft may have gone by
    while we were voting."""
    while True:
        await link.request_snapshot()
        snapshot: Snapshot = await _next(link, Snapshot, 5.0)
        if reader >= len(snapshot.readers) or not snapshot.readers[reader].uids:
            return
        try:
            await _next(link, TagLeft, 0.5, reader=reader)
            return
        except TimeoutError:
            continue


async def enroll_from_hub(
    link: HubLink,
    session: EnrollmentSession,
    on_event: Callable[[EnrollmentEvent], None],
    *,
    reads: int = 5,
    quorum: int = 3,
    timeout: float | None = None,
) -> list[Enrolled]:
    """Walk through every piece left in `session`; returns what was enrolled.

    `timeout` bounds each wait for the person (None: wait as long as they need).
    """
    if not 1 <= quorum <= reads:
        raise ValueError(f"quorum must be between 1 and reads ({reads}), got {quorum}")
    while (prompt := session.prompt()) is not None:
        on_event(prompt)
        arrived: TagArrived = await _next(link, TagArrived, timeout)
        votes = await _vote(link, arrived.reader, reads, timeout or 5.0)
        uid = majority(votes, quorum)
        if uid is not None and len(uid) not in (4, 7, 10):
            uid = None  # not an ISO 14443-A UID: a misread, whatever the vote says
        if uid is None:
            shown = tuple(v.hex().upper() if v else "none" for v in votes)
            on_event(UnstableRead(arrived.reader, shown))
        else:
            on_event(session.offer(uid, arrived.reader))
        on_event(LiftTag(arrived.reader))
        async with asyncio.timeout(timeout):
            await _wait_lifted(link, arrived.reader)
    return list(session.done)
