"""The wire that keeps a table's hubs in step: every hub reads its readers in the table's
slots (``hardware.field_schedule.table_schedules``), and none starts slot ``n`` until every
hub on the line has finished the slot before. Two hubs' neighbouring fields are then never on
together, which they would be if each ran its own clock (their carriers garble each other's
answers, as one hub's fields would without its schedule).

On a board this is one open-drain line between the hubs (docs/wiring.md, Several hubs); here
it is a barrier between the virtual hubs' threads. A hub that is unplugged or stalls leaves
the line, and one that does not come for ``timeout`` seconds is left out until it comes again,
so one dead hub never stops the others for long. (The timeout is generous: on a busy machine a
hub's thread may wait a while for the CPU, and hubs out of step garble each other.)
"""

from __future__ import annotations

import threading


class SlotLine:
    def __init__(self, timeout: float = 5.0) -> None:
        self.timeout = timeout
        self._members: set[object] = set()
        self._waiting: dict[object, int] = {}
        """Hubs at the line now, with the slot each is about to start."""
        self._cond = threading.Condition()
        self.timeouts = 0
        """Times a hub went on without one that did not come (stalled or unplugged)."""

    def attach(self, member: object) -> None:
        """A hub plugged in: from now on the others wait for it."""
        with self._cond:
            self._members.add(member)

    def detach(self, member: object) -> None:
        """A hub unplugged: the others no longer wait for it."""
        with self._cond:
            self._members.discard(member)
            self._waiting.pop(member, None)
            self._release()

    def tap(self, member: object, stop: threading.Event | None = None) -> SlotTap:
        """What the firmware of ``member`` calls (its ``sync``); once ``stop`` is set (the
        hub is being unplugged) it no longer waits."""
        return SlotTap(self, member, stop or threading.Event())

    def wait(self, member: object, index: int) -> None:
        """Return when every hub on the line may start its slot ``index``. A hub (re)joins by
        calling; one that does not come within ``timeout`` is left out until it calls again."""
        with self._cond:
            self._members.add(member)
            self._waiting[member] = index
            self._release()
            if not self._cond.wait_for(lambda: member not in self._waiting, self.timeout):
                self.timeouts += 1
                self._members.intersection_update(self._waiting)
                self._release()
                self._waiting.pop(member, None)

    def _release(self) -> None:
        """When every hub is at the line: all go on if they are at the same slot; otherwise
        the ones in the middle of a scan go on and those at its start (slot 0) hold, so hubs
        that fell out of step are back in step at the next start."""
        if not self._waiting or not self._members <= self._waiting.keys():
            return
        slots = set(self._waiting.values())
        going = [m for m, slot in self._waiting.items() if len(slots) == 1 or slot != 0]
        for member in going:
            del self._waiting[member]
        self._cond.notify_all()


class SlotTap:
    """One hub's end of the line: the firmware's ``sync.slot(index)``."""

    def __init__(self, line: SlotLine, member: object, stop: threading.Event) -> None:
        self.line = line
        self.member = member
        self.stop = stop

    def slot(self, index: int) -> None:
        if not self.stop.is_set():
            self.line.wait(self.member, index)
