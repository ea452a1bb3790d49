"""The board on a phone: the big boards' places are too small to see or tap at 390 px (WCAG
2.2 asks 24 × 24 CSS px for a target), so the status page zooms and pans the board (buttons,
pinch, a finger's drag), and a tapped place says its name and what lies on it; real Chromium."""

from __future__ import annotations

import pytest

from .finish import simulated

PHONE = {"width": 390, "height": 844}
TARGET_PX = 24

SMALLEST_CELL = """() => Math.min(...[...document.querySelectorAll('#board .site .cell')].map(
    (cell) => { const r = cell.getBoundingClientRect(); return Math.min(r.width, r.height); }))"""

CELL_BOX = """(site) => {
    const r = document.querySelector(`#board .site[data-site="${site}"] .cell`)
      .getBoundingClientRect();
    const b = document.getElementById('board').getBoundingClientRect();
    const across = r.left >= b.left - 0.5 && r.right <= b.right + 0.5;
    const down = r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
    return {x: r.x + r.width / 2, y: r.y + r.height / 2, in_x: across, in_y: down,
            inside: across && down};
}"""


@pytest.fixture(params=["hanging_gardens", "on_top"])
def served(request, tmp_path):
    yield from simulated(request.param, tmp_path)


def test_every_place_can_be_zoomed_to_a_thumbs_size_and_tapped_for_its_name(
        browser, served) -> None:
    _, _, server = served
    page = browser.new_page(viewport=PHONE)
    page.goto(server.url)
    page.wait_for_function("document.querySelectorAll('#board .site').length > 20")
    assert page.evaluate(SMALLEST_CELL) < TARGET_PX  # the reason for all this
    assert page.locator("#zoom .pan").is_hidden()  # nothing to move while it is whole
    for _ in range(8):
        if page.evaluate(SMALLEST_CELL) >= TARGET_PX:
            break
        page.click("#zoom button[data-zoom='in']")
    assert page.evaluate(SMALLEST_CELL) >= TARGET_PX
    assert page.locator("#zoom").get_attribute("data-zoomed") == "yes"

    # Every place can be brought into view: after moving as far as the buttons go each way,
    # the place farthest that way is in view along that way.
    ids = page.evaluate("[...document.querySelectorAll('#board .site')].map((s) => s.dataset.site)")
    boxes = {site: page.evaluate(CELL_BOX, site) for site in ids}
    hidden = [site for site, box in boxes.items() if not box["inside"]]
    assert hidden  # zoomed in, part of the board is out of view
    for direction, (axis, far) in {"left": ("x", min), "up": ("y", min),
                                   "right": ("x", max), "down": ("y", max)}.items():
        for _ in range(30):
            before = page.get_attribute("#board", "viewBox")
            page.click(f"#zoom button[data-zoom='{direction}']")
            if page.get_attribute("#board", "viewBox") == before:
                break
        boxes = {site: page.evaluate(CELL_BOX, site) for site in ids}
        edge = far(boxes, key=lambda site: boxes[site][axis])
        assert boxes[edge][f"in_{axis}"], (direction, edge)

    # A tap on a place says which place it is, in the words of its title.
    site = next(site for site, box in boxes.items() if box["inside"])
    box = boxes[site]
    title = page.evaluate(
        "(site) => document.querySelector(`#board .site[data-site=\"${site}\"] title`)"
        ".textContent", site)
    page.mouse.click(box["x"], box["y"])
    page.wait_for_function("!document.getElementById('siteInfo').hidden")
    assert page.locator("#siteInfo").inner_text() == title
    assert page.locator("#siteHint").is_hidden()

    page.click("#zoom button[data-zoom='fit']")
    assert page.evaluate(SMALLEST_CELL) < TARGET_PX
    assert page.locator("#zoom").get_attribute("data-zoomed") == "no"
    page.close()
