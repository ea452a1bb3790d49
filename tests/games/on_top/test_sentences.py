"""On Top tells every step, event, score line and result in the box's words, in German too."""

from __future__ import annotations

import random

import pytest

from games.core.errors import BadSetup
from games.core.playout import random_playout
from games.core.scoresheet import ScoreSheet
from games.on_top import GAME
from games.on_top.engine import OnTop
from games.on_top.state import OnTopState

from ..core.sentence_check import german, play_and_read, refusal

GERMAN = german(GAME)
PHASES = {"setup", "draw", "place", "fill", "tower", "over"}


@pytest.mark.parametrize(("players", "options"), [
    (("anna", "ben"), {}),
    (("anna", "ben", "cleo"), {"neutral": "off"}),
    (("anna", "ben", "cleo", "dora"), {"partners": "on"}),
    (("anna", "ben"), {"sudden_win": "last_stone"}),
])
def test_every_phase_is_told_and_translated(players: tuple[str, ...],
                                            options: dict[str, str]) -> None:
    seen = play_and_read(GAME, players, options, seeds=range(2))
    assert seen.phases == PHASES


def test_a_turn_in_german() -> None:
    state = GAME.apply(GAME.initial(["anna", "ben"]), "start")
    assert GERMAN.text(GAME.describe_step(state)) == (
        "anna: Ziehe eine Raute aus dem Beutel und lege sie auf das Ziehfeld.")
    assert GAME.to_act(state) == 0
    assert GERMAN.text(GAME.action_sentence(state, "draw 07")) == (
        "anna zieht Raute 07 aus dem Beutel.")
    drawn = GAME.apply(state, "draw 07")
    assert str(GAME.describe_step(drawn)) == (
        "anna: lay rhombus 07 from the draw pad on two empty triangles beside a piece on the "
        "board.")
    assert GERMAN.text(GAME.action_sentence(drawn, "place 2:3 1:2")) == (
        "anna legt Raute 07 auf die Dreiecke 2:3 und 1:2.")


def test_score_lines_keep_their_english_and_translate() -> None:
    final = random_playout(GAME, ["anna", "ben"], rng=random.Random(4)).final
    lines = [line for seat in GAME.score(final).lines for line in seat]
    towers = [line for line in lines if line.text.startswith("tower ")]
    assert towers and all(GERMAN.text(line.sentence).startswith("Turm ") for line in towers)
    unplaced = [line for line in lines if "unplaced" in line.text]
    assert all("nicht gesetzte" in GERMAN.text(line.sentence) for line in unplaced)


class FixedTotals(OnTop):
    """On Top with made-up final totals, to read the partners' result."""

    def __init__(self, totals: tuple[int, ...]) -> None:
        super().__init__(GAME.components)
        self.totals = totals

    def score(self, state: OnTopState) -> ScoreSheet:
        return ScoreSheet(state.players, self.totals, ((),) * len(self.totals))


def _final(options: dict[str, str]) -> OnTopState:
    return random_playout(GAME, ["anna", "ben", "cleo", "dora"], options,
                          rng=random.Random(2)).final


@pytest.mark.parametrize(("totals", "english", "german_text"), [
    ((10, 8, 5, 6), "anna and cleo win together as partners with 15 points.",
     "anna und cleo gewinnen gemeinsam als Partner mit 15 Punkten."),
    ((10, 8, 5, 7), "Both teams (anna and cleo; ben and dora) share the win with 15 points "
     "each.",
     "Beide Teams (anna und cleo; ben und dora) gewinnen gemeinsam mit je 15 Punkten."),
])
def test_partners_win_together_with_their_added_points(totals: tuple[int, ...], english: str,
                                                      german_text: str) -> None:
    game = FixedTotals(totals)
    result = game.describe_result(_final({"partners": "on"}))
    assert (str(result), GERMAN.text(result)) == (english, german_text)


def test_the_last_stone_placed_first_is_told() -> None:
    final = _final({"sudden_win": "last_stone"})
    emptied = final._replace(stones_left=(3, 0, 5, 2))
    assert str(GAME.describe_result(emptied)) == "ben wins by placing the last stone first."
    assert GERMAN.text(GAME.describe_result(emptied)) == (
        "ben hat als Erste/r alle Steine gesetzt und gewinnt.")
    both = final._replace(stones_left=(0, 0, 5, 2))
    assert str(GAME.describe_result(both)) == (
        "anna and ben share the win: they placed their last stones at the same time.")


def test_refusals_are_told_in_german() -> None:
    drawing = GAME.apply(GAME.initial(["anna", "ben"]), "start")
    english, told = refusal(GAME, drawing, "place 2:3 1:2")
    assert english.startswith("not now: anna: draw a rhombus")
    assert told.startswith("Jetzt nicht: anna: Ziehe eine Raute")
    drawn = GAME.apply(drawing, "draw 07")
    assert refusal(GAME, drawn, "draw 08")[1].startswith("Jetzt nicht: anna: ")
    assert refusal(GAME, drawn, "place 0:0 0:1")[1].startswith(
        "0:0 0:1: Eine Raute muss mit einer Seite an ein Teil grenzen")
    covered = GAME.apply(GAME.apply(drawn, "place 2:3 1:2"), "draw 01")
    assert refusal(GAME, covered, "place 2:3 2:2") == (
        "triangle 2:3 is already covered", "Dreieck 2:3 ist schon belegt")


def test_a_partner_game_for_two_is_refused_in_german() -> None:
    with pytest.raises(BadSetup) as refused:
        GAME.initial(["anna", "ben"], {"partners": "on"})
    assert refused.value.sentence is not None
    assert GERMAN.text(refused.value.sentence) == "Das Partnerspiel ist für 4 Spieler"
