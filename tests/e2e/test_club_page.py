"""The club page in real Chromium, fed by tables over a real Mosquitto: tables appear, a
result shows up live (no reload), German and English, axe-core finds nothing serious or
critical, and a 390 px phone never scrolls sideways."""

from __future__ import annotations

import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from axe_playwright_python.sync_playwright import Axe

from controller.club_messages import GameResult, TableState, topic
from controller.club_service import ClubService
from controller.club_web import create_club_app
from tests.mosquitto import Broker, broker  # noqa: F401  (the fixture)

from .served import Served

SERIOUS = {"serious", "critical"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LONG_STEP = ("Bartholomew-Maximilian plays the card that moves the blue tiki up three places "
             "to the very top of the stack, then checks the targets on his secret card")


class Table:
    """A stand-in table: paho in this thread (Playwright's sync API owns its event loop)."""

    def __init__(self, port: int) -> None:
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="page-table")
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def publish(self, name: str, payload: str | bytes, retain: bool = False) -> None:
        self.client.publish(name, payload, qos=1, retain=retain).wait_for_publish(5)

    def state(self, table: str, **changes: object) -> None:
        data = {"table": table, "game": "tiki_topple", "game_name": "Tiki Topple",
                "language": "en", "players": ["anna", "ben"], "to_act": "ben",
                "step": "ben plays a card", "moves": 6, "running": True, **changes}
        self.publish(topic(table, "availability"), "online", retain=True)
        self.publish(topic(table, "state"), TableState.model_validate(data).model_dump_json(),
                     retain=True)

    def result(self, table: str, uid: str, scores: dict[str, int]) -> None:
        best = max(scores.values())
        now = time.time()
        sent = GameResult(uid=uid, table=table, game="tiki_topple", players=list(scores),
                          scores=scores, winners=[p for p, s in scores.items() if s == best],
                          started=now - 900, ended=now, moves=44)
        self.publish(topic(table, "result"), sent.model_dump_json())

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def club_page(broker: Broker, tmp_path: Path):  # noqa: F811
    club = ClubService(broker.url, tmp_path / "club", name="page", retry=(0.1, 0.5))
    server = Served(create_club_app(club), background=club.run)
    table = Table(broker.port)
    try:
        deadline = time.monotonic() + 10
        while not server.call(lambda: club.connected):
            assert time.monotonic() < deadline, "the club did not connect to the broker"
            time.sleep(0.05)
        yield club, server, table
    finally:
        table.close()
        server.stop()
        club.close()


def wait_for_club(server: Served, condition, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not server.call(condition):
        assert time.monotonic() < deadline, "the club never got there"
        time.sleep(0.05)


def test_tables_and_a_live_result_in_english_and_german(browser, club_page) -> None:
    club, server, table = club_page
    table.state("t1")
    table.state("t2", game="topiary", game_name="Topiary", to_act="cleo",
                players=["cleo", "dora"], step="cleo lays a tile")
    wait_for_club(server, lambda: len(club.tables) == 2)
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector('[data-table="t2"]')
    assert "ben plays a card" in page.inner_text('[data-table="t1"]')
    assert "cleo acts" in page.inner_text('[data-table="t2"]')
    assert "No game has finished this evening yet." in page.inner_text("#games")
    page.evaluate("window.notReloaded = true")

    table.result("t1", "t1/1/1", {"anna": 14, "ben": 9})  # arrives while the page is open
    page.wait_for_selector('#games li[data-uid="t1/1/1"]', timeout=5000)
    assert "anna wins." in page.inner_text("#games")
    page.wait_for_selector('#overall tr[data-player="anna"]')
    assert page.locator("#overall tbody tr").first.get_attribute("data-player") == "anna"
    assert page.locator('#byGame h3[data-game="tiki_topple"]').inner_text() == "Tiki Topple"

    page.locator("select.language-switch").select_option("de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.wait_for_function("document.getElementById('standingsTitle').textContent === "
                           "'Rangliste'")
    page.wait_for_function("document.body.innerText.includes('anna gewinnt.')")
    body = page.inner_text("body")
    assert "Tisch t1" in body and "Spieler/in" in body and "cleo ist dran" in body
    assert "ben plays a card" in body  # the table's own words: it speaks English
    assert "Standings" not in body and "No game" not in body
    assert page.evaluate("window.notReloaded") is True
    context.close()


def test_accessible_and_no_sideways_scrolling_on_a_phone(browser, club_page) -> None:
    club, server, table = club_page
    long_name = "Bartholomew-Maximilian"
    table.state("long-table-by-the-big-window-077", step=LONG_STEP,
                players=[long_name, "ben"], to_act=long_name)
    table.publish(topic("t9", "availability"), "offline", retain=True)
    table.result("t9", "t9/1/1", {long_name: 120, "ben": 120, "cleo": 3})
    wait_for_club(server, lambda: len(club.tables) == 2 and len(club.results()) == 1)
    axe = Axe()
    report: list[str] = []
    for locale in ("en-US", "de-DE"):
        for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            context = browser.new_context(locale=locale, viewport=viewport)
            page = context.new_page()
            page.goto(server.url)
            page.wait_for_selector('#overall tr[data-player="cleo"]')
            page.wait_for_timeout(100)
            found = axe.run(page).response["violations"]
            report += [f"{locale} {name}: {v['impact']} {v['id']}: {v['help']} at "
                       f"{[node['target'] for node in v['nodes'][:5]]}"
                       for v in found if v["impact"] in SERIOUS]
            wider = page.evaluate("document.documentElement.scrollWidth"
                                  " - document.documentElement.clientWidth")
            if wider > 0:
                report.append(f"{locale} {name}: {wider} px sideways scrolling")
            context.close()
    assert report == []
