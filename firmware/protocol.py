"""Hub side of the wire protocol (docs/protocol.md), in MicroPython.

Mirrors hardware/protocol.py + hardware/codec.py on the host. Plain functions and tuples, no
dataclasses: this runs on an RP2040. The shared vectors (hardware/protocol_vectors.json) are
the contract; tests/firmware runs them through this module under a real MicroPython.
"""

import struct

PROTOCOL_VERSION = 4
MAX_COMMAND = 64  # host commands are tiny; longer runs of bytes are garbage

# Frame types (hardware.protocol.MessageType).
HELLO = 0x01
SELF_TEST = 0x02
TAG_ARRIVED = 0x03
TAG_LEFT = 0x04
READER_FAULT = 0x05
HEARTBEAT = 0x06
PONG = 0x08
SETTINGS = 0x09
COMMAND_ERROR = 0x0A
SNAPSHOT_PART = 0x0B
WATCHING = 0x0C
REQUEST_HELLO = 0x81
REQUEST_SNAPSHOT = 0x82
PING = 0x83
SET_SCAN = 0x84
SET_WATCH = 0x85

# Reader status (hardware.protocol.ReaderStatus).
OK = 0
NO_RESPONSE = 1
BAD_VERSION = 2
COMM_ERROR = 3

# Command error codes (hardware.protocol.CommandErrorCode).
UNKNOWN_COMMAND = 1
BAD_LENGTH = 2
BAD_VALUE = 3


class FrameError(ValueError):
    """A received frame that cannot be trusted; `kind` matches the host codec's names."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def _crc32_table() -> list:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = None


def crc32_soft(data: bytes) -> int:
    """CRC-32 (zlib polynomial) for builds of MicroPython without binascii.crc32."""
    global _TABLE
    if _TABLE is None:
        _TABLE = _crc32_table()
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


try:
    from binascii import crc32 as _crc32_builtin
except ImportError:  # pragma: no cover - depends on the MicroPython build
    _crc32_builtin = None


def crc32(data: bytes) -> int:
    if _crc32_builtin is None:
        return crc32_soft(data)
    return _crc32_builtin(data) & 0xFFFFFFFF


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("cobs", "zero byte inside a frame")
        end = i + code
        if end > n:
            raise FrameError("cobs", "COBS code runs past the end of the frame")
        for j in range(i + 1, end):
            if data[j] == 0:
                raise FrameError("cobs", "zero byte inside a frame")
        out.extend(data[i + 1 : end])
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode(kind: int, seq: int, body: bytes) -> bytes:
    """A complete wire frame, delimiter included."""
    head = bytes((kind, seq & 0xFF, (seq >> 8) & 0xFF)) + body
    return cobs_encode(head + struct.pack("<I", crc32(head))) + b"\x00"


def decode(frame: bytes) -> tuple:
    """(kind, seq, body) of one frame without its delimiter; raises FrameError."""
    payload = cobs_decode(frame)
    if len(payload) < 7:
        raise FrameError("short", "frame shorter than 7 bytes")
    head = payload[:-4]
    if crc32(head) != struct.unpack("<I", payload[-4:])[0]:
        raise FrameError("crc", "CRC mismatch")
    return head[0], head[1] | (head[2] << 8), head[3:]


# -- bodies of hub messages ------------------------------------------------------------------


def _uid(uid: bytes) -> bytes:
    if not 1 <= len(uid) <= 10:
        raise ValueError("tag UID must have 1 to 10 bytes")
    return bytes((len(uid),)) + bytes(uid)


def hello_body(reader_count: int, miss_limit: int, hub_id: bytes, schedule: list,
               firmware_version: str) -> bytes:
    """schedule: the field classes, each a list of reader numbers switched on together."""
    text = firmware_version.encode()
    out = bytearray((PROTOCOL_VERSION, reader_count, miss_limit, len(hub_id)))
    out.extend(hub_id)
    out.append(len(schedule))
    for members in schedule:
        out.append(len(members))
        out.extend(bytes(members))
    out.append(len(text))
    out.extend(text)
    return bytes(out)


def self_test_body(checks: list) -> bytes:
    """checks: list of (status, version register) per reader."""
    out = bytearray((len(checks),))
    for status, version in checks:
        out.append(status)
        out.append(version & 0xFF)
    return bytes(out)


def tag_body(reader: int, uid: bytes) -> bytes:
    return bytes((reader,)) + _uid(uid)


def fault_body(reader: int, status: int) -> bytes:
    return bytes((reader, status))


def heartbeat_body(
    uptime_ms: int, scan_cycles: int, crc_errors: int, missed_reads: int, cycle_us: int
) -> bytes:
    mask = 0xFFFFFFFF
    return struct.pack(
        "<IIIII",
        uptime_ms & mask,
        scan_cycles & mask,
        crc_errors & mask,
        missed_reads & mask,
        cycle_us & mask,
    )


def part_body(changes: int, reader: int, readers: int, status: int, uids: list) -> bytes:
    """One reader of a snapshot; changes: change frames sent so far, uids in arrival order."""
    out = bytearray((changes & 0xFF, (changes >> 8) & 0xFF, reader, readers, status, len(uids)))
    for uid in uids:
        out.extend(_uid(uid))
    return bytes(out)


def wanted_readers(bitmap: bytes, count: int) -> list:
    """The readers a REQUEST_SNAPSHOT body names (bit r % 8 of byte r // 8); none: all."""
    if not bitmap:
        return list(range(count))
    return [r for r in range(min(count, len(bitmap) * 8)) if bitmap[r // 8] >> (r % 8) & 1]


def u32_body(token: int) -> bytes:
    return struct.pack("<I", token & 0xFFFFFFFF)


def settings_body(miss_limit: int, scan_pause_ms: int) -> bytes:
    return struct.pack("<BH", miss_limit, scan_pause_ms)


def command_error_body(command: int, code: int) -> bytes:
    return bytes((command, code))


class FrameReader:
    """Cuts incoming bytes at each 0x00 and decodes host frames; counts what it drops."""

    def __init__(self, limit: int = MAX_COMMAND) -> None:
        self._buffer = bytearray()
        self._limit = limit
        self._overflow = False
        self.errors = 0
        self.last_error = None

    def feed(self, data: bytes) -> list:
        frames = []
        for byte in data:
            if byte == 0:
                if self._overflow:
                    self._fail("too_long")
                elif self._buffer:
                    try:
                        frames.append(decode(bytes(self._buffer)))
                    except FrameError as exc:
                        self._fail(exc.kind)
                self._buffer = bytearray()
                self._overflow = False
            elif not self._overflow:
                if len(self._buffer) >= self._limit:
                    self._overflow = True
                    self._buffer = bytearray()
                else:
                    self._buffer.append(byte)
        return frames

    def _fail(self, kind: str) -> None:
        self.errors += 1
        self.last_error = kind
