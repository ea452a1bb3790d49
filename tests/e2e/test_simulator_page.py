"""The simulator page: a person plays a move with the mouse, in real headless Chromium."""

from __future__ import annotations

import pytest

from .finish import simulated

STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


@pytest.fixture
def served(tmp_path):
    yield from simulated("tiki_topple", tmp_path, options={"edition": "gamewright"})


@pytest.fixture
def on_top(tmp_path):
    """On Top's board, on six hubs."""
    yield from simulated("on_top", tmp_path)


def until(condition, timeout: float = 15.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def centre(locator) -> tuple[float, float]:
    """Where an element is; the page redraws on every status, so ask again if it just went."""
    for _ in range(50):
        locator.wait_for(state="visible")
        box = locator.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    raise AssertionError(f"{locator} never stayed on the page")


def drag(page, source, target) -> None:
    page.mouse.move(*centre(source))
    page.mouse.down()
    page.mouse.move(*centre(target), steps=8)
    page.mouse.up()


def test_a_move_played_with_the_mouse_reaches_the_referee(browser, served, screenshot) -> None:
    table, service, server = served
    for place, tiki in enumerate(STACK, start=1):
        table.put(f"tiki:{tiki}", f"stack:{place}")
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.goto(f"{server.url}/sim")
    page.wait_for_selector("g.piece[data-site='stack:9']")
    until(lambda: server.call(lambda: service.status().to_act) == "anna")
    # anna: up1 on wikiwiki. Card from the box to the pad, then swap the two tikis by hand.
    drag(page, page.locator("#box .tile[data-piece='card:red:up1']"),
         page.locator("g.site[data-site='pad:play'] rect").first)
    page.wait_for_selector("g.piece[data-site='pad:play']")
    drag(page, page.locator("g.piece[data-site='stack:1']"), page.locator("#box h3").first)
    page.wait_for_function("!document.querySelector(\"g.piece[data-site='stack:1']\")")
    drag(page, page.locator("g.piece[data-site='stack:2']"),
         page.locator("g.site[data-site='stack:1'] rect").first)
    page.wait_for_selector("g.piece[data-site='stack:1'][data-piece='tiki:wikiwiki']")
    drag(page, page.locator("#box .tile[data-piece='tiki:nani']"),
         page.locator("g.site[data-site='stack:2'] rect").first)
    until(lambda: server.call(lambda: service.status().last_action) == "up1 wikiwiki")
    assert table.board()["stack:1"] == "tiki:wikiwiki"
    assert server.call(lambda: service.table.actions[-1]) == "up1 wikiwiki"
    page.wait_for_selector("g.site[data-led='legal']")  # the LEDs now light ben's options
    screenshot(page, "simulator-page.png")
    page.close()


def test_a_hubs_cable_pulled_on_the_page_blinds_its_region_on_the_status_page(
        browser, on_top) -> None:
    _, service, server = on_top
    sim, status = browser.new_page(), browser.new_page()
    sim.goto(f"{server.url}/sim")
    status.goto(server.url)
    sim.wait_for_selector("button[data-hub='hub3']")
    assert sim.locator("button[data-hub]").count() == 6  # On Top's profile names six
    until(lambda: all(hub.seen for hub in service.hubs))
    sim.click("button[data-hub='hub3']")
    status.wait_for_function(
        "document.getElementById('message').textContent.startsWith('Waiting for hub hub3')")
    hub3 = len(service.profile.hubs[2].readers)
    assert status.locator("svg#board g.site.blind").count() == hub3
    assert "Unplugged hub hub3." in sim.locator("#log").inner_text()
    sim.click("button[data-hub='hub3']")  # plugged back in
    status.wait_for_function("document.querySelectorAll('svg#board g.site.blind').length == 0")
    assert "Hub hub3 connected" in status.locator("#hardware").inner_text()
