"""The host end of the hub's serial link: asyncio on the outside, a blocking pyserial port
driven from worker threads on the inside (so `loop://`, ptys and real devices all work alike
and the event loop never waits on the port).

What it does for the controller: opens the port by pyserial URL, says hello and waits for the
hub's HELLO, turns frames into events, notices lost frames by their sequence numbers and
checks (with one small snapshot part) whether a change was among them, assembles snapshots from
their parts, asking again for missing parts at a pace that does not flood a noisy cable, drops
corrupt input with a count, and when the cable is pulled keeps trying to reopen with
exponential backoff. `health()` tells the status page how the link is doing, and whether the
cable loses more frames than it can make good.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter, deque
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
    SetWatch,
    Snapshot,
    SnapshotPart,
    TagArrived,
    TagLeft,
)
from hardware.snapshots import Mirror, Pacer, request_for
from hardware.wording import PORT_CLOSED, Wording

log = logging.getLogger(__name__)

DEFAULT_BAUDRATE = 115_200
HELLO_NOISY_RETRY = 0.03
"""Seconds before REQUEST_HELLO is repeated when damaged frames came back (the hub answers,
the cable garbles it). The answer, HELLO and SELF_TEST, is about 100 bytes, 9 ms on a
115200-baud line: asked again after three times that, it fills at most a third of the line.
A HELLO of 62 bytes arrives whole one time in twenty-four at 5 % byte noise, so the pace
matters: asked every second, the virtual hub had not connected after 15 s; every 30 ms it
connects in 0.7 to 3 s (docs/performance.md, "A noisy cable")."""
REPEAT_ABOVE = 0.01
"""Estimated byte error rate above which requests are written twice (the hub answers one
copy, by its sequence number): the cable that damages the hub's frames most likely damages
the host's too, and a lost request costs a whole round."""
LOSS_WINDOW_SECONDS = 5.0
"""How far back the link's frame loss is measured."""
LOSS_MIN_FRAMES = 10
"""Fewer frames than this in the window say nothing about the cable."""
JUDGE_SECONDS = 0.25
"""How often the link's noise figures are brought up to date."""
CONNECT_SECONDS = 3.0
"""A hub that has not said HELLO this long after the port opened, through a cable estimated
above TOO_NOISY, is reported too noisy (at 5 % it connects within 3 s nine times in ten)."""
TOO_NOISY = 0.08
"""Byte error rate above which the cable is reported as too noisy to play on. Measured
(docs/performance.md, "A noisy cable"): see there for why this figure."""


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
    last_error: Wording | None = None
    """The link's last trouble (the port would not open, the hub was lost, a damaged frame, a
    refused hub), for people: ``str()`` is the English, the status page translates it."""
    heartbeat: Heartbeat | None = None
    """The hub's last heartbeat: its own counters and the real scan period (cycle_us)."""
    readers: tuple[ReaderStatus, ...] = ()
    """Health of each reader, from the self-test, fault reports and snapshots."""
    refused: Wording | None = None
    """Why the hub on this port cannot be used (an old protocol): flash it, then replug."""
    frame_loss: float | None = None
    """Fraction of the hub's frames lost or damaged over the last LOSS_WINDOW_SECONDS (None
    while too few frames were seen to tell)."""
    byte_errors: float | None = None
    """The byte error rate of the cable that explains those losses (what noise is judged by:
    unlike the frame loss it does not depend on how long the frames were)."""
    too_noisy: bool = False
    """The cable damages more than the link can make good (TOO_NOISY): check the cable."""
    snapshot_requests: int = 0
    """REQUEST_SNAPSHOTs sent (whole, or for the parts still missing)."""
    missed_changes: int = 0
    """Times a snapshot part showed that a change frame had been lost (and was made good)."""


class LossWindow:
    """The frames of the last few seconds (their lengths, and whether they arrived whole), for
    two figures: the fraction of frames lost, and the byte error rate that explains it.

    The frame loss depends on the traffic (a HELLO of 60 bytes is lost ten times as often as a
    snapshot part of 16); the byte error rate does not, so it is what the cable is judged by.
    It is the maximum-likelihood rate for frames of n bytes each arriving whole with
    probability (1 - rate) ** n. Frames lost without a trace (dropped bytes that merged them
    into one damaged run) count in the frame loss, by the sequence numbers skipped."""

    def __init__(self, seconds: float = LOSS_WINDOW_SECONDS,
                 minimum: int = LOSS_MIN_FRAMES) -> None:
        self.seconds = seconds
        self.minimum = minimum
        self._frames: deque[tuple[float, int, bool]] = deque(maxlen=2000)
        self._skipped: deque[tuple[float, int]] = deque(maxlen=2000)

    def frames(self, now: float, sizes: list[tuple[int, bool]]) -> None:
        self._frames.extend((now, size, ok) for size, ok in sizes)

    def skipped(self, now: float, count: int) -> None:
        """``count`` sequence numbers were skipped before a good frame."""
        self._skipped.append((now, count))

    def _recent(self, now: float) -> list[tuple[int, bool]]:
        for marks in (self._frames, self._skipped):
            while marks and marks[0][0] < now - self.seconds:
                marks.popleft()
        return [(size, ok) for _, size, ok in self._frames]

    def loss(self, now: float) -> float | None:
        """Fraction of frames lost or damaged (None: too few frames to tell)."""
        frames = self._recent(now)
        good = sum(ok for _, ok in frames)
        lost = max(len(frames) - good, sum(count for _, count in self._skipped))
        if good + lost < self.minimum:
            return None
        return lost / (good + lost)

    def byte_errors(self, now: float) -> float | None:
        """The byte error rate that best explains which frames arrived (None: too few)."""
        frames = self._recent(now)
        if len(frames) < self.minimum:
            return None
        whole = sum(size for size, ok in frames if ok)
        bad = Counter(size for size, ok in frames if not ok)  # a few sizes, many frames each
        if not bad:
            return 0.0
        if not whole:
            return 1.0

        def slope(q: float) -> float:  # d/dq of the log-likelihood, q = 1 - rate
            return whole / q - sum(k * n * q ** (n - 1) / (1 - q ** n) for n, k in bad.items())

        low, high = 1e-9, 1 - 1e-9
        for _ in range(40):
            middle = (low + high) / 2
            if slope(middle) > 0:
                low = middle
            else:
                high = middle
        return 1 - (low + high) / 2

    def worse_than(self, now: float, rate: float) -> bool:
        """Whether the frames show, beyond reasonable doubt, more than ``rate`` bad bytes: the
        estimate is above it and a likelihood-ratio test rejects ``rate`` at 95 % (chi-square
        3.84). Ten lost HELLOs say little (at 5 % most HELLOs are lost), so a cable is not
        called too noisy while a hub is still connecting through moderate noise."""
        estimate = self.byte_errors(now)
        if estimate is None or estimate <= rate:
            return False
        frames = Counter(self._recent(now))

        def log_likelihood(q: float) -> float:
            return sum(k * (n * math.log(q) if ok else math.log(max(1e-300, 1 - q ** n)))
                       for (n, ok), k in frames.items())

        best = 0.0 if estimate >= 1 else log_likelihood(1 - estimate)  # none whole: 0
        return 2 * (best - log_likelihood(1 - rate)) > 3.84


@dataclass(frozen=True, slots=True)
class LinkUp:
    """The hub answered our hello; a snapshot has been requested."""

    hello: Hello


@dataclass(frozen=True, slots=True)
class LinkDown:
    """The port closed or failed; ``reason`` says why, for the event log."""

    reason: Wording


LinkEvent = LinkUp | LinkDown | Snapshot | HubMessage
"""What the link hands on: every hub message except the snapshot parts, which come as
one `Snapshot` when complete."""

SerialFactory = Callable[[str, int], Any]


def open_serial(url: str, baudrate: int) -> serial.SerialBase:
    """pyserial's URL opener with a short read timeout, so reader threads come back often."""
    return serial.serial_for_url(url, baudrate=baudrate, timeout=0.05, write_timeout=1.0)


def _read_some(port: Any) -> bytes:
    """Whatever has arrived, or after the port's timeout nothing (runs in a worker thread)."""
    return bytes(port.read(max(1, min(port.in_waiting, 4096))))


_DAMAGE = ("crc", "cobs", "short", "too_long")
"""StreamDecoder error kinds that mean the bytes were damaged in transit."""

_HOST_COMMANDS = (RequestHello, RequestSnapshot, Ping, SetScan, SetWatch)


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
        self._decoder = codec.StreamDecoder(keep_sizes=True)
        self._seq_out = 0
        self._expected_seq: int | None = None
        self._write_lock = asyncio.Lock()
        self._ever_connected = False
        self._connected_event = asyncio.Event()
        self._mirror = Mirror(0)
        self._pacer = Pacer()
        self._probe = 0
        self._loss = LossWindow()
        self._judged_at = float("-inf")
        self._trying_since = float("inf")

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
        # A zero first: if noise ate the delimiter of the command before, the hub would take
        # this one for the rest of that damaged frame and lose both; the extra zero ends it.
        frame = codec.DELIMITER + codec.encode(command, self._seq_out)
        self._seq_out = (self._seq_out + 1) & 0xFFFF
        errors = self._health.byte_errors
        if isinstance(command, RequestHello | RequestSnapshot) and errors and errors > REPEAT_ABOVE:
            frame += frame  # the same frame twice: the hub answers the first copy it gets
        async with self._write_lock:
            try:
                await asyncio.to_thread(port.write, frame)
            except (serial.SerialException, OSError) as exc:
                raise HubNotConnected(f"writing to the hub failed: {exc}") from exc

    async def request_snapshot(self) -> None:
        """Ask the hub for every reader again; a `Snapshot` event follows once all its parts
        (asked for again as long as some are missing) have arrived."""
        if self._port is None:
            raise HubNotConnected(f"the hub at {self.url} is not connected")
        self._mirror.ask()
        self._pacer.reset()
        await self._pump()

    async def set_scan(self, miss_limit: int, scan_pause_ms: int) -> None:
        await self.send(SetScan(miss_limit, scan_pause_ms))

    async def run(self) -> None:
        """Keep the link up until cancelled. Never raises for port or data trouble."""
        attempt = 0
        while True:
            try:
                port = await asyncio.to_thread(self._serial_factory, self.url, self.baudrate)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._update(last_error=Wording("cannot open {url}: {error}",
                                                {"url": self.url, "error": str(exc)}))
                await asyncio.sleep(self.backoff.delay(attempt))
                attempt += 1
                continue
            attempt = 0
            try:
                await self._serve(port)
            except (serial.SerialException, OSError) as exc:
                reason = Wording("lost the hub at {url}: {error}",
                                 {"url": self.url, "error": str(exc)})
                log.warning("%s", reason)
                self._update(last_error=reason)
            finally:
                await self._close(port)
            if self._health.connected or self._connected_event.is_set():
                self._connected_event.clear()
                self._update(connected=False)
                await self._events.put(LinkDown(self._health.last_error or PORT_CLOSED))
            await asyncio.sleep(self.backoff.delay(0))

    # -- internals ------------------------------------------------------------------------

    async def _close(self, port: Any) -> None:
        self._port = None
        with contextlib.suppress(Exception):
            await asyncio.to_thread(port.close)

    async def _serve(self, port: Any) -> None:
        self._port = port
        self._decoder = codec.StreamDecoder(keep_sizes=True)
        self._expected_seq = None
        if self._ever_connected:
            self._update(reconnects=self._health.reconnects + 1)
        self._ever_connected = True
        self._update(refused=None)  # a replugged port may hold a newly flashed hub
        await self.send(RequestHello())
        asked_at, damaged = time.monotonic(), self._decoder.dropped
        self._trying_since = asked_at
        silent, jitter = 0, 1.0
        while True:
            data = await asyncio.to_thread(_read_some, port)
            if data:
                await self._feed(data)
            self._judge_loss()
            await self._pump()
            if self._connected_event.is_set():
                continue
            # The hub answered and noise ate the answer (a HELLO is one of the longest frames):
            # ask again soon. Silence (the request was lost, or nothing is there): ask again
            # after 0.1 s, 0.2 s, 0.4 s ... up to hello_timeout.
            noisy = self._decoder.dropped > damaged
            wait = min(self.hello_timeout, HELLO_NOISY_RETRY if noisy else 0.1 * 2 ** silent)
            if time.monotonic() - asked_at > wait * jitter:
                silent = 0 if noisy else silent + 1
                await self.send(RequestHello())
                asked_at, damaged = time.monotonic(), self._decoder.dropped
                jitter = self._pacer.rng.uniform(0.8, 1.2)

    async def _feed(self, data: bytes) -> None:
        self._pacer.heard()
        dropped_before = self._decoder.dropped
        packets = self._decoder.feed(data)
        self._loss.frames(time.monotonic(), self._decoder.sizes or [])
        self._decoder.sizes = []
        errors = self._decoder.errors
        damaged = sum(errors[kind] for kind in _DAMAGE)
        self._update(crc_errors=damaged, dropped=self._decoder.dropped)
        if self._decoder.last_error is not None:
            self._update(last_error=Wording("dropped a frame: {reason}",
                                            {"reason": self._decoder.last_error.reason}))
        for packet in packets:
            await self._handle(packet)
        if self._decoder.dropped > dropped_before:
            # Whatever the frame said may be lost: checked at once (one small part) rather
            # than when the next frame shows the gap, a heartbeat up to a second later. (After
            # the good frames: the damaged one may have come after all of them.)
            self._pacer.answered(time.monotonic(), self._decoder.dropped - dropped_before)
            self._mirror.lost()

    async def _pump(self) -> None:
        """Ask for the snapshot parts the mirror still needs, as fast as the pacer allows."""
        if not self._health.connected or self._port is None:
            return
        wanted = self._mirror.wants(self._probe)
        now = time.monotonic()
        if wanted is None or not self._pacer.due(now):
            return
        self._probe += 1
        self._pacer.asked(now, len(wanted))
        self._update(snapshot_requests=self._health.snapshot_requests + 1)
        await self.send(request_for(wanted, self._mirror.readers))

    def _judge_loss(self) -> None:
        """At most every JUDGE_SECONDS (the estimate takes a few milliseconds)."""
        now = time.monotonic()
        if now - self._judged_at < JUDGE_SECONDS:
            return
        self._judged_at = now
        loss, errors = self._loss.loss(now), self._loss.byte_errors(now)
        too_noisy = self._loss.worse_than(now, TOO_NOISY) or (
            # Long HELLOs alone hardly tell 10 % from 8 %; a hub that has not got one through
            # in CONNECT_SECONDS while the estimate is that high cannot be played with anyway.
            not self._health.connected and now - self._trying_since > CONNECT_SECONDS
            and errors is not None and errors > TOO_NOISY)
        if too_noisy and not self._health.too_noisy:
            log.warning("the cable of the hub at %s damages %.0f%% of its bytes: check it",
                        self.url, 100 * (errors or 0))
        self._update(frame_loss=loss, byte_errors=errors, too_noisy=too_noisy)

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
                log.error("%s", refusal)
            self._update(connected=False, refused=refusal, last_error=refusal)
            return
        if self._health.refused is not None:
            self._update(dropped=self._health.dropped + 1)
            return  # its frames mean something else: nothing it says is used
        if isinstance(message, Hello):
            self._expected_seq = (packet.seq + 1) & 0xFFFF
            self._update(connected=True, hello=message)
            self._connected_event.set()
            self._mirror = Mirror(message.reader_count)  # a new hub, or one that rebooted
            self._pacer.reset()
            await self._events.put(LinkUp(message))
            await self._pump()
            return
        skipped = 0
        if self._expected_seq is not None and packet.seq != self._expected_seq:
            skipped = (packet.seq - self._expected_seq) & 0xFFFF
            self._update(gaps=self._health.gaps + 1)
            log.info("hub frames lost (expected %d, got %d)", self._expected_seq, packet.seq)
            self._mirror.lost()
        if skipped:
            self._loss.skipped(now, skipped if skipped < 1000 else 1)  # more: a reboot
        self._expected_seq = (packet.seq + 1) & 0xFFFF
        if isinstance(message, SnapshotPart):
            self._pacer.answered(now)
            snapshot = self._mirror.part(message)
            self._update(missed_changes=self._mirror.missed)
            if snapshot is not None:
                self._note_health(snapshot)
                await self._events.put(snapshot)
            return
        if isinstance(message, TagArrived | TagLeft | ReaderFault):
            self._mirror.change(message)
        self._note_health(message)
        await self._events.put(message)  # type: ignore[arg-type]

    def _refusal(self, hello: Hello) -> Wording | None:
        """Why the hub that said this hello cannot be used here, if it cannot."""
        if hello.protocol_version != PROTOCOL_VERSION:
            return Wording(
                "the hub on {url} speaks protocol {version} (firmware {firmware}); this table "
                "needs protocol {needed}: flash the new firmware (docs/firmware.md, Flashing), "
                "then plug the hub in again",
                {"url": self.url, "version": str(hello.protocol_version),
                 "firmware": repr(hello.firmware_version), "needed": str(PROTOCOL_VERSION)})
        if self.unique_id is not None and hello.hub_id.hex() != self.unique_id:
            return Wording(
                "the hub on {url} is {found}, not {expected} as the profile says: the cables "
                "are swapped, or the profile names the wrong port (the status page shows each "
                "hub's id)",
                {"url": self.url, "found": hello.hub_id.hex() or Wording("nameless"),
                 "expected": self.unique_id})
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
