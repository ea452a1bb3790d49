"""Every game folder follows the layout of games/README.md."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from games.core.game import Game

REQUIRED = ("__init__.py", "engine.py", "state.py", "actions.py", "scoring.py", "data")
STANDARD = ("components.py", "limits.py", "position.py")
"""A small game may keep these parts in engine.py; the shipped games each have them all."""
SHIPPED = {"tiki_topple", "topiary", "hanging_gardens", "on_top", "trapper"}


def folder_of(game: Game[Any]) -> Path:
    return Path(importlib.import_module(type(game).__module__).__file__).parent


def test_the_game_folder_has_the_common_modules(game: Game[Any]) -> None:
    folder = folder_of(game)
    expected = REQUIRED + (STANDARD if game.id in SHIPPED else ())
    missing = [name for name in expected if not (folder / name).exists()]
    assert missing == [], f"{folder.name}/ lacks {missing} (see games/README.md)"
    assert type(game).__module__.endswith(".engine"), "the Game subclass lives in engine.py"
    assert any((folder / "data").iterdir()), "the box is data: data/ holds its file"
