"""A whole game of every game, played by autoplay bots on the realistic virtual table and watched
on the status page in real Chromium: in English on a desktop and in German on a phone, the
headline says who does what at every step, the German page never shows an English sentence, and
the game ends on a game-over screen. With UPDATE_SCREENSHOTS=1 the pictures go into docs/."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from controller.cli.virtual.settling import settled
from controller.cli.virtual.table import HEADLESS_SETTLE_MS, virtual_service
from controller.web import create_app
from games.registry import all_games
from simulator.autoplay import AutoplayBot

from .served import Served

TOKEN = "step-sentences-token"
PLAYERS = ("anna", "ben")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

RECORD_HEADLINES = """
window.__headlines = [];
new MutationObserver(() => {
  const headline = document.getElementById("step");
  if (!headline || headline.dataset.moves === undefined) return;
  const seen = window.__headlines, text = headline.textContent.trim();
  const last = seen[seen.length - 1];
  if (!last || last.text !== text || last.moves !== headline.dataset.moves)
    seen.push({text, moves: headline.dataset.moves});
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""
"""Every headline the page showed, with the move count it showed it for (``data-moves``)."""

ENGLISH = frozenset(("the", "and", "of", "to", "is", "are", "your", "you", "with", "from",
    "into", "onto", "back", "lay", "put", "take", "play", "press", "wins", "win", "points",
    "turn", "waiting", "board", "piece", "pieces", "tile", "tiles", "card", "cards", "move",
    "player", "players", "game", "step", "connected", "legal", "confirm", "undo", "hint",
    "choose", "draw", "face", "down", "each"))
"""Words a German sentence does not use (German shares "in", "an", "was", "will", "die")."""


def english_words(text: str, allowed: set[str]) -> set[str]:
    return {word for word in re.findall(r"[a-zäöüß]+", text.lower())
            if word in ENGLISH and word not in allowed}


def watch(browser, url: str, language: str, viewport: dict[str, int]):
    context = browser.new_context(viewport=viewport, locale=language,
                                  extra_http_headers={"Accept-Language": language})
    page = context.new_page()
    page.add_init_script(RECORD_HEADLINES)
    page.goto(url)
    return page


@pytest.fixture
def table(tmp_path, request):
    game_id = request.param
    table, service = virtual_service(game_id, tmp_path, settle_ms=HEADLESS_SETTLE_MS)
    served = Served(create_app(service, TOKEN), background=service.run)
    asyncio.run_coroutine_threadsafe(service.wait_connected(10), served.loop).result(15)
    served.call(lambda: service.new_game(list(PLAYERS), {}, None, "players"))
    yield game_id, table, service, served
    served.stop()
    table.close()


@pytest.mark.parametrize("table", [game.id for game in all_games()], indirect=True)
def test_every_step_is_told_in_english_and_german_to_the_end(browser, table, screenshot) -> None:
    game_id, virtual, service, served = table
    english = watch(browser, served.url, "en", DESKTOP)
    german = watch(browser, served.url, "de", PHONE)
    for page in (english, german):
        page.wait_for_function("window.__headlines.length > 0")

    digital = service.table.dealer == "digital"  # a game may need the table to deal

    async def drawn_by_the_service(index: int) -> str:
        while len(service.table.actions) <= index:
            await asyncio.sleep(0.01)
        return service.table.actions[index]

    bot = AutoplayBot(virtual, PLAYERS, settle=lambda: settled(virtual, service), seed=3,
                      settle_every="action", show_secrets=not digital,
                      hidden_chance=drawn_by_the_service if digital else None,
                      looks_further=lambda: service.table.may_look_further)  # as players do
    game = served.call(lambda: asyncio.ensure_future(bot.play()))
    pictured = False
    deadline = time.monotonic() + 600
    while not game.done():
        assert time.monotonic() < deadline, "the game did not end in 10 minutes"
        if not pictured and len(service.table.actions) >= 12:
            screenshot(english, f"status-{game_id}.png", full_page=True)
            screenshot(german, f"status-{game_id}-phone-de.png", full_page=True)
            pictured = True
        time.sleep(0.2)
    result = game.result()
    assert result.finished, result.summary()

    names = {word for name in (*PLAYERS, service.table.game.name)
             for word in re.findall(r"[a-zäöüß]+", name.lower())}
    status = served.call(service.status)
    assert status.finished, (status.decision, result.summary())
    for page in (english, german):
        page.wait_for_selector("#gameOver:not([hidden])", timeout=15_000)
    for language, page in (("en", english), ("de", german)):
        seen = page.evaluate("window.__headlines")
        assert all(entry["text"] for entry in seen), f"{language}: an empty headline"
        moves = {int(entry["moves"]) for entry in seen}
        assert len(moves) > result.moves // 3, (
            f"{language}: the page followed only {len(moves)} of the steps")
        if language == "de":
            wrong = {entry["text"]: english_words(entry["text"], names) for entry in seen}
            assert not {text: words for text, words in wrong.items() if words}
            assert not english_words(page.locator("body").inner_text(), names)
    screenshot(english, f"game-over-{game_id}.png", full_page=True)
