"""What a player feels: from the hand that finishes a step (the last piece laid or lifted) to
the LEDs confirming the move, measured on a virtual table during autoplay.

The step's last hand movement is taken from the virtual table's own change callback; the
confirmation is the end of the judgement that accepts the step (it relights the strip before
it returns). Steps finished by a button press (the service's own draws, silent actions) are
not hand steps and are left out. A piece dragged over other sites before it lands is timed
from its landing, as a slide. A step judged early that the hand then turned into another
(``ProvisionalStep.amended``) is counted, not as wrong.

Mistakes (``bench mistakes``): while a wrong board of the bots' lies on the table
(``mistake``), the first judgement that it is wrong is its red light, timed from the hand that
finished it; once the hand has put it back, the judgement that the board agrees with the game
again clears it, timed from the hand's last movement. A wrong verdict is a mistake taken as a
step, or a red light (or a take-back offer) on a right board that stays until a hand or a
button moves on. Counted apart: a red on a right board that the table withdraws by itself (a
search found the dealing that explains it), and a mistake the table read as a step under way
(it lights where that step can go on; a swap of two tikis is the beginning of a move).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from controller.referee import Discrepancy, NoChange, NotRecorded, TakeBack
from controller.service import TableService


class HandsOnTable(Protocol):
    """What the timing needs of a table that hands move pieces on (the simulator's virtual
    table, which this room may not import): its board, a callback for every change, and the
    hand's own gestures, which the timing wraps."""

    on_change: Callable[[dict[str, str]], None] | None

    def board(self) -> dict[str, str]: ...

    async def press(self, role: str) -> None: ...

    async def drag(self, *args: Any, **kwargs: Any) -> None: ...


class HandToLight:
    def __init__(self, table: HandsOnTable, service: TableService) -> None:
        self.service = service
        self.put_ms: list[float] = []
        self.lift_ms: list[float] = []
        self.slide_ms: list[float] = []
        self.scan_ms: list[float] = []
        """The table's scan (its slowest hub's) at each step timed."""
        self.red_ms: list[float] = []
        """Per mistake: its wrong board finished to the table saying it is wrong."""
        self.cleared_ms: list[float] = []
        """Per mistake put back: the hand's last movement to the board agreeing again."""
        self.judged_wrong = 0
        """Wrong verdicts (see above)."""
        self.withdrawn = 0
        """Red lights on a right board that the table withdrew by itself."""
        self.mistake: Callable[[], object | None] = lambda: None
        """The bots' wrong board on the table now, if any (set by whoever runs the bots)."""
        self.mistakes_made: Callable[[], int] = lambda: 0
        self._hand: tuple[str, float] | None = None
        """The last hand movement not yet answered: ("put", "lift" or "slide", when)."""
        self._moved_at = time.monotonic()
        """The last hand movement, answered or not."""
        self._called: object | None = None
        """The last wrong board the table called wrong."""
        self._clearing = False
        """A mistake called wrong is being put back: the next agreement clears it."""
        self._red_on_right = False
        """The table says a right board is wrong: withdrawn, or a wrong verdict at the next
        hand movement or button press."""
        self._board = table.board()
        chained = table.on_change

        def changed(board: dict[str, str]) -> None:
            laid = any(self._board.get(site) != piece for site, piece in board.items())
            self._hand = ("put" if laid else "lift", time.monotonic())
            self._moved_at = self._hand[1]
            self._board = board
            self._moved_on()
            if chained is not None:
                chained(board)

        table.on_change = changed
        pressed, dragged = table.press, table.drag

        async def press(role: str) -> None:
            self._hand = None  # what follows answers the button, not a hand
            self._moved_on()
            await pressed(role)

        async def drag(*args: Any, **kwargs: Any) -> None:
            await dragged(*args, **kwargs)
            if self._hand is not None:  # its landing, not answered yet
                self._hand = ("slide", self._hand[1])

        table.press = press  # type: ignore[method-assign]
        table.drag = drag  # type: ignore[method-assign]
        judge = service.judge

        def timed_judge() -> None:
            before, hand, decided = self._last_step(), self._hand, service.table.decision
            judge()
            self._judged(before, hand, decided)

        service.judge = timed_judge  # type: ignore[method-assign]

    def _last_step(self) -> tuple[int, int]:  # an amended step changes it as well
        return len(self.service.table.actions), self.service.table.provisional.amended

    def _judged(self, before: tuple[int, int], hand: tuple[str, float] | None,
                decided: object) -> None:
        """After a judgement: time the hand that finished a step, or the mistake lit red or
        cleared, and count the wrong verdicts."""
        service = self.service
        decision = service.table.decision
        answered = time.monotonic()
        stepped = self._last_step() != before
        red = isinstance(decision, Discrepancy | TakeBack) and (
            not isinstance(decision, NotRecorded))
        wrong_board = self.mistake()
        if wrong_board is not None:
            if stepped:
                self.judged_wrong += 1  # a mistake taken as a step
            elif red and wrong_board is not self._called:
                self._called, self._clearing = wrong_board, True
                self.red_ms.append(round((answered - self._moved_at) * 1000, 1))
        elif self._clearing and (stepped or isinstance(decision, NoChange)):
            self._clearing = False  # put back (or put right): the board agrees again
            if not stepped:
                self.cleared_ms.append(round((answered - self._moved_at) * 1000, 1))
        elif red and decision != decided:
            self._red_on_right = True
        if stepped and self._red_on_right:
            self._red_on_right = False
            self.withdrawn += 1
        if hand is None or not stepped:
            return
        times = {"put": self.put_ms, "lift": self.lift_ms, "slide": self.slide_ms}
        times[hand[0]].append(round((answered - hand[1]) * 1000, 1))
        self.scan_ms.append(round(max(hub.period for hub in service.hubs) * 1000, 1))
        self._hand = None

    def _moved_on(self) -> None:
        """A hand or a button goes on: a red on a right board still lit was a wrong verdict."""
        if self._red_on_right:
            self._red_on_right = False
            self.judged_wrong += 1

    def figures(self) -> dict[str, Any]:
        self._moved_on()  # the game is over: a red still lit stayed
        return {"put_ms": self.put_ms, "lift_ms": self.lift_ms, "slide_ms": self.slide_ms,
                "scan_ms": self.scan_ms, "red_ms": self.red_ms, "cleared_ms": self.cleared_ms,
                "judged_wrong": self.judged_wrong, "withdrawn": self.withdrawn,
                "not_red": max(0, self.mistakes_made() - len(self.red_ms)),
                "amended": self.service.table.provisional.amended}
