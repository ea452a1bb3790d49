"""The status page follows a game live, in real headless Chromium."""

from __future__ import annotations

import random

import pytest
from gpiozero.pins.mock import MockFactory

from controller.compose import build_service, load_board
from controller.web import create_app
from hardware.leds import RecordingStrip

from .served import Served

STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
TOKEN = "status-page-token"


@pytest.fixture
def table(tmp_path):
    profile = load_board("tiki_topple")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, registry = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                                      strip=strip, pin_factory=MockFactory(), rng=random.Random(1))
    uids = {tiki: f"04a1b2{n:02x}" for n, tiki in enumerate(STACK)}
    for tiki, uid in uids.items():
        registry.enroll(uid, f"tiki:{tiki}")
    registry.enroll("04c0ffee", "card:red:up1")
    served = Served(create_app(service, TOKEN), background=service.work)  # the AI thinks there
    yield service, served, uids
    served.stop()


def lay(service, readers: dict[int, str]) -> None:
    """What the hub's snapshot would say (every reader, the empty ones too); then judge at
    once (no settle wait in this test)."""
    service.tracker.snapshot({n: readers.get(n, []) for n in service.profile.readers}, now=0.0)
    service.hubs[0].seen = True  # as when the hub has sent this snapshot
    service.judge()


def test_the_status_page_follows_a_game_live(browser, table, screenshot) -> None:
    service, served, uids = table
    page = browser.new_page(viewport={"width": 412, "height": 915})  # a phone
    served.call(lambda: service.table.new_game(["anna", "ben"], {}))
    served.call(service.judge)
    page.goto(served.url)
    page.wait_for_function("document.getElementById('turn').textContent.startsWith('anna acts')")
    assert page.locator("svg#board g.site").count() == 11  # nine stack places and two pads
    # no hub has sent a snapshot yet: the whole board is blind, and the page says why
    assert page.locator("#message").inner_text().startswith("Waiting for hub hub")
    assert page.locator("svg#board g.site.blind").count() == 11

    readers = {n: uids[tiki] for n, tiki in enumerate(STACK)}
    served.call(lambda: lay(service, readers))
    # (the banner named anna before the stack was laid too: wait for the board itself)
    page.wait_for_function(
        "document.querySelector(\"g.site[data-site='stack:1']\").dataset.piece === 'tiki:nani'")
    assert "sort the nine tikis" not in page.locator("#banner").inner_text()
    assert page.locator("svg#board g.site.blind").count() == 0
    assert "scan" not in page.locator("#hardware").inner_text()  # no heartbeat measured it
    assert "depends on a hand" in page.locator("#legal").inner_text()  # Schmidt: secret hands

    # anna plays up1 on wikiwiki: card on the pad, nani and wikiwiki change places.
    moved = {**readers, 0: uids["wikiwiki"], 1: uids["nani"], 9: "04c0ffee"}
    served.call(lambda: lay(service, moved))
    page.wait_for_function("document.getElementById('banner').textContent.includes('ben')")
    assert page.locator("g.site[data-site='stack:1']").get_attribute("data-piece") == (
        "tiki:wikiwiki")
    assert "anna plays Tiki Up 1: wikiwiki moves up" in page.locator("#events").inner_text()

    # A tiki where none belongs: the page says what to do and marks the site.
    # kapu laid on the card pad: no move explains that.
    stray = {**{k: v for k, v in moved.items() if k != 8}, 9: uids["kapu"]}
    served.call(lambda: lay(service, stray))
    page.wait_for_function("document.getElementById('message').className === 'wrong'")
    assert page.locator("#message").inner_text() == (
        "Play pad should hold Tiki Up 1 card (red), not kapu; put kapu back on place 9")
    wrong = {page.locator("g.site.wrong").nth(i).get_attribute("data-site") for i in range(2)}
    assert wrong == {"pad:play", "stack:9"}
    screenshot(page, "status-page.png", full_page=True)
    served.call(lambda: lay(service, moved))
    page.wait_for_function("document.getElementById('message').className === ''")
    page.close()


def test_unknown_tags_are_reported_on_the_page(browser, table) -> None:
    service, served, _ = table
    served.call(lambda: service.table.new_game(["anna", "ben"], {}))
    page = browser.new_page()
    page.goto(served.url)
    served.call(lambda: lay(service, {0: "04deadbe"}))
    page.wait_for_function(
        "document.getElementById('message').textContent.includes('unknown tag 04deadbe')")
    page.close()


def test_a_player_claims_a_seat_and_sees_only_their_secrets(browser, table, screenshot) -> None:
    service, served, uids = table
    served.call(lambda: service.table.new_game(["anna", "ben"], {}, dealer="digital"))
    served.call(lambda: lay(service, {n: uids[tiki] for n, tiki in enumerate(STACK)}))
    codes = served.call(lambda: [seat.code for seat in service.table.seat_codes()])
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{served.url}/player")
    phone.get_by_role("button", name="ben").click()
    phone.fill("#code", codes[0])  # anna's code does not open ben's seat
    phone.get_by_role("button", name="Join").click()
    phone.wait_for_function("document.getElementById('note').textContent.includes('not the code')")
    phone.fill("#code", codes[1].lower())
    phone.get_by_role("button", name="Join").click()
    phone.wait_for_function("document.getElementById('title').textContent === \"ben's hand\"")
    text = phone.locator("#secret").inner_text()
    ben = served.call(lambda: service.table.game.view(service.table.state, 1))
    assert all(card in text for card in ben["hand"])
    assert all(tiki in text for tiki in ben["mission"])
    screenshot(phone, "player-page.png")
    other = browser.new_page()
    other.goto(f"{served.url}/player?seat=1&code={codes[1]}")  # the host's link, once more
    other.wait_for_function("document.getElementById('note').textContent.includes('taken')")
    assert "code=" not in phone.url
    phone.close()
    other.close()


def test_the_host_sees_the_seat_codes_and_releases_a_seat(browser, table) -> None:
    service, served, _ = table
    served.call(lambda: service.table.new_game(["anna", "ben"], {}, dealer="digital"))
    host = browser.new_page()
    host.goto(served.url)
    host.wait_for_function("document.getElementById('turn').textContent.startsWith('anna acts')")
    assert host.locator("#seatCodes").is_hidden()  # no token, no codes
    host.fill("#token", TOKEN)
    host.locator("#token").dispatch_event("change")
    host.wait_for_selector("#seatCodes code.seat-code")
    codes = served.call(lambda: [seat.code for seat in service.table.seat_codes()])
    assert host.locator("code.seat-code").all_inner_texts() == codes
    link = host.locator("tr[data-seat='0'] a").get_attribute("href")
    phone = browser.new_page()
    phone.goto(f"{served.url}{link}")  # the link the host hands to anna
    phone.wait_for_function("document.getElementById('title').textContent === \"anna's hand\"")
    host.wait_for_selector("tr[data-seat='0'] button")
    host.locator("tr[data-seat='0']").get_by_role("button", name="Release").click()
    phone.wait_for_function("document.getElementById('note').textContent.includes('lost its seat')")
    host.wait_for_function(f"!document.querySelector('tr[data-seat=\"0\"] button') && "
                           f"document.querySelector('tr[data-seat=\"0\"] code').textContent "
                           f"!== {codes[0]!r}")
    phone.close()
    host.close()


def test_a_game_is_started_and_aborted_from_the_page(browser, table) -> None:
    service, served, _ = table
    page = browser.new_page()
    page.goto(served.url)
    page.wait_for_selector("select[data-option='edition']")
    page.fill("#players", "anna, ben, cleo")
    page.select_option("select[data-option='edition']", "gamewright")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function("document.getElementById('reply').textContent.startsWith('401')")
    assert served.call(lambda: service.table.started) is False  # no token, no game
    page.fill("#token", TOKEN)
    page.select_option("#dealer", "digital")  # phones, not the box
    page.get_by_role("button", name="New game").click()
    page.wait_for_function("document.getElementById('turn').textContent.startsWith('anna acts')")
    chosen = service.table.game.check_options({"edition": "gamewright"})  # the others default
    assert served.call(lambda: (service.table.players, service.table.options,
                                service.table.dealer)) == (("anna", "ben", "cleo"), chosen,
                                                           "digital")
    page.get_by_role("button", name="Abort game").click()
    page.wait_for_function(
        "document.getElementById('banner').textContent.startsWith('No game running')")
    page.close()


def test_the_page_starts_an_ai_game_shows_its_move_and_gives_hints(browser, table,
                                                                    screenshot) -> None:
    pytest.importorskip("pyspiel", reason="the AI needs OpenSpiel: pip install '.[ai]'")
    service, served, uids = table
    page = browser.new_page(viewport={"width": 412, "height": 915})
    page.goto(served.url)
    page.wait_for_selector("select[data-option='edition']")
    page.fill("#token", TOKEN)
    page.fill("#players", "anna, ben")
    page.fill("#aiPlayers", "anna")
    page.fill("#aiStrength", "30")
    page.select_option("select[data-option='edition']", "gamewright")
    page.get_by_role("button", name="New game").click()
    page.wait_for_function(
        "document.getElementById('turn').textContent.startsWith('anna (AI) acts')")
    assert served.call(lambda: service.table.ai) == {0: 30}
    served.call(lambda: lay(service, {n: uids[tiki] for n, tiki in enumerate(STACK)}))
    page.wait_for_function(
        "document.getElementById('advice').textContent.startsWith('anna (AI) plays')",
        timeout=60_000)
    action = served.call(lambda: service.table.current_advice().action)
    assert action in page.locator("#advice").inner_text()
    assert page.locator("g.site.advice").count() >= 1
    screenshot(page, "ai-move.png", full_page=True)
    assert page.locator("#hint").is_enabled()
    page.get_by_role("button", name="Hint").click()  # anna is the AI's: no hint for her
    page.wait_for_function("document.getElementById('reply').textContent.includes('AI')")
    assert "anna is played by the AI" in page.locator("#reply").inner_text()

    # A game without AI seats: the hint button lights a move for anna.
    served.call(lambda: service.new_game(["anna", "ben"], {"edition": "gamewright"}))
    served.call(lambda: lay(service, {}))
    served.call(lambda: lay(service, {n: uids[tiki] for n, tiki in enumerate(STACK)}))
    page.wait_for_function("document.getElementById('banner').textContent.includes('anna')")
    page.get_by_role("button", name="Hint").click()
    page.wait_for_function(
        "document.getElementById('advice').textContent.startsWith('Hint for anna')",
        timeout=60_000)
    page.close()


def test_a_private_hint_shows_only_on_the_players_phone(browser, table) -> None:
    pytest.importorskip("pyspiel", reason="the AI needs OpenSpiel: pip install '.[ai]'")
    service, served, uids = table
    served.call(lambda: service.table.new_game(["anna", "ben"], {}, dealer="digital"))  # Schmidt
    served.call(lambda: lay(service, {n: uids[tiki] for n, tiki in enumerate(STACK)}))
    codes = served.call(lambda: [seat.code for seat in service.table.seat_codes()])
    ben = browser.new_page(viewport={"width": 390, "height": 844})
    ben.goto(f"{served.url}/player?seat=1&code={codes[1]}")
    ben.wait_for_function("document.getElementById('title').textContent === \"ben's hand\"")
    assert ben.locator("#askHint").is_hidden()  # anna is on turn, not ben
    anna = browser.new_page(viewport={"width": 390, "height": 844})
    anna.goto(f"{served.url}/player?seat=0&code={codes[0]}")
    anna.wait_for_function("!document.getElementById('askHint').hidden")
    anna.get_by_role("button", name="Hint, on this phone only").click()
    anna.wait_for_function(
        "document.getElementById('hint').textContent.startsWith('The AI would play: ')",
        timeout=60_000)
    suggestion = anna.locator("#hint").inner_text().removeprefix("The AI would play: ")
    legal = served.call(lambda: service.table.game.legal_actions(service.table.state))
    assert suggestion in legal
    status = served.call(service.status)
    assert status.advice is None and "advice" not in status.roles.values()
    assert suggestion not in str(status.events)  # the table never saw it
    anna.close()
    ben.close()
