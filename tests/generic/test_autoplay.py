"""The simulator's bots play a whole game of every game through the virtual hub and the service
ends on the engine's own scores. On the ideal table, for speed: the realistic one plays every
shipped game in tests/e2e/test_sim_command.py."""

from __future__ import annotations

import json
from typing import Any

from controller.cli import main
from games.core.game import Game

from .conftest import players_for


def test_tabletop_sim_autoplay_completes_a_game(game: Game[Any], capsys) -> None:
    players = players_for(game)
    code = main(["sim", "--autoplay", game.id, "--games", "1", "--players", ",".join(players),
                 "--ideal"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (summary["game"], summary["completed"], summary["radio"]) == (game.id, 1, "ideal")
    assert summary["scores_match"] and summary["records_match"]
    assert summary["results"][0]["board_matches"]
