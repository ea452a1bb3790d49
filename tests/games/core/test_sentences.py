"""The shared sentences of the core: results, lists of names, score lines, event sentences."""

from __future__ import annotations

import random

import pytest

from games.core import ScoreLine, ScoreSheet, Sentence, listing
from games.core.playout import random_playout
from games.core.translation import CORE_LOCALE, Catalogue

from .toy_game import HighCard, HighCardState

GERMAN = Catalogue.load("de", [CORE_LOCALE])


def test_listing_joins_names_with_a_translatable_and() -> None:
    assert listing(["anna"]) == "anna"
    assert str(listing(["anna", "ben"])) == "anna and ben"
    three = listing(["anna", "ben", "cleo"])
    assert isinstance(three, Sentence)
    assert (str(three), GERMAN.text(three)) == ("anna, ben and cleo", "anna, ben und cleo")
    with pytest.raises(ValueError):
        listing([])


def test_a_score_line_keeps_its_english_text_and_offers_the_sentence() -> None:
    told = ScoreLine(Sentence("{kind} x{count} = {points}",
                              {"kind": Sentence("queen"), "count": "2", "points": "5"}), 5)
    assert told.text == str(told) == "queen x2 = 5"
    assert told.sentence.template == "{kind} x{count} = {points}"
    plain = ScoreLine("bonus {not a field}", 1)
    assert plain.text == "bonus {not a field}"
    assert str(plain.sentence) == "bonus {not a field}"  # plain text passes verbatim
    sheet = ScoreSheet(("anna",), (6,), ((told, plain),))
    assert sheet.to_json()["lines"] == {"anna": ["queen x2 = 5", "bonus {not a field}"]}
    shouted = sheet.to_json(lambda sentence: str(sentence).upper())
    assert shouted["lines"] == {"anna": ["QUEEN X2 = 5", "BONUS {NOT A FIELD}"]}


class Totals(HighCard):
    """High Card with made-up final totals and winners, to read the default result."""

    def __init__(self, totals: tuple[int, int], winners: list[int]) -> None:
        self.totals, self.chosen = totals, winners

    def score(self, state: HighCardState) -> ScoreSheet:
        return ScoreSheet(state.players, self.totals, ((), ()))

    def winners(self, state: HighCardState) -> list[int]:
        return self.chosen


def _final(game: HighCard) -> HighCardState:
    return random_playout(game, ["anna", "ben"], rng=random.Random(3)).final


@pytest.mark.parametrize(("totals", "winners", "english", "german"), [
    ((7, 3), [0], "anna wins with 7 points.", "anna gewinnt mit 7 Punkten."),
    ((0, 1), [1], "ben wins with 1 point.", "ben gewinnt mit 1 Punkt."),
    ((4, 4), [0, 1], "anna and ben share the win with 4 points each.",
     "anna und ben gewinnen gemeinsam mit je 4 Punkten."),
    ((4, 4), [1], "ben wins the tie-break with 4 points.",
     "ben gewinnt mit 4 Punkten; der Gleichstand ist nach den Regeln entschieden."),
])
def test_the_default_result_names_the_winners(totals: tuple[int, int], winners: list[int],
                                              english: str, german: str) -> None:
    game = Totals(totals, winners)
    result = game.describe_result(_final(game))
    assert (str(result), GERMAN.text(result)) == (english, german)


def test_the_result_before_the_end_says_so() -> None:
    game = HighCard()
    assert str(game.describe_result(game.initial(["anna", "ben"]))) == (
        "The game is not over yet.")


def test_the_default_action_sentence_names_the_actor_and_the_public_action() -> None:
    game = HighCard()
    state = game.initial(["anna", "ben"])
    state = game.apply(game.apply(state, "card 1"), "card 2")
    assert str(game.action_sentence(state, "bet 2")) == "anna: bet 2"
    dealt = game.initial(["anna", "ben"])
    assert str(game.action_sentence(dealt, "card 3")) == "card"  # a deal names nobody's card


def test_the_default_step_sentences_read_in_german() -> None:
    """The core's own step sentences (engines that say nothing better) have their German."""
    game = HighCard()
    state = game.initial(["anna", "ben"])
    assert GERMAN.text(game.describe_step(state)) == "Leg aus, was der Tisch verlangt."
    state = game.apply(game.apply(state, "card 1"), "card 2")
    assert GERMAN.text(game.describe_step(state)) == "anna: Du bist dran."
    final = random_playout(game, ["anna", "ben"], rng=random.Random(3)).final
    assert GERMAN.text(game.describe_step(final)) == "Das Spiel ist zu Ende."
