"""Helpers for page tests that need a table at a given moment: a whole game played, quickly."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.cli.sim import virtual_service
from controller.referee import Choose
from controller.table import Table
from controller.web import create_app
from games.core.playout import random_step
from simulator.page import simulator_router

from .served import Served

TOKEN = "pages-test-token"


def play_to_end(table: Table, rng: random.Random) -> None:
    """Lay each step's board as the players would (the table judges it as it would the
    hub's), picking the reading meant when the board cannot tell (a step that changes
    nothing on it)."""
    game = table.game
    for _ in range(5000):
        if game.is_terminal(table.state):
            return
        action = random_step(game, table.state, rng)
        decision = table.observe(game.board(game.apply(table.state, action)))
        if isinstance(decision, Choose):
            actions = [successor.action for successor in decision.successors]
            table.choose(actions.index(action) if action in actions else 0)
    raise AssertionError("the game did not end")


def simulated(game: str, folder: Path, players: list[str] | None = None,
              **new_game: Any) -> Iterator[tuple[Any, Any, Served]]:
    """The app ``tabletop sim`` serves (status page, player page and /sim) on a virtual table
    of ``game`` with a game started; yields the virtual table, the service and the server."""
    table, service = virtual_service(game, folder, settle_ms=60, rng=random.Random(1))
    app = create_app(service, TOKEN)
    app.include_router(simulator_router(table, "/"))
    served = Served(app, background=service.run)
    served.call(lambda: service.new_game(players or ["anna", "ben"], **new_game))
    try:
        yield table, service, served
    finally:
        served.stop()
        table.close()
