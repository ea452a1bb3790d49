"""The reader hub's logic: self-test, scan, debounce, report, answer the host.

Hardware comes in through three small interfaces so the same code runs on the RP2040 and in
tests under MicroPython with fakes:

- reader: ``version() -> int`` (the MFRC522 VersionReg), ``init()``, ``antenna(on)``, and
  the three parts of an inventory (every UID in its field): ``check(known) -> list`` (the
  known ones still there; or ``checking(known)``, the same as a generator that yields while
  each frame is on the air), ``request()`` (send a REQA, do not wait) and
  ``collect(present) -> list`` (its answer, and every new tag); any exception is a bus
  fault.
- port: ``write(bytes)`` and ``read() -> bytes`` (non-blocking, b"" when nothing waits).
- clock: ``ticks_ms()``, ``ticks_us()``, ``ticks_add(t, d)``, ``ticks_diff(a, b)`` and
  ``sleep_ms(ms)`` (MicroPython's ``time`` module itself on the device).

A reader's field may hold several tags (a stack of tiles, a tower): the hub reports each one,
TAG_ARRIVED when it is first read (and again when it comes back after REPUT_MISSES missed
scans: put back on top) and TAG_LEFT once it was missed in ``miss_limit`` scans in a row.
With a field schedule (config.FIELD_CLASSES) the readers are scanned class by class: the
class's fields on, the tags' power-up waited once, the readers' inventories, the fields off, so
that no two nearby fields are ever on together (docs/wiring.md). On a table with several hubs
the classes are the table's slots, the same on every hub (a hub's class may be empty), and a
slot line keeps the hubs in the same slot, so that two hubs' neighbouring fields are never on
together either. Without one every field stays on and all readers form one class. Within a
class the hub checks each reader's known tags and starts its REQA, then collects the answers:
the REQA nobody answers (0.5 ms per reader) waits while the hub works on the others. A bad
reader is reported and retried, never allowed to stop the scan of the others.

The host may name the readers to *watch* (SET_WATCH: those a legal step could change next):
then a watched reader and every empty one are read every scan, the other stacks only one scan
in ``stride`` (taking turns). Checking a deep stack's tags is what makes a scan long, and what
changes there, where no legal step can, is a mistake, which may be seen a little later. A
reader whose tags changed is read every scan for a stride of scans all the same, so that a
piece a hand drags over it is seen leaving as soon as it leaves.
"""

import protocol as p

# Version register values of MFRC522 chips and the common compatible clones.
KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2, 0x12, 0x15)
FAULT_AFTER = 3  # consecutive failed transfers before a working reader counts as faulty
MAX_MISS_LIMIT = 50
MAX_SCAN_PAUSE_MS = 5000
MAX_REQUEST = 32  # a REQUEST_SNAPSHOT names readers in a bitmap of at most 256 bits
CHANGES = (p.TAG_ARRIVED, p.TAG_LEFT, p.READER_FAULT)  # the frames a snapshot part counts
MAX_STRIDE = 50  # a watched hub reads its other stacks at least one scan in this many
MAX_TAGS = 16  # per reader: more tags in one field than this is noise, not a stack
REPUT_MISSES = 2
"""A tag read again after this many missed scans in a row (fewer than the miss limit) was
lifted and put back, on top of its stack: it is announced again. A single miss is a flicker."""


def classify_version(version: int) -> int:
    """Self-test verdict from the version register: silence reads as 0x00 or 0xFF."""
    if version in KNOWN_VERSIONS:
        return p.OK
    if version in (0x00, 0xFF):
        return p.NO_RESPONSE
    return p.BAD_VERSION


def _checks(reader: object, known: tuple):
    """A reader's known tags checked frame by frame (its ``checking``), or all at once by a
    reader that cannot (its ``check``)."""
    if hasattr(reader, "checking"):
        present = yield from reader.checking(known)
    else:
        present = reader.check(known)
    return present


def check_schedule(schedule: list, reader_count: int) -> list:
    """The field classes as lists, every reader in exactly one; raises ValueError. A class may
    be empty on a hub that shares its table's slots with other hubs (it waits, fields off)."""
    classes = [list(members) for members in schedule]
    seen = sorted(r for members in classes for r in members)
    if seen != list(range(reader_count)) or not classes:
        raise ValueError(f"FIELD_CLASSES must name every reader 0..{reader_count - 1} exactly "
                         "once")
    return classes


class _Slot:
    """What the hub knows about one reader."""

    def __init__(self) -> None:
        self.status = p.NO_RESPONSE
        self.version = 0
        self.uids = []  # the tags in its field, in the order they arrived
        self.misses = {}  # uid -> scans in a row it was not read
        self.errors = 0
        self.retry_at = 0
        self.lively = 0  # reads to come every scan, watched or not: its tags just changed


class Hub:
    def __init__(
        self,
        readers: list,
        port: object,
        clock: object,
        firmware_version: str,
        miss_limit: int = 3,
        scan_pause_ms: int = 0,
        heartbeat_ms: int = 1000,
        retry_ms: int = 2000,
        hub_id: bytes = b"",
        schedule: list | None = None,
        power_up_ms: int = 5,
        sync: object = None,
    ) -> None:
        self.readers = readers
        self.hub_id = bytes(hub_id)
        self.switching = schedule is not None
        self.schedule = check_schedule(
            schedule if schedule is not None else [list(range(len(readers)))], len(readers))
        self.power_up_ms = power_up_ms
        self.sync = sync
        """The slot line shared with the table's other hubs (``slot(index)`` returns when
        every hub may start class ``index``); None on a table with one hub."""
        self.port = port
        self.clock = clock
        self.firmware_version = firmware_version
        self.miss_limit = miss_limit
        self.scan_pause_ms = scan_pause_ms
        self.heartbeat_ms = heartbeat_ms
        self.retry_ms = retry_ms
        self.slots = [_Slot() for _ in readers]
        self.stride = 1
        """Readers that are not watched and hold tags are read one scan in this many."""
        self.watched = bytearray(len(readers))
        self.read_last = bytearray(b"\x01" * len(readers))
        """Which readers the last scan read (the simulator's timing model uses it)."""
        self.seq = 0
        self.changes = 0  # change frames sent (TAG_ARRIVED, TAG_LEFT, READER_FAULT), mod 2**16
        self.frames_in = p.FrameReader()
        self.last_command = None  # (type, sequence number) of the last command handled
        self.scan_cycles = 0
        self.missed_reads = 0
        self.cycle_us = 0
        self.started = clock.ticks_ms()
        self.last_heartbeat = self.started

    # -- output ---------------------------------------------------------------------------

    def send(self, kind: int, body: bytes) -> None:
        self.port.write(p.encode(kind, self.seq, body))
        self.seq = (self.seq + 1) & 0xFFFF
        if kind in CHANGES:
            self.changes = (self.changes + 1) & 0xFFFF

    def send_hello(self) -> None:
        """HELLO and SELF_TEST. A hello begins a host's session: the watch is dropped (every
        reader read every scan, as the host then assumes) until the host asks again."""
        self.stride, self.watched = 1, bytearray(len(self.slots))
        schedule = self.schedule if self.switching else []
        self.send(p.HELLO, p.hello_body(len(self.readers), self.miss_limit, self.hub_id,
                                        schedule, self.firmware_version))
        checks = [(slot.status, slot.version) for slot in self.slots]
        self.send(p.SELF_TEST, p.self_test_body(checks))

    def send_snapshot(self, readers: list | None = None) -> None:
        """One small frame per reader (all, or those asked for): on a noisy cable each part
        gets through on its own, and the host asks again only for the ones it missed."""
        count = len(self.slots)
        for index in range(count) if readers is None else readers:
            slot = self.slots[index]
            self.send(p.SNAPSHOT_PART,
                      p.part_body(self.changes, index, count, slot.status, slot.uids))

    def send_heartbeat(self) -> None:
        now = self.clock.ticks_ms()
        self.last_heartbeat = now
        uptime = self.clock.ticks_diff(now, self.started)
        body = p.heartbeat_body(
            uptime, self.scan_cycles, self.frames_in.errors, self.missed_reads, self.cycle_us
        )
        self.send(p.HEARTBEAT, body)

    # -- readers --------------------------------------------------------------------------

    def _probe(self, index: int) -> int:
        """Read the version register and initialise; returns the new status."""
        slot = self.slots[index]
        try:
            slot.version = self.readers[index].version() & 0xFF
            status = classify_version(slot.version)
            if status == p.OK:  # with a schedule the field stays off until its class's slot
                self.readers[index].init(antenna=not self.switching)
        except Exception:  # a dead bus may raise anything; it must not stop the hub
            status = p.NO_RESPONSE
        slot.errors = 0
        slot.retry_at = self.clock.ticks_add(self.clock.ticks_ms(), self.retry_ms)
        return status

    def boot(self) -> None:
        """Self-test every reader (version register), then announce ourselves."""
        for index, slot in enumerate(self.slots):
            slot.status = self._probe(index)
        self.send_hello()

    def _retry(self, index: int) -> None:
        slot = self.slots[index]
        if self.clock.ticks_diff(self.clock.ticks_ms(), slot.retry_at) < 0:
            return
        status = self._probe(index)
        if status != slot.status:
            slot.status = status
            self.send(p.READER_FAULT, p.fault_body(index, status))

    def _failed(self, index: int) -> None:
        slot = self.slots[index]
        self.missed_reads += 1
        slot.errors += 1
        if slot.errors >= FAULT_AFTER:
            slot.status = p.COMM_ERROR
            slot.retry_at = self.clock.ticks_add(self.clock.ticks_ms(), self.retry_ms)
            self.send(p.READER_FAULT, p.fault_body(index, p.COMM_ERROR))

    def _read_class(self, members: list) -> None:
        """Every reader of a class: the known tags checked, the readers taking turns frame by
        frame so that their frames fly side by side; a REQA started on each as its checks are
        done; then the answers collected, so the readers' waits overlap."""
        checking = []
        for index in members:
            if self.slots[index].status != p.OK:
                self._retry(index)
            else:
                checking.append((index, _checks(self.readers[index],
                                                tuple(self.slots[index].uids))))
        started = []
        while checking:
            for item in list(checking):
                index, steps = item
                try:
                    next(steps)
                    continue
                except StopIteration as done:
                    checking.remove(item)
                    present = done.value
                except Exception:
                    checking.remove(item)
                    self._failed(index)
                    continue
                try:
                    self.readers[index].request()
                except Exception:
                    self._failed(index)
                    continue
                started.append((index, present))
        for index, present in started:
            try:
                uids = [bytes(uid) for uid in self.readers[index].collect(present)]
                if len(uids) > MAX_TAGS or any(len(uid) not in (4, 7, 10) for uid in uids):
                    raise ValueError("not ISO 14443-A UIDs")
            except Exception:
                self._failed(index)
                continue
            self.slots[index].errors = 0
            self._report(index, uids)
            self.poll()

    def _report(self, index: int, uids: list) -> None:
        """Arrivals, misses and departures; a reader whose tags changed is read every scan
        for a stride of scans, watched or not (a piece dragged over it is seen leaving)."""
        slot = self.slots[index]
        slot.lively = max(0, slot.lively - 1)
        for uid in uids:
            missed = slot.misses.pop(uid, 0)
            if uid not in slot.uids:
                slot.uids.append(uid)
                slot.lively = self.stride
                self.send(p.TAG_ARRIVED, p.tag_body(index, uid))
            elif missed >= REPUT_MISSES:  # lifted and put back: it is on top now
                slot.uids.remove(uid)
                slot.uids.append(uid)
                self.send(p.TAG_ARRIVED, p.tag_body(index, uid))
        for uid in list(slot.uids):
            if uid in uids:
                continue
            self.missed_reads += 1
            slot.lively = self.stride
            slot.misses[uid] = slot.misses.get(uid, 0) + 1
            if slot.misses[uid] >= self.miss_limit:
                slot.uids.remove(uid)
                del slot.misses[uid]
                self.send(p.TAG_LEFT, p.tag_body(index, uid))

    def _switch(self, members: list, on: bool) -> None:
        """A faulty reader's field is not switched on; every field is switched off, that of a
        reader that failed during its slot too (its field must not stay on in others' slots)."""
        for index in members:
            if on and self.slots[index].status != p.OK:
                continue
            try:  # noqa: SIM105 - MicroPython has no contextlib
                self.readers[index].antenna(on)
            except Exception:  # the scan that follows counts the fault
                pass

    def _due(self, index: int) -> bool:
        """Is this reader read in this scan? Every one without a watch; with one, a watched
        reader, an empty one (it costs one REQA), one whose tags just changed, and the other
        stacks one scan in ``stride``, taking turns."""
        slot = self.slots[index]
        due = (self.stride == 1 or self.watched[index] or not slot.uids or slot.lively > 0
               or (self.scan_cycles + index) % self.stride == 0)
        self.read_last[index] = 1 if due else 0
        return due

    def scan_cycle(self) -> None:
        """Read every reader due, class by class, emitting arrivals, departures and faults."""
        start = self.clock.ticks_us()
        for index, members in enumerate(self.schedule):
            if self.sync is not None:
                self.sync.slot(index)
            members = [r for r in members if self._due(r)]
            if not members:
                continue  # another hub's readers have this slot, or none is due
            if self.switching:
                self._switch(members, True)
                self.clock.sleep_ms(self.power_up_ms)  # the tags' power-up, once per class
            self._read_class(members)
            if self.switching:
                self._switch(members, False)
        self.scan_cycles += 1
        self.cycle_us = self.clock.ticks_diff(self.clock.ticks_us(), start)

    # -- host commands --------------------------------------------------------------------

    def poll(self) -> None:
        data = self.port.read()
        if data:
            for kind, seq, body in self.frames_in.feed(data):
                if (kind, seq) == self.last_command:
                    continue  # the host sent it twice over a noisy cable: answer it once
                self.last_command = (kind, seq)
                self.handle(kind, body)

    def handle(self, kind: int, body: bytes) -> None:
        expected = {p.REQUEST_HELLO: 0, p.REQUEST_SNAPSHOT: 0, p.PING: 4, p.SET_SCAN: 3,
                    p.SET_WATCH: 1}
        if kind not in expected:
            self.send(p.COMMAND_ERROR, p.command_error_body(kind, p.UNKNOWN_COMMAND))
        elif kind == p.REQUEST_SNAPSHOT and len(body) <= MAX_REQUEST:
            self.send_snapshot(p.wanted_readers(body, len(self.slots)))
        elif kind == p.SET_WATCH and 1 <= len(body) <= 1 + MAX_REQUEST:
            self.watch(body)
        elif len(body) != expected[kind]:
            self.send(p.COMMAND_ERROR, p.command_error_body(kind, p.BAD_LENGTH))
        elif kind == p.REQUEST_HELLO:
            self.send_hello()
        elif kind == p.PING:
            self.send(p.PONG, bytes(body))
        else:
            misses = body[0]
            pause = body[1] | (body[2] << 8)
            if not 1 <= misses <= MAX_MISS_LIMIT or pause > MAX_SCAN_PAUSE_MS:
                self.send(p.COMMAND_ERROR, p.command_error_body(kind, p.BAD_VALUE))
                return
            self.miss_limit = misses
            self.scan_pause_ms = pause
            self.send(p.SETTINGS, p.settings_body(misses, pause))

    def watch(self, body: bytes) -> None:
        """SET_WATCH: the stride, then a bitmap of the readers to read every scan; answered
        with WATCHING and the same body, so the host knows what its timing may count on."""
        if not 1 <= body[0] <= MAX_STRIDE:
            self.send(p.COMMAND_ERROR, p.command_error_body(p.SET_WATCH, p.BAD_VALUE))
            return
        watched = bytearray(len(self.slots))
        for index in p.wanted_readers(body[1:], len(self.slots)) if len(body) > 1 else ():
            watched[index] = 1
        self.stride, self.watched = body[0], watched
        self.send(p.WATCHING, bytes(body))

    # -- main loop ------------------------------------------------------------------------

    def step(self) -> None:
        """One scan cycle plus whatever is due; the device loop calls this forever."""
        self.scan_cycle()
        self.poll()
        now = self.clock.ticks_ms()
        if self.clock.ticks_diff(now, self.last_heartbeat) >= self.heartbeat_ms:
            self.send_heartbeat()
