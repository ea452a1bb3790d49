"""What a player feels: from the hand that finishes a step (the last piece laid or lifted) to
the LEDs confirming the move, measured on a virtual table during autoplay.

The step's last hand movement is taken from the virtual table's own change callback; the
confirmation is the end of the judgement that accepts the step (it relights the strip before
it returns). Steps finished by a button press (the service's own draws, silent actions) are
not hand steps and are left out. A piece dragged over other sites before it lands is timed
from its landing, as a slide. A judgement that the table is wrong (a mistake, or an undo) is
counted too: where the players make no mistake, each one is a wrong judgement. A step judged
early that the hand then turned into another (``Table.amended``) is counted, not as wrong.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from controller.referee import Discrepancy, NotRecorded, TakeBack
from controller.service import TableService

if TYPE_CHECKING:  # imported by `tabletop sim`, which `tabletop run` shares a parser with
    from simulator.virtual_table import VirtualTable


class HandToLight:
    def __init__(self, table: VirtualTable, service: TableService) -> None:
        self.service = service
        self.put_ms: list[float] = []
        self.lift_ms: list[float] = []
        self.slide_ms: list[float] = []
        self.scan_ms: list[float] = []
        """The table's scan (its slowest hub's) at each step timed."""
        self.judged_wrong = 0
        """Judgements that the table disagrees with the game (a mistake shown, an undo)."""
        self._hand: tuple[str, float] | None = None
        """The last hand movement not yet answered: ("put", "lift" or "slide", when)."""
        self._board = table.board()
        chained = table.on_change

        def changed(board: dict[str, str]) -> None:
            laid = any(self._board.get(site) != piece for site, piece in board.items())
            self._hand = ("put" if laid else "lift", time.monotonic())
            self._board = board
            if chained is not None:
                chained(board)

        table.on_change = changed
        pressed, dragged = table.press, table.drag

        async def press(role: str) -> None:
            self._hand = None  # what follows answers the button, not a hand
            await pressed(role)

        async def drag(*args: Any, **kwargs: Any) -> None:
            await dragged(*args, **kwargs)
            if self._hand is not None:  # its landing, not answered yet
                self._hand = ("slide", self._hand[1])

        table.press = press  # type: ignore[method-assign]
        table.drag = drag  # type: ignore[method-assign]
        judge = service.judge
        times = {"put": self.put_ms, "lift": self.lift_ms, "slide": self.slide_ms}

        def last_step() -> tuple[int, int]:  # an amended step changes it as well
            return len(service.table.actions), service.table.amended

        def timed_judge() -> None:
            before, hand = last_step(), self._hand
            decided = service.table.decision
            judge()
            decision = service.table.decision
            if decision != decided and isinstance(decision, Discrepancy | TakeBack) and (
                    not isinstance(decision, NotRecorded)):
                self.judged_wrong += 1
            if hand is None or last_step() == before:
                return
            answered = time.monotonic()
            times[hand[0]].append(round((answered - hand[1]) * 1000, 1))
            self.scan_ms.append(round(max(hub.period for hub in service.hubs) * 1000, 1))
            self._hand = None

        service.judge = timed_judge  # type: ignore[method-assign]

    def figures(self) -> dict[str, Any]:
        return {"put_ms": self.put_ms, "lift_ms": self.lift_ms, "slide_ms": self.slide_ms,
                "scan_ms": self.scan_ms, "judged_wrong": self.judged_wrong,
                "amended": self.service.table.amended}
