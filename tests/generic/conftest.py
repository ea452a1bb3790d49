"""The generic tests run over every game found in ``games/``: no list of games to edit.

``TABLETOP_GENERIC_GAMES=id,id`` restricts them to some games (the sixth-game test runs them for
the toy game alone); a name there that is no game is an error, not an empty run.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from games.core.game import Game
from games.registry import all_games, get_game

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
