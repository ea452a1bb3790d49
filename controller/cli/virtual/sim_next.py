"""The referee as the simulator page's "do the next step for me" sees it.

``simulator/next_step.py`` plans and makes one step by hand on the virtual table, but the
simulator never imports the controller: this adapter, part of the ``tabletop sim``
composition, answers its questions (what the referee's state is, what the AI advises, which
readings wait to be picked) from the running service.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from controller.errors import NothingToConfirm
from controller.referee import Choose
from controller.service import TableService
from games.core.game import CHANCE

from .settling import settled

if TYPE_CHECKING:
    from simulator.next_step import NextStep, Position
    from simulator.virtual_table import VirtualTable

PRESS_WAIT = 3.0
"""Seconds to wait for a button press to be handled (a refused press records nothing)."""
CHOICE_WAIT = 5.0
"""Seconds to wait for the referee to ask which reading the table meant."""
AI_WAIT = 30.0
"""Seconds to wait for the AI's move of an AI seat (the referee accepts only that move)."""
HINT_WAIT = 10.0
"""Seconds to wait for the advisor's hint for a person's seat (then a random move)."""
EARLIER = 12
"""Earlier boards handed over: a hand must not pass through one of them on the way."""


class ServiceReferee:
    """The simulator's `Referee`, answered from a running `TableService`."""

    def __init__(self, table: VirtualTable, service: TableService) -> None:
        self.table = table
        self.service = service

    async def settle(self, recorded: int | None = None) -> None:
        await settled(self.table, self.service)
        if recorded is None:
            return
        await self._until(lambda: len(self.service.table.actions) >= recorded, PRESS_WAIT)
        await settled(self.table, self.service)

    async def position(self) -> Position | None:
        from simulator.next_step import Position

        table = self.service.table
        if not table.started:
            return None
        advice = await self._advice()  # first: no waiting between reading the state and using it
        game, state = table.game, table.state
        decision = table.decision
        choice = (tuple(successor.action for successor in decision.successors)
                  if isinstance(decision, Choose) else ())
        owed = None
        if pending := table.pending_reveals():
            step, seat = pending[0]
            owed = (seat, tuple(game.revealed_pieces(table.states[step], seat)))
        return Position(
            game=game, state=state,
            earlier=tuple(game.board(earlier) for earlier in table.states[-EARLIER - 1:-1]),
            advice=advice, choice=choice, owed=owed,
            recorded=len(table.actions))

    async def _advice(self) -> str | None:
        """The AI's move for the seat on turn: an AI seat's always (waited for), a person's
        when an advisor is configured, asked unseen (a hint would be logged and lit for the
        whole table, naming a card of a hidden hand); None without one, then the step is a
        random legal move."""
        table = self.service.table
        if table.game.is_terminal(table.state) or table.game.actor(table.state) == CHANCE:
            return None
        seat = table.game.actor(table.state)
        state = table.state
        if seat not in table.ai:
            if self.service.advisor is None:
                return None
            try:
                return await asyncio.wait_for(self.service.unseen_hint(), HINT_WAIT)
            except (NothingToConfirm, TimeoutError):
                return None

        def advised() -> bool:
            advice = table.current_advice()
            return advice is not None and advice.state is state

        await self._until(advised, AI_WAIT)
        advice = table.current_advice()  # None if the table moved on meanwhile
        return advice.action if advice is not None and advice.state is table.state else None

    async def choose(self, action: str) -> None:
        def asked() -> bool:
            decision = self.service.table.decision
            return isinstance(decision, Choose) and any(
                successor.action == action for successor in decision.successors)

        if not await self._until(asked, CHOICE_WAIT):
            return  # the referee read the board as this action alone: nothing to pick
        decision = self.service.table.decision
        assert isinstance(decision, Choose)
        index = [successor.action for successor in decision.successors].index(action)
        self.service.choose(index)

    @staticmethod
    async def _until(condition, timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            if loop.time() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True


def next_step_for(table: VirtualTable, service: TableService, seed: int = 0) -> NextStep:
    """The hook ``simulator_router`` calls for the page's "do the next step for me"."""
    from simulator.next_step import NextStep

    return NextStep(table, ServiceReferee(table, service), seed)
