"""Which phone holds which seat's private view: one secret token per claimed seat.

A seat is claimed by the first phone that asks; the table's owner can release them all. Tokens
live in memory only: after a restart the players claim their seats again.
"""

from __future__ import annotations

import secrets

from .errors import NothingToConfirm, SeatNotHeld


class SeatClaims:
    def __init__(self) -> None:
        self._tokens: dict[int, str] = {}

    def claim(self, seat: int, players: tuple[str, ...]) -> str:
        """A secret token for the first phone that asks for ``seat``."""
        if not 0 <= seat < len(players):
            raise NothingToConfirm(f"there is no seat {seat} in this game")
        if seat in self._tokens:
            raise NothingToConfirm(
                f"{players[seat]}'s seat is taken; the table's owner can release it")
        token = secrets.token_urlsafe(16)
        self._tokens[seat] = token
        return token

    def check(self, seat: int, token: str) -> None:
        """Raise SeatNotHeld unless ``token`` is the one handed out for ``seat``."""
        held = self._tokens.get(seat)
        if held is None or not secrets.compare_digest(held, token):
            raise SeatNotHeld("this phone does not hold that seat")

    def held(self, seat: int) -> bool:
        return seat in self._tokens

    def release_all(self) -> None:
        self._tokens = {}
