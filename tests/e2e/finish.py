"""Helpers for page tests that need a table at a given moment (a whole game played quickly:
``tests.playing``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.cli.virtual.table import virtual_service
from controller.web import create_app
from simulator.page import simulator_router

from .served import Served

TOKEN = "pages-test-token"


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
