"""The pages' language in real Chromium: the browser's language first, the switch (a cookie)
over it, texts and the live status both following without a reload."""

from __future__ import annotations

import json
import random

import pytest
from gpiozero.pins.mock import MockFactory

from controller.compose import build_service, load_board
from controller.language import catalogue
from controller.web import create_app
from hardware.leds import RecordingStrip

from .served import Served


@pytest.fixture
def table(tmp_path):
    profile = load_board("tiki_topple")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, _ = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")], strip=strip,
                               pin_factory=MockFactory(), rng=random.Random(1))
    served = Served(create_app(service, "language-token"))
    served.call(lambda: service.new_game(["anna", "ben"]))
    yield service, served
    served.stop()


def english_shown(text: str, messages: dict[str, str]) -> list[str]:
    """The English sentences (three words or more, no fields, German different) in ``text``."""
    return [msgid for msgid, german in messages.items()
            if "{" not in msgid and len(msgid.split()) >= 3 and german != msgid
            and msgid in text]


def test_the_switch_changes_texts_and_the_live_status(browser, table) -> None:
    service, served = table
    game = service.table.game
    german, step = catalogue("de", game), game.describe_step(service.table.state)
    assert german.text(step) != str(step)
    context = browser.new_context(locale="de-DE")  # Accept-Language: de-DE
    page = context.new_page()
    page.goto(served.url)
    page.wait_for_function("window.I18n && document.documentElement.lang === 'de'")
    heading = page.locator("h2[data-i18n]", has_text=german.gettext("Last events"))
    assert heading.count() == 1
    page.wait_for_function(f"document.body.innerText.includes({json.dumps(german.text(step))})")
    assert page.evaluate("t('game aborted')") == "Spiel abgebrochen"
    edition = next(spec for spec in game.options if spec.name == "edition")
    assert german.gettext(edition.help) != edition.help  # the form explains it in German
    page.wait_for_function("document.getElementById('options').textContent.includes("
                           f"{json.dumps(german.gettext(edition.help))})")
    assert not english_shown(page.inner_text("body"), german.messages())

    page.locator("select.language-switch").first.select_option("en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "lang=en" in page.evaluate("document.cookie")
    page.wait_for_function(f"document.body.innerText.includes({json.dumps(str(step))})")
    assert page.locator("h2[data-i18n]", has_text="Last events").count() == 1
    assert english_shown(page.inner_text("body"), german.messages())  # the check can see it

    page.reload()  # the cookie outweighs the browser's German
    page.wait_for_function("window.I18n && document.documentElement.lang === 'en'")
    assert page.locator("select.language-switch").first.input_value() == "en"
    context.close()


def test_the_simulator_page_speaks_the_browsers_language(browser, tmp_path) -> None:
    from controller.cli.virtual.table import virtual_service
    from simulator.page import simulator_router

    table, service = virtual_service("topiary", tmp_path, settle_ms=60)
    app = create_app(service, "language-token")
    app.include_router(simulator_router(table, "/"))
    served = Served(app, background=service.run)
    try:
        context = browser.new_context(locale="de-DE")
        page = context.new_page()
        page.goto(served.url + "/sim")
        page.wait_for_function("window.I18n && document.documentElement.lang === 'de'")
        assert page.locator("h2", has_text="Die Schachtel").count() == 1
        assert page.locator("svg#board").get_attribute("aria-label") == "der virtuelle Tisch"
        whale = "#box .tile[data-piece='topiary:whale:1']"
        page.wait_for_function(  # the box's pictures are named as the German box prints them
            f"document.querySelector({json.dumps(whale)})?.title.startsWith('Wal 1')")
        assert page.locator("#box h3", has_text="Besucher").count() == 1
        assert page.locator("#box h3", has_text="visitors").count() == 0
        page.locator("select.language-switch").first.select_option("en")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert page.locator("h2", has_text="The box").count() == 1
        page.wait_for_function(  # the art is asked again in the new language
            f"document.querySelector({json.dumps(whale)})?.title.startsWith('whale 1')")
        assert page.locator("#box h3", has_text="visitors").count() == 1
        context.close()
    finally:
        served.stop()
        table.close()
