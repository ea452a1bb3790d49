"""Every value of every option plays: the conformance check, a seeded playout and the
simulator's autoplay for each non-default value, at the fewest players it allows. Autoplay runs
on the ideal table here (dozens of games) and without mistakes (each value's rules are what is
tested: a Trapper mistake costs seconds of search for the players' dealing);
tests/e2e/test_sim_command.py plays every shipped game on the realistic table, mistakes and
all. The defaults are covered by the other generic tests."""

from __future__ import annotations

import json
import random
from typing import Any

from controller.cli import main
from games.core.conformance import check_game
from games.core.game import Game
from games.core.playout import random_playout, seat_names
from games.core.playthrough import Setup, setups


def _other_values(game: Game[Any]) -> list[Setup]:
    return [setup for setup in setups(game) if setup.options]


def test_every_option_value_passes_the_conformance_check(game: Game[Any]) -> None:
    for setup in _other_values(game):
        report = check_game(game, games=2, seed=11, player_counts=[setup.players],
                            options=(setup.options,))
        assert report.games == 2, setup.name


def test_every_option_value_plays_to_the_end_with_the_simulators_bots(game: Game[Any],
                                                                      capsys) -> None:
    for setup in _other_values(game):
        players = seat_names(setup.players)
        playout = random_playout(game, players, setup.options, random.Random(3))
        assert game.is_terminal(playout.final), setup.name
        flags = [arg for key, value in setup.options.items()
                 for arg in ("--option", f"{key}={value}")]
        code = main(["sim", "--autoplay", game.id, "--games", "1", "--players",
                     ",".join(players), *flags, "--ideal", "--mistakes", "0"])
        summary = json.loads(capsys.readouterr().out)
        assert code == 0, (setup.name, {key: value for key, value in summary.items()
                                        if key != "results"})
        assert summary["completed"] == 1 and summary["scores_match"], setup.name
        assert summary["records_match"] and summary["results"][0]["board_matches"], setup.name
