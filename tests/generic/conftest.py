"""The generic tests run over every game found in ``games/``: no list of games to edit.

``TABLETOP_GENERIC_GAMES=id,id`` restricts them to some games (the sixth-game test runs them for
the toy game alone); a name there that is no game is an error, not an empty run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.cli.virtual.table import virtual_service
from controller.web import create_app
from games.core.game import Game
from games.registry import all_games, get_game
from simulator.page import simulator_router
from tests.e2e.served import Served

GAMES_VARIABLE = "TABLETOP_GENERIC_GAMES"
NAMES = ("anna", "ben", "cleo", "dan", "eve", "finn", "gus", "hana")


def chosen_games() -> list[Game[Any]]:
    wanted = os.environ.get(GAMES_VARIABLE, "").strip()
    if not wanted:
        return list(all_games())
    return [get_game(name.strip()) for name in wanted.split(",")]


def players_for(game: Game[Any], count: int | None = None) -> list[str]:
    """Seat names for ``count`` players (default: the fewest the game allows)."""
    return list(NAMES[: count or game.min_players])


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game" in metafunc.fixturenames:
        games = chosen_games()
        metafunc.parametrize("game", games, ids=[game.id for game in games])


@pytest.fixture
def served(game: Game[Any], tmp_path: Path) -> Iterator[tuple[Any, Served]]:
    """A virtual table and its service, served with the /sim page, a new game begun.

    Shared by the page tests (status and simulator pages in Chromium), so both serve the same app.
    """
    table, service = virtual_service(game.id, tmp_path, settle_ms=60)
    app = create_app(service, "page-test-token")
    app.include_router(simulator_router(table, "/"))
    server = Served(app, background=service.run)
    server.call(lambda: service.table.new_game(players_for(game), {}))
    yield table, server
    server.stop()
    table.close()
