"""The JSON API: reading is open, changing needs the profile's token, bad input changes nothing."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from gpiozero.pins.mock import MockFactory

from controller.cli.compose import build_service, load_board
from controller.web import create_app
from hardware.leds import RecordingStrip

STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
TOKEN = "test-token-123"


@pytest.fixture
def service(tmp_path):
    profile = load_board("tiki_topple")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, registry = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                                      strip=strip, pin_factory=MockFactory(), rng=random.Random(1))
    for tiki in STACK:
        registry.enroll(f"aabbcc{STACK.index(tiki):02x}", f"tiki:{tiki}")
    return service


@pytest.fixture
def client(service) -> TestClient:
    return TestClient(create_app(service, TOKEN))


AUTH = {"Authorization": f"Bearer {TOKEN}"}


def test_reading_is_open(client: TestClient) -> None:
    status = client.get("/api/status").json()
    assert status["started"] is False
    assert status["hardware"]["hubs"][0]["connected"] is False
    sites = client.get("/api/sites").json()
    assert [s["id"] for s in sites["sites"]][:2] == ["stack:1", "stack:2"]
    page = client.get("/")
    assert page.status_code == 200 and "EventSource" in page.text
    assert "/api/game" in client.get("/openapi.json").json()["paths"]


@pytest.mark.parametrize("path", ["/api/game", "/api/confirm", "/api/undo", "/api/choose",
                                  "/api/abort", "/api/hint"])
def test_changes_need_the_token(client: TestClient, service, path: str) -> None:
    body = {"players": ["anna", "ben"], "index": 0, "steps": 1}
    missing = client.post(path, json=body)
    assert missing.status_code == 401
    wrong = client.post(path, json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403
    assert service.table.started is False and service.table.journal.games() == []


def test_a_game_is_started_played_undone_and_aborted(client: TestClient, service) -> None:
    bad = client.post("/api/game", json={"players": ["solo"]}, headers=AUTH)
    assert bad.status_code == 422 and "2 to 4 players" in bad.json()["detail"]
    assert service.table.journal.games() == []
    assert client.post("/api/game", json={"players": ["anna", "ben"]}, headers=AUTH).json()["ok"]
    status = client.get("/api/status").json()
    assert status["phase"] == "build" and status["to_act"] is None  # the table builds
    # The players build the stack: readers 0-8 see the tikis (as the hub's snapshot says).
    service.tracker.snapshot({n: f"aabbcc{n:02x}" for n in range(9)}, now=0.0)
    service.hubs[0].seen = True  # as when the hub has sent this snapshot
    service.judge()
    status = client.get("/api/status").json()
    assert status["phase"] == "play" and status["to_act"] == "anna"
    assert status["legal"] is None  # it would show anna's hand
    assert client.post("/api/confirm", headers=AUTH).status_code == 409  # nothing waiting
    undone = client.post("/api/undo", json={"steps": 1}, headers=AUTH).json()
    assert undone["message"].startswith("build ")
    status = client.get("/api/status").json()
    assert status["phase"] == "build"  # held: the unchanged table is not read again
    assert status["discrepancy"]["message"].startswith("Take tiki nani off stack 1")
    assert client.post("/api/undo", json={"steps": 0}, headers=AUTH).status_code == 422
    assert client.post("/api/abort", headers=AUTH).json()["ok"]
    assert client.get("/api/status").json()["started"] is False
    assert client.post("/api/abort", headers=AUTH).status_code == 409
    assert [g.status for g in service.table.journal.games()] == ["aborted"]


def test_malformed_requests_change_nothing(client: TestClient, service) -> None:
    for body in [None, {"players": "anna"}, {"players": []}, {"players": ["a", "b"],
                                                             "options": {"edition": 3}}]:
        response = client.post("/api/game", json=body, headers=AUTH)
        assert response.status_code == 422
    response = client.post("/api/game", json={"players": ["a", "b"], "options":
                                              {"edition": "deluxe"}}, headers=AUTH)
    assert response.status_code == 422 and "must be one of" in response.json()["detail"]
    assert service.table.journal.games() == []


def test_each_player_sees_their_own_secrets_on_their_phone(client: TestClient, service) -> None:
    client.post("/api/game", json={"players": ["anna", "ben"], "dealer": "digital"},
                headers=AUTH)
    service.tracker.snapshot({n: f"aabbcc{n:02x}" for n in range(9)}, now=0.0)
    service.hubs[0].seen = True  # as when the hub has sent this snapshot
    service.judge()  # stack built: the service deals missions and set-aside cards
    claim = client.post("/api/seats/0/claim").json()
    assert client.post("/api/seats/0/claim").status_code == 409  # first phone wins
    assert client.post("/api/seats/7/claim").status_code == 409
    view = client.get("/api/seats/0/view", headers={"X-Seat-Token": claim["token"]}).json()
    assert view["you"] == "anna" and len(view["hand"]) == 7 and len(view["mission"]) == 3
    assert client.get("/api/seats/0/view").status_code == 401
    assert client.get("/api/seats/1/view",
                      headers={"X-Seat-Token": claim["token"]}).status_code == 403
    public = client.get("/api/status").json()
    assert "hand" not in public["view"] and "mission" not in public["view"]
    assert client.post("/api/seats/release").status_code == 401
    assert client.post("/api/seats/release", headers=AUTH).json()["ok"]
    assert client.get("/api/seats/0/view",
                      headers={"X-Seat-Token": claim["token"]}).status_code == 403
    assert client.get("/player").status_code == 200


def test_ai_seats_are_checked_before_a_game_starts(client: TestClient, service) -> None:
    unknown = "not among the players" if service.advisor else "pip install '.[ai]'"
    bad = [({"players": ["anna", "ben"], "ai": {"cleo": 100}}, 422, unknown),
           ({"players": ["anna", "ben"], "ai": {"ben": 0}}, 422, ""),
           ({"players": ["anna", "ben"], "ai": {"ben": "strong"}}, 422, "")]
    for body, code, words in bad:
        response = client.post("/api/game", json=body, headers=AUTH)
        assert response.status_code == code
        assert words in str(response.json()["detail"])
    assert not service.table.started and service.table.journal.games() == []
    if service.advisor is not None:
        response = client.post("/api/game", json={"players": ["anna", "ben"],
                                                  "ai": {"ben": 20}}, headers=AUTH)
        assert response.status_code == 200
        assert service.table.ai == {1: 20}
        assert client.get("/api/status").json()["ai_seats"] == ["ben"]


def test_a_hint_needs_a_player_on_turn(client: TestClient, service) -> None:
    assert client.post("/api/hint", headers=AUTH).status_code == 409  # no game
    client.post("/api/game", json={"players": ["anna", "ben"]}, headers=AUTH)
    response = client.post("/api/hint", headers=AUTH)  # the stack is still to be built
    assert response.status_code == 409
    assert "no player is on turn" in response.json()["detail"] or (
        "pip install" in response.json()["detail"])


def test_a_private_hint_needs_the_seats_token_and_the_turn(client: TestClient, service) -> None:
    client.post("/api/game", json={"players": ["anna", "ben"]}, headers=AUTH)
    ben = client.post("/api/seats/1/claim").json()["token"]
    assert client.post("/api/seats/1/hint").status_code == 401
    assert client.post("/api/seats/0/hint", headers={"X-Seat-Token": ben}).status_code == 403
    response = client.post("/api/seats/1/hint", headers={"X-Seat-Token": ben})
    assert response.status_code == 409  # the stack is not built: nobody is on turn
    assert service.table.current_advice() is None
