"""The new-game form names each game's options and choices in the reader's language."""

from __future__ import annotations

import random

import pytest
from gpiozero.pins.mock import MockFactory

from controller.compose import build_service, load_board
from controller.language import catalogue
from controller.service import option_msgids
from games.registry import all_games
from hardware.leds import RecordingStrip


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_every_option_and_choice_has_its_german(game) -> None:
    german = catalogue("de", game)
    for spec in game.options:
        for word, msgid in option_msgids(spec.name, spec.choices).items():
            said = german.gettext(msgid)
            assert said and said != msgid, f"{game.id}: {word!r} has no German ({msgid!r})"


def test_the_form_gets_the_ids_and_their_names(tmp_path) -> None:
    profile = load_board("topiary")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, _ = build_service(profile, tmp_path, urls=[str(tmp_path / f"hub{n}")
                                                        for n in range(len(profile.hubs))],
                               strip=strip, pin_factory=MockFactory(), rng=random.Random(1))
    english, german = service.games("en")[0], service.games("de")[0]
    assert english.options == german.options == {"draft": ["off", "on"], "take": ["must", "may"]}
    assert english.labels == {word: word for word in ("draft", "off", "on", "take", "must",
                                                      "may")}
    assert german.labels["take"] == "Plättchen nehmen" and german.labels["may"] == "darf"
    assert german.labels["on"] == "an"
    assert english.help["take"].startswith("must: after placing a visitor the player takes")
    assert german.help["take"].startswith("muss: nach dem Setzen eines Besuchers nimmt")
    assert set(german.help) == {"draft", "take"}
