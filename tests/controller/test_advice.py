"""The advice book: which seats the AI plays, what it should think about, what it said."""

from __future__ import annotations

import random

import pytest

from controller.advice import MAX_SIMULATIONS, AdviceBook, ai_seats
from controller.errors import NothingToConfirm
from controller.referee import Successors
from games.core.errors import BadSetup
from games.core.playout import random_step
from games.registry import get_game

GAME = get_game("tiki_topple")
PLAYERS = ("anna", "ben")
OPTIONS = {"edition": "gamewright"}


def on_turn():
    """A Tiki Topple position with a player on turn (the stack built, the cards dealt)."""
    state, rng = GAME.initial(PLAYERS, OPTIONS), random.Random(3)
    while GAME.actor(state) < 0:
        state = GAME.apply(state, random_step(GAME, state, rng))
    return state


def test_ai_seats_by_name_and_strength() -> None:
    assert ai_seats(PLAYERS, {"ben": 50}) == {1: 50}
    with pytest.raises(BadSetup, match="not among the players"):
        ai_seats(PLAYERS, {"cleo": 50})
    with pytest.raises(BadSetup, match=f"1 to {MAX_SIMULATIONS}"):
        ai_seats(PLAYERS, {"ben": 0})


def test_an_ai_seat_asks_for_a_move_and_keeps_the_answer_for_that_position_only() -> None:
    state = on_turn()
    seat = GAME.actor(state)
    book = AdviceBook(GAME)
    book.reset({seat: 80})
    request = book.request(state, OPTIONS, seed=7)
    assert request is not None and (request.kind, request.seat) == ("ai", seat)
    assert request.simulations == 80
    legal = GAME.legal_actions(state)
    assert book.receive(state, request, legal[0], {legal[0]: 0.6}, 0.1, 80)
    assert book.current(state).action == legal[0]
    assert book.request(state, OPTIONS, seed=7) is None  # answered: nothing more to think about
    moved_on = GAME.apply(state, legal[0])
    assert book.current(moved_on) is None
    assert not book.receive(moved_on, request, legal[0], {}, 0.1, 80)  # too late: dropped
    with pytest.raises(ValueError, match="not legal here"):
        book.receive(state, request, "up9 nobody", {}, 0.1, 80)


def test_a_hint_is_asked_for_the_player_on_turn_and_lights_its_sites() -> None:
    state = on_turn()
    book = AdviceBook(GAME)
    assert book.request(state, OPTIONS, seed=1) is None  # nobody asked
    assert str(book.ask_hint(state, PLAYERS)).startswith("thinking about a hint for ")
    request = book.request(state, OPTIONS, seed=1)
    assert request is not None and request.kind == "hint"
    every = Successors(GAME, state)
    move = next(s for s in every.changing)
    book.receive(state, request, move.action, {move.action: 0.5}, 0.2, 200)
    assert book.sites(state, every)  # the move changes the board somewhere
    report = book.report(state, PLAYERS, every)
    assert report is not None and report.action == move.action and report.values
    assert str(book.ask_hint(state, PLAYERS)).endswith(move.action)


def test_no_hint_for_an_ai_seat_or_the_table_s_draws() -> None:
    state = on_turn()
    book = AdviceBook(GAME)
    book.reset({GAME.actor(state): 50})
    with pytest.raises(NothingToConfirm, match="played by the AI"):
        book.ask_hint(state, PLAYERS)
    with pytest.raises(NothingToConfirm, match="no player is on turn"):
        book.ask_hint(GAME.initial(PLAYERS, OPTIONS), PLAYERS)


def test_the_ai_is_loaded_on_its_first_request_not_with_the_service() -> None:
    """OpenSpiel is 40 MB of a Pi Zero's 512: a table nobody asks for a hint never loads it."""
    import subprocess
    import sys

    code = """
import random, sys, tempfile
from pathlib import Path
from gpiozero.pins.mock import MockFactory
from controller.compose import build_service, load_board
from hardware.leds import RecordingStrip
profile = load_board("tiki_topple")
with tempfile.TemporaryDirectory() as data:
    service, _ = build_service(profile, Path(data), urls=[data + "/no-hub"],
                               strip=RecordingStrip(24), pin_factory=MockFactory())
    print(service.advisor is not None, "open_spiel" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["True", "False"]


def test_without_openspiel_there_is_no_ai(monkeypatch) -> None:
    import importlib.util

    from controller.advice import ai_advisor
    from games.registry import get_game

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "open_spiel" else real(name, *a))
    assert ai_advisor(get_game("tiki_topple")) is None
