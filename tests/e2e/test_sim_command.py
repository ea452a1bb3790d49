"""`tabletop sim --scenario` and `--autoplay`: the whole table, headless, for every game."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from controller.cli import main
from controller.cli.virtual.scenarios import scenario_file
from games.registry import all_games

HAS_SPIEL = importlib.util.find_spec("pyspiel") is not None
SCENARIOS_DIR = Path(__file__).resolve().parents[2] / "simulator" / "scenarios"
SCENARIOS = sorted(SCENARIOS_DIR.glob("*.scenario"))


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


def test_a_shipped_scenario_runs_by_name_from_anywhere(tmp_path, monkeypatch, capsys) -> None:
    """A maker with only the wheel has no path to give: the name is enough, from any folder."""
    monkeypatch.chdir(tmp_path)
    assert main(["sim", "--ideal", "--scenario", "tiki_topple_play_card"]) == 0
    out = capsys.readouterr().out
    assert "tiki_topple_play_card.scenario:" in out and "FAIL" not in out
    assert out.strip().splitlines()[-1].endswith("expectations passed")


def test_a_name_with_its_suffix_is_the_same_shipped_file(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with scenario_file("tiki_topple_wrong_site.scenario") as path:
        assert path.read_bytes() == SCENARIOS_DIR.joinpath("tiki_topple_wrong_site.scenario"
                                                           ).read_bytes()


def test_a_file_of_a_shipped_name_is_the_file(tmp_path, monkeypatch) -> None:
    """An existing file wins over a shipped name: a maker's own scenario is never shadowed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiki_topple_play_card").write_text("mine\n")
    with scenario_file("tiki_topple_play_card") as path:
        assert path.read_text() == "mine\n"


def test_an_unknown_scenario_name_is_a_user_error_listing_the_shipped_ones(capsys) -> None:
    assert main(["sim", "--scenario", "tiki_topple_no_such_thing"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tabletop sim: tiki_topple_no_such_thing: no such scenario file")
    assert all(path.stem in err for path in SCENARIOS)


def test_list_scenarios_names_every_shipped_file_and_its_game(capsys) -> None:
    assert main(["sim", "--list-scenarios"]) == 0
    listed = [line.split() for line in capsys.readouterr().out.splitlines()]
    games = [re.search(r"^game (\S+)", path.read_text(), re.MULTILINE) for path in SCENARIOS]
    assert listed == [[path.stem, game[1] if game else "tiki_topple"]
                      for path, game in zip(SCENARIOS, games, strict=True)]


RUNS = {
    **{f"scenario {path.stem}": ["--scenario", str(path)] for path in SCENARIOS},
    **{f"autoplay {game.id}": ["--autoplay", game.id, "--players", "anna,ben", "--seed", "3",
                               "--mistakes", "0.25", "--slides", "0.2"] for game in all_games()},
    **({f"autoplay {game} with an AI seat": [
        "--autoplay", game, "--players", "anna,ben", "--seed", "5", "--mistakes", "0.2",
        "--ai", "ben:10"] for game in ("tiki_topple", "on_top")} if HAS_SPIEL else {}),
}
"""The shipped scenarios and whole games on the realistic table (the default): the radio, the
field schedule and real scan times (up to ~0.6 s a scan for the Hanging Gardens on one hub, so
a game takes minutes). They mostly wait for scans, so one test runs them side by side, each in
its own process, but ``SIDE_BY_SIDE`` at a time, the games first: a Trapper game with mistakes
searches for the players' dealing at full speed, and two dozen processes at once on two cores
slowed the tests beside this one past their limits."""
SIDE_BY_SIDE = 4


def problems_of(name: str, code: int, out: str, err: str) -> list[str]:
    """What is wrong with one run (nothing when it passed)."""
    if code != 0:
        return [f"{name}: exit code {code}: {(out + err)[-1500:]}"]
    if name.startswith("scenario "):
        last = out.strip().splitlines()[-1] if out.strip() else ""
        return [] if "FAIL" not in out and last.endswith("expectations passed") else [
            f"{name}: {out[-1500:]}"]
    summary = json.loads(out)
    result = summary["results"][0]
    checks = {
        "realistic radio": summary["radio"] == "realistic",
        "completed": summary["completed"] == 1,
        "mistakes made": summary["mistakes_made"] > 0,
        "scores and record match": summary["scores_match"] and summary["records_match"],
        "board matches": result["board_matches"],
    }
    if "--slides" in RUNS[name]:
        checks["pieces dragged over wrong sites"] = summary["slides"] > 0
    if "--ai" in RUNS[name]:
        checks["the AI moved"] = summary["ai"] == {"ben": 10} and summary["ai_moves"] > 5
    return [f"{name}: not {what}" for what, good in checks.items() if not good]


def test_every_scenario_and_a_whole_game_of_every_game_pass_on_the_realistic_table() -> None:
    """Scenarios: every expectation holds against the service. Autoplay: bots play to the end
    with mistakes and pieces dragged over wrong sites (an AI seat's moves carried out by hand
    too), and the service's record and scores equal the engine's replay."""
    def run(name: str) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "controller.cli", "sim", *RUNS[name]],
                              capture_output=True, text=True, timeout=900)
        return problems_of(name, done.returncode, done.stdout, done.stderr)

    names = sorted(RUNS, key=lambda name: not name.startswith("autoplay"))  # the long ones first
    with ThreadPoolExecutor(SIDE_BY_SIDE) as pool:
        problems = [problem for found in pool.map(run, names) for problem in found]
    assert len(RUNS) >= len(SCENARIOS) + 5
    assert not problems, "\n".join(problems)
