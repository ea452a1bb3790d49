"""The typed status: the API, the SSE stream and the OpenAPI schema all speak ``Status``."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from fastapi.testclient import TestClient
from gpiozero.pins.mock import MockFactory
from pydantic import ValidationError

from controller.cli.compose import build_service, load_board
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
