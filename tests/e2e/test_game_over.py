"""The status page at the end of a game: who won, every score line lit in step with the
table's LED sweep, and a rematch with the same players; in real headless Chromium."""

from __future__ import annotations

import dataclasses
import random

import pytest

from controller.lighting import score_sweep
from tests.playing import play_to_end

from .finish import TOKEN, simulated


@pytest.fixture
def finished(tmp_path, monkeypatch):
    """A game of Tiki Topple played to its end on the simulated table, the table dealing:
    the rematch must keep its players, options and dealer (AI seats: tests/controller)."""
    for found in simulated("tiki_topple", tmp_path, ["anna", "ben", "cleo"],
                           options={"edition": "gamewright"}, dealer="digital"):
        service = found[1]
        service.timing = dataclasses.replace(service.timing, sweep_ms=1000)  # a quicker sweep
        yield found


def test_the_game_over_screen_names_the_winners_and_lights_the_sweeps_lines(
        browser, finished, screenshot) -> None:
    _, service, served = finished
    served.call(lambda: play_to_end(service.table, random.Random(11)))
    status = served.call(service.status)
    assert status.finished and status.winners
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(served.url)
    page.wait_for_selector("#gameOver:not([hidden])")
    result = page.locator("#result").inner_text()
    assert result and all(name in result for name in status.winners)
    assert page.locator("#banner").inner_text() == "Game over"
    # every player's score lines, the winners marked in words, not by colour alone
    for name, lines in status.scores.lines.items():
        card = page.locator(f"#finalScores article[data-player='{name}']")
        assert card.locator("li").all_inner_texts() == lines
        assert (card.locator(".badge").count() == 1) == (name in status.winners)
        assert str(status.scores.scores[name]) in card.locator(".total").inner_text()
    assert page.locator("#finalScores li.swept").count() == 0  # no sweep running yet

    # The table sweeps the final score: the page marks the same line, one at a time, in turn.
    sweep = score_sweep(service.table.game.score(service.table.state))
    assert len(sweep) >= 2
    served.call(service.start_sweep)
    for n, step in enumerate(sweep):
        lit = f"#finalScores article[data-player='{step.player}'] li.swept[data-line='{step.line}']"
        page.wait_for_selector(lit, timeout=5000)
        assert page.locator(lit).inner_text() == step.text
        assert page.locator("#finalScores li.swept").count() == 1
        assert page.locator("#legend li[data-role='score']").get_attribute("class") == "now"
        if n == 1:
            screenshot(page, "game-over.png")
    page.wait_for_function("document.querySelectorAll('#finalScores li.swept').length === 0")

    # Rematch: the same players, options and dealer, a new game from its first step.
    first = status.game_id
    page.fill("#token", TOKEN)
    page.click("#rematch")
    page.wait_for_selector("#gameOver[hidden]", state="attached")
    again = served.call(service.status)
    assert again.game_id != first and not again.finished and again.moves == 0
    assert again.players == ["anna", "ben", "cleo"]
    assert again.options == status.options and again.dealer == "digital"
    page.wait_for_function("document.getElementById('banner').textContent.startsWith('anna')")
    assert page.locator("#reply").inner_text() == "rematch: anna, ben, cleo"
    page.close()


def test_a_rematch_is_refused_on_the_page_while_the_game_is_running(browser, finished) -> None:
    _, service, served = finished
    first = served.call(lambda: service.table.game_id)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(served.url)
    page.wait_for_function("document.getElementById('banner').textContent.startsWith('anna')")
    assert page.locator("#gameOver").is_hidden()  # no rematch offered mid-game
    response = page.evaluate("""async (token) => {
        const r = await fetch('/api/rematch', {method: 'POST',
            headers: {'Authorization': 'Bearer ' + token}});
        return [r.status, (await r.json()).detail];
    }""", TOKEN)
    assert response == [409, "the game is still running: finish it, or abort it first"]
    assert served.call(lambda: service.table.game_id) == first
    page.close()
