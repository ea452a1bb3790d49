"""Writes hardware/protocol_vectors.json: run `.venv/bin/python tests/hardware/vector_maker.py`.

Run it only when the protocol changes on purpose (and bump PROTOCOL_VERSION). The file is then
the contract: the host codec and the MicroPython firmware are each tested against it, so a
change on one side that the other does not share fails one of the two suites.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

from cobs import cobs

from hardware import codec
from hardware.protocol import (
    PROTOCOL_VERSION,
    CommandError,
    CommandErrorCode,
    Heartbeat,
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
    SetScan,
    Settings,
    SetWatch,
    SnapshotPart,
    TagArrived,
    TagLeft,
    Watching,
)

VECTORS = Path(__file__).resolve().parents[2] / "hardware" / "protocol_vectors.json"

FRAMES: list[tuple[str, int, Message]] = [
    ("hello", 0, Hello(PROTOCOL_VERSION, 10, 3, "tabletop-hub 2.0.0",
                       bytes.fromhex("e661410403 2b5c2c"), ((0, 2, 4, 6, 8), (1, 3, 5, 7, 9)))),
    ("hello_without_schedule", 0, Hello(PROTOCOL_VERSION, 2, 3, "hub", b"", ())),
    (
        "self_test",
        1,
        SelfTest(
            (
                ReaderCheck(ReaderStatus.OK, 0x92),
                ReaderCheck(ReaderStatus.NO_RESPONSE, 0x00),
                ReaderCheck(ReaderStatus.BAD_VERSION, 0xFF),
            )
        ),
    ),
    ("tag_arrived_4_byte_uid", 2, TagArrived(3, bytes.fromhex("04a1b2c3"))),
    ("tag_arrived_7_byte_uid", 3, TagArrived(0, bytes.fromhex("04112233445566"))),
    ("tag_arrived_uid_with_zero_bytes", 4, TagArrived(0, bytes.fromhex("00000000"))),
    ("tag_left", 5, TagLeft(3, bytes.fromhex("04a1b2c3"))),
    ("reader_fault", 6, ReaderFault(7, ReaderStatus.NO_RESPONSE)),
    ("reader_recovered", 7, ReaderFault(7, ReaderStatus.OK)),
    ("heartbeat", 8, Heartbeat(61_000, 305, 2, 17, 41_250)),
    ("snapshot_part_empty", 9, SnapshotPart(0, 1, 4, ReaderState(ReaderStatus.OK, ()))),
    ("snapshot_part_one_tag", 9,
     SnapshotPart(17, 0, 4, ReaderState(ReaderStatus.OK, (bytes.fromhex("04a1b2c3"),)))),
    ("snapshot_part_fault", 9, SnapshotPart(0x1234, 2, 4, ReaderState(ReaderStatus.COMM_ERROR))),
    ("snapshot_part_stack", 9,
     SnapshotPart(0xFFFF, 3, 4, ReaderState(ReaderStatus.OK, (bytes.fromhex("04112233445566"),
                                                             bytes.fromhex("04a1b2c7"))))),
    ("pong", 10, Pong(0xDEADBEEF)),
    ("settings", 11, Settings(4, 20)),
    ("watching", 11, Watching(8, (0, 3, 9))),
    ("watching_every_reader", 11, Watching(1, ())),
    ("command_error", 12, CommandError(0x99, CommandErrorCode.UNKNOWN_COMMAND)),
    ("sequence_wraps", 0xFFFF, TagLeft(0, bytes.fromhex("04a1b2c3"))),
    ("request_hello", 0, RequestHello()),
    ("request_snapshot", 1, RequestSnapshot()),
    ("request_snapshot_parts", 1, RequestSnapshot((1, 3))),
    ("request_snapshot_part_of_reader_9", 1, RequestSnapshot((9,))),
    ("ping", 2, Ping(0x01020304)),
    ("set_scan", 3, SetScan(5, 0)),
    ("set_watch", 4, SetWatch(8, (0, 3, 9))),
    ("set_watch_every_reader", 4, SetWatch(1, ())),
]


def _fields(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in message.__dataclass_fields__:
        value = getattr(message, name)
        if isinstance(value, bytes):
            value = value.hex()
        elif name == "uids":
            value = [uid.hex() for uid in value]
        elif name == "schedule":
            value = [list(members) for members in value]
        elif name == "state":
            value = _fields(value)
        elif isinstance(value, tuple):
            value = [item if isinstance(item, int) else _fields(item) for item in value]
        elif isinstance(value, int):
            value = int(value)
        out[name] = value
    return out


def _raw(type_byte: int, seq: int, body: bytes) -> bytes:
    """A frame built by hand, bypassing the encoder (for frames the encoder refuses to make)."""
    head = bytes((type_byte, seq & 0xFF, seq >> 8)) + body
    return cobs.encode(head + zlib.crc32(head).to_bytes(4, "little")) + b"\x00"


def _corrupt(wire: dict[str, bytes]) -> list[dict[str, str]]:
    tag = wire["tag_arrived_4_byte_uid"]
    flipped = bytearray(tag)
    flipped[4] ^= 0x10
    return [
        {"name": "bit_flip", "wire": bytes(flipped).hex(), "error": "crc"},
        {"name": "truncated_on_the_wire", "wire": (tag[:-4] + b"\x00").hex(), "error": "cobs"},
        {
            "name": "truncated_payload",
            "wire": (cobs.encode(cobs.decode(tag[:-1])[:-2]) + b"\x00").hex(),
            "error": "crc",
        },
        {"name": "too_short", "wire": "0401020300", "error": "short"},
        {"name": "cobs_code_past_end", "wire": "0a01020300", "error": "cobs"},
        {"name": "unknown_type", "wire": _raw(0x7F, 1, b"").hex(), "error": "unknown_type"},
        {
            "name": "uid_too_long",
            "wire": _raw(0x03, 1, bytes((1, 11)) + bytes(range(1, 12))).hex(),
            "error": "bad_body",
        },
        {
            "name": "extra_bytes",
            "wire": _raw(0x04, 1, bytes((1, 4)) + bytes(5)).hex(),
            "error": "bad_body",
        },
        {
            "name": "snapshot_stack_cut_short",
            "wire": _raw(0x0B, 1, bytes((0, 0, 0, 1, 0, 2, 4)) + bytes(range(1, 5))).hex(),
            "error": "bad_body",
        },
        {
            "name": "snapshot_part_of_a_reader_past_the_count",
            "wire": _raw(0x0B, 1, bytes((0, 0, 4, 4, 0, 0))).hex(),
            "error": "bad_body",
        },
        {
            "name": "old_whole_snapshot",
            "wire": _raw(0x07, 1, bytes((1, 0, 0))).hex(),
            "error": "unknown_type",
        },
        {
            "name": "request_snapshot_bitmap_too_long",
            "wire": _raw(0x82, 9, bytes(range(1, 34))).hex(),
            "error": "bad_body",
        },
        {"name": "ping_body_short", "wire": _raw(0x83, 9, b"\x01\x02").hex(), "error": "bad_body"},
        {
            "name": "set_scan_body_long",
            "wire": _raw(0x84, 9, b"\x01\x02\x03\x04").hex(),
            "error": "bad_body",
        },
    ]


def build() -> dict[str, Any]:
    wire = {name: codec.encode(message, seq) for name, seq, message in FRAMES}
    frames = [
        {
            "name": name,
            "direction": "host" if type(message).__name__ in _HOST else "hub",
            "type": type(message).__name__,
            "seq": seq,
            "fields": _fields(message),
            "wire": wire[name].hex(),
        }
        for name, seq, message in FRAMES
    ]
    garbage = bytes.fromhex("ff13370a")
    streams = [
        {
            "name": "garbage_then_frames",
            "wire": (garbage + b"\x00" + wire["hello"] + wire["tag_arrived_4_byte_uid"]).hex(),
            "frames": ["hello", "tag_arrived_4_byte_uid"],
            "dropped": 1,
        },
        {
            "name": "cut_frame_then_resync",
            "wire": (wire["heartbeat"][:9] + wire["tag_left"]).hex(),
            "frames": [],
            "dropped": 1,
        },
        {
            "name": "idle_delimiters_ignored",
            "wire": (b"\x00\x00" + wire["pong"] + b"\x00" + wire["ping"]).hex(),
            "frames": ["pong", "ping"],
            "dropped": 0,
        },
    ]
    return {
        "comment": "Shared by tests/hardware and tests/firmware; see docs/protocol.md.",
        "protocol_version": PROTOCOL_VERSION,
        "frames": frames,
        "corrupt": _corrupt(wire),
        "streams": streams,
    }


_HOST = {"RequestHello", "RequestSnapshot", "Ping", "SetScan", "SetWatch"}

if __name__ == "__main__":
    VECTORS.write_text(json.dumps(build(), indent=2) + "\n")
    print(f"wrote {VECTORS}")
