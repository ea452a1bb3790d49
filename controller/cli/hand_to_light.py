"""What a player feels: from the hand that finishes a step (the last piece laid or lifted) to
the LEDs confirming the move, measured on a virtual table during autoplay.

The step's last hand movement is taken from the virtual table's own change callback; the
confirmation is the end of the judgement that accepts the step (it relights the strip before
it returns). Steps finished by a button press (the service's own draws, silent actions) are
not hand steps and are left out.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from controller.service import TableService

if TYPE_CHECKING:  # imported by `tabletop sim`, which `tabletop run` shares a parser with
    from simulator.virtual_table import VirtualTable


class HandToLight:
    def __init__(self, table: VirtualTable, service: TableService) -> None:
        self.put_ms: list[float] = []
        self.lift_ms: list[float] = []
        self._hand: tuple[str, float] | None = None
        """The last hand movement not yet answered: ("put" or "lift", when)."""
        self._board = table.board()
        chained = table.on_change

        def changed(board: dict[str, str]) -> None:
            laid = any(self._board.get(site) != piece for site, piece in board.items())
            self._hand = ("put" if laid else "lift", time.monotonic())
            self._board = board
            if chained is not None:
                chained(board)

        table.on_change = changed
        pressed = table.press

        async def press(role: str) -> None:
            self._hand = None  # what follows answers the button, not a hand
            await pressed(role)

        table.press = press  # type: ignore[method-assign]
        judge = service.judge

        def timed_judge() -> None:
            before, hand = len(service.table.actions), self._hand
            judge()
            if hand is None or len(service.table.actions) == before:
                return
            answered = time.monotonic()
            (self.put_ms if hand[0] == "put" else self.lift_ms).append(
                round((answered - hand[1]) * 1000, 1))
            self._hand = None

        service.judge = timed_judge  # type: ignore[method-assign]

    def figures(self) -> dict[str, Any]:
        return {"put_ms": self.put_ms, "lift_ms": self.lift_ms}
