"""The JSON API: reading is open, changing needs the profile's token, bad input changes nothing."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from gpiozero.pins.mock import MockFactory

from controller.compose import build_service, load_board
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
    assert status["phase"] == "build" and status["to_act"] == "anna"  # the start player builds
    assert status["drawing"] is True  # by hand, from the box: nothing to choose, no hint
    # The players build the stack: readers 0-8 see the tikis (as the hub's snapshot says).
    service.tracker.snapshot({n: f"aabbcc{n:02x}" for n in range(9)}, now=0.0)
    service.hubs[0].seen = True  # as when the hub has sent this snapshot
    service.judge()
    status = client.get("/api/status").json()
    assert status["phase"] == "play" and status["to_act"] == "anna"
    assert status["drawing"] is False
    assert status["legal"] is None  # it would show anna's hand
    assert client.post("/api/confirm", headers=AUTH).status_code == 409  # nothing waiting
    undone = client.post("/api/undo", json={"steps": 1}, headers=AUTH).json()
    assert undone["message"].startswith("build ")
    status = client.get("/api/status").json()
    assert status["phase"] == "build"  # held: the unchanged table is not read again
    assert status["discrepancy"]["message"].startswith("Take nani off place 1")  # box names
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


def test_a_malformed_request_is_told_in_the_readers_language(client: TestClient,
                                                             service) -> None:
    """Pydantic's own texts are English only: each kind of problem is said in our words, which
    a German reader gets in German; a kind we have not worded keeps pydantic's text."""
    cases = [({"options": {}}, "players: missing", "players: fehlt"),
             ({"players": "anna"}, "players: must be a list", "players: muss eine Liste sein"),
             ({"players": ["a", "b"], "options": {"edition": 3}}, "options.edition: must be text",
              "options.edition: muss ein Text sein")]
    for body, english, german in cases:
        response = client.post("/api/game", json=body, headers=AUTH)
        assert (response.status_code, response.json()["detail"]) == (422, english)
        response = client.post("/api/game", json=body,
                               headers={**AUTH, "Accept-Language": "de-DE,de;q=0.9"})
        assert (response.status_code, response.json()["detail"]) == (422, german)
    broken = client.post("/api/game", content=b"{not json", headers={
        **AUTH, "Content-Type": "application/json", "Accept-Language": "de"})
    assert broken.status_code == 422 and "kein gültiges JSON" in broken.json()["detail"]
    assert service.table.journal.games() == []


def test_each_player_sees_their_own_secrets_on_their_phone(client: TestClient, service) -> None:
    client.post("/api/game", json={"players": ["anna", "ben"], "dealer": "digital"},
                headers=AUTH)
    service.tracker.snapshot({n: f"aabbcc{n:02x}" for n in range(9)}, now=0.0)
    service.hubs[0].seen = True  # as when the hub has sent this snapshot
    service.judge()  # stack built: the service deals missions and set-aside cards
    codes = {seat["seat"]: seat["code"] for seat in client.get("/api/seats", headers=AUTH).json()}
    claim = client.post("/api/seats/0/claim", json={"code": codes[0]}).json()
    assert client.post("/api/seats/0/claim", json={"code": codes[0]}).status_code == 409  # held
    assert client.post("/api/seats/7/claim", json={"code": codes[0]}).status_code == 409
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
    code = client.get("/api/seats", headers=AUTH).json()[1]["code"]
    ben = client.post("/api/seats/1/claim", json={"code": code}).json()["token"]
    assert client.post("/api/seats/1/hint").status_code == 401
    assert client.post("/api/seats/0/hint", headers={"X-Seat-Token": ben}).status_code == 403
    response = client.post("/api/seats/1/hint", headers={"X-Seat-Token": ben})
    assert response.status_code == 409  # the stack is not built: nobody is on turn
    assert service.table.current_advice() is None


# -- seats: only the person at a seat claims it (issue 20) ------------------------------------
def deal(client: TestClient, service) -> None:
    """A two-player game with the digital dealer, the stack built: secrets are dealt."""
    client.post("/api/game", json={"players": ["anna", "ben"], "dealer": "digital"},
                headers=AUTH)
    service.tracker.snapshot({n: f"aabbcc{n:02x}" for n in range(9)}, now=0.0)
    service.hubs[0].seen = True
    service.judge()


def test_a_client_without_the_codes_claims_no_seat(client: TestClient, service) -> None:
    """Before: one client with no token claimed both seats and read both players' secrets."""
    deal(client, service)
    for seat in (0, 1):
        assert client.post(f"/api/seats/{seat}/claim").status_code == 422  # no code
        wrong = client.post(f"/api/seats/{seat}/claim", json={"code": "AAAAAA"})
        assert wrong.status_code == 403 and "not the code" in wrong.json()["detail"]
        assert not service.table.seats.held(seat)
    assert client.get("/api/seats").status_code == 401  # the codes are the owner's
    assert client.get("/api/seats", headers={"Authorization": "Bearer nope"}).status_code == 403
    text = client.get("/api/status").text
    assert all(seat.code not in text for seat in service.table.seat_codes())


def test_one_phone_holds_one_seat(client: TestClient, service) -> None:
    deal(client, service)
    codes = [seat["code"] for seat in client.get("/api/seats", headers=AUTH).json()]
    anna = client.post("/api/seats/0/claim", json={"code": codes[0]}).json()["token"]
    second = client.post("/api/seats/1/claim", json={"code": codes[1]},
                         headers={"X-Seat-Token": anna})
    assert second.status_code == 409 and "one phone, one seat" in second.json()["detail"]
    assert not service.table.seats.held(1)


def test_guessing_a_code_renews_it_and_the_host_sees_the_new_one(client: TestClient,
                                                                 service) -> None:
    deal(client, service)
    first = client.get("/api/seats", headers=AUTH).json()[1]
    wrong = "ZZZZZZ" if first["code"] != "ZZZZZZ" else "YYYYYY"
    for _ in range(5):
        assert client.post("/api/seats/1/claim", json={"code": wrong}).status_code == 403
    now = client.get("/api/seats", headers=AUTH).json()[1]
    assert now["code"] != first["code"] and now["link"] == f"/player?seat=1&code={now['code']}"
    assert "ben's seat has a new code" in client.get("/api/status").text
    assert client.post("/api/seats/1/claim", json={"code": first["code"]}).status_code == 403
    assert client.post("/api/seats/1/claim", json={"code": now["code"]}).status_code == 200


def test_the_host_releases_one_seat(client: TestClient, service) -> None:
    deal(client, service)
    codes = [seat["code"] for seat in client.get("/api/seats", headers=AUTH).json()]
    anna = client.post("/api/seats/0/claim", json={"code": codes[0]}).json()["token"]
    ben = client.post("/api/seats/1/claim", json={"code": codes[1]}).json()["token"]
    assert client.post("/api/seats/0/release").status_code == 401
    assert client.post("/api/seats/0/release", headers=AUTH).json()["ok"]
    assert client.get("/api/seats/0/view", headers={"X-Seat-Token": anna}).status_code == 403
    assert client.get("/api/seats/1/view", headers={"X-Seat-Token": ben}).status_code == 200
    seats = client.get("/api/seats", headers=AUTH).json()
    assert [seat["held"] for seat in seats] == [False, True] and seats[0]["code"] != codes[0]


def test_claims_survive_a_restart(client: TestClient, service, tmp_path) -> None:
    """Before: claims lived in memory; after a restart anyone could claim a seat again."""
    deal(client, service)
    code = client.get("/api/seats", headers=AUTH).json()[1]["code"]
    ben = client.post("/api/seats/1/claim", json={"code": code}).json()["token"]
    service.table.journal.close()
    profile = load_board("tiki_topple")
    again, _ = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                             strip=RecordingStrip(profile.leds.count,
                                                  byteorder=profile.leds.pixel_order),
                             pin_factory=MockFactory(), rng=random.Random(1))
    restarted = TestClient(create_app(again, TOKEN))
    assert restarted.post("/api/seats/1/claim", json={"code": code}).status_code == 409
    view = restarted.get("/api/seats/1/view", headers={"X-Seat-Token": ben})
    assert view.status_code == 200 and view.json()["you"] == "ben"


@pytest.mark.parametrize("headers", [
    {"Origin": "https://evil.example"},
    {"Origin": "null"},  # a sandboxed frame or a file
    {"Origin": "http://testserver:8081"},  # another port of the same host is another origin
    {"Sec-Fetch-Site": "cross-site"},
])
def test_another_sites_page_changes_nothing(client: TestClient, service, headers) -> None:
    """Before: a plain cross-site POST from another page could claim a seat."""
    deal(client, service)
    code = client.get("/api/seats", headers=AUTH).json()[0]["code"]
    claim = client.post("/api/seats/0/claim", json={"code": code}, headers=headers)
    assert claim.status_code == 403 and "another site" in claim.json()["detail"]
    undo = client.post("/api/undo", json={"steps": 1}, headers={**AUTH, **headers})
    assert undo.status_code == 403
    assert not service.table.seats.held(0) and len(service.table.actions) > 1
    same = client.post("/api/seats/0/claim", json={"code": code},
                       headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200  # the table's own page


def test_a_claim_is_json_only(client: TestClient, service) -> None:
    """A cross-site HTML form can send only form fields or text: neither claims a seat."""
    deal(client, service)
    code = client.get("/api/seats", headers=AUTH).json()[0]["code"]
    form = client.post("/api/seats/0/claim", data={"code": code})
    text = client.post("/api/seats/0/claim", content=f'{{"code": "{code}"}}',
                       headers={"Content-Type": "text/plain"})
    assert form.status_code == 422 and text.status_code == 422
    assert not service.table.seats.held(0)


# -- one error shape, and floats JSON cannot carry (issue 20) ----------------------------------
@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_are_refused_not_a_server_error(client: TestClient, service,
                                                           number: str) -> None:
    """Before: 500, 'Out of range float values are not JSON compliant'."""
    from types import SimpleNamespace

    from simulator.page import simulator_router

    app = create_app(service, TOKEN)
    app.include_router(simulator_router(SimpleNamespace(), "/"))  # never reached: refused first
    raw = TestClient(app, raise_server_exceptions=False)
    json = {**AUTH, "Content-Type": "application/json"}
    for path, body in [("/api/undo", f'{{"steps": {number}}}'),
                       ("/api/choose", f'{{"index": {number}}}'),
                       ("/api/game", f'{{"players": ["a", "b"], "ai": {{"b": {number}}}}}'),
                       ("/api/seats/0/claim", f'{{"code": {number}}}'),
                       ("/sim/api/put", f'{{"piece": {number}, "site": "stack:1"}}')]:
        response = raw.post(path, content=body, headers=json)
        assert response.status_code == 422, (path, response.text)
        assert isinstance(response.json()["detail"], str)
    assert service.table.journal.games() == []


def test_every_refusal_has_one_shape_and_is_in_the_schema(client: TestClient, service) -> None:
    validation = client.post("/api/game", json={"players": []}, headers=AUTH)
    refused = client.post("/api/game", json={"players": ["solo"]}, headers=AUTH)
    for response in (validation, refused, client.post("/api/confirm"),
                     client.post("/api/confirm", headers=AUTH)):
        assert 400 <= response.status_code < 500
        assert set(response.json()) == {"detail"} and isinstance(response.json()["detail"], str)
    assert validation.json()["detail"].startswith("players: ")
    schema = client.get("/openapi.json").json()
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method == "post" or path == "/api/seats":
                declared = set(operation["responses"])
                assert {"403", "422"} <= declared, (method, path, declared)
                content = operation["responses"]["422"]["content"]["application/json"]
                assert content["schema"]["$ref"].endswith("/Refusal"), (path, content)


# -- a restart before the hub's first snapshot (issue 20) --------------------------------------
def test_a_restarted_service_never_reads_the_table_before_the_hubs_snapshot(
        client: TestClient, service, tmp_path) -> None:
    """The hub is back (hello, even a tag or two) but its snapshot has not come: the tracker
    knows nothing yet, and a board read from it would be a half-empty table (a take-back, or
    a step under way). The region stays blind until the snapshot instead."""
    import asyncio

    from controller.errors import NothingToConfirm
    from controller.referee import TakeBack
    from hardware.link import LinkUp
    from hardware.protocol import Hello, ReaderState, ReaderStatus, Snapshot, TagArrived

    deal(client, service)
    played = list(service.table.actions)
    assert len(played) > 1
    service.table.journal.close()
    profile = load_board("tiki_topple")
    again, _ = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                             strip=RecordingStrip(profile.leds.count,
                                                  byteorder=profile.leds.pixel_order),
                             pin_factory=MockFactory(), rng=random.Random(1))
    hub = again.hubs[0]

    def feed(*events):
        async def stream():
            for event in events:
                yield event
        hub.link.events = stream  # as the link hands them on
        asyncio.run(again._consume_link(hub))

    feed(LinkUp(Hello(protocol_version=1, reader_count=11, miss_limit=3,
                      firmware_version="test")),
         TagArrived(reader=0, uid=bytes.fromhex("aabbcc00")))  # a change before the snapshot
    again.judge()  # as the settle loop does after those events
    status = again.status()
    assert status.prompt is None and not isinstance(again.table.decision, TakeBack)
    assert not any("undo" in event.text for event in status.events[-3:])
    with pytest.raises(NothingToConfirm):
        again.confirm()  # the confirm button takes nothing back
    assert again.table.actions == played and again.blind_sites == hub.sites

    feed(Snapshot(tuple(ReaderState(ReaderStatus.OK, (bytes.fromhex(f"aabbcc{n:02x}"),))
                        for n in range(9)) + (ReaderState(ReaderStatus.OK),) * 2))
    again.judge()
    assert not again.blind_sites and again.table.actions == played
    assert again.status().prompt is None
