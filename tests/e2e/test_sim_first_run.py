"""The first run on /sim in real headless Chromium: "do the next step for me" and the tour.

The simulator and the service run as ``tabletop sim`` composes them (the realistic radio, the
next-step hook wired to the running referee); the page is driven only through what a person
uses: the button, the tour's buttons, the keyboard.
"""

from __future__ import annotations

import re

import pytest

from controller.cli.virtual.sim_next import next_step_for
from controller.cli.virtual.table import virtual_service
from controller.web import create_app
from games.core.game import FACE_DOWN
from games.registry import all_games
from simulator.page import simulator_router

from .served import Served

PRESSES = 6
NEXT = re.compile(r"/sim/api/next(\?|$)")
"""The next-step button's request (it names the page's language in its query)."""


def serve(game_id: str, folder):
    """The game's virtual table (realistic radio) and service, served with the next-step hook."""
    table, service = virtual_service(game_id, folder, settle_ms=60)
    app = create_app(service, "page-test-token")
    app.include_router(simulator_router(table, "/", next_step_for(table, service, seed=3)))
    served = Served(app, background=service.run)
    players = ["anna", "ben", "carl"][:max(2, service.table.game.min_players)]
    served.call(lambda: service.table.new_game(players, {}))
    return table, service, served


def status(page, url: str) -> dict:
    answer = page.request.get(f"{url}/api/status")
    assert answer.ok, answer.text()
    return answer.json()


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_the_next_step_button_moves_the_game_forward(browser, tmp_path, game_id: str) -> None:
    table, _service, server = serve(game_id, tmp_path)
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(f"{server.url}/sim?tour=0")
        button = page.locator("#nextStep")
        button.wait_for(state="visible")
        assert not page.locator("#tour").is_visible()
        moves = status(page, server.url)["moves"]
        for _ in range(PRESSES):
            with page.expect_response(NEXT, timeout=60_000) as answer:
                button.click()
            done = answer.value.json()
            assert answer.value.ok, done
            page.wait_for_function("!document.getElementById('nextStep').disabled")
            said = page.locator("#nextSaid").inner_text()
            assert said == done["message"] and said.strip()
            now = status(page, server.url)
            assert now["moves"] > moves, f"{done['message']} did not move the game on"
            moves = now["moves"]
            # the board changed as the step says: each site's last put lies there now
            board = table.board()
            put = {}
            for step in done["steps"]:
                word, *rest = step.split(" ")
                if word == "put":
                    put[rest[1]] = rest[0]
                elif word == "lift":
                    put.pop(rest[0], None)
            for site, piece in put.items():
                assert piece in board.get(site, "").split(" / "), (step, board.get(site))
                # the referee sees it too (the public status hides a face-down piece's name)
                assert now["observed_board"].get(site) in (board[site], FACE_DOWN)
                # and the page draws it there
                page.wait_for_selector(f"svg#board g.piece[data-site='{site}']"
                                       f"[data-piece='{board[site]}']", timeout=10_000)
            if done["kind"] in ("move", "chance"):
                assert done["steps"], done
            # the headline follows the referee: the step the status names now
            page.wait_for_function("(text) => document.getElementById('step').textContent === text",
                                   arg=status(page, server.url)["step"]["text"], timeout=10_000)
        page.close()
    finally:
        server.stop()
        table.close()


def test_the_tour_shows_once_steps_forward_closes_with_escape_and_stays_closed(
        browser, tmp_path, screenshot) -> None:
    table, _service, server = serve("tiki_topple", tmp_path)
    try:
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page = context.new_page()
        page.goto(f"{server.url}/sim")
        tour = page.locator("#tour")
        tour.wait_for(state="visible")
        assert tour.get_attribute("data-step") == "1"
        assert page.locator("#tableTop.tour-target").count() == 1
        assert page.evaluate("document.activeElement.id") == "tourTitle"
        page.keyboard.press("Tab")  # focus goes on to the tour's own buttons
        assert page.evaluate("document.activeElement.closest('#tour') !== null")
        page.click("#tourNext")
        assert tour.get_attribute("data-step") == "2"
        assert page.locator("#box.tour-target").count() == 1
        assert page.locator("#tableTop.tour-target").count() == 0
        page.click("#tourNext")
        page.click("#tourBack")
        assert tour.get_attribute("data-step") == "2"
        with page.expect_response(NEXT, timeout=60_000):
            page.click("#nextStep")  # the tour leaves the page usable
        page.wait_for_function("!document.getElementById('nextStep').disabled")
        screenshot(page, "simulator-first-run.png")
        page.keyboard.press("Escape")
        tour.wait_for(state="hidden")
        assert page.locator(".tour-target").count() == 0
        assert page.evaluate("document.activeElement.id") == "showTour"
        assert page.evaluate("localStorage.getItem('tabletop.sim.tour')") == "closed"
        page.reload()
        page.locator("#nextStep").wait_for(state="visible")
        page.wait_for_timeout(300)  # the tour would open right after the table was fetched
        assert not tour.is_visible()
        page.click("#showTour")  # brought back by hand, and walked to its end
        tour.wait_for(state="visible")
        for _ in range(4):
            page.click("#tourNext")
        assert tour.get_attribute("data-step") == "5"
        assert page.locator("#nextStep.tour-target").count() == 1
        assert page.locator("#tourNext").inner_text() == "Done"
        page.click("#tourNext")
        tour.wait_for(state="hidden")
        fresh = browser.new_page()  # ?tour=0 starts without it, even on a first visit
        fresh.goto(f"{server.url}/sim?tour=0")
        fresh.locator("#nextStep").wait_for(state="visible")
        fresh.wait_for_timeout(300)
        assert not fresh.locator("#tour").is_visible()
        fresh.close()
        context.close()
    finally:
        server.stop()
        table.close()


def test_the_first_run_speaks_german(browser, tmp_path) -> None:
    table, _service, server = serve("tiki_topple", tmp_path)
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(f"{server.url}/sim?lang=de")
        page.locator("#tour").wait_for(state="visible")
        page.wait_for_function("document.getElementById('tourTitle').textContent === 'Der Tisch'")
        assert page.locator("#tourNext").inner_text() == "Weiter"
        assert page.locator("#nextStep").inner_text() == "Mach den nächsten Schritt für mich"
        assert page.locator("#showTour").inner_text() == "Rundgang zeigen"
        for _ in range(2):  # the stack is built, then anna plays a card
            with page.expect_response(NEXT, timeout=60_000) as answer:
                page.click("#nextStep")
            done = answer.value.json()
            page.wait_for_function("!document.getElementById('nextStep').disabled")
            said = page.locator("#nextSaid").inner_text()
            assert said and said != done["message"], "the answer is told in German"
        assert "hat " in said and "aus der Schachtel genommen" in said, said
        page.close()
    finally:
        server.stop()
        table.close()
