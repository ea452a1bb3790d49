"""After a game: the score sweep the status reports line by line, and a rematch."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from controller.compose.quick_tables import quick_service
from controller.web import create_app
from tests.playing import play_to_end

TOKEN = "game-over-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def service(tmp_path):
    return quick_service("tiki_topple", tmp_path, 1)


def test_the_status_names_the_score_line_the_sweep_lights(service) -> None:
    now = [100.0]
    service.clock = lambda: now[0]
    service.new_game(["anna", "ben"], {}, dealer="digital")
    play_to_end(service.table, random.Random(4))
    assert service.status().scores.sweep is None  # no sweep started yet
    service.start_sweep()
    assert len(service.sweep) >= 2
    for index, step in enumerate(service.sweep):
        now[0] = 100.0 + (index + 0.5) * service.timing.sweep_ms / 1000
        status = service.status()
        assert status.scores.sweep.player == step.player
        line = status.scores.lines[step.player][status.scores.sweep.line]
        assert line == step.text == status.sweep.text  # the page lights what the LEDs show
        assert set(status.sweep.sites) <= set(service.led_colours) | set(step.sites)
    now[0] = 100.0 + (len(service.sweep) + 1) * service.timing.sweep_ms / 1000
    assert service.status().scores.sweep is None and service.status().sweep is None


def test_the_status_carries_each_led_roles_colour(service) -> None:
    palette = service.status().palette
    assert set(palette) == {"legal", "active", "choice", "wrong", "score", "advice", "blind"}
    assert palette["choice"] == palette["legal"]  # told apart by blinking, not by colour
    assert all(colour.startswith("#") and len(colour) == 7 for colour in palette.values())


def test_a_rematch_starts_the_same_game_again_only_after_the_last_one(service) -> None:
    client = TestClient(create_app(service, TOKEN))
    assert client.post("/api/rematch").status_code == 401
    refused = client.post("/api/rematch", headers=AUTH)
    assert refused.status_code == 409 and "no game" in refused.json()["detail"]
    started = client.post("/api/game", headers=AUTH, json={
        "players": ["anna", "ben", "cleo"], "options": {"edition": "gamewright"},
        "ai": {"cleo": 30}, "dealer": "digital"})
    assert started.status_code == 200
    first, options = service.table.game_id, client.get("/api/status").json()["options"]
    assert options["edition"] == "gamewright"
    running = client.post("/api/rematch", headers=AUTH)
    assert running.status_code == 409 and "still running" in running.json()["detail"]
    assert service.table.game_id == first  # refused: the game goes on

    play_to_end(service.table, random.Random(7))
    service.publish()  # played on the table directly: tell the status it changed
    assert client.get("/api/status").json()["finished"] is True
    again = client.post("/api/rematch", headers=AUTH)
    assert again.status_code == 200 and again.json()["message"] == "rematch: anna, ben, cleo"
    status = client.get("/api/status").json()
    assert status["game_id"] != first and status["finished"] is False and status["moves"] == 0
    assert status["players"] == ["anna", "ben", "cleo"]
    assert status["options"] == options
    assert status["ai_seats"] == ["cleo"] and status["dealer"] == "digital"
    assert [seat["ai"] for seat in status["seats"]] == [None, None, 30]
    assert status["scores"]["sweep"] is None
