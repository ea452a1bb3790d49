"""The AI at the table: which seats it plays, the hint asked for, and the move it advised.

The table's state machine asks this book what the AI should think about next and hands it the
answer; the search itself runs in the service's worker thread. Advice belongs to one position:
once the table moves on it is gone.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.errors import BadSetup
from games.core.game import Game, Sentence
from games.core.translation import _

from .errors import NothingToConfirm
from .referee import Successors, changed_sites
from .status import AdviceReport
from .unresolved import UnseenDraws

HINT_SIMULATIONS = 200
"""The hint's strength (simulations per move); the AI's default strength too."""
MAX_SIMULATIONS = 20_000
HINT_WORLDS = 4
"""States a hint weighs when the table has not seen some draws (``UnseenDraws.worlds``)."""


@dataclass(frozen=True, slots=True)
class AdviceRequest:
    """A move the AI should think about: for an AI seat (``ai``) or a hint (``hint``)."""

    kind: str
    seat: int
    state: Any
    options: Mapping[str, str]
    simulations: int
    seed: int
    """Fixed by game and position, so a restart brings back the same advice."""
    unseen: UnseenDraws | None = None
    """A hint where the players dealt secrets the table has not seen: the AI weighs several
    states the table may be in, never its working guess alone (it would advise playing to a
    guessed mission)."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The AI's move for the position ``state`` (the table's state when it was asked)."""

    kind: str
    seat: int
    state: Any
    action: str
    values: dict[str, float]
    seconds: float
    simulations: int


def ai_seats(players: Sequence[str], ai: Mapping[str, int]) -> dict[int, int]:
    """Player names the AI plays to seats; refuses unknown names and bad strengths."""
    seats = {}
    for name, simulations in ai.items():
        if name not in players:
            raise BadSetup(Sentence("the AI cannot play {name}: not among the players "
                                    "({players})", {"name": repr(name),
                                                    "players": ", ".join(players)}))
        if not isinstance(simulations, int) or not 1 <= simulations <= MAX_SIMULATIONS:
            raise BadSetup(Sentence("the AI's strength is 1 to {most} simulations per move, "
                                    "not {given}", {"most": str(MAX_SIMULATIONS),
                                                    "given": repr(simulations)}))
        seats[list(players).index(name)] = simulations
    return seats


class AdviceBook:
    """The AI's seats, the pending hint and the latest advice for one game."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.seats: dict[int, int] = {}
        """Seats the AI plays, with its strength (simulations per move)."""
        self.hint_simulations = HINT_SIMULATIONS
        self.advice: Advice | None = None
        self._hint_for: Any = None
        """The state a hint was asked for (a hint is for one position only)."""

    def reset(self, seats: Mapping[int, int]) -> None:
        self.seats = dict(seats)
        self.advice = None
        self._hint_for = None

    def current(self, state: Any) -> Advice | None:
        """The advice for ``state``, if the AI has given one for exactly this position."""
        advice = self.advice
        if advice is None or advice.state is not state:
            return None
        return advice

    def seat_for_a_hint(self, state: Any, players: Sequence[str]) -> int:
        if self.game.is_terminal(state):
            raise NothingToConfirm(Sentence("no game is running: there is nothing to hint"))
        seat = self.game.actor(state)
        if seat < 0:
            raise NothingToConfirm(Sentence("no player is on turn: the table deals or draws now"))
        if seat in self.seats:
            raise NothingToConfirm(Sentence("{player} is played by the AI",
                                            {"player": players[seat]}))
        return seat

    def ask_hint(self, state: Any, players: Sequence[str]) -> Sentence:
        """The hint button: ask for the move of the player on turn (answered off the loop)."""
        seat = self.seat_for_a_hint(state, players)
        self._hint_for = state
        advice = self.current(state)
        if advice is not None:
            return Sentence("hint for {player}: {action}",
                            {"player": players[seat], "action": advice.action})
        return Sentence("thinking about a hint for {player}", {"player": players[seat]})

    def private_hint_request(self, state: Any, players: Sequence[str], seat: int,
                             options: Mapping[str, str], seed: int) -> AdviceRequest:
        """A hint for one phone only: nothing is lit, logged or shown to the table."""
        if self.seat_for_a_hint(state, players) != seat:
            raise NothingToConfirm(Sentence("it is not {player}'s turn", {"player": players[seat]}))
        return AdviceRequest("hint", seat, state, options, self.hint_simulations, seed)

    def request(self, state: Any, options: Mapping[str, str], seed: int) -> AdviceRequest | None:
        """What the AI should think about now, if anything."""
        if self.game.is_terminal(state):
            return None
        seat = self.game.actor(state)
        if seat < 0 or self.current(state) is not None:
            return None
        if seat in self.seats:
            return AdviceRequest("ai", seat, state, options, self.seats[seat], seed)
        if self._hint_for is state:
            return AdviceRequest("hint", seat, state, options, self.hint_simulations, seed)
        return None

    def receive(self, state: Any, request: AdviceRequest, action: str,
                values: Mapping[str, float], seconds: float, simulations: int) -> bool:
        """Keep the AI's answer if the table is still where it was asked; False if it moved on."""
        if request.state is not state:
            return False
        if action not in self.game.legal_actions(state):
            raise ValueError(f"the AI chose {action!r}, which is not legal here")
        self.advice = Advice(request.kind, request.seat, request.state, action, dict(values),
                             seconds, simulations)
        return True

    def sites(self, state: Any, every: Successors) -> set[str]:
        """The sites the advised move changes (lit in the advice colour)."""
        advice = self.current(state)
        if advice is None:
            return set()
        for successor in every.changing:
            if successor.action == advice.action:
                return changed_sites(every.board, successor.board)
        return set()

    def report(self, state: Any, players: Sequence[str], every: Successors
               ) -> AdviceReport | None:
        advice = self.current(state)
        if advice is None:
            return None
        sites = self.sites(state, every)
        return AdviceReport(
            kind=advice.kind,  # type: ignore[arg-type]
            player=players[advice.seat],
            action=advice.action,
            sites=sorted(sites),
            how=_("make this move on the table") if sites else _("press confirm"),
            # How the other moves fared would show an AI seat's hand; a hint is the asker's.
            values=dict(list(advice.values.items())[:5]) if advice.kind == "hint" else {},
            seconds=round(advice.seconds, 3),
            simulations=advice.simulations,
        )


def weigh_worlds(picks: Sequence[tuple[str, Mapping[str, float]]], legal: Collection[str]
                 ) -> tuple[str, dict[str, float]] | None:
    """The move most worlds' searches chose, among those legal at the table (ties: the higher
    mean value), with each legal move's mean value over the worlds that searched it; None if
    no world chose a move legal here."""
    votes: dict[str, int] = {}
    sums: dict[str, list[float]] = {}
    for action, values in picks:
        if action in legal:
            votes[action] = votes.get(action, 0) + 1
        for move, value in values.items():
            sums.setdefault(move, []).append(value)
    if not votes:
        return None
    means = {move: round(sum(seen) / len(seen), 3) for move, seen in sums.items()
             if move in legal}  # a move some world allows but the table does not: not shown
    best = max(votes, key=lambda move: (votes[move], means.get(move, 0.0), move))
    return best, dict(sorted(means.items(), key=lambda item: -item[1]))


def ai_advisor(game: Game[Any]) -> Callable[[AdviceRequest], Any] | None:
    """The AI behind AI seats and hints, or None when OpenSpiel is not installed.

    One ``games.ai.Advisor`` per game setup, made on first use. It runs in a worker thread
    and reads nothing but the request (the table may move on meanwhile). A hint with unseen
    draws searches ``HINT_WORLDS`` states the table may be in, a share of the strength each,
    and advises the move most of them chose. OpenSpiel is loaded
    on the first request, not before: it is 40 MB of a Pi Zero's 512 that a table nobody asks
    for a hint never needs.
    """
    if any(importlib.util.find_spec(name) is None for name in ("open_spiel", "numpy")):
        return None
    advisors: dict[tuple[Any, ...], Any] = {}

    def advise(request: AdviceRequest) -> Any:
        from games.ai import Advisor

        players = len(game.players(request.state))
        key = (players, tuple(sorted(request.options.items())))
        advisor = advisors.get(key)
        if advisor is None:
            advisor = advisors[key] = Advisor(game, players, request.options)
        if request.unseen is None:
            return advisor.advise(request.state, seed=request.seed,
                                  simulations=request.simulations)
        worlds = request.unseen.worlds(game, HINT_WORLDS, request.seed) or [request.state]
        each = max(1, request.simulations // len(worlds))
        answers = [advisor.advise(world, seed=request.seed + number, simulations=each)
                   for number, world in enumerate(worlds)]
        weighed = weigh_worlds([(answer.action, answer.values) for answer in answers],
                               game.legal_actions(request.state))
        if weighed is None:  # no world's move is legal at the table: its own position then
            return advisor.advise(request.state, seed=request.seed,
                                  simulations=request.simulations)
        return dataclasses.replace(answers[0], action=weighed[0], values=weighed[1],
                                   seconds=sum(answer.seconds for answer in answers),
                                   simulations=each * len(worlds))

    return advise
