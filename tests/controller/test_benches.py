"""Every ``tabletop bench`` the README names runs to the end at a tiny size and prints its JSON
(smoke tests: figures are printed by the benches, never judged here); and the benches run
without the command line (``controller.bench``; the two that run the simulator in-process
are the command line's)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from controller.bench import BENCHES, BenchOptions, run_bench
from controller.cli import main
from controller.cli.bench import EVERY, SIMULATED
from controller.errors import UserError

README = Path(__file__).parents[2] / "README.md"
ELSEWHERE = {"engines": "test_cli.py", "ai": "test_cli.py", "hub": "test_cli.py",
             "referee-search": "test_cli.py", "load": "test_bench_load.py"}
"""Benches whose smoke test lives beside other tests of theirs."""


def bench(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["bench", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_every_bench_the_readme_names_exists_and_has_a_smoke_test() -> None:
    line = next(line for line in README.read_text().splitlines()
                if line.startswith("tabletop bench "))
    named = set(re.match(r"tabletop bench (\S+)", line).group(1).split("|"))
    assert named == set(EVERY) and not set(BENCHES) & set(SIMULATED)
    here = {name.removeprefix("test_bench_").replace("_", "-")
            for name in globals() if name.startswith("test_bench_")}
    assert named <= here | set(ELSEWHERE), named - here - set(ELSEWHERE)
    for name, where in ELSEWHERE.items():
        assert f'"bench", "{name}"' in (Path(__file__).parent / where).read_text()


def test_a_bench_is_a_function_of_its_options() -> None:
    result = run_bench("referee", BenchOptions(game=("on_top",), seconds=0.01))
    assert result.ok and result.columns[0] == "game" and [row[0] for row in result.rows] == [
        "on_top"]
    assert result.figures["referee"]["on_top"]["games"] == 2
    assert BenchOptions().resolved("load").seconds == 20.0
    assert BenchOptions(seeds=7).resolved("mistakes").seeds == 7
    with pytest.raises(UserError, match="no game matches chess"):
        run_bench("engines", BenchOptions(game=("chess",)))


def test_bench_referee(capsys) -> None:
    code, figures = bench(capsys, "referee", "--game", "on_top", "--seconds", "0.01")
    row = figures["referee"]["on_top"]
    assert code == 0 and row["games"] == 2 and row["settles"] > 0


def test_bench_latency(capsys) -> None:
    """The table reaches play with the stack its hub reports, and every event lights."""
    code, figures = bench(capsys, "latency", "--seconds", "0.5")
    row = figures["latency"]
    assert code == 0 and row["events"] == 100 and row["lit"] == 100
    assert 0 < row["latency_ms_p50"] <= row["latency_ms_max"]


def test_bench_noisy_link(capsys) -> None:
    code, figures = bench(capsys, "noisy-link", "--seconds", "1")
    clean = figures["runs"][0]
    assert code == 0 and clean["cable"] == "0% bad bytes" and clean["moves_seen"] == 8


def test_bench_autoplay(capsys) -> None:
    code, figures = bench(capsys, "autoplay", "--game", "tiki_topple", "--seeds", "1",
                          "--ideal")
    row = figures["autoplay"]["tiki_topple"]
    assert code == 0 and row["games"] == row["completed"] == 1, row["errors"]


def test_bench_hand_to_light(capsys) -> None:
    code, figures = bench(capsys, "hand-to-light", "--game", "tiki_topple", "--seeds", "1",
                          "--ideal")
    (row,) = figures["games"]
    assert row["completed"] == 1 and row["puts"] > 0 and row["put_p95_ms"] > 0, row["errors"]
    assert code == 0 and row["wrong_judgements"] == 0


@pytest.mark.parametrize("plain", [None, "quick"])
def test_bench_mistakes(capsys, plain: str | None) -> None:
    code, figures = bench(capsys, "mistakes", "--game", "tiki_topple", "--seeds", "1",
                          "--ideal", *(["--plain-mistakes", plain] if plain else []))
    (row,) = figures["games"]
    assert row["plain_mistakes"] == (plain or "settle")  # the profile's own: settle
    assert row["completed"] == 1 and row["mistakes"] > 0, row["errors"]
    assert row["red_p95_ms"] >= row["red_p50_ms"] > 0 and row["put_p95_ms"] > 0
    assert row["cleared"] == row["mistakes"] and row["cleared_p95_ms"] > 0  # each lifted
    assert code == 0 and row["wrong_verdicts"] == 0


def test_bench_pi_budget(capsys) -> None:
    code, figures = bench(capsys, "pi-budget", "--game", "tiki_topple", "--seeds", "1")
    assert code == 0 and figures["factor"]["zero2w"] > figures["factor"]["pi4"] > 0
    (row,) = figures["games"]
    assert row["judgements"] > row["mistakes"] > 0
    assert row["pi4_p95_ms"] == pytest.approx(row["cpu_p95_ms"] * figures["factor"]["pi4"],
                                              rel=0.02, abs=0.2)
    assert (row["early_searches"] == 0) == (row["early_search_pi4_max_s"] is None)
    if importlib.util.find_spec("pyspiel") is None:  # the AI is an extra
        assert row["hint_pi4_s"] is None
    else:
        assert row["hint_pi4_s"] > 0


def test_bench_club(capsys) -> None:
    code, figures = bench(capsys, "club", "--tables", "3", "--pace", "0")
    assert code == 0
    assert figures["tables"] == 3 and figures["lost"] == 0 and figures["duplicates_counted"] == 0
    assert figures["messages"] > 30 and figures["club_update_p99_ms"] is not None
    assert figures["referee_steps_per_s_alone"] > 0 and figures["referee_steps_per_s_linked"] > 0
