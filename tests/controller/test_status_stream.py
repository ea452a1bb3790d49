"""The status is rendered once per change and the same bytes go to every reader (issue 20,
finding 8): a crowd of SSE clients must cost the table's path nothing per client."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from fastapi.testclient import TestClient
from gpiozero.pins.mock import MockFactory

from controller.compose import build_service, load_board
from controller.status import Status
from controller.web import create_app
from hardware.leds import RecordingStrip

WAIT = 5.0
"""Only so that a broken stream fails the test instead of hanging it; nothing is timed."""


@pytest.fixture
def service(tmp_path):
    profile = load_board("tiki_topple")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, _ = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                               strip=strip, pin_factory=MockFactory(), rng=random.Random(1))
    return service


def status_of(frame: bytes) -> Status:
    head, _, data = frame.partition(b"\r\ndata: ")
    assert head == b"event: status" and data.endswith(b"\r\n\r\n")
    return Status.model_validate_json(data)


async def next_frame(stream) -> bytes:
    return await asyncio.wait_for(anext(stream), WAIT)


def test_fifty_subscribers_get_the_same_bytes_rendered_once(service, monkeypatch) -> None:
    # What changes unpublished is rendered again after STATUS_MAX_AGE; a loaded machine may
    # take that long to serve fifty clients, and that refresh is not what this test is about.
    monkeypatch.setattr("controller.service.STATUS_MAX_AGE", 60.0)

    async def scenario() -> None:
        streams = [service.status_events() for _ in range(50)]
        first = [await next_frame(s) for s in streams]
        assert all(frame is first[0] for frame in first)  # one object, not 50 equal copies
        assert service.streams == 50
        renders = service.renders
        service.new_game(["anna", "ben"], {"edition": "gamewright"})  # publishes
        second = [await next_frame(s) for s in streams]
        assert all(frame is second[0] for frame in second)
        assert status_of(second[0]).started and not status_of(first[0]).started
        assert service.renders == renders + 1
        for stream in streams:
            await stream.aclose()
        assert service.streams == 0

    asyncio.run(scenario())


def test_publish_renders_nothing_and_a_burst_is_sent_once(service) -> None:
    async def scenario() -> None:
        streams = [service.status_events() for _ in range(20)]
        for stream in streams:
            await next_frame(stream)
        renders = service.renders
        for _ in range(100):  # a burst of hub frames, each one published
            service.publish()
        assert service.renders == renders  # nothing rendered on the table's path
        frames = [await next_frame(s) for s in streams]
        assert service.renders == renders + 1 and all(f is frames[0] for f in frames)
        pending = [asyncio.ensure_future(anext(s)) for s in streams]
        done, _ = await asyncio.wait(pending, timeout=0.3)
        assert not done  # the burst was one event, not a hundred queued per client
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for stream in streams:
            await stream.aclose()

    asyncio.run(scenario())


def test_a_slow_client_does_not_hold_back_the_others(service) -> None:
    async def scenario() -> None:
        slow = service.status_events()
        await next_frame(slow)  # then it reads nothing more (a phone on a bad link)
        quick = [service.status_events() for _ in range(3)]
        for stream in quick:
            await next_frame(stream)
        for number in range(5):
            service.table.log("test", f"change {number}")
            service.publish()
            frames = [await next_frame(s) for s in quick]
            assert status_of(frames[0]).events[-1].text == f"change {number}"
        late = await next_frame(slow)  # it gets the newest status, not a backlog of five
        assert status_of(late).events[-1].text == "change 4"
        for stream in [slow, *quick]:
            await stream.aclose()

    asyncio.run(scenario())


def test_the_api_sends_the_rendered_bytes_and_sees_every_change(service) -> None:
    client = TestClient(create_app(service, "test-token-123"))
    before = client.get("/api/status")
    assert before.headers["content-type"] == "application/json"
    assert before.content == service.status_json()
    assert json.loads(before.content)["started"] is False
    service.new_game(["anna", "ben"], {"edition": "gamewright"})
    after = Status.model_validate_json(client.get("/api/status").content)
    assert after.started and after.players == ["anna", "ben"]  # a publish is never cached over
    assert after == Status.model_validate_json(service.status().model_dump_json())
