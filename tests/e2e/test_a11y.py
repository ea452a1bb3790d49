"""Accessibility and phone layout of the status page, the player page and /sim, for every
game: axe-core (bundled by axe-playwright-python, no network) finds nothing serious or
critical, and a 390 px wide phone never scrolls sideways; during a game and at its end."""

from __future__ import annotations

import random

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.registry import all_games
from tests.playing import play_to_end

from .finish import simulated

PAGES = ("/", "/player", "/sim")
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
SERIOUS = {"serious", "critical"}
READY = {  # what each page shows once it has drawn what the service sent
    "/": "document.getElementById('banner').textContent !== 'connecting…'",
    "/player": "!document.getElementById('step').hidden",
    "/sim": "document.querySelectorAll('svg g.site').length > 0",
}


def problems(page, axe: Axe) -> list[str]:
    """Serious and critical axe violations, one line each, naming the elements."""
    found = axe.run(page).response["violations"]
    return [f"{v['impact']} {v['id']}: {v['help']} at "
            f"{[node['target'] for node in v['nodes'][:5]]}"
            for v in found if v["impact"] in SERIOUS]


def sideways(page) -> int:
    """How many pixels the page is wider than the window (0: no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth"
                         " - document.documentElement.clientWidth")


@pytest.fixture(params=sorted(game.id for game in all_games()))
def served(request, tmp_path):
    yield from simulated(request.param, tmp_path, dealer="digital")


def test_every_page_is_accessible_and_fits_a_phone(browser, served) -> None:
    _, service, server = served
    axe = Axe()
    report: list[str] = []

    def check(path: str, viewport: str) -> None:
        page = browser.new_page(viewport=VIEWPORTS[viewport])
        page.goto(server.url + path)
        page.wait_for_function(READY[path])
        page.wait_for_timeout(300)  # a second status event may still redraw
        report.extend(f"{path} ({viewport}): {line}" for line in problems(page, axe))
        if viewport == "phone":
            wider = sideways(page)
            if wider > 0:
                report.append(f"{path} (phone): {wider} px sideways scrolling")
        page.close()

    for viewport in VIEWPORTS:
        for path in PAGES:
            check(path, viewport)
    server.call(lambda: play_to_end(service.table, random.Random(2)))
    for viewport in VIEWPORTS:  # the game-over screen
        check("/", viewport)
    assert report == []
