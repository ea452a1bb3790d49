"""The Tiki Topple state: an immutable record, serialisable to JSON and back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from games.core.errors import BadState
from games.core.state_fields import entries, flag, texts, whole, wholes

PHASES = ("build", "deal", "aside", "play", "cleanup", "over")
"""build: the stack is laid out (chance); deal: one mission each (chance); aside: each player
sets cards aside unseen (chance, Schmidt only); play: cards in turn; cleanup: the round is
scored and the stack waits to be cleared for the next round; over: the game has ended."""


class RoundResult(NamedTuple):
    """The end of one round, public once the missions are turned up."""

    stack: tuple[str, ...]
    missions: tuple[int, ...]


class TikiState(NamedTuple):
    """Immutable: a named tuple, because playouts build hundreds of thousands of these."""

    players: tuple[str, ...]
    edition: str
    deck: str
    """The mission deck (option missions)."""
    goal: bool
    """Option end=35_points: the game ends after the round in which a player reaches the goal."""
    round: int
    """0-based index of the current round."""
    phase: str
    stack: tuple[str, ...]
    """Top first."""
    toasted: tuple[str, ...]
    missions: tuple[int, ...]
    """This round's mission card number per seat; 0 while not dealt."""
    used_missions: tuple[int, ...]
    """Mission cards of earlier rounds: set aside, out of the game."""
    hands: tuple[tuple[str, ...], ...]
    aside: tuple[tuple[str, ...], ...]
    played: tuple[tuple[str, ...], ...]
    """Cards played this round, per seat, in order."""
    turn: int
    """The seat to play, to be dealt a mission, or to set cards aside."""
    pad: str
    """The card lying on the play pad, as ``seat:kind``, or empty."""
    totals: tuple[int, ...]
    history: tuple[RoundResult, ...]


def state_to_json(state: TikiState) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, value in zip(TikiState._fields, state, strict=True):
        if name == "history":
            value = [{"stack": list(r.stack), "missions": list(r.missions)} for r in value]
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        data[name] = value
    return data


def state_from_json(data: Mapping[str, Any]) -> TikiState:
    """Rebuild a state, checking shape and types (not every rule: apply checks those)."""
    if not isinstance(data, Mapping):
        raise BadState("a Tiki Topple state is a JSON object")
    # states written before the option existed were played with rules revision 1's deck
    data = {"deck": "revision1", "goal": False, **data}
    missing = [name for name in TikiState._fields if name not in data]
    if missing:
        raise BadState(f"Tiki Topple state lacks {', '.join(missing)}")
    try:
        state = TikiState(
            players=texts(data["players"], "players"),
            edition=str(data["edition"]),
            deck=str(data["deck"]),
            goal=flag(data["goal"], "goal"),
            round=whole(data["round"], "round", None),
            phase=str(data["phase"]),
            stack=texts(data["stack"], "stack"),
            toasted=texts(data["toasted"], "toasted"),
            missions=wholes(data["missions"], "missions", None),
            used_missions=wholes(data["used_missions"], "used_missions", None),
            hands=_per_seat(data, "hands"),
            aside=_per_seat(data, "aside"),
            played=_per_seat(data, "played"),
            turn=whole(data["turn"], "turn", None),
            pad=str(data["pad"]),
            totals=wholes(data["totals"], "totals", None),
            history=tuple(
                RoundResult(texts(r["stack"], f"history[{number}].stack"),
                            wholes(r["missions"], f"history[{number}].missions", None))
                for number, r in enumerate(entries(data["history"], "history"))
            ),
        )
    except (TypeError, KeyError, ValueError) as error:
        raise BadState(f"malformed Tiki Topple state: {error}") from None
    n = len(state.players)
    per_seat = (state.missions, state.hands, state.aside, state.played, state.totals)
    if state.phase not in PHASES or any(len(v) != n for v in per_seat) or not 0 <= state.turn < n:
        raise BadState("inconsistent Tiki Topple state (phase, seats or turn)")
    return state


def _per_seat(data: Mapping[str, Any], key: str) -> tuple[tuple[str, ...], ...]:
    """``hands``, ``aside``, ``played``: a list of card kinds per seat."""
    return tuple(texts(cards, f"{key}[{seat}]")
                 for seat, cards in enumerate(entries(data[key], key)))
