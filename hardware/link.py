"""The host end of the hub's serial link: asyncio on the outside, a blocking pyserial port
driven from worker threads on the inside (so `loop://`, ptys and real devices all work alike
and the event loop never waits on the port).

What it does for the controller: opens the port by pyserial URL, says hello and waits for the
hub's HELLO, turns frames into events, notices lost frames by their sequence numbers and asks
for a snapshot, drops corrupt input with a count, and when the cable is pulled keeps trying to
reopen with exponential backoff. `health()` tells the status page how the link is doing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from typing import Any

import serial

from hardware import codec
from hardware.errors import HardwareError
from hardware.protocol import (
    PROTOCOL_VERSION,
    Heartbeat,
    Hello,
    HostCommand,
    HubMessage,
    Message,
    Packet,
    Ping,
    ReaderFault,
    ReaderStatus,
    RequestHello,
    RequestSnapshot,
    SelfTest,
    SetScan,
    Snapshot,
)

log = logging.getLogger(__name__)

DEFAULT_BAUDRATE = 115_200
RESYNC_SECONDS = 0.1
"""Least time between two snapshot requests made because a frame was dropped."""


class HubNotConnected(HardwareError, ConnectionError):
    """A command was sent while no hub port is open."""


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between reconnection attempts: initial, times factor each time, up to maximum."""

    initial: float = 0.1
    factor: float = 2.0
    maximum: float = 5.0

    def delay(self, attempt: int) -> float:
        return min(self.maximum, self.initial * self.factor ** max(0, attempt))


@dataclass(frozen=True, slots=True)
class LinkHealth:
    """What the status page shows about the link; a snapshot, safe to hand around."""

    url: str
    connected: bool = False
    hello: Hello | None = None
    last_frame_at: float | None = None
    """time.monotonic() of the last good frame."""
    frames: int = 0
    crc_errors: int = 0
    """Frames damaged on the wire: a CRC mismatch, or stuffing or length broken so badly that
    there was no CRC to check (noise that hits a delimiter or a COBS code byte)."""
    dropped: int = 0
    """Every frame thrown away: the damaged ones plus sound frames we cannot use (unknown
    type, malformed body: a firmware that speaks another protocol version)."""
    gaps: int = 0
    reconnects: int = 0
    unexpected: int = 0
    """Well-formed frames the hub should never send (host commands echoed back)."""
    last_error: str | None = None
    heartbeat: Heartbeat | None = None
    """The hub's last heartbeat: its own counters and the real scan period (cycle_us)."""
    readers: tuple[ReaderStatus, ...] = ()
    """Health of each reader, from the self-test, fault reports and snapshots."""
    refused: str | None = None
    """Why the hub on this port cannot be used (an old protocol): flash it, then replug."""


@dataclass(frozen=True, slots=True)
class LinkUp:
    """The hub answered our hello; a snapshot has been requested."""

    hello: Hello


@dataclass(frozen=True, slots=True)
class LinkDown:
    reason: str


LinkEvent = LinkUp | LinkDown | HubMessage

SerialFactory = Callable[[str, int], Any]


def open_serial(url: str, baudrate: int) -> serial.SerialBase:
    """pyserial's URL opener with a short read timeout, so reader threads come back often."""
    return serial.serial_for_url(url, baudrate=baudrate, timeout=0.05, write_timeout=1.0)


def _read_some(port: Any) -> bytes:
    """Whatever has arrived, or after the port's timeout nothing (runs in a worker thread)."""
    return bytes(port.read(max(1, min(port.in_waiting, 4096))))


_DAMAGE = ("crc", "cobs", "short", "too_long")
"""StreamDecoder error kinds that mean the bytes were damaged in transit."""

_HOST_COMMANDS = (RequestHello, RequestSnapshot, Ping, SetScan)


class HubLink:
    def __init__(
        self,
        url: str,
        *,
        baudrate: int = DEFAULT_BAUDRATE,
        backoff: Backoff = Backoff(),
        hello_timeout: float = 1.0,
        serial_factory: SerialFactory = open_serial,
        unique_id: str | None = None,
    ) -> None:
        if not url or not isinstance(url, str):
            raise ValueError("the hub link needs a serial URL or device path, e.g. /dev/ttyACM0")
        self.url = url
        self.baudrate = baudrate
        self.backoff = backoff
        self.hello_timeout = hello_timeout
        self.unique_id = unique_id
        """The hub expected on this port (hex of its hello's ``hub_id``; None: any hub)."""
        self._serial_factory = serial_factory
        self._port: Any = None
        self._events: asyncio.Queue[LinkEvent] = asyncio.Queue()
        self._health = LinkHealth(url)
        self._decoder = codec.StreamDecoder()
        self._seq_out = 0
        self._expected_seq: int | None = None
        self._write_lock = asyncio.Lock()
        self._ever_connected = False
        self._connected_event = asyncio.Event()
        self._last_resync = float("-inf")

    # -- public ---------------------------------------------------------------------------

    def health(self) -> LinkHealth:
        return self._health

    async def events(self) -> AsyncIterator[LinkEvent]:
        while True:
            yield await self._events.get()

    async def next_event(self, timeout: float | None = None) -> LinkEvent:
        return await asyncio.wait_for(self._events.get(), timeout)

    async def wait_connected(self, timeout: float | None = None) -> Hello:
        await asyncio.wait_for(self._connected_event.wait(), timeout)
        assert self._health.hello is not None
        return self._health.hello

    async def send(self, command: HostCommand) -> None:
        """Write one command frame; raises HubNotConnected when no port is open."""
        if not isinstance(command, _HOST_COMMANDS):
            raise TypeError(f"{command!r} is not a host command")
        port = self._port
        if port is None:
            raise HubNotConnected(f"the hub at {self.url} is not connected")
        frame = codec.encode(command, self._seq_out)
        self._seq_out = (self._seq_out + 1) & 0xFFFF
        async with self._write_lock:
            try:
                await asyncio.to_thread(port.write, frame)
            except (serial.SerialException, OSError) as exc:
                raise HubNotConnected(f"writing to the hub failed: {exc}") from exc

    async def request_snapshot(self) -> None:
        await self.send(RequestSnapshot())

    async def set_scan(self, miss_limit: int, scan_pause_ms: int) -> None:
        await self.send(SetScan(miss_limit, scan_pause_ms))

    async def run(self) -> None:
        """Keep the link up until cancelled. Never raises for port or data trouble."""
        attempt = 0
        while True:
            try:
                port = await asyncio.to_thread(self._serial_factory, self.url, self.baudrate)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._update(last_error=f"cannot open {self.url}: {exc}")
                await asyncio.sleep(self.backoff.delay(attempt))
                attempt += 1
                continue
            attempt = 0
            try:
                await self._serve(port)
            except (serial.SerialException, OSError) as exc:
                reason = f"lost the hub at {self.url}: {exc}"
                log.warning(reason)
                self._update(last_error=reason)
            finally:
                await self._close(port)
            if self._health.connected or self._connected_event.is_set():
                self._connected_event.clear()
                self._update(connected=False)
                await self._events.put(LinkDown(self._health.last_error or "port closed"))
            await asyncio.sleep(self.backoff.delay(0))

    # -- internals ------------------------------------------------------------------------

    async def _close(self, port: Any) -> None:
        self._port = None
        with contextlib.suppress(Exception):
            await asyncio.to_thread(port.close)

    async def _serve(self, port: Any) -> None:
        self._port = port
        self._decoder = codec.StreamDecoder()
        self._expected_seq = None
        if self._ever_connected:
            self._update(reconnects=self._health.reconnects + 1)
        self._ever_connected = True
        self._update(refused=None)  # a replugged port may hold a newly flashed hub
        await self.send(RequestHello())
        hello_due = time.monotonic() + self.hello_timeout
        while True:
            data = await asyncio.to_thread(_read_some, port)
            if data:
                await self._feed(data)
            if not self._connected_event.is_set() and time.monotonic() > hello_due:
                await self.send(RequestHello())  # the hub may have missed the first one
                hello_due = time.monotonic() + self.hello_timeout

    async def _feed(self, data: bytes) -> None:
        dropped_before = self._decoder.dropped
        packets = self._decoder.feed(data)
        errors = self._decoder.errors
        damaged = sum(errors[kind] for kind in _DAMAGE)
        self._update(crc_errors=damaged, dropped=self._decoder.dropped)
        if self._decoder.last_error is not None:
            self._update(last_error=f"dropped a frame: {self._decoder.last_error.reason}")
        for packet in packets:
            await self._handle(packet)
        if self._decoder.dropped > dropped_before and self._connected_event.is_set():
            await self._resync()

    async def _resync(self) -> None:
        """A frame was thrown away: whatever it said, a snapshot says it again. Asked for at
        once rather than when the next frame shows the gap (a heartbeat, up to a second
        later), and at most every RESYNC_SECONDS, since the snapshot may be damaged too."""
        now = time.monotonic()
        if now - self._last_resync >= RESYNC_SECONDS:
            self._last_resync = now
            await self.request_snapshot()

    async def _handle(self, packet: Packet) -> None:
        message: Message = packet.message
        if isinstance(message, _HOST_COMMANDS):
            self._update(unexpected=self._health.unexpected + 1)
            return
        now = time.monotonic()
        self._update(frames=self._health.frames + 1, last_frame_at=now)
        refusal = self._refusal(message) if isinstance(message, Hello) else None
        if refusal is not None:
            if self._health.refused != refusal:
                log.error(refusal)
            self._update(connected=False, refused=refusal, last_error=refusal)
            return
        if self._health.refused is not None:
            self._update(dropped=self._health.dropped + 1)
            return  # its frames mean something else: nothing it says is used
        if isinstance(message, Hello):
            self._expected_seq = (packet.seq + 1) & 0xFFFF
            self._update(connected=True, hello=message)
            self._connected_event.set()
            await self._events.put(LinkUp(message))
            await self.request_snapshot()
            return
        if self._expected_seq is not None and packet.seq != self._expected_seq:
            self._update(gaps=self._health.gaps + 1)
            log.info("hub frames lost (expected %d, got %d)", self._expected_seq, packet.seq)
            await self.request_snapshot()
        self._expected_seq = (packet.seq + 1) & 0xFFFF
        self._note_health(message)
        await self._events.put(message)  # type: ignore[arg-type]

    def _refusal(self, hello: Hello) -> str | None:
        """Why the hub that said this hello cannot be used here, if it cannot."""
        if hello.protocol_version != PROTOCOL_VERSION:
            return (f"the hub on {self.url} speaks protocol {hello.protocol_version} "
                    f"(firmware {hello.firmware_version!r}); this table needs protocol "
                    f"{PROTOCOL_VERSION}: flash the new firmware (docs/firmware.md, "
                    "Flashing), then plug the hub in again")
        if self.unique_id is not None and hello.hub_id.hex() != self.unique_id:
            return (f"the hub on {self.url} is {hello.hub_id.hex() or 'nameless'}, not "
                    f"{self.unique_id} as the profile says: the cables are swapped, or the "
                    "profile names the wrong port (the status page shows each hub's id)")
        return None

    def _note_health(self, message: Message) -> None:
        match message:
            case Heartbeat():
                self._update(heartbeat=message)
            case SelfTest(readers):
                self._update(readers=tuple(check.status for check in readers))
            case Snapshot(readers):
                self._update(readers=tuple(state.status for state in readers))
            case ReaderFault(reader, status) if reader < len(self._health.readers):
                readers = list(self._health.readers)
                readers[reader] = status
                self._update(readers=tuple(readers))

    def _update(self, **changes: Any) -> None:
        self._health = replace(self._health, **changes)
