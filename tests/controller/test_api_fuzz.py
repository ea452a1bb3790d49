"""Schemathesis fuzzes the JSON API from its own OpenAPI schema: never a 5xx, with or without
the token, every status and body as the schema declares them, and unauthorised calls never
change the game."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import schemathesis
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from controller.compose import build_service, load_board
from controller.web import create_app
from hardware.leds import RecordingStrip

PROFILE = load_board("tiki_topple")
DATA = Path(tempfile.mkdtemp(prefix="tabletop-fuzz-"))
SERVICE, _ = build_service(
    PROFILE, DATA, urls=[str(DATA / "no-hub")],
    strip=RecordingStrip(PROFILE.leds.count, byteorder=PROFILE.leds.pixel_order),
    pin_factory=MockFactory(), rng=random.Random(0))
SERVICE.advisor = None  # fuzzed AI games would think for minutes in threads; tested elsewhere
SERVICE.table.new_game(["anna", "ben"], {})
TOKEN = "fuzz-token-123"
APP = create_app(SERVICE, TOKEN)
# The event stream never ends by design; everything else is fuzzed.
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(path="/api/events")
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_server_error(case) -> None:
    response = case.call(headers=AUTH)
    assert response.status_code < 500, (case.method, case.path, response.text)
    # Every refusal is declared, in the one shape ({"detail": str}) the schema says.
    case.validate_response(response, checks=[status_code_conformance,
                                             response_schema_conformance])


@SCHEMA.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_without_the_token_nothing_changes(case) -> None:
    journal_before = [(g.id, g.status, g.actions) for g in SERVICE.table.journal.games()]
    response = case.call(headers={"Authorization": "Bearer wrong-token"})
    assert response.status_code < 500
    # Claiming a seat needs its code, which the fuzzer never has: nothing is open to it.
    if case.method.upper() == "POST":
        assert 400 <= response.status_code < 500, (case.path, response.status_code)
        assert [(g.id, g.status, g.actions)
                for g in SERVICE.table.journal.games()] == journal_before
