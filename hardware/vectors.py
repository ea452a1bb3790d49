"""Loads the shared protocol test vectors (`protocol_vectors.json`) as typed messages.

The same file feeds the firmware tests (which read the JSON inside MicroPython), so the
host-side view of it lives here where host tests, the simulator and benchmarks can share it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from hardware import protocol
from hardware.protocol import Message, ReaderCheck, ReaderState, ReaderStatus

VECTORS_FILE = "protocol_vectors.json"


@dataclass(frozen=True, slots=True)
class FrameVector:
    name: str
    direction: str
    seq: int
    message: Message
    wire: bytes


@dataclass(frozen=True, slots=True)
class CorruptVector:
    name: str
    wire: bytes
    error: str


@dataclass(frozen=True, slots=True)
class StreamVector:
    name: str
    wire: bytes
    frames: tuple[str, ...]
    dropped: int


@dataclass(frozen=True, slots=True)
class Vectors:
    protocol_version: int
    frames: tuple[FrameVector, ...]
    corrupt: tuple[CorruptVector, ...]
    streams: tuple[StreamVector, ...]

    def frame(self, name: str) -> FrameVector:
        for vector in self.frames:
            if vector.name == name:
                return vector
        raise KeyError(f"no frame vector named {name!r}")


def message_from_fields(type_name: str, fields: dict[str, Any]) -> Message:
    """Rebuild a message from its JSON form (bytes as hex, nested readers as dicts)."""
    cls = getattr(protocol, type_name)
    kwargs: dict[str, Any] = {}
    for key, value in fields.items():
        if key in ("uid", "hub_id"):
            value = bytes.fromhex(value)
        elif key == "uids":
            value = tuple(bytes.fromhex(uid) for uid in value)
        elif key == "schedule":
            value = tuple(tuple(members) for members in value)
        elif key == "status":
            value = ReaderStatus(value)
        elif key == "code":
            value = protocol.CommandErrorCode(value)
        elif key == "state":
            value = message_from_fields(ReaderState.__name__, value)
        elif key == "readers" and type_name in ("RequestSnapshot", "SetWatch", "Watching"):
            value = tuple(value)
        elif key == "readers" and isinstance(value, list):
            nested = ReaderCheck if type_name == "SelfTest" else ReaderState
            value = tuple(message_from_fields(nested.__name__, item) for item in value)
        kwargs[key] = value
    return cls(**kwargs)


def load_vectors() -> Vectors:
    raw = json.loads(resources.files("hardware").joinpath(VECTORS_FILE).read_text())
    return Vectors(
        protocol_version=raw["protocol_version"],
        frames=tuple(
            FrameVector(
                v["name"],
                v["direction"],
                v["seq"],
                message_from_fields(v["type"], v["fields"]),
                bytes.fromhex(v["wire"]),
            )
            for v in raw["frames"]
        ),
        corrupt=tuple(
            CorruptVector(v["name"], bytes.fromhex(v["wire"]), v["error"]) for v in raw["corrupt"]
        ),
        streams=tuple(
            StreamVector(v["name"], bytes.fromhex(v["wire"]), tuple(v["frames"]), v["dropped"])
            for v in raw["streams"]
        ),
    )
