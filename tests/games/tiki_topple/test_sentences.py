"""Tiki Topple tells every step, event, score line and result in the box's words, in German too."""

from __future__ import annotations

import pytest

from games.tiki_topple.components import load_edition

from ..core.sentence_check import german, play_and_read, refusal
from .helpers import GAME, play, setup

PHASES = {"build", "deal", "aside", "play", "cleanup", "over"}
GERMAN = german(GAME)


@pytest.mark.parametrize(("players", "edition"), [
    (("anna", "ben"), "schmidt"),
    (("anna", "ben", "cleo", "dora"), "schmidt"),
    (("anna", "ben", "cleo"), "gamewright"),
])
def test_every_phase_is_told_and_translated(players: tuple[str, ...], edition: str) -> None:
    seen = play_and_read(GAME, players, {"edition": edition}, seeds=range(3))
    expected = PHASES if edition == "schmidt" else PHASES - {"aside"}
    assert seen.phases == expected
    assert len(seen.results) == 3


def test_the_start_player_builds_and_deals() -> None:
    state = GAME.initial(["anna", "ben", "cleo"])
    assert GAME.to_act(state) == 0
    assert str(GAME.describe_step(state)).startswith("anna: sort the nine tikis")
    state = GAME.apply(state, "build nani wikiwiki huhu nui lokahi akamai eepo hookipa kapu")
    assert str(GAME.describe_step(state)).startswith("anna: shuffle the mission cards")
    state = GAME.apply(state, "mission 3")
    assert str(GAME.describe_step(state)) == "anna: deal ben a mission card, face down."
    assert GERMAN.text(GAME.describe_step(state)) == "anna: Gib ben verdeckt eine Auftragskarte."
    assert GAME.to_act(state) == 0


def test_the_setting_aside_and_the_card_play_name_the_player() -> None:
    state = GAME.initial(["anna", "ben"])
    state = GAME.apply(state, "build nani wikiwiki huhu nui lokahi akamai eepo hookipa kapu")
    state = GAME.apply(GAME.apply(state, "mission 1"), "mission 2")
    assert GERMAN.text(GAME.describe_step(state)) == (
        "anna: Mische deine Aktionskarten und lege 2 davon verdeckt und unbesehen als deinen "
        "Ablagestapel beiseite.")
    state = setup()
    assert str(GAME.describe_step(state)) == (
        "anna: play an action card onto the play pad and move a tiki on the stack as the card "
        "says.")


@pytest.mark.parametrize(("action", "english", "german_text"), [
    ("up2 lokahi", "anna plays Tiki Up 2: lokahi moves up 2 places.",
     "anna spielt Tiki Up 2: Lokahi rückt 2 Plätze nach oben."),
    ("up1 nui", "anna plays Tiki Up 1: nui moves up 1 place.",
     "anna spielt Tiki Up 1: Nui rückt 1 Platz nach oben."),
    ("wiki kapu nani", "anna plays Tiki Wiki: kapu and nani swap places.",
     "anna spielt Tiki Wiki: Kapu und Nani tauschen die Plätze."),
    ("topple nani", "anna plays Tiki Topple: nani goes to the bottom of the stack.",
     "anna spielt Tiki Topple: Nani kommt ans untere Ende des Stamms."),
    ("puh nani", "anna plays Tiki Puh: nani moves down 2 places.",
     "anna spielt Tiki Puh: Nani rückt 2 Plätze nach unten."),
])
def test_a_card_play_is_told_with_card_and_tiki(action: str, english: str,
                                                german_text: str) -> None:
    state = setup()
    sentence = GAME.action_sentence(state, action)
    assert (str(sentence), GERMAN.text(sentence)) == (english, german_text)


def test_toast_names_the_bottom_tiki_and_a_deal_names_no_card() -> None:
    state = setup()._replace(played=(("up1",), ()))
    assert str(GAME.action_sentence(state, "toast")) == (
        "anna plays Tiki Toast: kapu at the bottom leaves the stack for this round.")
    dealing = GAME.apply(GAME.initial(["anna", "ben"]),
                         "build nani wikiwiki huhu nui lokahi akamai eepo hookipa kapu")
    told = {str(GAME.action_sentence(dealing, f"mission {n}")) for n in (1, 2, 27)}
    assert told == {"anna is dealt a mission card, face down."}


def test_score_lines_read_as_before_in_english_and_translate() -> None:
    edition = load_edition("schmidt")
    number = next(m.number for m in edition.missions if m.tikis[0] == "nani")
    state = setup(missions=[number, 27])
    state = state._replace(hands=(("up1",), ()), played=(("wiki",), ("wiki",)))
    state = play(state, "up1 wikiwiki")  # stack: wikiwiki nani huhu ...: the round is scored
    line = GAME.score(state).lines[0][0]
    assert line.text.startswith("round 1: nani at 2 (needs top 1): 0, ")
    assert GERMAN.text(line.sentence).startswith(
        "Durchgang 1: Nani auf Platz 2 (höchstens Platz 1): 0, ")
    assert str(GAME.describe_step(state)).startswith("ben: round 1 is scored.")


def test_a_tie_is_a_shared_win() -> None:
    """The sheet: at a tie there are several winners; the result says they share it."""
    state = setup()._replace(phase="over", totals=(12, 12))
    result = GAME.describe_result(state)
    assert str(result) == "anna and ben share the win with 12 points each."
    assert GERMAN.text(result) == "anna und ben gewinnen gemeinsam mit je 12 Punkten."


def test_refusals_are_told_in_german() -> None:
    state = setup()
    assert refusal(GAME, state, "topple kapu") == (
        "topple can't be played on the bottom tiki",
        "Tiki Topple kann nicht auf das unterste Tiki gespielt werden")
    assert refusal(GAME, state, "up1 nani")[1] == (
        "up1 muss ein Tiki ganz um 1 nach oben rücken, es steht aber auf Platz 1")
    toasted = play(state, "up1 wikiwiki", "wiki huhu nani", "toast", "up1 huhu")
    assert refusal(GAME, toasted, "up2 kapu") == (
        "kapu is no longer on the stack (toasted)", "Kapu steht nicht mehr im Stamm (getoastet)")
    assert refusal(GAME, state, "mission 3") == (
        "it is anna's turn to play a card", "anna ist dran und muss eine Karte spielen")
    assert refusal(GAME, GAME.initial(["anna", "ben"]), "mission 1")[1] == (
        "Zuerst muss der Tiki-Stamm aufgebaut werden")
