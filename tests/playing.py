"""A whole game laid on a ``Table`` quickly, for tests that need one at its end (the game-over
screen, a club result, a page at a given moment): no hub, no timing. It plays the table's
own state, which is the real one only with the digital dealer (or a game with no secrets):
the callers start their games so."""

from __future__ import annotations

import random

from controller.referee import Choose
from controller.table import Table
from games.core.playout import random_step


def play_to_end(table: Table, rng: random.Random) -> None:
    """Lay each step's board as players would, picking the reading meant when the board
    cannot tell (an action that changes nothing on it). An AI seat's move is taken as the
    AI's advice first, as the service would have it think (the table waits for that)."""
    game = table.game
    for _ in range(5000):
        if game.is_terminal(table.state):
            return
        action = random_step(game, table.state, rng)
        request = table.advice_request()
        if request is not None and request.kind == "ai":
            assert table.receive_advice(request, action, {}, 0.0, 1)
        decision = table.observe(game.board(game.apply(table.state, action)))
        if isinstance(decision, Choose):
            actions = [successor.action for successor in decision.successors]
            table.choose(actions.index(action) if action in actions else 0)
    raise AssertionError("the game did not end")
