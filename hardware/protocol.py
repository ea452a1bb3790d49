"""The hub wire protocol: message types and their fields (docs/protocol.md).

Every message is a frozen dataclass so that the host, the simulator's virtual hub and the tests
share one vocabulary. Bytes on the wire are the codec's business (`hardware.codec`); this module
only says what can be said. The numbers here must match `firmware/protocol.py`; the shared test
vectors (`hardware/protocol_vectors.json`) are what keeps both sides honest.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

PROTOCOL_VERSION = 4
"""Bumped whenever a frame layout changes; the hub announces its version in HELLO. Version 2
reports every tag in a reader's field and names the hub and its field schedule; version 3
sends snapshots one reader per frame (SNAPSHOT_PART), so that a noisy cable still carries
them, and lets the host ask for only the readers it is missing."""

MAX_FRAME = 4096
"""Longest stuffed frame (without its delimiter) the host accepts; longer runs are garbage.
The longest real frames (a HELLO or SELF_TEST of 255 readers) fit easily."""

MAX_READERS = 255
REQUEST_BITMAP_BYTES = (MAX_READERS + 1) // 8
"""Longest REQUEST_SNAPSHOT body: one bit per reader."""


class MessageType(IntEnum):
    """Frame type byte. Hub-to-host below 0x80, host-to-hub from 0x80."""

    HELLO = 0x01
    SELF_TEST = 0x02
    TAG_ARRIVED = 0x03
    TAG_LEFT = 0x04
    READER_FAULT = 0x05
    HEARTBEAT = 0x06
    # 0x07 was version 2's whole snapshot in one frame: retired, since on a noisy cable a
    # long frame almost never arrives whole.
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


class ReaderStatus(IntEnum):
    """Health of one reader, as the self-test, faults and snapshots report it."""

    OK = 0
    NO_RESPONSE = 1
    """Nothing answered on the bus (unplugged, wrong chip select, no power)."""
    BAD_VERSION = 2
    """Something answered, but the version register is not an MFRC522's (0x91/0x92/clone)."""
    COMM_ERROR = 3
    """The reader answered once but a later transfer failed."""


class CommandErrorCode(IntEnum):
    """Why the hub refused a host command."""

    UNKNOWN_COMMAND = 1
    BAD_LENGTH = 2
    BAD_VALUE = 3


@dataclass(frozen=True, slots=True)
class Hello:
    """First frame after boot and the answer to REQUEST_HELLO."""

    protocol_version: int
    reader_count: int
    miss_limit: int
    firmware_version: str
    hub_id: bytes = b""
    """The hub's unique id (its flash chip's), so several hubs on one table are told apart."""
    schedule: tuple[tuple[int, ...], ...] = ()
    """The field classes it scans, each a set of readers switched on together; empty when
    every field stays on. (A version 1 HELLO has neither.)"""


@dataclass(frozen=True, slots=True)
class ReaderCheck:
    """One reader's boot self-test: its status and the version register it returned."""

    status: ReaderStatus
    version: int


@dataclass(frozen=True, slots=True)
class SelfTest:
    """Per-reader boot self-test results, index = reader number."""

    readers: tuple[ReaderCheck, ...]


@dataclass(frozen=True, slots=True)
class TagArrived:
    reader: int
    uid: bytes


@dataclass(frozen=True, slots=True)
class TagLeft:
    reader: int
    uid: bytes


@dataclass(frozen=True, slots=True)
class ReaderFault:
    """A reader changed health; status OK means it recovered."""

    reader: int
    status: ReaderStatus


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Sent every second: counters for the link health page."""

    uptime_ms: int
    scan_cycles: int
    crc_errors: int
    missed_reads: int
    cycle_us: int
    """How long the last full scan of every reader took (the real scan period)."""


@dataclass(frozen=True, slots=True)
class ReaderState:
    """One reader in a snapshot: its health and every tag in its field, in arrival order."""

    status: ReaderStatus
    uids: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every reader of a hub at one moment. Not a frame: the link assembles it from
    SnapshotParts (hardware.snapshots) and hands it on as one event."""

    readers: tuple[ReaderState, ...]


@dataclass(frozen=True, slots=True)
class SnapshotPart:
    """One reader of a snapshot, in a frame of its own (small, so that noise rarely hits it).

    ``changes`` is the hub's count of change frames (TAG_ARRIVED, TAG_LEFT, READER_FAULT) sent
    before this one, modulo 65536: parts that carry the same count describe one moment, and a
    host that has followed every change since knows it lost none."""

    changes: int
    reader: int
    readers: int
    """How many readers the hub has (so many parts make a whole snapshot)."""
    state: ReaderState


@dataclass(frozen=True, slots=True)
class Pong:
    token: int


@dataclass(frozen=True, slots=True)
class Settings:
    """The scan settings now in force (answer to SET_SCAN)."""

    miss_limit: int
    scan_pause_ms: int


@dataclass(frozen=True, slots=True)
class Watching:
    """The watch now in force (answer to SET_WATCH)."""

    stride: int
    readers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class CommandError:
    command: int
    code: CommandErrorCode


@dataclass(frozen=True, slots=True)
class RequestHello:
    pass


@dataclass(frozen=True, slots=True)
class RequestSnapshot:
    """Ask for SnapshotParts: of ``readers`` only, or (empty) of every reader."""

    readers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Ping:
    token: int


@dataclass(frozen=True, slots=True)
class SetScan:
    """Change debouncing (misses before a tag counts as gone) and the pause between scans."""

    miss_limit: int
    scan_pause_ms: int


@dataclass(frozen=True, slots=True)
class SetWatch:
    """Read ``readers`` (those the next step could change) and every empty reader each scan,
    the hub's other readers one scan in ``stride`` (1: every reader every scan)."""

    stride: int
    readers: tuple[int, ...] = ()


HubMessage = (
    Hello
    | SelfTest
    | TagArrived
    | TagLeft
    | ReaderFault
    | Heartbeat
    | SnapshotPart
    | Pong
    | Settings
    | Watching
    | CommandError
)
HostCommand = RequestHello | RequestSnapshot | Ping | SetScan | SetWatch
Message = HubMessage | HostCommand


@dataclass(frozen=True, slots=True)
class Packet:
    """A decoded frame: the sender's sequence number and the message."""

    seq: int
    message: Message
