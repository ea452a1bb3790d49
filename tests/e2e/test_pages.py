"""The status and player pages a family reads: the step sentence naming who acts, whether
the board agrees with the game, the LED legend, and the language switch; real Chromium."""

from __future__ import annotations

import json

import pytest

from .finish import simulated


@pytest.fixture
def served(tmp_path):
    yield from simulated("tiki_topple", tmp_path, options={"edition": "gamewright"})


def agreement(page) -> str:
    return page.locator("#agreement").get_attribute("data-agree") or ""


def test_the_headline_names_who_acts_and_says_whether_the_board_agrees(browser, served) -> None:
    table, service, server = served
    step = server.call(service.status).step.text
    assert step.startswith("anna")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.url)
    page.wait_for_function("(step) => document.getElementById('banner').textContent === step",
                           arg=step)
    assert page.locator("#turn").inner_text() == "anna acts · move 1"
    page.wait_for_function("document.getElementById('agreement').dataset.agree === 'yes'")
    assert page.locator("#verdict").inner_text() == "The board agrees with the game"
    assert page.locator("#agreement .mark").inner_text() == "✓"

    # A card where the stack's first tiki belongs: one glance says the board disagrees, and why.
    table.put("card:red:up1", "stack:1")
    page.wait_for_function("document.getElementById('agreement').dataset.agree === 'no'",
                           timeout=15_000)
    assert page.locator("#agreement").get_attribute("class") == "disagree"
    assert page.locator("#verdict").inner_text() == "The board disagrees with the game"
    assert page.locator("#agreement .mark").inner_text() == "✗"  # a shape, not only a colour
    wrong = server.call(service.status).discrepancy
    assert wrong is not None and page.locator("#message").inner_text() == wrong.message
    # the legend says which LED role is lit now, in words beside its shape
    page.wait_for_selector("#legend li[data-role='wrong'].now")
    assert "(lit now)" in page.locator("#legend li[data-role='wrong']").inner_text()
    assert page.locator("#legend li[data-role='legal'] .litNow").inner_text() == ""

    table.lift("stack:1")
    page.wait_for_function("document.getElementById('agreement').dataset.agree === 'yes'",
                           timeout=15_000)
    assert page.locator("#banner").inner_text() == step
    page.close()


def test_the_legend_tells_every_led_role_by_shape_and_words(browser, served) -> None:
    _, service, server = served
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url)
    page.wait_for_function("document.getElementById('agreement').dataset.agree")
    items = page.locator("#legend li[data-role]")
    roles = [items.nth(n).get_attribute("data-role") for n in range(items.count())]
    assert roles == ["legal", "active", "choice", "wrong", "score", "advice", "blind"]
    shapes = set()
    for n in range(items.count()):
        item = items.nth(n)
        assert len(item.locator("b").inner_text()) > 10  # what it means
        assert "·" in item.locator(".pattern").inner_text()  # its shape and blink pattern
        shapes.add(item.locator("svg").inner_html())
    assert len(shapes) == 7  # no two roles share a shape
    palette = server.call(service.status).palette
    ring = page.locator("#legend li[data-role='legal'] svg circle").get_attribute("stroke")
    assert ring == palette["legal"]  # drawn in the table's own colour for it
    page.close()


def test_the_language_switch_turns_both_pages_german(browser, served) -> None:
    _, service, server = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_function("document.getElementById('agreement').dataset.agree === 'yes'")
    assert page.locator("#legendTitle").inner_text() == "What the lights mean"
    english = page.locator("#banner").inner_text()

    page.select_option("#languageSwitch select", "de")
    page.wait_for_function(
        "document.getElementById('legendTitle').textContent === 'Was die Lichter bedeuten'")
    step = json.loads(server.call(lambda: service.status_json("de")))["step"]["text"]
    assert step != english  # the step sentence itself comes in German
    page.wait_for_function("(step) => document.getElementById('banner').textContent === step",
                           arg=step)
    page.wait_for_function(
        "document.getElementById('verdict').textContent === 'Der Tisch passt zum Spiel'")
    assert page.locator("#turn").inner_text() == "anna ist dran · Zug 1"
    assert page.get_by_role("button", name="Neues Spiel").count() == 1
    assert page.evaluate("document.documentElement.lang") == "de"

    # the choice is kept (a cookie): the player page opens in German too
    player = context.new_page()
    player.goto(server.url + "/player")
    player.wait_for_function("!document.getElementById('step').hidden")
    assert player.locator("#step").inner_text() == step
    assert player.get_by_text("Nur du solltest auf dieses Handy schauen.").count() == 1
    assert player.locator("#seats").inner_text().startswith("Welcher Platz ist deiner?")
    player.select_option("#languageSwitch select", "en")
    player.wait_for_function("(step) => document.getElementById('step').textContent === step",
                             arg=english)
    assert player.get_by_text("Only you should look at this phone.").count() == 1
    context.close()


def test_the_player_page_leads_with_the_step_and_tells_its_player_their_turn(
        browser, served) -> None:
    _, service, server = served
    step = server.call(service.status).step.text
    codes = {player: record.code for player, record in server.call(service.seat_codes)}
    for name, mine in (("anna", True), ("ben", False)):
        seat = ["anna", "ben"].index(name)
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{server.url}/player?seat={seat}&code={codes[name]}")
        phone.wait_for_function("(title) => document.getElementById('title').textContent === title",
                                arg=f"{name}'s hand")
        assert phone.locator("#step").inner_text() == step  # names anna, who acts
        assert phone.locator("#yourTurn").is_visible() is mine
        assert (phone.locator("#step").get_attribute("class") == "mine") is mine
        phone.close()
