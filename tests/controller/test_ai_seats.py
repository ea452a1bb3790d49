"""AI seats and hints at the table: the referee accepts only the AI's move for an AI seat.

The table itself never runs the AI (the service does, off its loop); these tests hand it the
AI's answer the way the service does, so they need no OpenSpiel.
"""

from __future__ import annotations

import random

import pytest

from controller import lighting
from controller.advice import AdviceRequest
from controller.errors import NothingToConfirm
from controller.journal import Journal
from controller.referee import Discrepancy, NoChange
from controller.table import Table
from games.core.errors import BadSetup
from games.registry import get_game

GAME = get_game("tiki_topple")
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


def stack_board(stack, pad=None):
    board = {f"stack:{i}": f"tiki:{t}" for i, t in enumerate(stack, start=1)}
    return {**board, "pad:play": pad} if pad else board


@pytest.fixture
def journal(tmp_path) -> Journal:
    return Journal(tmp_path / "journal.sqlite3")


def ai_table(journal: Journal, ai=None) -> Table:
    table = Table(GAME, journal, random.Random(1))
    table.new_game(["anna", "ben"], {"edition": "gamewright"}, ai if ai is not None else
                   {"anna": 50})
    table.observe(stack_board(STACK))  # built: anna (seat 0) is on turn
    assert GAME.actor(table.state) == 0
    return table


def answer(table: Table, request: AdviceRequest, action: str) -> bool:
    return table.receive_advice(request, action, {action: 0.6}, 0.2, request.simulations)


def test_an_ai_seat_asks_for_advice_and_nothing_is_accepted_before_it(journal) -> None:
    table = ai_table(journal)
    request = table.advice_request()
    assert request is not None and request.kind == "ai" and request.seat == 0
    assert request.simulations == 50 and request.state is table.state
    assert table.legal_sites() == set()  # nothing lit while the AI thinks
    legal = GAME.legal_actions(table.state)
    some_move = GAME.board(GAME.apply(table.state, legal[0]))
    actions = list(table.actions)
    assert isinstance(table.observe(some_move), Discrepancy)
    assert table.actions == actions


def test_only_the_ai_move_is_accepted_and_it_is_lit_in_the_advice_colour(journal) -> None:
    table = ai_table(journal)
    request = table.advice_request()
    legal = GAME.legal_actions(table.state)
    chosen, other = legal[-1], legal[0]
    assert answer(table, request, chosen)
    assert table.advice_request() is None  # answered for this position
    before = table.expected_board
    chosen_board = GAME.board(GAME.apply(table.state, chosen))
    other_board = GAME.board(GAME.apply(table.state, other))
    sites = {s for s in before.keys() | chosen_board.keys() if before.get(s) != chosen_board.get(s)}
    assert table.advice_sites() == sites
    roles = lighting.plan(table.decision, table.successors, table.legal_sites(),
                          table.advice_sites())
    assert {site for site, role in roles.items() if role == "advice"} == sites
    status = table.status()
    assert status.advice.action == chosen and status.advice.player == "anna"
    assert status.ai_seats == ["anna"]
    # Another legal move is refused and changes nothing; the AI's move is accepted.
    assert isinstance(table.observe(other_board), Discrepancy)
    assert table.actions[-1] != other
    assert table.observe(before) == NoChange()
    table.observe(chosen_board)
    assert table.actions[-1] == chosen
    assert table.current_advice() is None


def test_a_late_answer_for_an_old_position_is_dropped(journal) -> None:
    table = ai_table(journal, {"ben": 50})  # anna (human) on turn
    assert table.advice_request() is None
    legal = GAME.legal_actions(table.state)
    stale = AdviceRequest("ai", 1, table.states[-2], {}, 50, 0)
    assert not answer(table, stale, legal[0])
    assert table.current_advice() is None


def test_an_illegal_answer_is_refused(journal) -> None:
    table = ai_table(journal)
    with pytest.raises(ValueError, match="not legal"):
        answer(table, table.advice_request(), "toast")


def test_a_hint_lights_a_move_but_any_legal_move_is_still_accepted(journal) -> None:
    table = ai_table(journal, {})
    assert table.advice_request() is None
    assert "thinking about a hint for anna" in str(table.request_hint())
    request = table.advice_request()
    assert request is not None and request.kind == "hint" and request.seat == 0
    legal = GAME.legal_actions(table.state)
    assert answer(table, request, legal[0])
    assert str(table.request_hint()) == f"hint for anna: {legal[0]}"
    assert table.advice_sites()
    table.observe(GAME.board(GAME.apply(table.state, legal[-1])))  # not the hint: fine
    assert table.actions[-1] == legal[-1]
    assert table.advice_request() is None  # a hint is for one position only


def test_no_hint_for_an_ai_seat_or_without_a_player_on_turn(journal) -> None:
    table = ai_table(journal)
    with pytest.raises(NothingToConfirm, match="played by the AI"):
        table.request_hint()
    fresh = Table(GAME, journal, random.Random(1))
    with pytest.raises(NothingToConfirm, match="no game"):
        fresh.request_hint()
    fresh.new_game(["anna", "ben"], {})
    with pytest.raises(NothingToConfirm, match="no player is on turn"):
        fresh.request_hint()  # the stack is still to be built


def test_ai_seats_survive_a_restart_with_the_same_request(journal) -> None:
    table = ai_table(journal, {"anna": 300})
    request = table.advice_request()
    again = Table(GAME, journal, random.Random(2))
    again.resume(journal.active())
    assert again.ai == {0: 300}
    second = again.advice_request()
    assert (second.seat, second.simulations, second.seed) == (0, 300, request.seed)
    assert second.state == request.state


def test_bad_ai_seats_are_refused_before_anything_is_stored(journal) -> None:
    table = Table(GAME, journal, random.Random(1))
    with pytest.raises(BadSetup, match="not among the players"):
        table.new_game(["anna", "ben"], {}, {"cleo": 50})
    with pytest.raises(BadSetup, match="1 to 20000 simulations"):
        table.new_game(["anna", "ben"], {}, {"ben": 0})
    assert journal.games() == []
