"""The club's page and API without a browser: the view, the exports (every result, also those
of earlier evenings), German texts and game names."""

from __future__ import annotations

import csv
import io
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.club_messages import GameResult, TableState, topic
from controller.club_service import ClubService
from controller.club_web import create_club_app

NOW = time.time()


def result(uid: str, ended: float, game: str = "tiki_topple", **changes: object) -> bytes:
    data = {"uid": uid, "table": "t1", "game": game, "players": ["anna", "=cmd"],
            "scores": {"anna": 5, "=cmd": 5}, "winners": ["anna", "=cmd"],
            "started": ended - 60, "ended": ended, "moves": 9, **changes}
    return GameResult.model_validate(data).model_dump_json().encode()


@pytest.fixture
def club(tmp_path: Path):
    club = ClubService("mqtt://127.0.0.1:1", tmp_path, name="web", since=NOW - 3600,
                       clock=lambda: NOW)
    state = TableState(table="t1", game="topiary", game_name="Topiary", language="en",
                       players=["anna", "ben"], to_act="anna", step="anna lays a tile",
                       moves=4, running=True)
    club.take(topic("t1", "availability"), b"online")
    club.take(topic("t1", "state"), state.model_dump_json().encode())
    assert club.take(topic("t1", "result"), result("old", NOW - 86_400)) is not None
    assert club.take(topic("t1", "result"), result("new", NOW - 60, game="topiary")) is not None
    yield club
    club.close()


def test_the_view_holds_the_evening_and_the_exports_hold_everything(club) -> None:
    client = TestClient(create_club_app(club))
    view = client.get("/api/club", params={"lang": "de"}).json()
    assert [t["name"] for t in view["tables"]] == ["t1"]
    assert view["tables"][0]["step"] == "anna lays a tile"
    assert [g["uid"] for g in view["games"]] == ["new"]  # yesterday's is not this evening's
    assert view["games"][0]["game_name"] == "Topiary"  # the box's name, not the id
    assert [g["game"] for g in view["by_game"]] == ["topiary"]
    assert {s["player"]: s["wins"] for s in view["standings"]} == {"anna": 1, "=cmd": 1}

    exported = client.get("/api/results.json").json()
    assert [r["uid"] for r in exported] == ["old", "new"]
    response = client.get("/api/results.csv")
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [(r["uid"], r["player"], r["score"], r["place"], r["winner"]) for r in rows] == [
        ("old", "anna", "5", "1", "1"), ("old", "'=cmd", "5", "1", "1"),
        ("new", "anna", "5", "1", "1"), ("new", "'=cmd", "5", "1", "1")]


def test_the_page_and_its_german_texts(club) -> None:
    client = TestClient(create_club_app(club))
    page = client.get("/")
    assert page.status_code == 200 and "/api/club/stream" in page.text
    texts = client.get("/api/texts", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert texts.headers["content-language"] == "de"
    assert texts.json()["Standings"] == "Rangliste"
    assert client.get("/api/texts", params={"lang": "en"}).json() == {}
    assert client.get("/static/i18n.js").status_code == 200
