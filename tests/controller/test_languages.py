"""The service in the reader's language: status, events, replies, refusals and the pages'
dictionary, chosen by ``?lang=``, the ``lang`` cookie, Accept-Language and the table's own."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from gpiozero.pins.mock import MockFactory

from controller.compose import build_service, load_board
from controller.language import catalogue, piece_namer, site_namer
from controller.referee import Discrepancy, WrongSite
from controller.status import Status
from controller.web import create_app
from games.core.translation import LANGUAGES
from hardware.leds import RecordingStrip
from hardware.profile import ProfileError, parse_profile

TOKEN = "languages-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


def make_service(tmp_path: Path, language: str = "en"):
    profile = replace(load_board("tiki_topple"), language=language)
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, registry = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                                      strip=strip, pin_factory=MockFactory(),
                                      rng=random.Random(1))
    for tiki in STACK:
        registry.enroll(f"aabbcc{STACK.index(tiki):02x}", f"tiki:{tiki}")
    return service


@pytest.fixture
def service(tmp_path: Path):
    service = make_service(tmp_path)
    service.new_game(["anna", "ben"])  # logs "new game of ...", the step asks for the stack
    return service


@pytest.fixture
def client(service) -> TestClient:
    return TestClient(create_app(service, TOKEN))


def german_step(service) -> str:
    """The step sentence as the German catalogue words it (and it must differ from English)."""
    step = service.table.game.describe_step(service.table.state)
    text = catalogue("de", service.table.game).text(step)
    assert text != str(step), f"no German for {step.template!r}"
    return text


def test_the_query_asks_for_german(client: TestClient, service) -> None:
    status = client.get("/api/status?lang=de").json()
    assert status["step"]["text"] == german_step(service)
    assert status["events"][-1]["text"].startswith("Neues Spiel")
    english = client.get("/api/status?lang=en").json()
    assert english["step"]["text"] == str(service.table.game.describe_step(service.table.state))
    assert english["events"][-1]["text"].startswith("new game of")
    assert status["step"]["template"] == english["step"]["template"]  # the msgid, for pages


def test_the_browser_language_counts_and_the_cookie_wins_over_it(client: TestClient,
                                                                 service) -> None:
    german = client.get("/api/status", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert german.json()["step"]["text"] == german_step(service)
    client.cookies.set("lang", "en")
    english = client.get("/api/status", headers={"Accept-Language": "de"}).json()
    assert english["events"][-1]["text"].startswith("new game of")
    assert client.get("/api/status?lang=de").json()["events"][-1]["text"].startswith("Neues")


def test_an_unknown_language_falls_back_to_the_tables_own(tmp_path: Path) -> None:
    service = make_service(tmp_path, language="de")
    service.new_game(["anna", "ben"])
    client = TestClient(create_app(service, TOKEN))
    for asked in ("/api/status?lang=xx", "/api/status"):
        response = client.get(asked, headers={"Accept-Language": "fr-FR,fr;q=0.9"})
        assert response.json()["step"]["text"] == german_step(service), asked
    assert client.get("/api/status?lang=en").json()["events"][-1]["text"].startswith("new game")


def test_a_profile_names_its_language_as_a_code(tmp_path: Path) -> None:
    source = Path(load_board("tiki_topple").source)
    data = __import__("tomllib").loads(source.read_text(encoding="utf-8"))
    assert parse_profile({**data, "language": "de"}, source).language == "de"
    assert parse_profile(data, source).language == "en"  # no key: English
    with pytest.raises(ProfileError, match="language"):
        parse_profile({**data, "language": "German"}, source)


def test_the_pages_dictionary_comes_in_the_language_asked(client: TestClient) -> None:
    german = client.get("/api/texts?lang=de")
    assert german.headers["content-language"] == "de"
    texts = german.json()
    assert texts["Language"] == "Sprache"
    assert texts["game aborted"] == "Spiel abgebrochen"
    english = client.get("/api/texts", headers={"Accept-Language": "en-GB"})
    assert english.headers["content-language"] == "en" and english.json() == {}
    assert client.get("/static/i18n.js").text.startswith("// The pages' texts")


def test_replies_and_refusals_are_worded_for_the_reader(client: TestClient) -> None:
    aborted = client.post("/api/abort", headers={**AUTH, "Accept-Language": "de"})
    assert aborted.json()["message"] == "Spiel abgebrochen"
    refused = client.post("/api/confirm", headers={**AUTH, "Accept-Language": "de"})
    assert refused.status_code == 409 and refused.json()["detail"] == "Es läuft kein Spiel"
    assert client.post("/api/confirm", headers=AUTH).json()["detail"] == "no game is running"
    wrong = client.post("/api/abort?lang=de", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and wrong.json()["detail"] == "Falsches Token"
    elsewhere = client.post("/api/abort", headers={**AUTH, "Origin": "http://elsewhere.example",
                                                   "Accept-Language": "de"})
    assert elsewhere.status_code == 403 and elsewhere.json()["detail"].startswith("Abgelehnt")


def test_a_refused_setup_is_worded_for_the_reader(client: TestClient) -> None:
    alone = {"players": ["anna"]}
    german = client.post("/api/game", headers={**AUTH, "Accept-Language": "de"}, json=alone)
    assert german.status_code == 422
    assert german.json()["detail"] == "Tiki Topple ist für 2 bis 4 Spieler, nicht für 1"
    english = client.post("/api/game", headers=AUTH, json=alone)
    assert english.json()["detail"] == "Tiki Topple is for 2 to 4 players, not 1"
    unknown = client.post("/api/game?lang=de", headers=AUTH,
                          json={"players": ["anna", "ben"], "options": {"speed": "fast"}})
    assert unknown.status_code == 422 and unknown.json()["detail"].startswith(
        "Tiki Topple kennt keine Option 'speed' (Optionen: edition")
    twice = client.post("/api/game?lang=de", headers=AUTH, json={"players": ["anna", "anna"]})
    assert twice.json()["detail"] == "Die Spielernamen müssen verschieden sein: anna, anna"


def test_a_discrepancy_is_told_in_german(client: TestClient, service) -> None:
    service.table.decision = Discrepancy((WrongSite("stack:1", "tiki:nani", None),
                                          WrongSite("stack:2", None, "tiki:kapu")))
    service.publish()
    english = client.get("/api/status").json()["discrepancy"]
    german = client.get("/api/status?lang=de").json()["discrepancy"]
    assert english["message"] and german["message"] != english["message"]
    assert german["message"][0].isupper()
    game = service.table.game
    words, piece, site = catalogue("de", game), piece_namer(game), site_namer(game)
    assert [s["advice"] for s in german["sites"]] == [
        words.text(wrong.sentence(piece, site)) for wrong in service.table.public_decision.wrong]
    assert german["message"] == "Leg Nani zurück auf Platz 1; nimm Kapu von Platz 2"
    assert english["message"] == "Put nani back on place 1; take kapu off place 2"


def test_each_language_is_rendered_once_per_change(service) -> None:
    async def first(language: str) -> Status:
        stream = service.status_events(language)
        frame = await anext(stream)
        await stream.aclose()
        data = frame.decode().split("data: ", 1)[1].strip()
        return Status.model_validate_json(data)

    async def read() -> tuple[list[Status], int]:
        before = service.renders
        statuses = [await first(language) for language in ("de", "en", "de", "en", "de")]
        return statuses, service.renders - before

    statuses, renders = asyncio.run(read())
    assert renders == 2  # one per language, shared by every reader of it
    assert statuses[0].step.text == german_step(service) == statuses[2].step.text
    assert statuses[1].step.text == str(service.table.game.describe_step(service.table.state))
    service.publish()
    assert service.status_json("de") != service.status_json("en")
    assert service.renders - renders >= 2


def test_the_simulator_page_has_its_own_dictionary(tmp_path: Path) -> None:
    from controller.cli.virtual.table import virtual_service
    from simulator.page import simulator_router

    table, service = virtual_service("tiki_topple", tmp_path, settle_ms=60)
    try:
        app = create_app(service, TOKEN)
        app.include_router(simulator_router(table, "/"))
        client = TestClient(app)
        german = client.get("/sim/api/texts", headers={"Accept-Language": "de"})
        assert german.headers["content-language"] == "de"
        assert german.json()["Language"] == "Sprache"  # the switch's label, from i18n.js
        client.cookies.set("lang", "en")
        english = client.get("/sim/api/texts", headers={"Accept-Language": "de"})
        assert english.headers["content-language"] == "en" and english.json() == {}
    finally:
        table.close()


def test_the_simulator_page_names_pieces_and_refuses_in_the_readers_language(
        tmp_path: Path) -> None:
    """/sim's art chooses the language as its texts do (down to the profile's default), and
    the next-step button's refusals are sentences in that language."""
    from controller.cli.virtual.table import virtual_service
    from simulator.page import simulator_router
    from simulator.virtual_table import NoSuchSite

    async def refused_by_the_table():
        raise NoSuchSite("no site called 'nowhere'")

    table, service = virtual_service("topiary", tmp_path, settle_ms=60)
    try:
        table.profile = replace(table.profile, language="de")
        bare, hooked = create_app(service, TOKEN), create_app(service, TOKEN)
        bare.include_router(simulator_router(table, "/"))
        hooked.include_router(simulator_router(table, "/", next_step=refused_by_the_table))
        client = TestClient(bare)
        whale = "topiary:whale:1"
        assert client.get("/sim/api/art").json()["pieces"][whale]["name"] == "Wal 1"
        english = client.get("/sim/api/art", headers={"Accept-Language": "en"}).json()
        assert english["pieces"][whale]["name"] == "whale 1"
        assert english["pieces"][whale]["kind"] == "tiles"
        nobody = client.post("/sim/api/next")
        assert nobody.status_code == 404
        assert nobody.json()["detail"] == ("Dieser Simulator hat keinen Schiedsrichter, den er "
                                           "nach dem nächsten Schritt fragen kann.")
        table_says = TestClient(hooked).post("/sim/api/next?lang=de")
        assert table_says.status_code == 409
        assert table_says.json()["detail"] == ("Der Tisch hat den Schritt abgelehnt: no site "
                                               "called 'nowhere'")
        assert TestClient(hooked).post("/sim/api/next?lang=en").json()["detail"] == (
            "The table refused the step: no site called 'nowhere'")
        site = next(site for site, place in table.coordinates.items() if place.label)
        laid = client.post("/sim/api/put?lang=de", json={"piece": whale, "site": site}).json()
        assert laid["message"].startswith("Wal 1 auf ") and laid["message"].endswith(" gelegt.")
        pressed = client.post("/sim/api/press?lang=de", json={"role": "confirm"}).json()
        assert pressed["message"] == "Bestätigen gedrückt."
    finally:
        table.close()


def test_a_full_disk_is_told_in_the_readers_language(service, tmp_path: Path) -> None:
    from controller.journal import JournalFull
    from controller.referee import NotRecorded

    error = JournalFull(tmp_path / "journal.sqlite3")
    decision = NotRecorded((WrongSite("stack:1", None, "tiki:nani"),), why=error.sentence)
    german = catalogue("de", service.table.game).text(decision.sentence)
    assert german.startswith("Dieser Zug ist nicht gespeichert: Die Festplatte des Journals")
    assert str(tmp_path) in german  # the folder goes in as it is
    assert decision.message.startswith(f"This move is not recorded: {error}.")


def test_the_pages_language_switch_offers_the_languages_the_service_has() -> None:
    """i18n.js draws the switch before it asks the server anything, so it lists the languages
    itself: the same codes as the service's, each named in its own words."""
    script = (Path(__file__).resolve().parents[2] / "controller/static/i18n.js").read_text()
    listed = re.search(r"const LANGUAGES = \{([^}]*)\}", script)
    assert listed is not None
    assert re.findall(r"(\w+):", listed.group(1)) == list(LANGUAGES)

