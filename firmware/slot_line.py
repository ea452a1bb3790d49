"""The slot line on a real board: keeps a table's hubs in the same field slot (docs/wiring.md,
Several hubs). The hub calls ``slot(index)`` before each slot of a scan; it returns when every
hub on the line has finished the slot before, so that two hubs' neighbouring fields are never
on together. ``simulator/slot_line.py`` is the same barrier between threads.

Four open-drain lines join the hubs, each with one pull-up: three phase lines P0, P1, P2 and
FRAME. A hub holds a line by driving it low; the line is high only when no hub holds it.

- Slots are counted over a *period* of ``3 * ceil(slots / 3)``: the scan's slots, then up to
  two empty padding slots (nothing is read in them), so slot ``v`` of the period always uses
  line ``P[v % 3]``, scan after scan, whatever the number of slots.
- While working on slot ``v`` a hub holds ``P[v % 3]``. To go on to ``v + 1`` it first holds
  ``P[(v + 1) % 3]``, then releases ``P[v % 3]`` and waits until that line reads high: every hub
  has finished ``v``. It cannot miss that moment: the line is held again only by a hub that
  finished ``v + 2``, which needs this hub's ``P[(v + 1) % 3]`` released first (with two lines a
  hub paused for a moment could miss it, and the hubs would deadlock or slip).
- FRAME marks the period's last slot: a hub holds it from entering that slot until it enters
  slot 0 (at least ``dwell_us``, so a joining hub cannot miss it).
- A hub that (re)joins (at boot, after a timeout) does so at the start of its next scan: it
  waits until FRAME reads low (the others are in their last slot), holds P0 as a hub done with
  that slot does, checks FRAME is still low (the others are not past slot 0 yet), waits until
  P2 reads high and starts slot 0 with the others; so it never reads out of step (a FRAME on
  slot 0 with joiners entering slot 1 would not do: hub.py reads every slot it calls for, so a
  joiner cannot skip one, and would read its slot 0 out of step). If FRAME
  stays high for ``join_ms`` (longer than a scan) and no phase line was seen low, nobody else
  is running: it starts alone, entering the period's last slot with FRAME held, so that hubs
  booting with it join it rather than start alone too, a few slots apart. (Phase lines held
  but no FRAME: a stuck hub; that counts as a timeout, and it tries again next scan.)
- A wait longer than ``timeout_ms`` means another hub is stuck or unpowered (an unpowered
  RP2040 clamps a pulled-up line low): the hub counts it in ``timeouts``, releases every line,
  reads the rest of that scan on its own (as a table with one hub would) and rejoins at the next
  scan. A hub that itself spent longer than ``timeout_ms`` in a slot knows the others went on
  without it, and falls out too. No wait lasts longer than ``timeout_ms`` (``join_ms`` to
  join), so a scan waits about ``join_ms + 2 * timeout_ms`` at most, well inside the 8 s
  watchdog.
- Hubs that started alone at nearly the same time may end up a multiple of 3 slots apart
  (the phases agree, the slot numbers do not). A hub in step sees no FRAME while it waits to
  leave a slot ``v`` with ``v % 3 == 2`` before the last one; if it does, another hub is in its
  last slot now: it counts a slip in ``slips``, falls out and rejoins.
"""


class SlotLine:
    """One hub's end of the slot line: the hub's ``sync``.

    pins: P0, P1, P2 and FRAME as open-drain pins (``value(0)`` holds the line, ``value(1)``
    lets it go, ``value()`` reads it), or their GPIO numbers with ``make_pin(number)``.
    slots: the number of slots in a scan (``len(FIELD_CLASSES)``, the same on every hub).
    clock: ``ticks_us()`` and ``ticks_diff(a, b)`` (MicroPython's ``time`` on the device).
    """

    def __init__(self, pins: list, slots: int, clock: object, timeout_ms: int = 1000,
                 join_ms: int | None = None, dwell_us: int = 300,
                 make_pin: object = None) -> None:
        if len(pins) != 4:
            raise ValueError("a slot line needs 4 pins: P0, P1, P2 and FRAME")
        if slots < 1:
            raise ValueError("a scan has at least one slot")
        if make_pin is not None:
            pins = [make_pin(number) for number in pins]
        self.phases = list(pins[:3])
        self.frame = pins[3]
        self.slots = slots
        self.period = 3 * ((slots + 2) // 3)
        self.clock = clock
        self.timeout_us = timeout_ms * 1000
        self.join_us = (timeout_ms if join_ms is None else join_ms) * 1000
        self.dwell_us = dwell_us
        self.at = None
        """The slot of the period this hub works on now; None while out of step."""
        self.entered = 0  # ticks_us when it entered the period's last slot
        self.since = 0  # ticks_us when it entered the slot it works on
        self.timeouts = 0
        """Times it fell out of step: a wait given up (another hub stuck, unpowered, a clamped
        line), or a slot of its own that outlasted the others' patience."""
        self.slips = 0
        """Times this hub found itself a multiple of 3 slots off the others and rejoined."""
        self.joins = 0
        """Times it joined hubs already running (not counting starts alone)."""
        self._release_all()

    @property
    def in_step(self) -> bool:
        return self.at is not None

    def slot(self, index: int) -> None:
        """Return when every hub on the line may start slot ``index`` (or at once, out of step:
        after a timeout the rest of the scan is read alone; a scan's slot 0 rejoins)."""
        if not 0 <= index < self.slots:
            raise ValueError("slot index out of range")
        if self.at is None and (index != 0 or not self._join() or self.at == 0):
            return
        while True:  # through the padding slots at the end of a scan, if any
            following = (self.at + 1) % self.period
            if not self._step(following):
                return
            if following == index:
                return

    # -- the lines ------------------------------------------------------------------------

    def _release_all(self) -> None:
        for pin in self.phases:
            pin.value(1)
        self.frame.value(1)

    def _fall_out(self) -> None:
        self._release_all()
        self.at = None

    def _wait_high(self, line: object, watch_frame: bool) -> bool:
        """Poll until ``line`` reads high; False on a timeout (counted) or, with
        ``watch_frame``, a FRAME seen low (a slip, counted). Either way the hub falls out."""
        clock = self.clock
        start = clock.ticks_us()
        while line.value() == 0:
            if watch_frame and self.frame.value() == 0:
                self.slips += 1
                self._fall_out()
                return False
            if clock.ticks_diff(clock.ticks_us(), start) > self.timeout_us:
                self.timeouts += 1
                self._fall_out()
                return False
        return True

    def _step(self, following: int) -> bool:
        """The barrier from slot ``self.at`` to ``following``; False if the hub fell out."""
        current = self.at
        last = self.period - 1
        clock = self.clock
        if clock.ticks_diff(clock.ticks_us(), self.since) > self.timeout_us:
            self.timeouts += 1  # this hub kept the others waiting so long that they went on
            self._fall_out()
            return False
        line = self.phases[current % 3]
        watch_frame = current % 3 == 2 and current != last  # no hub in step holds FRAME now
        if watch_frame and self.frame.value() == 0:
            self.slips += 1
            self._fall_out()
            return False
        if current == last:  # hold FRAME long enough for a joining hub to see it
            while clock.ticks_diff(clock.ticks_us(), self.entered) < self.dwell_us:
                pass
        self.phases[following % 3].value(0)
        line.value(1)
        if not self._wait_high(line, watch_frame):
            return False
        self.at = following
        self.since = clock.ticks_us()
        if following == last:
            self.frame.value(0)
            self.entered = self.since
        elif following == 0:
            self.frame.value(1)
        return True

    def _join(self) -> bool:
        """At the start of a scan, out of step: join the others as they enter slot 0 (True,
        ``at`` 0), or, if nobody has held FRAME for ``join_ms``, start alone in the period's
        last slot (True, ``at`` the last: FRAME held, so a hub booting with it joins it)."""
        clock = self.clock
        self._release_all()
        start = clock.ticks_us()
        busy = False  # a phase line seen held: hubs are running, FRAME will come
        while clock.ticks_diff(clock.ticks_us(), start) < self.join_us:
            if self.frame.value() != 0:
                busy = busy or self._held()
                continue
            entered = self._enter()
            if entered is not None:
                return entered
        if busy or self._held():
            # hubs are running: one may just have started alone (it holds P2, then FRAME)
            start = clock.ticks_us()
            while clock.ticks_diff(clock.ticks_us(), start) < self.dwell_us:
                if self.frame.value() == 0:
                    entered = self._enter()
                    if entered is not None:
                        return entered
            self.timeouts += 1  # lines held but no FRAME: a stuck hub (or this one was slow)
            return False
        last = self.period - 1  # like a hub entering the last slot: P2, then FRAME
        self.phases[last % 3].value(0)
        self.frame.value(0)
        self.entered = self.since = clock.ticks_us()
        self.at = last
        return True

    def _enter(self) -> bool | None:
        """FRAME was low: enter slot 0 with the others (True), time out (False), or None if
        they had just left the last slot (wait for the next scan's FRAME)."""
        self.phases[0].value(0)  # done with the last slot, as the others will be
        if self.frame.value() != 0:  # they were just leaving
            self.phases[0].value(1)
            return None
        # FRAME still low: its holder holds P2 (in the last slot) or P0 (leaving it), so no
        # hub has gone past slot 0, nor can now; P2 high: every hub is done with the last slot
        if not self._wait_high(self.phases[2], False):
            return False
        self.at = 0
        self.since = self.clock.ticks_us()
        self.joins += 1
        return True

    def _held(self) -> bool:
        """Is any phase line low? A hub in step always holds one (the next before it lets go
        of its own), so a hub that missed a FRAME (paused) does not start alone beside it."""
        return not (self.phases[0].value() and self.phases[1].value()
                    and self.phases[2].value())
