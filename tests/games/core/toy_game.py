"""High Card: a tiny game with chance, hidden cards and bets, to test games/core itself.

Each of two players is dealt one card of 1-3 face down (chance), then each bets 1 or 2 in
turn; the higher card takes both bets. Variants below break one rule of the contract each.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from games.core import (
    CHANCE,
    TERMINAL,
    BadActionText,
    BadPosition,
    BadState,
    Game,
    IllegalAction,
    Limits,
    ScoreLine,
    ScoreSheet,
    Secret,
    Site,
)

CARDS = (1, 2, 3)


class HighCardState(NamedTuple):
    players: tuple[str, ...]
    cards: tuple[int, ...]
    bets: tuple[int, ...]


class HighCard(Game[HighCardState]):
    id = "high_card"
    name = "High Card"
    min_players = 2
    max_players = 2
    secrets = (Secret("each player's card", hidden_from="others"),)

    def initial(self, players: Sequence[str], options: Mapping[str, str] | None = None):
        self.check_options(options)
        return HighCardState(self.check_players(players), (), ())

    def actor(self, state: HighCardState) -> int:
        if len(state.cards) < 2:
            return CHANCE
        if len(state.bets) < 2:
            return len(state.bets)
        return TERMINAL

    def legal_actions(self, state: HighCardState) -> list[str]:
        actor = self.actor(state)
        if actor == CHANCE:
            return [a for a, _ in self.chance_outcomes(state)]
        return [] if actor == TERMINAL else ["bet 1", "bet 2"]

    def chance_outcomes(self, state: HighCardState) -> list[tuple[str, Fraction]]:
        if self.actor(state) != CHANCE:
            return []
        left = [c for c in CARDS if c not in state.cards]
        return [(f"card {c}", Fraction(1, len(left))) for c in left]

    def parse_action(self, text: str) -> str:
        words = text.lower().split()
        if len(words) == 2 and words[0] in ("bet", "card") and words[1] in ("1", "2", "3"):
            return " ".join(words)
        raise BadActionText(f"{text!r} is not a High Card action")

    def apply(self, state: HighCardState, action: str) -> HighCardState:
        action = self.parse_action(action)
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action} is not possible now")
        value = int(action.split()[1])
        if action.startswith("card"):
            return state._replace(cards=(*state.cards, value))
        return state._replace(bets=(*state.bets, value))

    def score(self, state: HighCardState) -> ScoreSheet:
        if self.actor(state) != TERMINAL:
            return ScoreSheet(state.players, (0, 0), ((), ()))
        pot = sum(state.bets)
        winner = state.cards.index(max(state.cards))
        lines = tuple(
            (ScoreLine(f"high card takes the pot of {pot}", pot),) if seat == winner else ()
            for seat in range(2)
        )
        return ScoreSheet(state.players, tuple(pot if s == winner else 0 for s in range(2)), lines)

    def score_position(self, position: Mapping[str, Any]):
        raise BadPosition("High Card has no positions to score")

    def players(self, state: HighCardState) -> tuple[str, ...]:
        return state.players

    def view(self, state: HighCardState, player: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"bets": list(state.bets), "dealt": len(state.cards)}
        if player is not None and player < len(state.cards):
            view["card"] = state.cards[player]
        if self.actor(state) == TERMINAL:
            view["cards"] = list(state.cards)
        return view

    def public_action(self, state: HighCardState, action: str) -> str:
        return "card" if action.startswith("card ") else action  # dealt face down

    def resample(self, state: HighCardState, player: int | None, rng: random.Random):
        if self.actor(state) == TERMINAL:
            return state
        hidden = [s for s in range(len(state.cards)) if s != player]
        pool = [c for c in CARDS if c not in [state.cards[s] for s in range(len(state.cards))
                                                 if s == player]]
        drawn = rng.sample(pool, len(hidden))
        cards = list(state.cards)
        for seat, card in zip(hidden, drawn, strict=True):
            cards[seat] = card
        return state._replace(cards=tuple(cards))

    def sites(self, n_players: int) -> tuple[Site, ...]:
        return (Site("pad:pot", 0, 0),)

    def board(self, state: HighCardState) -> dict[str, str]:
        return {"pad:pot": f"chip:{sum(state.bets)}"} if state.bets else {}

    def pieces(self) -> tuple[str, ...]:
        return tuple(f"chip:{n}" for n in range(1, 5))

    def compute_limits(self, n_players: int, options: Mapping[str, str]) -> Limits:
        actions = sorted([f"bet {n}" for n in (1, 2)] + [f"card {c}" for c in CARDS])
        return Limits(tuple(actions), max_steps=4, min_score=0, max_score=4)

    def state_to_json(self, state: HighCardState) -> dict[str, Any]:
        return {"players": list(state.players), "cards": list(state.cards),
                "bets": list(state.bets)}

    def state_from_json(self, data: Mapping[str, Any]) -> HighCardState:
        try:
            return HighCardState(tuple(data["players"]), tuple(data["cards"]),
                                 tuple(data["bets"]))
        except (KeyError, TypeError) as error:
            raise BadState(str(error)) from None
