"""The conformance check passes a correct engine and catches each kind of broken one."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from games.core import Game, IllegalAction, Limits, ScoreLine, ScoreSheet, Sentence
from games.core.conformance import ConformanceError, check_game
from games.core.game import Site

from .toy_game import CARDS, HighCard, HighCardState


def test_a_correct_engine_passes() -> None:
    report = check_game(HighCard(), games=30)
    assert report.games == 30
    assert report.steps == 30 * 4
    assert report.hidden_checks > 0  # resample really redrew hidden cards


class LeakyView(HighCard):
    def view(self, state: HighCardState, player: int | None) -> dict[str, Any]:
        return {**super().view(state, player), "all_cards": list(state.cards)}


class NamesTheDeal(HighCard):
    def public_action(self, state: HighCardState, action: str) -> str:
        return action  # "card 3": everyone reads the card dealt face down


class CardsLieOnTheTable(HighCard):
    """The dealt cards lie face down on a pad, but ``face_down`` does not say so."""

    def sites(self, n_players: int) -> tuple[Site, ...]:
        return (*super().sites(n_players), Site("pad:cards", 1, 0))

    def board(self, state: HighCardState) -> dict[str, str]:
        board = super().board(state)
        if state.cards:
            board["pad:cards"] = f"card:{state.cards[0]}"
        return board

    def pieces(self) -> tuple[str, ...]:
        return (*super().pieces(), *(f"card:{card}" for card in CARDS))


class UnsortedActions(HighCard):
    def legal_actions(self, state: HighCardState) -> list[str]:
        return list(reversed(super().legal_actions(state)))


class DuplicateActions(HighCard):
    def legal_actions(self, state: HighCardState) -> list[str]:
        actions = super().legal_actions(state)
        return actions[:1] + actions if actions else actions


class BadChance(HighCard):
    def chance_outcomes(self, state: HighCardState) -> list[tuple[str, Fraction]]:
        outcomes = super().chance_outcomes(state)
        return [(action, probability * Fraction(9, 10)) for action, probability in outcomes]


class LinesDoNotAddUp(HighCard):
    def score(self, state: HighCardState) -> ScoreSheet:
        sheet = super().score(state)
        lines = tuple((*lines, ScoreLine("bonus", 1)) for lines in sheet.lines)
        return ScoreSheet(sheet.players, sheet.totals, lines)


class AcceptsAnything(HighCard):
    def apply(self, state: HighCardState, action: str) -> HighCardState:
        action = self.parse_action(action)
        value = int(action.split()[1])
        if action.startswith("card"):
            return state._replace(cards=(*state.cards, value))
        return state._replace(bets=(*state.bets, value))


class SilentRefusal(HighCard):
    def apply(self, state: HighCardState, action: str) -> HighCardState:
        try:
            return super().apply(state, action)
        except IllegalAction:
            raise IllegalAction("") from None


class LossyJson(HighCard):
    def state_to_json(self, state: HighCardState) -> dict[str, Any]:
        data = super().state_to_json(state)
        data["bets"] = data["bets"][:1]
        return data


class UnknownSite(HighCard):
    def board(self, state: HighCardState) -> dict[str, str]:
        return {"pad:elsewhere": "chip:1"} if state.bets else {}


class MutatingApply(HighCard):
    """Keeps a list in the state and appends to it in place."""

    def initial(self, players, options=None):
        state = super().initial(players, options)
        return state._replace(bets=[])

    def apply(self, state, action):
        action = self.parse_action(action)
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action} is not possible now")
        value = int(action.split()[1])
        if action.startswith("card"):
            return state._replace(cards=(*state.cards, value))
        state.bets.append(value)
        return state._replace(bets=list(state.bets))

    def state_from_json(self, data):
        return super().state_from_json(data)._replace(bets=list(data["bets"]))


class UnnumberedAction(HighCard):
    def compute_limits(self, n_players, options) -> Limits:
        full = super().compute_limits(n_players, options)
        return Limits(full.actions[1:], full.max_steps, full.min_score, full.max_score)


class UnsortedLimits(HighCard):
    def compute_limits(self, n_players, options) -> Limits:
        full = super().compute_limits(n_players, options)
        return Limits(full.actions[::-1], full.max_steps, full.min_score, full.max_score)


class TooShortLimit(HighCard):
    def compute_limits(self, n_players, options) -> Limits:
        full = super().compute_limits(n_players, options)
        return Limits(full.actions, 3, full.min_score, full.max_score)


class ScoreOutOfRange(HighCard):
    def compute_limits(self, n_players, options) -> Limits:
        full = super().compute_limits(n_players, options)
        return Limits(full.actions, full.max_steps, full.min_score, 1)


class UndeclaredSecrets(HighCard):
    secrets = ()


class SecretsNeverRedrawn(HighCard):
    resample = Game.resample


class StepAsText(HighCard):
    def describe_step(self, state: HighCardState) -> str:  # type: ignore[override]
        return "someone plays"


class StepMissingArgument(HighCard):
    def describe_step(self, state: HighCardState) -> Sentence:
        return Sentence("{player} bets on {colour}", {"player": "p0"})


class StepWithNumberArgument(HighCard):
    def describe_step(self, state: HighCardState) -> Sentence:
        return Sentence("bet {amount}", {"amount": 2})  # type: ignore[dict-item]


class ResultNamesNobody(HighCard):
    def describe_result(self, state: HighCardState) -> Sentence:
        return Sentence("Somebody won.")


class ActionSentenceNamesTheDeal(HighCard):
    def action_sentence(self, state: HighCardState, action: str) -> Sentence:
        return Sentence("dealt {card}", {"card": action})  # names the card dealt face down


class ToActNotTheActor(HighCard):
    def to_act(self, state: HighCardState) -> int | None:
        return None


@pytest.mark.parametrize(
    ("engine", "complaint"),
    [
        (LeakyView(), "leaks hidden information"),
        (NamesTheDeal(), "public_action() tells them apart"),
        (CardsLieOnTheTable(), "face_down() misses a face-down site"),
        (UnsortedActions(), "not sorted and unique"),
        (DuplicateActions(), "not sorted and unique"),
        (BadChance(), "do not sum to exactly 1"),
        (LinesDoNotAddUp(), "do not add up"),
        (AcceptsAnything(), "not among the legal actions"),
        (SilentRefusal(), "has no message"),
        (LossyJson(), "JSON round-trip"),
        (UnknownSite(), "which sites() does not list"),
        (MutatingApply(), "changed its input state"),
        (UnnumberedAction(), "missing from limits().actions"),
        (UnsortedLimits(), "limits().actions are not sorted"),
        (TooShortLimit(), "longer than limits().max_steps"),
        (ScoreOutOfRange(), "outside limits()"),
        (UndeclaredSecrets(), "declares no secrets"),
        (SecretsNeverRedrawn(), "does not override resample()"),
        (StepAsText(), "not a Sentence"),
        (StepMissingArgument(), "does not format with its args"),
        (ToActNotTheActor(), "to_act() is None while seat"),
        (StepWithNumberArgument(), "with str or Sentence args"),
        (ResultNamesNobody(), "does not name the winners"),
        (ActionSentenceNamesTheDeal(), "action_sentence() tells them apart"),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, str) else "",
)
def test_a_broken_engine_is_caught(engine: HighCard, complaint: str) -> None:
    with pytest.raises(ConformanceError, match=complaint.replace("(", r"\(").replace(")", r"\)")):
        check_game(engine, games=20)


class CardCapsTheBet(HighCard):
    """A player with card 1 may only bet 1, yet the game says the deal decides nothing."""

    def legal_actions(self, state: HighCardState) -> list[str]:
        legal = super().legal_actions(state)
        actor = self.actor(state)
        return ["bet 1"] if actor >= 0 and state.cards[actor] == 1 else legal

    def limits_play(self, state: HighCardState) -> bool:
        return False


def test_a_deal_that_decides_nothing_passes_and_one_that_does_is_caught() -> None:
    """``limits_play`` False is held to: dealt otherwise, every player's legal actions stay."""
    class SaysSo(HighCard):
        def limits_play(self, state: HighCardState) -> bool:
            return False  # true: either card may bet 1 or 2

    assert check_game(SaysSo(), games=20).games == 20
    with pytest.raises(ConformanceError, match="limits_play"):
        check_game(CardCapsTheBet(), games=20)


class NestedStep(HighCard):
    def describe_step(self, state: HighCardState) -> Sentence:
        return Sentence("{player}: bet on {colour}",
                        {"player": "p1", "colour": Sentence("{shade} red", {"shade": "dark"})})


def test_nested_sentences_pass() -> None:
    assert check_game(NestedStep(), games=5).games == 5
