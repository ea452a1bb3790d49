"""``tabletop bench load`` runs end to end (a smoke test: tiny crowd, seconds; its figures are
printed, never judged here), and ``tabletop run`` loads neither the simulator nor the AI."""

from __future__ import annotations

import json
import subprocess
import sys

from controller.cli import main

RUN_IMPORTS = """
import random, sys, tempfile
from pathlib import Path
from gpiozero.pins.mock import MockFactory
import controller.cli
from controller.compose import build_service, load_board
from controller.web import create_app
from hardware.leds import RecordingStrip

profile = load_board("tiki_topple")
service, _ = build_service(profile, Path(tempfile.mkdtemp()), urls=["/nonexistent"],
                           strip=RecordingStrip(profile.leds.count), pin_factory=MockFactory(),
                           rng=random.Random(0))
service.new_game(["anna", "ben"], {"edition": "gamewright"})
create_app(service, "a-token-long-enough-123").openapi()
print(" ".join(sorted(sys.modules)))
"""


def test_the_service_as_tabletop_run_builds_it_loads_no_simulator_and_no_ai() -> None:
    loaded = subprocess.run([sys.executable, "-c", RUN_IMPORTS], capture_output=True,
                            text=True, check=True).stdout.split()
    assert "controller.service" in loaded and "fastapi" in loaded  # it did build the service
    heavy = [name for name in loaded
             if name.split(".")[0] in ("simulator", "numpy", "pyspiel", "open_spiel", "httpx")
             or name == "games.ai"]
    assert heavy == []


def test_bench_load_plays_through_a_small_crowd(capsys) -> None:
    assert main(["bench", "load", "--json", "--clients", "3", "--rate", "5", "--rounds", "2",
                 "--seconds", "2"]) == 0
    figures = json.loads(capsys.readouterr().out)["load"]
    assert figures["clients"] == 3 and len(figures["crowded"]) == 2
    assert figures["quiet"]["moves"] > 0
    for round_ in figures["crowded"]:
        assert round_["moves"] > 0 and round_["errors"] == 0
        assert round_["status_requests"] > 0 and round_["events_per_client_min"] >= 1
    assert figures["status_ms"]["p50"] is not None
    memory = figures["rss_mb"]
    assert 0 < memory["started"] <= memory["peak"] and len(memory["after_rounds"]) == 2


def test_bench_load_refuses_no_rounds(capsys) -> None:
    assert main(["bench", "load", "--rounds", "0"]) == 2
    assert "--rounds at least 1" in capsys.readouterr().err
