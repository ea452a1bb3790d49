"""The typed status: the API, the SSE stream and the OpenAPI schema all speak ``Status``."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random

import pytest
from fastapi.testclient import TestClient
from gpiozero.pins.mock import MockFactory
from pydantic import ValidationError

from controller.compose import build_service, load_board
from controller.referee import NoChange
from controller.status import Status
from controller.web import create_app
from hardware.leds import RecordingStrip

TOKEN = "test-token-123"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


@pytest.fixture
def service(tmp_path):
    profile = load_board("tiki_topple")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, registry = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                                      strip=strip, pin_factory=MockFactory(),
                                      rng=random.Random(1))
    for number, tiki in enumerate(STACK):
        registry.enroll(f"aabbcc{number:02x}", f"tiki:{tiki}")
    return service


def test_the_api_returns_a_status_at_every_stage(service) -> None:
    client = TestClient(create_app(service, TOKEN))
    before = Status.model_validate(client.get("/api/status").json())
    assert before.started is False and before.step is None
    assert before.hardware.hubs[0].connected is False and before.hardware.hubs[0].blind
    client.post("/api/game", json={"players": ["anna", "ben"],
                                   "options": {"edition": "gamewright"}}, headers=AUTH)
    service.tracker.snapshot({n: f"aabbcc{n:02x}" for n in range(9)}, now=0.0)
    service.hubs[0].seen = True  # as when the hub has sent this snapshot
    service.judge()
    during = Status.model_validate(client.get("/api/status").json())
    assert during.phase == "play" and during.to_act == "anna"
    assert "anna" in during.step.text and during.step.template  # the sentence for the page
    assert during.scores.scores == {"anna": 0, "ben": 0}
    assert [seat.player for seat in during.seats] == ["anna", "ben"]
    assert during.expected_board == during.observed_board  # the stack as built


def test_the_openapi_schema_names_the_status_models(service) -> None:
    schema = TestClient(create_app(service, TOKEN)).get("/openapi.json").json()
    status = schema["paths"]["/api/status"]["get"]["responses"]["200"]["content"]
    assert status["application/json"]["schema"]["$ref"].endswith("/Status")
    models = schema["components"]["schemas"]
    assert {"Status", "Hardware", "DiscrepancyReport", "AdviceReport", "Seat", "Step"} <= set(
        models)
    assert "to_act" in models["Status"]["properties"]


def test_the_event_stream_sends_the_same_model(service) -> None:
    app = create_app(service, TOKEN)
    route = next(r for r in app.routes if getattr(r, "path", "") == "/api/events")

    async def first_event() -> dict:
        response = await route.endpoint(language="en")
        async for frame in response.body_iterator:
            await response.body_iterator.aclose()
            fields = dict(line.split(": ", 1) for line in frame.decode().split("\r\n") if line)
            return fields

    event = asyncio.run(first_event())
    assert event["event"] == "status"
    assert Status.model_validate_json(event["data"]) == service.status()
    assert json.loads(event["data"])["started"] is False


def test_a_status_with_a_misspelt_field_is_refused() -> None:
    with pytest.raises(ValidationError, match="extra"):
        Status.model_validate({"game": "x", "started": False, "observed_board": {},
                               "unknown_tags": [], "leds": {}, "roles": {}, "thinking": None,
                               "ai_available": False, "hardware": None, "to_akt": "anna"})


def test_the_tracker_waits_after_an_arrival_as_long_as_the_hub_needs_to_report_a_lift(
        service) -> None:
    from hardware.protocol import Heartbeat, Hello
    from hardware.scan_timing import scheduled_scan

    assert service.tracker.lift_latency == pytest.approx(3.25 * 1.0)  # miss limit 3, 1/4 more
    hub = service.hubs[0]
    schedule = ((0, 3, 6), (1, 4, 7), (2, 5, 8), (9,))
    service._note_hello(hub, Hello(2, 10, 3, "fw", b"", schedule))
    modelled = scheduled_scan(schedule, {}, service.profile.radio).scan_ms / 1000
    assert service.tracker.lift_latency == pytest.approx(3.25 * 2 * modelled)  # twice the model
    service._note_beat(hub, Heartbeat(1000, 10, 0, 0, 40_000))  # one beat measures nothing
    assert service.tracker.lift_latency == pytest.approx(3.25 * 2 * modelled)
    service._note_beat(hub, Heartbeat(2000, 14, 0, 0, 40_000))  # 4 scans in 1 s, pauses too
    assert service.tracker.lift_latency == pytest.approx(3.25 * 0.250)
    service._note_beat(hub, Heartbeat(500, 2, 0, 0, 60_000))  # rebooted: the last measure
    assert service.tracker.lift_latency == pytest.approx(3.25 * 0.250)
    service._note_beat(hub, Heartbeat(1500, 12, 0, 0, 60_000))
    assert service.tracker.lift_latency == pytest.approx(3.25 * 0.100)


@pytest.mark.parametrize("plain_mistakes", ["settle", "quick"])
def test_a_move_that_shows_one_legal_step_is_judged_a_scan_after_it_lands(
        tmp_path, plain_mistakes: str) -> None:
    """The adaptive settle: a Topiary visitor stood on a spot reads as exactly one legal step,
    and no lift could make it another, so it is judged one scan after it lands, without the
    extra quarter scan a lift would need to be reported; a board that is no legal step keeps
    the whole settle time, unless the profile calls plain mistakes quick (a piece laid where
    no step lays one: judged once a lift would have been reported)."""
    profile = load_board("topiary")
    profile = dataclasses.replace(profile, timing=dataclasses.replace(
        profile.timing, plain_mistakes=plain_mistakes))
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, registry = build_service(profile, tmp_path,
                                      urls=[str(tmp_path / f"no-hub{n}") for n in range(3)],
                                      strip=strip, pin_factory=MockFactory(),
                                      rng=random.Random(1))
    game = service.table.game
    copies = {**{piece: 1 for piece in game.pieces()}, **game.copies()}
    serial = iter(range(1, 10_000))
    uids = {piece: [f"{next(serial):014x}" for _ in range(count)]  # 7-byte UIDs
            for piece, count in copies.items()}
    for piece, tags in uids.items():
        for uid in tags:
            registry.enroll(uid, piece)
    reader_of = {site: reader for reader, site in profile.readers.items()}
    service.new_game(["anna", "ben", "cleo", "dan"], {})
    for hub in service.hubs:
        hub.seen = True
    rng, now = random.Random(3), 0.0
    while (state := service.table.state).phase != "visitor":  # lay out and deal, as seen
        action = (game.sample_chance(state, rng) if game.actor(state) < 0
                  else game.legal_actions(state)[0])
        now += 1.0
        board = game.board(game.apply(state, action))
        service.tracker.snapshot({reader: uids[board[site]][0] if site in board else None
                                  for site, reader in reader_of.items()}, now)
        service.judge()
        assert service.table.actions[-1] == action
    tracker = service.tracker
    for hub in service.hubs:  # as its heartbeats would say: one scan 0.1 s, a lift 1.25 scans
        hub.period, hub.miss_limit = 0.1, 1
    service._hub_timing()
    assert (tracker.quick_seconds, tracker.lift_latency) == (0.1, 0.125)
    current = service.table.successors.board
    visitor = service.table.successors.changing[0]
    (spot,) = [site for site in visitor.board if site not in current]
    tracker.tag_arrived(reader_of[spot], uids[visitor.board[spot]][0], 10.0)
    assert service.judge_at(10.05) == pytest.approx(10.1)  # nothing judged within the scan
    assert service.judge_at(10.1) is None  # judged then, not at 10.125
    service.judge()
    assert service.table.actions[-1] == visitor.action
    # then another player's visitor stood on a spot is no legal step, and no step stands one
    # there: the whole settle time, or (quick) once a lift would have been reported
    stranger = next(piece for piece in uids if piece.startswith("visitor:")
                    and piece != visitor.board[spot])
    other = next(site for site in reader_of if site.startswith("spot")
                 and site not in service.table.successors.board)
    assert not any(other in step.board for step in service.table.successors.changing)
    tracker.tag_arrived(reader_of[other], uids[stranger][0], 20.0)
    if plain_mistakes == "settle":
        assert service.judge_at(20.2) == pytest.approx(20.0 + profile.settle_ms / 1000)
    else:
        assert service.judge_at(20.11) == pytest.approx(20.125)
        assert service.judge_at(20.125) is None and profile.settle_ms / 1000 > 0.125


def test_a_moved_piece_counts_where_it_went_before_its_old_place_misses_it(tmp_path) -> None:
    """Tiki Topple's Tiki Up 1: the card lands on the pad and two tikis swap places. Each tiki
    is heard at its new place at once, and still at its old one until that reader misses it;
    since placed where they went the board is exactly one legal step, it is judged one scan
    after the last change, not after the lifts are reported."""
    profile = load_board("tiki_topple")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, registry = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                                      strip=strip, pin_factory=MockFactory(),
                                      rng=random.Random(1))
    uid_of = {piece: f"{number:014x}" for number, piece
              in enumerate(service.table.game.pieces(), start=1)}
    for piece, uid in uid_of.items():
        registry.enroll(uid, piece)
    reader_of = {site: reader for reader, site in profile.readers.items()}
    service.new_game(["anna", "ben"], {"edition": "gamewright"})
    service.tracker.snapshot({n: uid_of[f"tiki:{tiki}"] for n, tiki in enumerate(STACK)}, 0.0)
    service.hubs[0].seen = True
    service.judge()
    tracker = service.tracker
    for hub in service.hubs:
        hub.period, hub.miss_limit = 0.1, 1
    service._hub_timing()
    clock = [10.1]
    service.clock = lambda: clock[0]
    current = service.table.successors.board
    step = next(s for s in service.table.successors.changing if s.action.startswith("up1"))
    changed = sorted(site for site in step.board if step.board[site] != current.get(site))
    assert "pad:play" in changed and len(changed) == 3  # the card, two tikis swapped
    for site in changed:
        tracker.tag_arrived(reader_of[site], uid_of[step.board[site]], 10.0)
    assert len(tracker.shared) == 2  # both tikis still heard where they were too
    assert service.judge_at(10.1) is None
    service.judge()
    assert service.table.actions[-1] == step.action
    for site in changed[1:]:  # the old places miss them: nothing changes any more
        tracker.tag_left(reader_of[site], uid_of[current[site]], 10.2)
    clock[0] = 10.2
    service.judge()
    assert service.table.actions[-1] == step.action and service.table.decision == NoChange()
    # tags heard on two sites for longer than a lift takes to report lie across the fields'
    # edge: they stay where the position has them, though where they were heard last would
    # read, with the card laid now, as ben's legal move
    board, taken = service.table.successors.board, len(service.table.actions)
    swap = next(s for s in service.table.successors.changing if s.action.startswith("up1"))
    moved = sorted(site for site in swap.board if site.startswith("stack:")
                   and swap.board[site] != board.get(site))
    for site in moved:
        tracker.tag_arrived(reader_of[site], uid_of[swap.board[site]], 19.0)
    assert len(tracker.shared) == 2
    tracker.tag_arrived(reader_of["pad:play"], uid_of[swap.board["pad:play"]], 20.4)
    clock[0] = 20.5
    assert all(tracker.moved_to(uid_of[swap.board[site]], 20.5) is None for site in moved)
    service.judge()
    assert len(service.table.actions) == taken  # no move read into the straddlers
