"""All games, found by looking for game packages next to ``games/core``.

A sixth game is one new folder ``games/<id>/`` whose ``__init__`` exposes ``GAME``.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

import games

from .core.errors import UnknownGame
from .core.game import Game


@cache
def all_games() -> tuple[Game[Any], ...]:
    found = []
    for module in pkgutil.iter_modules(games.__path__):
        if not module.ispkg or module.name == "core":
            continue
        package = importlib.import_module(f"games.{module.name}")
        game = getattr(package, "GAME", None)
        if isinstance(game, Game):
            found.append(game)
    return tuple(sorted(found, key=lambda game: game.id))


def get_game(game_id: str) -> Game[Any]:
    """The game registered as ``game_id``; imports only that game's package."""
    names = {module.name for module in pkgutil.iter_modules(games.__path__) if module.ispkg}
    if game_id in names - {"core"}:
        game = getattr(importlib.import_module(f"games.{game_id}"), "GAME", None)
        if isinstance(game, Game) and game.id == game_id:
            return game
    known = ", ".join(sorted(names - {"core"}))
    raise UnknownGame(f"no game {game_id!r}; known games: {known}")
