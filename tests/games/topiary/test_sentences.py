"""Topiary tells every step, event, score line and result in the box's words, in German too."""

from __future__ import annotations

import random

import pytest

from games.core.playout import random_playout
from games.core.scoresheet import ScoreSheet
from games.topiary import GAME
from games.topiary.engine import Topiary
from games.topiary.scoring import Scoring
from games.topiary.state import TopiaryState

from ..core.sentence_check import german, play_and_read, refusal

GERMAN = german(GAME)
SETUP = {"lay", "deal", "collect", "visitor", "take", "place", "over"}


@pytest.mark.parametrize(("players", "options", "phases"), [
    (("anna", "ben"), {}, SETUP | {"remove"}),
    (("anna", "ben", "cleo", "dora"), {}, SETUP),
    (("anna", "ben", "cleo"), {"draft": "on", "take": "may"},
     SETUP | {"remove", "draft", "receive", "return"}),
])
def test_every_phase_is_told_and_translated(players: tuple[str, ...], options: dict[str, str],
                                            phases: set[str]) -> None:
    seen = play_and_read(GAME, players, options, seeds=range(2))
    assert seen.phases == phases


def test_the_layout_names_the_start_player_and_the_square() -> None:
    state = GAME.apply(GAME.initial(["anna", "ben"]), "remove whale")
    step = GAME.describe_step(state)
    assert GAME.to_act(state) == 0
    assert str(step) == "anna: lay a face-down tile on square 0:0."
    assert GERMAN.text(step) == "anna: Lege ein verdecktes Plättchen auf Feld 0:0."
    for _ in range(12):
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    centre = GAME.describe_step(state)
    assert str(centre) == "anna: lay a tile face up on square 2:2, the centre of the garden."
    assert str(GAME.action_sentence(state, "lay 2:2 swan 4")) == (
        "swan 4 lies face up on square 2:2, the centre of the garden.")
    assert GERMAN.text(GAME.action_sentence(state, "lay 2:2 swan 4")) == (
        "Schwan 4 liegt offen auf Feld 2:2, der Mitte des Gartens.")


def test_a_turn_is_told_step_by_step_in_german() -> None:
    final = random_playout(GAME, ["anna", "ben"], rng=random.Random(5)).final
    turn = final._replace(phase="visitor", seat=0, visitors=final.visitors[:3])
    assert GERMAN.text(GAME.describe_step(turn)).startswith(
        "anna: Stelle einen deiner Besucher (noch 6) an den Rand des Gartens")
    assert GERMAN.text(GAME.action_sentence(turn, "visitor 0:0:SE")) == (
        "anna stellt einen Besucher an Feld 0:0, Blick nach Südosten.")
    looking = turn._replace(phase="take", visitors=(*turn.visitors, (_spot("0:0:SE"), 0)))
    assert str(GAME.describe_step(looking)) == (
        "anna: take a face-down tile from the diagonal from square 0:0 towards the south-east "
        "into your hand.")
    assert GERMAN.text(GAME.describe_step(looking)) == (
        "anna: Nimm ein verdecktes Plättchen aus der Diagonale von Feld 0:0 nach Südosten "
        "auf die Hand.")
    across = looking._replace(visitors=(*turn.visitors, (_spot("3:0:E"), 0)))
    assert GERMAN.text(GAME.describe_step(across)) == (
        "anna: Nimm ein verdecktes Plättchen aus Reihe 3 auf die Hand.")
    gap = looking._replace(phase="place", gap=7)
    assert GERMAN.text(GAME.describe_step(gap)) == (
        "anna: Lege ein Plättchen aus deiner Hand offen in die Lücke auf Feld 1:2.")
    assert GERMAN.text(GAME.action_sentence(gap, "place 1:2 trex 5")) == (
        "anna legt T-Rex 5 offen auf Feld 1:2.")


def test_events_name_no_tile_dealt_or_laid_face_down() -> None:
    state = GAME.apply(GAME.initial(["anna", "ben"]), "remove whale")
    laid = {str(GAME.action_sentence(state, action)) for action in GAME.legal_actions(state)}
    assert laid == {"A face-down tile lies on square 0:0."}


def test_score_lines_keep_their_english_and_translate() -> None:
    final = random_playout(GAME, ["anna", "ben"], rng=random.Random(5)).final
    for lines in GAME.score(final).lines:
        for line in lines:
            german_line = GERMAN.text(line.sentence)
            assert german_line.startswith(("Besucher ", "Hand ")), german_line
            assert line.text.startswith(("spot ", "hand ")), line.text


def _spot(name: str) -> int:
    return next(index for index, spot in enumerate(GAME.spots) if spot.name == name)


class FixedScores(Topiary):
    """Topiary with made-up final totals and hand-tile points, to read the tie-breaks."""

    def __init__(self, totals: tuple[int, ...], hand: tuple[int, ...]) -> None:
        super().__init__(GAME.components)
        self.fixed = Scoring(ScoreSheet(("anna", "ben", "cleo"), totals, ((), (), ())), hand)

    def scoring(self, state: TopiaryState) -> Scoring:
        return self.fixed


def _final_of_three() -> TopiaryState:
    """A finished three-player game whose last visitor is cleo's."""
    final = random_playout(GAME, ["anna", "ben", "cleo"], rng=random.Random(11)).final
    assert final.visitors[-1][1] == 2
    return final


@pytest.mark.parametrize(("totals", "hand", "english", "german_text"), [
    ((30, 30, 12), (4, 6, 0),
     "ben wins the tie with anna at 30 points by scoring more from hand tiles (6).",
     "ben gewinnt den Gleichstand mit anna bei 30 Punkten durch mehr Punkte aus "
     "Hand-Plättchen (6)."),
    ((30, 30, 30), (6, 6, 2),
     "ben wins the tie with anna at 30 points and 6 from hand tiles by having moved last.",
     "ben gewinnt den Gleichstand mit anna bei 30 Punkten und 6 aus Hand-Plättchen, weil ben "
     "zuletzt gezogen hat."),
    ((30, 30, 30), (5, 5, 5),
     "cleo wins the tie with anna and ben at 30 points and 5 from hand tiles by having moved "
     "last.",
     "cleo gewinnt den Gleichstand mit anna und ben bei 30 Punkten und 5 aus Hand-Plättchen, "
     "weil cleo zuletzt gezogen hat."),
    ((31, 30, 12), (0, 6, 0), "anna wins with 31 points.", "anna gewinnt mit 31 Punkten."),
])
def test_the_result_explains_the_tie_break(totals: tuple[int, ...], hand: tuple[int, ...],
                                           english: str, german_text: str) -> None:
    """The sheet: at a tie more hand-tile points win, then the tied player who moved last."""
    game = FixedScores(totals, hand)
    result = game.describe_result(_final_of_three())
    assert (str(result), GERMAN.text(result)) == (english, german_text)


def test_refusals_are_told_in_german() -> None:
    laying = GAME.apply(GAME.initial(["anna", "ben"]), "remove whale")
    english, told = refusal(GAME, laying, "visitor 0:2:S")
    assert english == "not now: anna: lay a face-down tile on square 0:0."
    assert told.startswith("Jetzt nicht: anna: ") and told.endswith("Feld 0:0.")
    assert refusal(GAME, laying, "lay 0:0 whale 1") == (
        "whale 1 is not in the supply any more", "Wal 1 ist nicht mehr im Vorrat")
    english, told = refusal(GAME, laying, "lay 3:3 swan 1")
    assert english.endswith("the next tile goes on 0:0, not 3:3")
    assert told.endswith("Das nächste Plättchen kommt auf 0:0, nicht auf 3:3")
