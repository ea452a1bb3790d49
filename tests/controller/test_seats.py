"""Seat claims: a phone gets a seat only with the code shown to the table's owner; its token
opens that seat's private view alone; one phone holds one seat; claims survive a restart."""

from __future__ import annotations

import random

import pytest

from controller.errors import NoGameRunning, NothingToConfirm, SeatNotHeld, WrongSeatCode
from controller.journal import Journal
from controller.seats import CODE_ALPHABET, CODE_LENGTH, MAX_WRONG_CODES, SeatClaims
from controller.table import Table
from games.registry import get_game

PLAYERS = ("anna", "ben")


def seats() -> SeatClaims:
    claims = SeatClaims()
    claims.open(len(PLAYERS))
    return claims


def code(claims: SeatClaims, seat: int) -> str:
    return claims.records()[seat].code


def take(claims: SeatClaims, seat: int, given: str, held: str | None = None) -> str:
    """Claim ``seat`` and keep the record, as the table does once the journal has it."""
    token, record = claims.claim(seat, given, PLAYERS, held)
    claims.keep([record])
    return token


def test_each_seat_has_its_own_short_unambiguous_code() -> None:
    claims = seats()
    codes = [record.code for record in claims.records()]
    assert len(set(codes)) == 2
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("0O1I") & set(CODE_ALPHABET)


def test_a_seat_needs_its_code_and_only_its_token_opens_it() -> None:
    claims = seats()
    with pytest.raises(WrongSeatCode):
        claims.claim(1, code(claims, 0), PLAYERS)  # anna's code does not open ben's seat
    token, record = claims.claim(1, code(claims, 1).lower(), PLAYERS)  # typed in lower case
    assert record.token_hash is not None and token not in record.token_hash
    with pytest.raises(SeatNotHeld):
        claims.check(1, token)  # not before the record is kept (journalled)
    claims.keep([record])
    claims.check(1, token)
    assert claims.held(1) and not claims.held(0)
    with pytest.raises(NothingToConfirm, match="ben's seat is taken"):
        claims.claim(1, code(claims, 1), PLAYERS)
    with pytest.raises(SeatNotHeld):
        claims.check(1, token + "x")
    with pytest.raises(SeatNotHeld):
        claims.check(0, token)  # a token opens its own seat only


def test_one_phone_holds_one_seat() -> None:
    claims = seats()
    token = take(claims, 0, code(claims, 0))
    with pytest.raises(NothingToConfirm, match="already holds anna's seat"):
        claims.claim(1, code(claims, 1), PLAYERS, held=token)
    assert not claims.held(1)


@pytest.mark.parametrize("seat", [-1, 2, 99])
def test_there_is_no_such_seat(seat: int) -> None:
    with pytest.raises(NothingToConfirm, match=f"no seat {seat}"):
        seats().claim(seat, "ABCDEF", PLAYERS)


def test_wrong_codes_renew_the_code_so_it_cannot_be_guessed() -> None:
    claims = seats()
    first = code(claims, 0)
    for _ in range(MAX_WRONG_CODES - 1):
        with pytest.raises(WrongSeatCode):
            claims.claim(0, "ZZZZZZ" if first != "ZZZZZZ" else "YYYYYY", PLAYERS)
    assert not claims.renew_due(0)
    with pytest.raises(WrongSeatCode):
        claims.claim(0, "ZZZZZZ" if first != "ZZZZZZ" else "YYYYYY", PLAYERS)
    assert claims.renew_due(0)
    claims.keep([claims.renew(0)])
    assert code(claims, 0) != first  # 1 in 10**9 to fail by chance
    assert not claims.renew_due(0)


def test_releasing_frees_every_seat_with_new_codes_and_voids_the_tokens() -> None:
    claims = seats()
    before = code(claims, 0)
    old = take(claims, 0, before)
    claims.keep(claims.release_all())
    with pytest.raises(SeatNotHeld):
        claims.check(0, old)
    assert code(claims, 0) != before  # whoever saw the old code must ask again
    assert take(claims, 0, code(claims, 0)) != old


# -- through the table and its journal --------------------------------------------------------
GAME = get_game("tiki_topple")


def table_at(path) -> Table:
    return Table(GAME, Journal(path / "journal.sqlite3"), random.Random(1))


def test_claims_and_codes_survive_a_restart(tmp_path) -> None:
    """Before: claims lived in memory, so after a restart anyone could claim a seat again."""
    table = table_at(tmp_path)
    table.new_game(["anna", "ben"], dealer="digital")
    codes = [record.code for record in table.seat_codes()]
    token = table.claim_seat(1, codes[1])
    table.journal.close()

    again = table_at(tmp_path)
    again.resume(again.journal.active())
    assert [record.code for record in again.seat_codes()] == codes
    again.private_view(1, token)  # the phone keeps its seat
    with pytest.raises(NothingToConfirm, match="ben's seat is taken"):
        again.claim_seat(1, codes[1])
    with pytest.raises(SeatNotHeld):
        again.private_view(0, token)
    stored = again.journal.seats(again.game_id)
    assert token not in repr(stored)  # the journal keeps a hash, never the token


def test_a_renewed_code_is_kept_and_logged(tmp_path) -> None:
    table = table_at(tmp_path)
    table.new_game(["anna", "ben"])
    first = table.seat_codes()[0].code
    wrong = "ZZZZZZ" if first != "ZZZZZZ" else "YYYYYY"
    for _ in range(MAX_WRONG_CODES):
        with pytest.raises(WrongSeatCode):
            table.claim_seat(0, wrong)
    renewed = table.seat_codes()[0].code
    assert renewed != first
    assert "anna's seat has a new code" in table.events[-1].text
    assert renewed not in table.status().model_dump_json()  # the public status never shows it
    assert table.journal.seats(table.game_id)[0].code == renewed
    with pytest.raises(WrongSeatCode):
        table.claim_seat(0, first)
    table.claim_seat(0, renewed)


def test_the_host_releases_one_seat_and_a_new_game_has_new_codes(tmp_path) -> None:
    table = table_at(tmp_path)
    table.new_game(["anna", "ben"])
    codes = [record.code for record in table.seat_codes()]
    anna = table.claim_seat(0, codes[0])
    ben = table.claim_seat(1, codes[1])
    table.release_seat(0)
    with pytest.raises(SeatNotHeld):
        table.private_view(0, anna)
    table.private_view(1, ben)  # the other seat stays held
    assert table.seat_codes()[0].code != codes[0]
    table.new_game(["anna", "ben"])
    assert not any(record.token_hash for record in table.seat_codes())
    with pytest.raises(SeatNotHeld):
        table.private_view(1, ben)
    table.abort()
    with pytest.raises(NoGameRunning):
        table.seat_codes()


def test_a_claim_the_journal_could_not_keep_leaves_the_seat_free(tmp_path, monkeypatch) -> None:
    """Memory never holds a claim the journal lost: it would be gone after a restart while
    the phone believed it held the seat (and nobody else could take it meanwhile)."""
    from controller.journal import JournalError

    table = table_at(tmp_path)
    table.new_game(["anna", "ben"])
    code = table.seat_codes()[0].code

    def full(*_args: object) -> None:
        raise JournalError("the disk is full")

    monkeypatch.setattr(table.journal, "keep_seats", full)
    with pytest.raises(JournalError):
        table.claim_seat(0, code)
    assert not table.seats.held(0)
    monkeypatch.undo()
    table.private_view(0, table.claim_seat(0, code))
