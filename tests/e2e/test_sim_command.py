"""`tabletop sim --scenario` and `--autoplay`: the whole table, headless, for every game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from games.registry import all_games

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "simulator" / "scenarios").glob(
    "*.scenario"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_passes_against_the_service(path: Path, capsys) -> None:
    code = main(["sim", "--scenario", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "FAIL" not in out
    assert out.strip().splitlines()[-1].endswith("expectations passed")


def test_a_failing_expectation_fails_the_run(tmp_path, capsys) -> None:
    scenario = tmp_path / "wrong.scenario"
    scenario.write_text("game tiki_topple\nplayers anna ben\nput tiki:nani stack:1\n"
                        "expect status phase play\n")
    assert main(["sim", "--scenario", str(scenario)]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_a_malformed_scenario_is_a_user_error(tmp_path, capsys) -> None:
    scenario = tmp_path / "bad.scenario"
    scenario.write_text("put tiki:nani\n")
    assert main(["sim", "--scenario", str(scenario)]) == 2
    assert "bad.scenario:1" in capsys.readouterr().err


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_bots_play_whole_games_with_mistakes_and_the_scores_agree(game: str, capsys) -> None:
    code = main(["sim", "--autoplay", game, "--players", "anna,ben", "--games", "1",
                 "--seed", "3", "--mistakes", "0.25"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    assert summary["completed"] == 1
    assert summary["mistakes_made"] > 0
    assert summary["scores_match"] and summary["records_match"]
    assert summary["results"][0]["board_matches"]


@pytest.mark.parametrize("game", ["tiki_topple", "on_top"])
def test_a_person_carries_out_the_ais_moves_and_the_referee_checks_them(game: str,
                                                                         capsys) -> None:
    """Autoplay with an AI seat: the service lights the AI's move, a bot makes it by hand
    (mistakes too), and the record still equals the engine's replay."""
    pytest.importorskip("pyspiel", reason="the AI needs OpenSpiel: pip install '.[ai]'")
    code = main(["sim", "--autoplay", game, "--players", "anna,ben", "--games", "1",
                 "--seed", "5", "--mistakes", "0.2", "--ai", "ben:10"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    assert summary["completed"] == 1 and summary["ai"] == {"ben": 10}
    assert summary["ai_moves"] > 5
    assert summary["scores_match"] and summary["records_match"]
