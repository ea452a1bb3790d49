"""A fake reader hub that writes real protocol frames to a real pty.

The port is reached through a symlink in tmp_path (as udev's /dev/serial/by-id links are), so
"unplugging" closes the pty and removes the link, and "plugging in" makes a new pty and points
the link at it: the host reopens the same path, like a real cable being reconnected.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware import codec
from hardware.protocol import (
    PROTOCOL_VERSION,
    Hello,
    Message,
    Ping,
    Pong,
    ReaderCheck,
    ReaderFault,
    ReaderState,
    ReaderStatus,
    RequestHello,
    RequestSnapshot,
    SelfTest,
    SnapshotPart,
    TagArrived,
    TagLeft,
)


class FakeHub:
    def __init__(self, link_path: Path, readers: int = 3) -> None:
        self.link_path = link_path
        self.readers = readers
        self.uids: dict[int, bytes] = {}
        self.seq = 0
        self.changes = 0
        """Change frames sent (or lost by `skip`), as snapshot parts count them."""
        self.commands: list[Message] = []
        self.answer_hello = True
        self.noisy_snapshots: list[dict[int, bytes]] = []
        """Readings that replace `uids` for the next snapshots, one per request (misreads)."""
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug_in()

    @property
    def url(self) -> str:
        return str(self.link_path)

    # -- cable ------------------------------------------------------------------------------

    def plug_in(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        self._master, self._slave = master, slave
        with contextlib.suppress(FileNotFoundError):
            self.link_path.unlink()
        self.link_path.symlink_to(os.ttyname(slave))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(master, self._stop), daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        with contextlib.suppress(FileNotFoundError):
            self.link_path.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    # -- frames -----------------------------------------------------------------------------

    def send(self, message: Message) -> None:
        with self._lock:
            frame = codec.encode(message, self.seq)
            self.seq = (self.seq + 1) & 0xFFFF
            if isinstance(message, TagArrived | TagLeft | ReaderFault):
                self.changes = (self.changes + 1) & 0xFFFF
        self.send_raw(frame)

    def send_raw(self, data: bytes) -> None:
        assert self._master is not None, "the fake hub is unplugged"
        os.write(self._master, data)

    def skip(self, frames: int, changes: bool = True) -> None:
        """Pretend frames were lost on the wire (changes: they reported tags or faults)."""
        with self._lock:
            self.seq = (self.seq + frames) & 0xFFFF
            if changes:
                self.changes = (self.changes + frames) & 0xFFFF

    def snapshot(self, readers: tuple[int, ...] = ()) -> list[SnapshotPart]:
        """The parts answering a REQUEST_SNAPSHOT for ``readers`` (empty: every reader)."""
        uids = self.noisy_snapshots.pop(0) if self.noisy_snapshots else self.uids
        return [SnapshotPart(self.changes, i, self.readers,
                             ReaderState(ReaderStatus.OK, (uids[i],) if uids.get(i) else ()))
                for i in readers or range(self.readers)]

    def lay(self, reader: int, uid: bytes) -> None:
        """A person puts a tag on a reader: the hub reports it and later snapshots show it."""
        assert 0 <= reader < self.readers, f"the fake hub has readers 0..{self.readers - 1}"
        self.uids[reader] = uid
        self.send(TagArrived(reader, uid))

    def lift(self, reader: int) -> None:
        uid = self.uids.pop(reader)
        self.send(TagLeft(reader, uid))

    def _serve(self, master: int, stop: threading.Event) -> None:
        decoder = codec.StreamDecoder()
        last = None
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            for packet in decoder.feed(data):
                if (packet.message, packet.seq) == last:
                    continue  # a request written twice over a noisy cable, as the firmware
                last = (packet.message, packet.seq)
                self.commands.append(packet.message)
                self._answer(packet.message)

    def _answer(self, message: Message) -> None:
        match message:
            case RequestHello() if self.answer_hello:
                self.send(Hello(PROTOCOL_VERSION, self.readers, 3, "fake-hub 0.1"))
                checks = tuple(ReaderCheck(ReaderStatus.OK, 0x92) for _ in range(self.readers))
                self.send(SelfTest(checks))
            case RequestSnapshot(readers):
                for part in self.snapshot(readers):
                    self.send(part)
            case Ping(token):
                self.send(Pong(token))


@pytest.fixture
def fake_hub(tmp_path: Path) -> Iterator[FakeHub]:
    hub = FakeHub(tmp_path / "ttyHUB")
    yield hub
    hub.unplug()
