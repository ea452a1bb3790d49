"""Bytes <-> messages for the hub protocol: COBS framing, CRC-32, sequence numbers.

A frame on the wire is ``COBS(type, seq_lo, seq_hi, body..., crc32 LE) 0x00``. COBS removes
every zero byte from the frame so a single 0x00 always marks a frame end: after line noise the
receiver resynchronises at the next zero. The CRC-32 (zlib's polynomial, also in MicroPython's
``binascii``) covers type, sequence and body.

The codec is symmetric (it encodes and decodes every message) so the simulator's virtual hub
and the host link speak through the same code. Decoding never raises anything but
`FrameError`; `StreamDecoder` turns even those into counters.
"""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from cobs import cobs

from hardware.errors import HardwareError
from hardware.protocol import (
    MAX_FRAME,
    REQUEST_BITMAP_BYTES,
    CommandError,
    CommandErrorCode,
    Heartbeat,
    Hello,
    Message,
    MessageType,
    Packet,
    Ping,
    Pong,
    ReaderCheck,
    ReaderFault,
    ReaderState,
    ReaderStatus,
    RequestHello,
    RequestSnapshot,
    SelfTest,
    SetScan,
    Settings,
    SetWatch,
    SnapshotPart,
    TagArrived,
    TagLeft,
    Watching,
)
from hardware.wording import Wording

DELIMITER = b"\x00"
MAX_UID = 10
"""ISO 14443-3 UIDs are 4, 7 or 10 bytes."""
_HEADER = struct.Struct("<BH")
_CRC = struct.Struct("<I")
_HEARTBEAT = struct.Struct("<IIIII")
_U32 = struct.Struct("<I")
_SETTINGS = struct.Struct("<BH")
_PART = struct.Struct("<HBB")


class FrameError(HardwareError, ValueError):
    """A frame that cannot be trusted. `kind` names the reason for the health counters,
    `wording` says it for people (the status page shows the last one, in its language)."""

    def __init__(self, kind: str, wording: Wording) -> None:
        super().__init__(str(wording))
        self.kind = kind
        self.wording = wording


# -- encoding -------------------------------------------------------------------------------


def _uid(uid: bytes) -> bytes:
    if not 1 <= len(uid) <= MAX_UID:
        raise ValueError(f"a tag UID has 1 to {MAX_UID} bytes, got {len(uid)}")
    return bytes((len(uid),)) + uid


def _u8(value: int, what: str) -> bytes:
    if not 0 <= value <= 0xFF:
        raise ValueError(f"{what} must fit in one byte (0..255), got {value}")
    return bytes((value,))


def _body(message: Message) -> tuple[MessageType, bytes]:
    """A message's type and body bytes (ValueError for a field that does not fit the wire)."""
    found = _hub_body(message) or _host_body(message)
    if found is None:
        raise TypeError(f"not a protocol message: {message!r}")
    return found


def _hub_body(message: Message) -> tuple[MessageType, bytes] | None:
    """The body of a message the hub sends (None: not one of those)."""
    match message:
        case Hello():
            return MessageType.HELLO, _hello_body(message)
        case SelfTest(readers):
            parts = [_u8(len(readers), "reader count")]
            parts += [_u8(r.status, "status") + _u8(r.version, "version") for r in readers]
            return MessageType.SELF_TEST, b"".join(parts)
        case TagArrived(reader, uid):
            return MessageType.TAG_ARRIVED, _u8(reader, "reader") + _uid(uid)
        case TagLeft(reader, uid):
            return MessageType.TAG_LEFT, _u8(reader, "reader") + _uid(uid)
        case ReaderFault(reader, status):
            return MessageType.READER_FAULT, _u8(reader, "reader") + _u8(status, "status")
        case Heartbeat(uptime_ms, scan_cycles, crc_errors, missed_reads, cycle_us):
            values = (uptime_ms, scan_cycles, crc_errors, missed_reads, cycle_us)
            return MessageType.HEARTBEAT, _HEARTBEAT.pack(*(v & 0xFFFFFFFF for v in values))
        case SnapshotPart():
            return MessageType.SNAPSHOT_PART, _snapshot_part_body(message)
        case Pong(token):
            return MessageType.PONG, _U32.pack(token)
        case Settings(miss_limit, scan_pause_ms):
            return MessageType.SETTINGS, _SETTINGS.pack(miss_limit, scan_pause_ms)
        case CommandError(command, code):
            return MessageType.COMMAND_ERROR, _u8(command, "command") + _u8(code, "code")
        case Watching(stride, readers):
            return MessageType.WATCHING, _u8(stride, "stride") + _bitmap(readers)
    return None


def _host_body(message: Message) -> tuple[MessageType, bytes] | None:
    """The body of a command the host sends (None: not one of those)."""
    match message:
        case RequestHello():
            return MessageType.REQUEST_HELLO, b""
        case RequestSnapshot(readers):
            return MessageType.REQUEST_SNAPSHOT, _bitmap(readers)
        case Ping(token):
            return MessageType.PING, _U32.pack(token)
        case SetScan(miss_limit, scan_pause_ms):
            return MessageType.SET_SCAN, _SETTINGS.pack(miss_limit, scan_pause_ms)
        case SetWatch(stride, readers):
            return MessageType.SET_WATCH, _u8(stride, "stride") + _bitmap(readers)
    return None


def _hello_body(hello: Hello) -> bytes:
    """Version 2 and later carry the hub's id and its field schedule; version 1 did not (the
    link still reads it, to tell the maker to flash)."""
    head = (_u8(hello.protocol_version, "protocol version")
            + _u8(hello.reader_count, "reader count") + _u8(hello.miss_limit, "miss limit"))
    if hello.protocol_version >= 2:
        head += _u8(len(hello.hub_id), "hub id length") + hello.hub_id
        head += _u8(len(hello.schedule), "field classes")
        for members in hello.schedule:
            head += _u8(len(members), "class size") + b"".join(
                _u8(r, "reader") for r in members)
    text = hello.firmware_version.encode()
    return head + _u8(len(text), "firmware version length") + text


def _snapshot_part_body(part: SnapshotPart) -> bytes:
    _u8(part.readers, "reader count")
    if not 0 <= part.reader < part.readers:
        raise ValueError(f"part of reader {part.reader} in a snapshot of {part.readers} readers")
    parts = [_PART.pack(part.changes & 0xFFFF, part.reader, part.readers),
             _u8(part.state.status, "status"), _u8(len(part.state.uids), "tag count")]
    parts += [_uid(uid) for uid in part.state.uids]
    return b"".join(parts)


def _bitmap(readers: tuple[int, ...]) -> bytes:
    """Bit ``r % 8`` of byte ``r // 8`` set for each reader; no readers: no bytes (every one)."""
    if not readers:
        return b""
    out = bytearray(max(_u8(r, "reader")[0] for r in readers) // 8 + 1)
    for r in readers:
        out[r // 8] |= 1 << (r % 8)
    return bytes(out)


def encode_payload(message: Message, seq: int) -> bytes:
    """The unframed payload (type, seq, body, CRC): what COBS then stuffs."""
    kind, body = _body(message)
    head = _HEADER.pack(kind, seq & 0xFFFF) + body
    return head + _CRC.pack(zlib.crc32(head))


def encode(message: Message, seq: int) -> bytes:
    """One complete wire frame, delimiter included."""
    return cobs.encode(encode_payload(message, seq)) + DELIMITER


# -- decoding -------------------------------------------------------------------------------


class _Reader:
    """Walks a frame body; every overrun becomes a FrameError instead of an IndexError."""

    def __init__(self, kind: MessageType, data: bytes) -> None:
        self.kind, self.data, self.pos = kind, data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise FrameError("bad_body", Wording("{kind} frame body is truncated",
                                                 {"kind": self.kind.name}))
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def u8(self) -> int:
        return self.take(1)[0]

    def status(self) -> ReaderStatus:
        value = self.u8()
        try:
            return ReaderStatus(value)
        except ValueError:
            raise FrameError("bad_body", Wording("unknown reader status {value}",
                                                 {"value": str(value)})) from None

    def uid(self) -> bytes:
        n = self.u8()
        if not 1 <= n <= MAX_UID:
            raise FrameError("bad_body", Wording("tag UID length {length} is not 1..{most}",
                                                 {"length": str(n), "most": str(MAX_UID)}))
        return self.take(n)

    def done(self) -> None:
        if self.pos != len(self.data):
            extra = len(self.data) - self.pos
            raise FrameError("bad_body", Wording("{kind} frame has {extra} extra bytes",
                                                 {"kind": self.kind.name, "extra": str(extra)}))


def _hello(r: _Reader) -> Message:
    """Version 1 HELLOs decode too (without hub id and schedule), so that the link can tell
    the maker to flash the new firmware instead of dropping frames it cannot read."""
    version, count, misses = r.u8(), r.u8(), r.u8()
    hub_id, schedule = b"", []
    if version >= 2:
        hub_id = r.take(r.u8())
        for _ in range(r.u8()):
            schedule.append(tuple(r.u8() for _ in range(r.u8())))
    try:
        text = r.take(r.u8()).decode()
    except UnicodeDecodeError:
        raise FrameError("bad_body", Wording("firmware version is not UTF-8")) from None
    return Hello(version, count, misses, text, hub_id, tuple(schedule))


def _self_test(r: _Reader) -> Message:
    n = r.u8()
    checks = []
    for _ in range(n):
        status = r.status()
        checks.append(ReaderCheck(status, r.u8()))
    return SelfTest(tuple(checks))


def _snapshot_part(r: _Reader) -> Message:
    changes, reader, readers = _PART.unpack(r.take(_PART.size))
    if reader >= readers:
        raise FrameError("bad_body", Wording("part of reader {reader} in a snapshot of {readers}",
                                             {"reader": str(reader), "readers": str(readers)}))
    status = r.status()
    return SnapshotPart(changes, reader, readers,
                        ReaderState(status, tuple(r.uid() for _ in range(r.u8()))))


def _readers(r: _Reader) -> tuple[int, ...]:
    """The rest of the body as a reader bitmap (none: no bytes)."""
    bitmap = r.take(len(r.data) - r.pos)
    if len(bitmap) > REQUEST_BITMAP_BYTES:
        raise FrameError("bad_body", Wording("reader bitmap of {size} bytes",
                                             {"size": str(len(bitmap))}))
    readers = tuple(n for n in range(len(bitmap) * 8) if bitmap[n // 8] >> (n % 8) & 1)
    if bitmap and not readers:
        raise FrameError("bad_body", Wording("a reader bitmap that names no reader"))
    return readers


def _request_snapshot(r: _Reader) -> Message:
    return RequestSnapshot(_readers(r))


def _watch(cls: type[SetWatch] | type[Watching]) -> Callable[[_Reader], Message]:
    def decode(r: _Reader) -> Message:
        stride = r.u8()
        return cls(stride, _readers(r))
    return decode


def _command_error(r: _Reader) -> Message:
    command, value = r.u8(), r.u8()
    try:
        return CommandError(command, CommandErrorCode(value))
    except ValueError:
        raise FrameError("bad_body", Wording("unknown command error code {value}",
                                             {"value": str(value)})) from None


def _settings(cls: type[Settings] | type[SetScan]) -> Callable[[_Reader], Message]:
    return lambda r: cls(*_SETTINGS.unpack(r.take(_SETTINGS.size)))


_DECODERS: dict[MessageType, Callable[[_Reader], Message]] = {
    MessageType.HELLO: _hello,
    MessageType.SELF_TEST: _self_test,
    MessageType.TAG_ARRIVED: lambda r: TagArrived(r.u8(), r.uid()),
    MessageType.TAG_LEFT: lambda r: TagLeft(r.u8(), r.uid()),
    MessageType.READER_FAULT: lambda r: ReaderFault(r.u8(), r.status()),
    MessageType.HEARTBEAT: lambda r: Heartbeat(*_HEARTBEAT.unpack(r.take(_HEARTBEAT.size))),
    MessageType.SNAPSHOT_PART: _snapshot_part,
    MessageType.PONG: lambda r: Pong(*_U32.unpack(r.take(4))),
    MessageType.SETTINGS: _settings(Settings),
    MessageType.COMMAND_ERROR: _command_error,
    MessageType.REQUEST_HELLO: lambda r: RequestHello(),
    MessageType.REQUEST_SNAPSHOT: _request_snapshot,
    MessageType.PING: lambda r: Ping(*_U32.unpack(r.take(4))),
    MessageType.SET_SCAN: _settings(SetScan),
    MessageType.SET_WATCH: _watch(SetWatch),
    MessageType.WATCHING: _watch(Watching),
}


def decode_payload(payload: bytes) -> Packet:
    """Check the CRC and parse an unstuffed payload."""
    if len(payload) < _HEADER.size + _CRC.size:
        raise FrameError("short", Wording("frame of {size} bytes is shorter than 7",
                                          {"size": str(len(payload))}))
    head, (crc,) = payload[:-4], _CRC.unpack(payload[-4:])
    if zlib.crc32(head) != crc:
        raise FrameError("crc", Wording("CRC mismatch: the frame was damaged on the way"))
    type_byte, seq = _HEADER.unpack(head[: _HEADER.size])
    try:
        kind = MessageType(type_byte)
    except ValueError:
        raise FrameError("unknown_type", Wording("unknown frame type {type}",
                                                 {"type": f"0x{type_byte:02x}"})) from None
    reader = _Reader(kind, head[_HEADER.size :])
    message = _DECODERS[kind](reader)
    reader.done()
    return Packet(seq, message)


def decode(frame: bytes) -> Packet:
    """Decode one wire frame (with or without its trailing 0x00 delimiter)."""
    if frame.endswith(DELIMITER):
        frame = frame[:-1]
    if len(frame) > MAX_FRAME:
        raise FrameError("too_long", Wording("frame of {size} bytes exceeds {most}",
                                             {"size": str(len(frame)), "most": str(MAX_FRAME)}))
    try:
        payload = cobs.decode(frame)
    except cobs.DecodeError as exc:
        raise FrameError("cobs", Wording("bad COBS stuffing: {error}",
                                         {"error": str(exc)})) from None
    return decode_payload(payload)


@dataclass(frozen=True, slots=True)
class Dropped:
    """A frame the stream decoder threw away, and why (for logs and health counters)."""

    kind: str
    reason: Wording


class StreamDecoder:
    """Cuts a byte stream into frames at each 0x00; counts and drops what does not decode.

    Bytes before the first delimiter after (re)connecting may be the tail of a frame that
    started earlier, so they are dropped like any other garbage: the CRC catches them.
    """

    def __init__(self, *, keep_sizes: bool = False) -> None:
        self._buffer = bytearray()
        self._overflow = False
        self.errors: Counter[str] = Counter()
        self.frames = 0
        self.last_error: Dropped | None = None
        self.sizes: list[tuple[int, bool]] | None = [] if keep_sizes else None
        """With keep_sizes: each run of bytes up to a delimiter, its length with the delimiter
        and whether it decoded, until the owner takes them (for the link's noise estimate)."""

    def feed(self, data: bytes) -> list[Packet]:
        packets: list[Packet] = []
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._append(data[start:])
                return packets
            self._append(data[start:end])
            start = end + 1
            if self._overflow:
                self._drop("too_long", Wording("frame longer than {most} bytes",
                                               {"most": str(MAX_FRAME)}))
                if self.sizes is not None:
                    self.sizes.append((MAX_FRAME + 1, False))
            elif self._buffer:
                try:
                    packets.append(decode(bytes(self._buffer)))
                    self.frames += 1
                    ok = True
                except FrameError as exc:
                    self._drop(exc.kind, exc.wording)
                    ok = False
                if self.sizes is not None:
                    self.sizes.append((len(self._buffer) + 1, ok))
            self._buffer.clear()
            self._overflow = False

    def _append(self, chunk: bytes) -> None:
        if self._overflow:
            return
        if len(self._buffer) + len(chunk) > MAX_FRAME:
            self._overflow = True
            self._buffer.clear()
        else:
            self._buffer += chunk

    def _drop(self, kind: str, reason: Wording) -> None:
        self.errors[kind] += 1
        self.last_error = Dropped(kind, reason)

    @property
    def dropped(self) -> int:
        return sum(self.errors.values())
