"""How fast the host decodes hub frames, against what a 115200-baud link can deliver.

The stream is the traffic a busy table makes: tag arrivals and departures (4- and 7-byte
UIDs), reader faults, heartbeats and now and then a snapshot part of a 64-reader hub. It is fed to
`StreamDecoder` in serial-read-sized chunks, as the link does. `tabletop bench hub` prints it.
"""

from __future__ import annotations

import random
import time
from typing import Any

from hardware import codec
from hardware.protocol import (
    Heartbeat,
    Message,
    ReaderFault,
    ReaderState,
    ReaderStatus,
    SnapshotPart,
    TagArrived,
    TagLeft,
)

BAUD = 115_200
BITS_PER_BYTE = 10  # 8N1: start bit, 8 data bits, stop bit


def sample_stream(frames: int = 2000, seed: int = 4) -> tuple[bytes, int]:
    """Wire bytes of a realistic mix of hub frames, and how many frames they hold."""
    rng = random.Random(seed)
    parts = []
    for seq in range(frames):
        roll = rng.random()
        uid = rng.randbytes(rng.choice((4, 7)))
        reader = rng.randrange(64)
        message: Message
        if roll < 0.45:
            message = TagArrived(reader, uid)
        elif roll < 0.9:
            message = TagLeft(reader, uid)
        elif roll < 0.93:
            message = ReaderFault(reader, ReaderStatus.COMM_ERROR)
        elif roll < 0.995:
            message = Heartbeat(seq * 1000, seq * 5, 0, seq // 7, 150_000)
        else:  # a snapshot of 64 readers comes as 64 parts; one of them here
            state = ReaderState(ReaderStatus.OK, (rng.randbytes(7),) if rng.random() < 0.4 else ())
            message = SnapshotPart(seq // 7, reader, 64, state)
        parts.append(codec.encode(message, seq))
    return b"".join(parts), frames


def measure_decode_throughput(seconds: float = 2.0, chunk: int = 256) -> dict[str, Any]:
    stream, per_pass = sample_stream()
    chunks = [stream[i : i + chunk] for i in range(0, len(stream), chunk)]
    decoder = codec.StreamDecoder()
    passes = 0
    start = time.perf_counter()
    while True:
        for piece in chunks:
            decoder.feed(piece)
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    if decoder.dropped or decoder.frames != passes * per_pass:
        raise RuntimeError(f"decoder lost frames during the benchmark: {decoder.errors}")
    mean_bytes = len(stream) / per_pass
    link_frames = BAUD / BITS_PER_BYTE / mean_bytes
    frames_per_second = decoder.frames / elapsed
    return {
        "frames": decoder.frames,
        "seconds": round(elapsed, 3),
        "chunk_bytes": chunk,
        "mean_frame_bytes": round(mean_bytes, 1),
        "decoded_frames_per_second": round(frames_per_second),
        "decoded_megabytes_per_second": round(frames_per_second * mean_bytes / 1e6, 2),
        "link_frames_per_second_at_115200": round(link_frames),
        "headroom": round(frames_per_second / link_frames, 1),
        "target_headroom": 20,
    }
