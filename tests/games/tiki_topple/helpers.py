"""Building Tiki Topple states the way the table does: build, deal, set aside, play."""

from __future__ import annotations

from collections.abc import Sequence

from games.registry import get_game
from games.tiki_topple.state import TikiState

GAME = get_game("tiki_topple")
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


def setup(
    players: Sequence[str] = ("anna", "ben"),
    edition: str = "schmidt",
    stack: Sequence[str] = STACK,
    missions: Sequence[int] | None = None,
    asides: Sequence[str] | None = None,
) -> TikiState:
    """A state at the first card of round 1 (Schmidt: everyone set 'toast up1' aside)."""
    state = GAME.initial(players, {"edition": edition})
    state = GAME.apply(state, "build " + " ".join(stack))
    for number in missions or range(1, len(players) + 1):
        state = GAME.apply(state, f"mission {number}")
    if edition == "schmidt":
        for aside in asides or ["toast up1"] * len(players):
            state = GAME.apply(state, f"aside {aside}")
    return state


def play(state: TikiState, *actions: str) -> TikiState:
    for action in actions:
        state = GAME.apply(state, action)
    return state
