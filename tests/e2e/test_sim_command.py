"""`tabletop sim --scenario` and `--autoplay`: the whole table, headless, for every game."""

from __future__ import annotations

import functools
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from games.registry import all_games

pytestmark = pytest.mark.xdist_group("realistic_runs")
"""One worker runs this module (``make test`` uses ``--dist loadgroup``), so the runs below
start once."""

HAS_SPIEL = importlib.util.find_spec("pyspiel") is not None
SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "simulator" / "scenarios").glob(
    "*.scenario"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_passes_against_the_service(path: Path, ran) -> None:
    code, out, err = ran[f"scenario {path.stem}"]
    assert code == 0, out + err[-2000:]
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


RUNS = {
    **{f"scenario {path.stem}": ["--scenario", str(path)] for path in SCENARIOS},
    **{game.id: ["--autoplay", game.id, "--players", "anna,ben", "--seed", "3",
                 "--mistakes", "0.25"] for game in all_games()},
    **{f"{game} with an AI seat": ["--autoplay", game, "--players", "anna,ben", "--seed", "5",
                                   "--mistakes", "0.2", "--ai", "ben:10"]
       for game in ("tiki_topple", "on_top")},
}
"""The shipped scenarios and whole games on the realistic table (the default): the radio, the
field schedule and real scan times (up to ~0.7 s a scan for the Hanging Gardens on one hub, so
a game takes minutes). They mostly wait for scans, so they run side by side, each in its own
process."""


@pytest.fixture
def ran() -> dict[str, tuple[int, str, str]]:
    return run_all()


@functools.cache
def run_all() -> dict[str, tuple[int, str, str]]:
    """Every run's exit code, stdout and stderr (once per test process)."""
    runs = {name: subprocess.Popen([sys.executable, "-m", "controller.cli", "sim", *args],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for name, args in RUNS.items() if "--ai" not in args or HAS_SPIEL}
    results = {}
    for name, run in runs.items():
        out, err = run.communicate(timeout=900)
        results[name] = (run.returncode, out, err)
    return results


def summary_of(ran: dict[str, tuple[int, str, str]], name: str) -> dict:
    code, out, err = ran[name]
    assert code == 0, err[-2000:]
    summary = json.loads(out)
    assert summary["radio"] == "realistic"
    return summary


@pytest.mark.parametrize("game", [game.id for game in all_games()])
def test_bots_play_whole_games_with_mistakes_and_the_scores_agree(game: str,
                                                                   ran) -> None:
    summary = summary_of(ran, game)
    assert summary["completed"] == 1
    assert summary["mistakes_made"] > 0
    assert summary["scores_match"] and summary["records_match"]
    assert summary["results"][0]["board_matches"]


@pytest.mark.skipif(not HAS_SPIEL, reason="the AI needs OpenSpiel: pip install '.[ai]'")
@pytest.mark.parametrize("game", ["tiki_topple", "on_top"])
def test_a_person_carries_out_the_ais_moves_and_the_referee_checks_them(game: str,
                                                                         ran) -> None:
    """Autoplay with an AI seat: the service lights the AI's move, a bot makes it by hand
    (mistakes too), and the record still equals the engine's replay."""
    summary = summary_of(ran, f"{game} with an AI seat")
    assert summary["completed"] == 1 and summary["ai"] == {"ben": 10}
    assert summary["ai_moves"] > 5
    assert summary["scores_match"] and summary["records_match"]
