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
    for game in all_games():
        if game.id == game_id:
            return game
    known = ", ".join(game.id for game in all_games())
    raise UnknownGame(f"no game {game_id!r}; known games: {known}")
