"""Both pages draw each game's board with board.js, in real headless Chromium: no two sites
overlap (on a desktop and on a 390x844 phone), and a piece put on the table shows as its
picture. The browser and the server come from the end-to-end tests' fixtures (tests/e2e)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.core.game import FACE_DOWN, Game
from tests.e2e.conftest import browser  # noqa: F401  (the fixture, shared with tests/e2e)

from .conftest import players_for

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
BOXES = """(selector) => [...document.querySelectorAll(selector)].map((g) => {
  const box = g.getBBox(), screen = g.getBoundingClientRect();
  return {site: g.dataset.site, x: box.x, y: box.y, w: box.width, h: box.height,
          px: screen.width, py: screen.height};
})"""


def overlapping(boxes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Pairs of sites whose drawn groups (cell, picture, label, badge) intersect."""
    slack = 1e-6
    return [(a["site"], b["site"]) for a, b in combinations(boxes, 2)
            if a["x"] + a["w"] > b["x"] + slack and b["x"] + b["w"] > a["x"] + slack
            and a["y"] + a["h"] > b["y"] + slack and b["y"] + b["h"] > a["y"] + slack]


def site_boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    page.wait_for_selector(selector)
    return page.evaluate(BOXES, selector)


def a_piece_and_a_site(game: Game[Any], table: Any) -> tuple[str, str]:
    """A piece of the box and a site of the table it may lie on (any: the page draws what the
    readers see, legal or not)."""
    sites = sorted(table.profile.sites)
    return game.pieces()[0], sites[0]


def test_no_two_sites_overlap_on_either_page(game: Game[Any], browser, served) -> None:  # noqa: F811
    table, server = served
    for viewport in (DESKTOP, PHONE):
        page = browser.new_page(viewport=viewport)
        page.goto(server.url)
        status = site_boxes(page, "svg#board g.site")
        assert len(status) == len(game.sites(len(players_for(game))))
        assert overlapping(status) == [], f"status page, {viewport}"
        board = page.locator("svg#board").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= viewport["width"] + 0.5
        page.goto(f"{server.url}/sim")
        sim = site_boxes(page, "svg#board g.site")
        assert len(sim) == len(table.profile.sites)
        assert overlapping(sim) == [], f"/sim, {viewport}"
        page.close()


def test_a_piece_on_the_table_shows_as_its_picture(game: Game[Any], browser,  # noqa: F811
                                                   served) -> None:
    table, server = served
    piece, site = a_piece_and_a_site(game, table)
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{server.url}/sim")
    page.wait_for_selector("#box .tile svg.piece-icon")
    reply = page.request.post(f"{server.url}/sim/api/put", data={"piece": piece, "site": site})
    assert reply.ok, reply.text()
    on_sim = f"svg#board g.piece[data-site='{site}'] g.picture"
    page.wait_for_selector(on_sim)
    assert page.locator(on_sim).first.get_attribute("data-piece") == piece
    assert page.locator(f"{on_sim} title").first.text_content().strip()  # its name, for people

    page.goto(server.url)
    on_status = f"svg#board g.site[data-site='{site}'] g.picture"
    page.wait_for_selector(on_status)
    shown = page.locator(on_status).first.get_attribute("data-piece")
    assert shown in (piece, FACE_DOWN)  # a face-down site shows only that something lies there
    art = page.request.get(f"{server.url}/api/art").json()
    assert shown in art["pieces"]
    page.close()
