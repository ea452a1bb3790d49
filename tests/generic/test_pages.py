"""The status page and the simulator page draw every game, in real headless Chromium.

The browser and the server come from the end-to-end tests' fixtures (tests/e2e)."""

from __future__ import annotations

from typing import Any

from games.core.game import Game
from tests.e2e.conftest import browser  # noqa: F401  (the fixture, shared with tests/e2e)

from .conftest import players_for


def drawn_sites(page: Any) -> set[str]:
    sites = page.locator("g.site")
    return {sites.nth(i).get_attribute("data-site") for i in range(sites.count())}


def test_the_status_and_simulator_pages_draw_the_game(game: Game[Any], browser,  # noqa: F811
                                                      served) -> None:
    table, server = served
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.goto(server.url)
    page.wait_for_selector("svg#board g.site")
    page.wait_for_function("!['connecting…', 'No game running'].includes("
                           "document.getElementById('banner').textContent)")
    seated = {site.id for site in game.sites(len(players_for(game)))}
    assert drawn_sites(page) == seated

    page.goto(f"{server.url}/sim")
    page.wait_for_selector("g.site")
    assert drawn_sites(page) == set(table.profile.sites)
    page.close()
