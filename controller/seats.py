"""Which phone holds which seat's private view, and how a phone proves it sits there.

Every seat of a game gets a short random code, shown only to the table's owner (the host's
page, behind the table token) so they can read it out or show it to the person in that seat.
A phone claims a seat with its code and receives a secret seat token; the journal keeps the
codes and only a hash of each token, so claims survive a restart and no phone's token can be
read from it (the journal itself, holding the codes and the digital dealer's draws, stays on
the Pi, readable only by the service). Wrong codes are counted per seat: after
``MAX_WRONG_CODES`` the seat gets a new code, so guessing one is hopeless. Pure bookkeeping:
the table persists what changes (``SeatRecord``), then ``keep``s it here, so memory never
holds a claim the journal lost (a phone would hold a seat nobody can give back after a
restart).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace

from games.core.game import Sentence

from .errors import NothingToConfirm, SeatNotHeld, WrongSeatCode

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0/O, 1/I: a code read aloud across the table or typed on a phone is not misread."""
CODE_LENGTH = 6
"""32**6, about 10**9 codes: with a new code every few wrong tries, guessing is hopeless."""
MAX_WRONG_CODES = 5
"""Wrong codes for one seat before it gets a new one."""


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise(code: str) -> str:
    """What a person types: any case, spaces or dashes between groups."""
    return "".join(code.split()).replace("-", "").upper()


def token_hash(token: str) -> str:
    """What the journal keeps of a seat token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of one game as the journal keeps it."""

    seat: int
    code: str
    token_hash: str | None = None
    """sha256 of the token of the phone holding the seat; None while the seat is free."""
    claimed_at: float | None = None


class SeatClaims:
    def __init__(self) -> None:
        self._seats: dict[int, SeatRecord] = {}
        self._wrong: dict[int, int] = {}

    def open(self, count: int, stored: dict[int, SeatRecord] | None = None
             ) -> list[SeatRecord]:
        """The seats of a new or resumed game: the stored ones as they were, a fresh code
        for every other; returns the records to persist (the new ones)."""
        stored = stored or {}
        self._seats = {seat: stored.get(seat) or SeatRecord(seat, new_code())
                       for seat in range(count)}
        self._wrong = {}
        return [record for seat, record in self._seats.items() if seat not in stored]

    def records(self) -> list[SeatRecord]:
        return [self._seats[seat] for seat in sorted(self._seats)]

    def keep(self, records: Iterable[SeatRecord]) -> None:
        """Take changed records (claimed, renewed, released) once the journal has them."""
        for record in records:
            self._seats[record.seat] = record
            self._wrong.pop(record.seat, None)

    def _record(self, seat: int) -> SeatRecord:
        record = self._seats.get(seat)
        if record is None:
            raise NothingToConfirm(Sentence("there is no seat {seat} in this game",
                                            {"seat": str(seat)}))
        return record

    def holder(self, token: str | None) -> int | None:
        """The seat ``token`` holds, if any (one phone, one seat)."""
        if not token:
            return None
        digest = token_hash(token)
        for record in self._seats.values():
            if record.token_hash is not None and secrets.compare_digest(record.token_hash,
                                                                        digest):
                return record.seat
        return None

    def claim(self, seat: int, code: str, players: tuple[str, ...],
              held: str | None = None) -> tuple[str, SeatRecord]:
        """A secret token for the phone that gives ``seat``'s code, and the record to keep
        (the seat is held once it is kept).

        Raises NothingToConfirm (no such seat, taken, or this phone holds another seat) and
        WrongSeatCode (counted: ``renew_due`` says when the code must change).
        """
        record = self._record(seat)
        mine = self.holder(held)
        if mine is not None:
            raise NothingToConfirm(
                Sentence("this phone already holds this seat: one phone, one seat")
                if mine == seat else
                Sentence("this phone already holds {player}'s seat: one phone, one seat",
                         {"player": players[mine]}))
        if record.token_hash is not None:
            raise NothingToConfirm(Sentence(
                "{player}'s seat is taken; the table's owner can release it",
                {"player": players[seat]}))
        if not secrets.compare_digest(normalise(code).encode(), record.code.encode()):
            self._wrong[seat] = self._wrong.get(seat, 0) + 1
            raise WrongSeatCode(Sentence("that is not the code of {player}'s seat: ask the "
                                         "table's owner for it", {"player": players[seat]}))
        token = secrets.token_urlsafe(16)
        return token, replace(record, token_hash=token_hash(token), claimed_at=time.time())

    def renew_due(self, seat: int) -> bool:
        """Enough wrong codes for ``seat`` that its code must change."""
        return self._wrong.get(seat, 0) >= MAX_WRONG_CODES

    def renew(self, seat: int) -> SeatRecord:
        """A new code for ``seat`` (the old one may be guessed or known); the claim stays."""
        return replace(self._record(seat), code=new_code())

    def check(self, seat: int, token: str) -> None:
        """Raise SeatNotHeld unless ``token`` is the one handed out for ``seat``."""
        record = self._seats.get(seat)
        if record is None or record.token_hash is None or not secrets.compare_digest(
                record.token_hash, token_hash(token)):
            raise SeatNotHeld(Sentence("this phone does not hold that seat"))

    def held(self, seat: int) -> bool:
        record = self._seats.get(seat)
        return record is not None and record.token_hash is not None

    def release(self, seat: int) -> SeatRecord:
        """``seat`` free with a new code: the phone that held it, and whoever saw the old
        code, must ask the owner again."""
        self._record(seat)
        return SeatRecord(seat, new_code())

    def release_all(self) -> list[SeatRecord]:
        return [self.release(seat) for seat in sorted(self._seats)]
