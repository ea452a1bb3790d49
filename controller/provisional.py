"""A step judged early, until it stands or the hand that made it goes on.

A board that shows exactly one legal step a scan after the hand left it is taken then, before
the settle time, so a right move lights at once. But the hand may not be done: a card laid as
a single payment may be the first of a joker pair, a stone laid may be the bottom of a tower.
So the step stays *provisional* until the board has been still for the settle time. A board
that changes sooner and, judged from the position before the step, is exactly one other legal
step that this one begins *amends* it: the table takes the step back and takes the bigger
one. Anything else (a fidget, a mistake) leaves the step as it was. docs/architecture.md
draws these states beside the rest of a board's way to a verdict.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core.game import Game

from .history import History
from .referee import Successors, begins
from .unresolved import Resolution


@dataclass(frozen=True, slots=True)
class Provisional:
    """A step judged early: where it begins, and the times that decide whether it stands."""

    start: int
    """Where the step begins in the actions."""
    changed_at: float = -math.inf
    """The board's last change when the step was judged."""
    stands_at: float = math.inf
    """When it stands if the board has not changed since (∞: it changed before then; it is
    judged again from before it at the next judgement)."""
    dealing_before: Resolution | None = None
    """The dealing the table worked from before an early search's answer made the step legal:
    the hand going on may show that dealing was right (the step it began is a joker pair only
    that dealing allows)."""


class ProvisionalStep:
    """The last step judged early (``step``, None once it stands or when there is none), and
    the bigger step a board that changed too soon amends it to."""

    def __init__(self, game: Game[Any], history: History) -> None:
        self.game = game
        self.history = history
        self.step: Provisional | None = None
        self.amended = 0
        """Provisional steps judged again because the hand went on (``bench hand-to-light``)."""
        self._before: list[tuple[Any, Successors]] = []
        """The successors of the position before the step, under one dealing or two (a board
        is asked about at every scan while the hand moves)."""

    def close(self, last_change: float) -> None:
        """The step stands if the board was still for the settle time before it changed next;
        if it changed sooner, what the hand makes is judged from before the step too, until
        the next judgement. Asked before every judgement and at the judging loop's first wake
        after a change (the first change after the step is the one that counts)."""
        step = self.step
        if step is not None and last_change != step.changed_at:
            self.step = None if last_change > step.stands_at else dataclasses.replace(
                step, stands_at=math.inf)

    def judged_at(self, changed_at: float, stands_at: float) -> None:
        """The step just taken was judged on a board last changed at ``changed_at``; it stands
        at ``stands_at`` if nothing changes before."""
        if self.step is not None:
            self.step = dataclasses.replace(self.step, changed_at=changed_at,
                                            stands_at=stands_at)

    def amends_to(self, board: Mapping[str, str]) -> bool:
        """Is ``board``, judged from the position before the provisional step, exactly one
        other legal step that the provisional one is the beginning of (the hand went on)?"""
        return self.step is not None and self.amendment(board, self.step) is not None

    def amendment(self, board: Mapping[str, str], step: Provisional) -> Resolution | None:
        """The dealing under which ``board`` amends ``step``: the working one, or the one
        before an early search's answer made that step legal (a card taken for a single
        payment was the first of a pair)."""
        taken = self.game.board(self.history.states[step.start + 1])
        for dealing in self._dealings(step):
            earlier = self._successors_of(dealing.states[-1])
            matches = earlier.matching(board)
            if len(matches) == 1 and matches[0].board != taken and begins(
                    matches[0].board, earlier.board, taken):
                return dealing
        return None

    def before(self) -> list[Successors]:
        """What a hand going on from the provisional step may still make: the successors of
        the position before it, under each dealing ``amendment`` tries (none if no step is
        provisional)."""
        step = self.step
        if step is None:
            return []
        return [self._successors_of(dealing.states[-1]) for dealing in self._dealings(step)]

    def _dealings(self, step: Provisional) -> list[Resolution]:
        dealings = [self.dealing_to(step.start)]
        if step.dealing_before is not None:
            dealings.append(step.dealing_before)
        return dealings

    def dealing_to(self, start: int) -> Resolution:
        """The working dealing up to the position before action ``start``."""
        return Resolution(tuple(self.history.actions[:start]),
                          tuple(self.history.states[:start + 1]))

    def _successors_of(self, state: Any) -> Successors:
        for known, successors in self._before:
            if known is state:
                return successors
        successors = Successors(self.game, state)
        self._before = [*self._before[-1:], (state, successors)]
        return successors
