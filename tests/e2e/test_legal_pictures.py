"""The status page's "Legal now" shows legal steps as pictures that light their sites on the
board, in real headless Chromium."""

from __future__ import annotations

from controller.cli.virtual.table import virtual_service
from controller.web import create_app

from .conftest import browser  # noqa: F401  (the fixture)
from .served import Served

PHONE = {"width": 390, "height": 844}


def test_legal_moves_are_pictures_that_light_their_sites(browser, tmp_path) -> None:  # noqa: F811
    """On Top starts with the two black triangles laid on the start triangles: "Legal now"
    shows them as pictures, and pointing at the move marks both sites on the board."""
    table, service = virtual_service("on_top", tmp_path, settle_ms=60)
    server = Served(create_app(service, "page-test-token"), background=service.run)
    try:
        server.call(lambda: service.table.new_game(["anna", "ben"], {}))
        page = browser.new_page(viewport=PHONE)
        page.goto(server.url)
        move = page.locator("#legal button.move").first
        move.wait_for()
        assert move.locator("svg.piece-icon").count() == 2
        assert move.locator("svg.piece-icon g.picture[data-piece='black']").count() == 2
        move.hover()
        page.wait_for_selector("svg#board g.site.mark-highlight")
        lit = {page.locator("svg#board g.site.mark-highlight").nth(i).get_attribute("data-site")
               for i in range(page.locator("svg#board g.site.mark-highlight").count())}
        assert lit == set(move.get_attribute("data-sites").split())
        assert len(lit) == 2
        page.close()
    finally:
        server.stop()
        table.close()
