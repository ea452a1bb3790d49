"""Enrollment through the real link and a fake hub on a pty, with a simulated person."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from hardware.enrollment import (
    AlreadyKnown,
    Enrolled,
    EnrollmentEvent,
    EnrollmentSession,
    LiftTag,
    Prompt,
    UnknownPiece,
    UnstableRead,
    enroll_from_hub,
    majority,
)
from hardware.link import Backoff, HubLink
from hardware.registry import TagRegistry

BOX = ["tiki:lokahi", "tiki:kapu", "visitor:red", "visitor:red"]
TAGS = {
    "tiki:lokahi": [bytes.fromhex("04000001")],
    "tiki:kapu": [bytes.fromhex("04000002")],
    "visitor:red": [bytes.fromhex("04000003"), bytes.fromhex("04000004")],
}


def test_majority_vote() -> None:
    a, b = b"\x01\x02\x03\x04", b"\x09\x09\x09\x09"
    assert majority([a, a, b, a, None], 3) == a
    assert majority([a, b, None, a, b], 3) is None
    assert majority([None, None, None], 2) is None
    assert majority([], 1) is None


def test_session_bookkeeping(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "t.sqlite3")
    registry.enroll(TAGS["tiki:kapu"][0], "tiki:kapu")
    session = EnrollmentSession(registry, BOX)
    assert session.prompt() == Prompt("tiki:lokahi", 1, 3)  # kapu is known already
    assert session.offer(TAGS["tiki:kapu"][0], 0) == AlreadyKnown("04000002", "tiki:kapu", 0)
    assert session.offer(TAGS["tiki:lokahi"][0], 2) == Enrolled("tiki:lokahi", "04000001", 2)
    red = TAGS["visitor:red"]
    assert isinstance(session.offer(red[0], 1), Enrolled)
    assert session.offer(red[0], 1) == AlreadyKnown("04000003", "visitor:red", 1)
    assert isinstance(session.offer(red[1], 1), Enrolled)
    assert session.prompt() is None
    assert registry.tags_of("visitor:red") == ("04000003", "04000004")


def test_unknown_pieces_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UnknownPiece, match="not a piece of this game: tiki:nobody"):
        EnrollmentSession(TagRegistry(tmp_path / "t.sqlite3"), BOX, only=["tiki:nobody"])


def test_only_some_pieces_and_replace(tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "t.sqlite3")
    registry.enroll(TAGS["tiki:kapu"][0], "tiki:lokahi")  # a mistake to fix
    session = EnrollmentSession(registry, BOX, only=["tiki:kapu"], replace=True)
    assert session.prompt() == Prompt("tiki:kapu", 1, 1)
    session.offer(TAGS["tiki:kapu"][0], 0)
    assert registry.lookup(TAGS["tiki:kapu"][0]) == "tiki:kapu"


class Person:
    """Lays the asked-for piece's tag on reader (n % 3) and lifts it when told."""

    def __init__(self, hub: Any, mistakes: list[bytes] | None = None) -> None:
        self.hub = hub
        self.events: list[EnrollmentEvent] = []
        self.mistakes = mistakes or []
        self.used: dict[str, int] = {}

    def __call__(self, event: EnrollmentEvent) -> None:
        self.events.append(event)
        if isinstance(event, Prompt):
            if self.mistakes:
                uid = self.mistakes.pop(0)
            else:
                n = self.used.get(event.piece, 0)
                uid = TAGS[event.piece][n]
            asyncio.get_running_loop().call_later(0.01, self.hub.lay, event.number % 3, uid)
        elif isinstance(event, Enrolled):
            self.used[event.piece] = self.used.get(event.piece, 0) + 1
        elif isinstance(event, LiftTag):
            asyncio.get_running_loop().call_later(0.01, self.hub.lift, event.reader)


def run_enrollment(hub: Any, session: EnrollmentSession, person: Person) -> list[Enrolled]:
    async def main() -> list[Enrolled]:
        link = HubLink(hub.url, backoff=Backoff(0.02, 2, 0.2))
        task = asyncio.create_task(link.run())
        try:
            await link.wait_connected(3)
            return await enroll_from_hub(link, session, person, reads=5, quorum=3, timeout=5)
        finally:
            task.cancel()

    return asyncio.run(main())


def test_enroll_a_whole_box_from_the_hub(fake_hub, tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "t.sqlite3")
    known = bytes.fromhex("04000002")
    registry.enroll(known, "tiki:kapu")
    session = EnrollmentSession(registry, BOX)
    person = Person(fake_hub, mistakes=[known])  # first lays the already-known kapu tag
    done = run_enrollment(fake_hub, session, person)
    assert [e.piece for e in done] == ["tiki:lokahi", "visitor:red", "visitor:red"]
    assert AlreadyKnown("04000002", "tiki:kapu", 1) in person.events
    assert registry.lookup(bytes.fromhex("04000001")) == "tiki:lokahi"
    assert registry.tags_of("visitor:red") == ("04000003", "04000004")
    prompts = [e for e in person.events if isinstance(e, Prompt)]
    assert [(p.number, p.total) for p in prompts] == [(1, 3), (1, 3), (2, 3), (3, 3)]


def test_misreads_are_outvoted_or_reported(fake_hub, tmp_path: Path) -> None:
    registry = TagRegistry(tmp_path / "t.sqlite3")
    session = EnrollmentSession(registry, ["tiki:lokahi"])
    wrong = bytes.fromhex("04ffffff")
    # The link's own snapshot after hello takes the first entry. Then, on the first try,
    # the tag sits at the edge of the field: the five reads disagree, no UID gets 3 votes.
    fake_hub.noisy_snapshots = [{}, {1: wrong}, {}, {1: wrong}, {1: bytes.fromhex("04eeeeee")}]
    person = Person(fake_hub)
    run_enrollment(fake_hub, session, person)
    unstable = [e for e in person.events if isinstance(e, UnstableRead)]
    assert len(unstable) == 1 and unstable[0].reader == 1
    assert registry.all() == {"04000001": "tiki:lokahi"}  # the second try got it
