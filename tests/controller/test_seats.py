"""Seat claims: the first phone gets a seat; only its token opens the seat's private view."""

from __future__ import annotations

import pytest

from controller.errors import NothingToConfirm, SeatNotHeld
from controller.seats import SeatClaims

PLAYERS = ("anna", "ben")


def test_the_first_phone_gets_the_seat_and_only_its_token_opens_it() -> None:
    seats = SeatClaims()
    token = seats.claim(1, PLAYERS)
    seats.check(1, token)
    assert seats.held(1) and not seats.held(0)
    with pytest.raises(NothingToConfirm, match="ben's seat is taken"):
        seats.claim(1, PLAYERS)
    with pytest.raises(SeatNotHeld):
        seats.check(1, token + "x")
    with pytest.raises(SeatNotHeld):
        seats.check(0, token)  # a token opens its own seat only


@pytest.mark.parametrize("seat", [-1, 2, 99])
def test_there_is_no_such_seat(seat: int) -> None:
    with pytest.raises(NothingToConfirm, match=f"no seat {seat}"):
        SeatClaims().claim(seat, PLAYERS)


def test_releasing_frees_every_seat_and_voids_the_tokens() -> None:
    seats = SeatClaims()
    old = seats.claim(0, PLAYERS)
    seats.release_all()
    with pytest.raises(SeatNotHeld):
        seats.check(0, old)
    assert seats.claim(0, PLAYERS) != old
