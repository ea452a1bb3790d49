"""The positions of one game at the table, and how far back an undo or a restored board goes.

A secret draw the table cannot see (a mission dealt face down) is not a step anyone made with
their hands: undo takes it back together with the step before it, and the page never names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core.game import CHANCE, Game

Board = dict[str, str]
MAX_TAKE_BACK = 12
"""How many positions back a restored table is recognised as a take-back request."""


class History:
    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.states: list[Any] = []
        self.actions: list[str] = []
        """The working resolution's actions: a draw the table did not see has an outcome here
        that explains the table, not one anybody saw."""
        self.known: list[str] = []
        """What the table knows of each action: the action, or ``?`` for an unseen draw."""

    def start(self, state: Any) -> None:
        self.states, self.actions, self.known = [state], [], []

    def clear(self) -> None:
        self.states.clear()
        self.actions.clear()
        self.known.clear()

    def push(self, action: str, state: Any, known: str | None = None) -> None:
        self.actions.append(action)
        self.states.append(state)
        self.known.append(action if known is None else known)

    def drop(self, count: int) -> None:
        del self.actions[-count:]
        del self.states[-count:]
        del self.known[-count:]

    def rebase(self, actions: Sequence[str], states: Sequence[Any]) -> None:
        """Another resolution of the unseen draws explains the table: take its states."""
        self.actions, self.states = list(actions), list(states)

    def earlier_boards(self, limit: int) -> list[Board]:
        """Distinct earlier positions, newest first (positions a step did not change skipped)."""
        boards: list[Board] = []
        current = self.game.board(self.states[-1])
        for state in reversed(self.states[-limit - 1 : -1]):
            board = self.game.board(state)
            if board != current and (not boards or boards[-1] != board):
                boards.append(board)
        return boards

    def is_hidden_chance_step(self, index: int) -> bool:
        """Action ``index`` was a draw that changed nothing on the table."""
        before = self.states[index]
        if self.game.actor(before) != CHANCE:
            return False
        return self.game.board(before) == self.game.board(self.states[index + 1])

    def last_visible_action(self) -> str | None:
        """The last step anyone made with their hands, as everyone may read it."""
        for index in range(len(self.actions) - 1, -1, -1):
            if not self.is_hidden_chance_step(index):
                known = self.known[index]
                return known if known == "?" else self.game.public_action(self.states[index],
                                                                          known)
        return None

    def actions_in_steps(self, steps: int) -> int:
        """How many actions ``steps`` visible steps are, with the secret draws that followed."""
        count = 0
        for _ in range(steps):
            while count < len(self.actions) and self.is_hidden_chance_step(
                len(self.actions) - 1 - count
            ):
                count += 1
            count += 1
        return count

    def actions_back(self, steps: int) -> int:
        """How many actions lie between now and the ``steps``-th distinct earlier position."""
        current = self.game.board(self.states[-1])
        seen = 0
        last = current
        for back, state in enumerate(reversed(self.states[:-1]), start=1):
            board = self.game.board(state)
            if board != current and board != last:
                seen += 1
                last = board
                if seen == steps:
                    return back
        return steps
