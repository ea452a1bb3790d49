"""Trapper tells every step, event, score line and result in the box's words, in German too."""

from __future__ import annotations

import pytest

from games.core.errors import IllegalAction
from games.trapper import GAME
from games.trapper.display import Display, Sold
from games.trapper.state import EMPTY

from ..core.sentence_check import german, play_and_read
from .helpers import canoe, tile, turn_state

GERMAN = german(GAME)
EVERY_PHASE = {"setup", "lay", "deal", "turn", "draw", "over"}


@pytest.mark.parametrize(("players", "options"), [
    (("anna", "ben"), {}),
    (("anna", "ben", "cleo"), {"placement": "choose"}),
    (("anna", "ben", "cleo", "dora"), {"reading": "revision1", "values": "first_guess"}),
])
def test_every_phase_is_told_and_translated(players: tuple[str, ...],
                                            options: dict[str, str]) -> None:
    seen = play_and_read(GAME, players, options, seeds=range(2))
    assert seen.phases == EVERY_PHASE
    assert len(seen.results) == 2


def test_the_start_player_sets_up_and_lays_the_landscape() -> None:
    state = GAME.initial(["anna", "ben"])
    assert GAME.to_act(state) == 0
    assert GERMAN.text(GAME.describe_step(state)) == (
        "anna: Lege die Bonus-Chips und die Chips „die meisten Tierarten“ in die Bank und "
        "stelle die vier Trapper auf die vier Felder in der Mitte.")
    state = GAME.apply(state, "setup")
    assert (GAME.to_act(state), str(GAME.describe_step(state))) == (
        0, "anna: lay the next prey tile face down on square 0:0.")
    while GAME.describe_step(state).template.endswith("face down on square {square}."):
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    step = GAME.describe_step(state)
    assert str(step) == ("anna: lay the next prey tile face up on square 2:3, next to a "
                         "trapper, its butterfly towards the butterfly corner.")
    assert GERMAN.text(step) == ("anna: Lege das nächste Beuteplättchen offen auf Feld 2:3 "
                                 "neben einen Trapper, den Schmetterling zum Winkel mit dem "
                                 "Schmetterling.")


def test_a_turn_is_told_before_and_after_a_move() -> None:
    state = turn_state({"2:3": "bear-2a", "2:4": "canoe-bear-2"})
    start = GAME.describe_step(state)
    assert str(start).startswith("p1: play a trapper card onto the play pad and move the "
                                 "trapper of its colour onto a face-up prey tile next to it")
    assert GERMAN.text(start).endswith("oder passe und zieh 2 Karten.")
    moved = GAME.apply(state, "red 2:3")
    step = GAME.describe_step(moved)
    assert str(step) == ("p1: move the red trapper again with another card onto the play pad, "
                         "or end your turn and draw 2 cards.")
    assert GERMAN.text(step) == ("p1: Spiele eine weitere Karte auf das Ausspielfeld und "
                                 "bewege den roten Trapper noch einmal, oder beende deinen Zug "
                                 "und zieh 2 Karten.")


def test_the_turn_step_tells_nothing_of_the_hand() -> None:
    """Everyone reads the headline: whether p1 can pay is p1's secret."""
    broke = turn_state({"2:3": "bear-2a"}, hands=((0, 0, 0, 0), (4, 4, 4, 4)))
    rich = turn_state({"2:3": "bear-2a"}, hands=((4, 4, 4, 4), (4, 4, 4, 4)))
    assert GAME.describe_step(broke) == GAME.describe_step(rich)
    dry = broke._replace(draw=(0, 0, 0, 0), discard=(0, 0, 0, 0))
    assert str(GAME.describe_step(dry)).endswith(
        "or, with no card left to draw, end the game for yourself.")


def test_a_species_chip_on_offer_is_mentioned() -> None:
    sold = Display(sold=(Sold(tile("canoe-bear-1"), (tile("bear-4"),), 8),))
    state = turn_state({"2:3": "bear-2a"}, displays=(sold, Display()))
    step = GAME.describe_step(state)
    assert str(step).endswith(" You may also trade sold loads for a species chip.")
    assert GERMAN.text(step).endswith(" Du darfst auch Beute gewerteter Kanus gegen einen Chip "
                                      "„die meisten Tierarten“ tauschen.")


def test_events_name_cards_trapper_and_tile_but_no_dealt_card() -> None:
    state = turn_state({"2:3": "bear-2a", "3:2": "wolf-4"}, hands=((1, 0, 2, 0), (4, 4, 4, 4)))
    paid = GAME.action_sentence(state, "red 2:3 joker yellow")
    assert str(paid) == ("p1 plays two yellow cards and moves the red trapper to 2:3, taking "
                         "bear-2a.")
    assert GERMAN.text(paid) == ("p1 spielt zwei gelbe Karten, zieht den roten Trapper auf Feld "
                                 "2:3 und nimmt Bär-2a.")
    drawing = state._replace(phase="draw", draws_left=2)
    colours = GAME.components.colours
    assert {str(GAME.action_sentence(drawing, f"draw {colour}")) for colour in colours} == {
        "p1 draws a trapper card."}


def test_score_lines_keep_their_english_and_read_in_german() -> None:
    display = Display(canoes=(canoe("canoe-lynx-2", "lynx-4", herb="herb-3"),
                              canoe("canoe-mink-3")),
                      loose=(tile("bear-2a"),),
                      sold=(Sold(tile("canoe-wolf-2"), (tile("wolf-3"), tile("wolf-4"),
                                                        tile("mushroom-3")), 26),))
    state = turn_state({"2:3": "bear-2b"}, displays=(display, Display()))._replace(
        phase="over", sales=((display.sold[0],), ()), bonus=(EMPTY,) * 5 + (0,) + (EMPTY,) * 5)
    lines = GAME.score(state).lines[0]
    assert [line.text for line in lines] == [
        "sold canoe-wolf-2 (wolf-3, wolf-4, mushroom-3): 2 x 13 = 26",
        "unfinished canoe-lynx-2 (lynx-4, herb-3): +10",
        "empty canoe-mink-3: -3 (capacity)",
        "loose bear-2a: -2 (value)",
        "bonus chip 26: 1st highest, +12",
    ]
    assert [GERMAN.text(line.sentence) for line in lines] == [
        "Kanu-Wolf-2 gewertet (Wolf-3, Wolf-4, Pilz-3): 2 x 13 = 26",
        "unfertiges Kanu-Luchs-2 (Luchs-4, Kräuter-3): +10",
        "leeres Kanu-Nerz-3: -3 (Tierzahl)",
        "einzelnes Plättchen Bär-2a: -2 (Wert)",
        "Bonus-Chip 26: der höchste, +12",
    ]


def test_the_result_says_a_tie_is_shared() -> None:
    state = turn_state({"2:3": "bear-2b"})._replace(phase="over")
    result = GAME.describe_result(state)
    assert str(result) == "p1 and p2 share the win with 0 money each: the rules break no tie."
    assert GERMAN.text(result) == ("p1 und p2 gewinnen gemeinsam mit je 0 Geld: Die Regeln "
                                   "kennen keinen Stichentscheid.")
    sold = (Sold(tile("canoe-bear-1"), (tile("bear-4"),), 8),)
    won = state._replace(sales=((), sold))
    assert GERMAN.text(GAME.describe_result(won)) == "p2 gewinnt mit dem meisten Geld: 8."


def test_a_refusal_reads_in_german() -> None:
    state = turn_state({"2:3": "bear-2a", "2:5": "wolf-4"}, hands=((1, 0, 0, 0), (4, 4, 4, 4)))
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, "red 2:5")
    assert refused.value.sentence is not None
    assert str(refused.value) == ("2:5 is not next to the red trapper (it may jump only when it "
                                  "can take no tile next to it)")
    assert GERMAN.text(refused.value.sentence) == (
        "2:5 grenzt nicht an den roten Trapper (springen darf er nur, wenn er kein "
        "Nachbarplättchen nehmen kann)")
    with pytest.raises(IllegalAction) as paid:
        GAME.apply(state, "red 2:3 joker blue")
    assert GERMAN.text(paid.value.sentence) == (
        "Du brauchst zwei blaue Karten, um den roten Trapper zu bezahlen")
