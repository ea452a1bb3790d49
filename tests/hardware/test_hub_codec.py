"""Host codec against the shared vectors, a hand-built frame, and hypothesis."""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import codec
from hardware.codec import FrameError, StreamDecoder
from hardware.protocol import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    Heartbeat,
    Hello,
    Packet,
    Ping,
    ReaderState,
    ReaderStatus,
    RequestSnapshot,
    SetScan,
    SnapshotPart,
    TagArrived,
    TagLeft,
)
from hardware.vectors import load_vectors

VECTORS = load_vectors()


def reference_cobs(data: bytes) -> bytes:
    """Textbook COBS, written out here so the library is checked against something else."""
    out, block = bytearray(), bytearray()
    for byte in data:
        if byte == 0:
            out += bytes((len(block) + 1,)) + block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out += b"\xff" + block
                block.clear()
    out += bytes((len(block) + 1,)) + block
    return bytes(out)


def test_vectors_match_this_protocol_version() -> None:
    assert VECTORS.protocol_version == PROTOCOL_VERSION
    assert len(VECTORS.frames) >= 10 and VECTORS.corrupt and VECTORS.streams


def test_hand_built_frame_matches_encoder() -> None:
    head = bytes([0x03, 0x02, 0x00, 0x03, 0x04, 0x04, 0xA1, 0xB2, 0xC3])
    payload = head + zlib.crc32(head).to_bytes(4, "little")
    expected = reference_cobs(payload) + b"\x00"
    assert codec.encode(TagArrived(3, bytes.fromhex("04a1b2c3")), 2) == expected
    assert VECTORS.frame("tag_arrived_4_byte_uid").wire == expected


@pytest.mark.parametrize("vector", VECTORS.frames, ids=lambda v: v.name)
def test_vector_frames_encode_and_decode(vector) -> None:
    assert codec.encode(vector.message, vector.seq) == vector.wire
    assert codec.decode(vector.wire) == Packet(vector.seq, vector.message)
    assert 0 not in vector.wire[:-1] and vector.wire[-1] == 0


@pytest.mark.parametrize("vector", VECTORS.corrupt, ids=lambda v: v.name)
def test_corrupt_vectors_are_rejected_with_their_reason(vector) -> None:
    with pytest.raises(FrameError) as caught:
        codec.decode(vector.wire)
    assert caught.value.kind == vector.error
    assert str(caught.value)


@pytest.mark.parametrize("vector", VECTORS.streams, ids=lambda v: v.name)
@pytest.mark.parametrize("chunk", [1, 3, 1000])
def test_stream_vectors_resynchronise(vector, chunk: int) -> None:
    decoder = StreamDecoder()
    packets = []
    for i in range(0, len(vector.wire), chunk):
        packets += decoder.feed(vector.wire[i : i + chunk])
    assert packets == [
        Packet(VECTORS.frame(n).seq, VECTORS.frame(n).message) for n in vector.frames
    ]
    assert decoder.dropped == vector.dropped
    assert decoder.frames == len(vector.frames)


def test_runaway_frame_is_dropped_and_stream_recovers() -> None:
    decoder = StreamDecoder()
    good = codec.encode(TagLeft(1, b"\x01\x02\x03\x04"), 9)
    assert decoder.feed(b"\x01" * (MAX_FRAME + 50)) == []
    assert decoder.feed(b"\x00" + good) == [Packet(9, TagLeft(1, b"\x01\x02\x03\x04"))]
    assert decoder.errors["too_long"] == 1


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (TagArrived(1, b""), "1 to 10 bytes"),
        (TagArrived(1, bytes(11)), "1 to 10 bytes"),
        (TagArrived(256, b"\x01\x02\x03\x04"), "reader must fit in one byte"),
        (Hello(PROTOCOL_VERSION, 300, 3, "x"), "reader count"),
    ],
)
def test_encoder_refuses_values_the_wire_cannot_carry(message, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        codec.encode(message, 0)


def test_encoder_refuses_non_messages() -> None:
    with pytest.raises(TypeError, match="not a protocol message"):
        codec.encode("hello", 0)  # type: ignore[arg-type]


uids = st.binary(min_size=1, max_size=10)
readers = st.integers(0, 255)
statuses = st.sampled_from(list(ReaderStatus))
u32 = st.integers(0, 2**32 - 1)
messages = st.one_of(
    st.builds(TagArrived, readers, uids),
    st.builds(TagLeft, readers, uids),
    st.builds(Heartbeat, u32, u32, u32, u32, u32),
    st.builds(Hello, st.just(1), readers, st.integers(0, 255), st.text(max_size=40)),
    st.builds(Hello, st.integers(2, 255), readers, st.integers(0, 255), st.text(max_size=40),
              st.binary(max_size=8),
              st.lists(st.lists(readers, min_size=1, max_size=8).map(tuple), max_size=12)
              .map(tuple)),
    st.builds(Ping, u32),
    st.builds(SetScan, st.integers(0, 255), st.integers(0, 0xFFFF)),
    st.integers(1, 255).flatmap(lambda count: st.builds(
        SnapshotPart, st.integers(0, 0xFFFF), st.integers(0, count - 1), st.just(count),
        st.builds(ReaderState, statuses, st.lists(uids, max_size=4).map(tuple)))),
    st.builds(RequestSnapshot, st.sets(readers, max_size=20).map(lambda s: tuple(sorted(s)))),
)


@given(messages, st.integers(0, 0xFFFF))
def test_every_message_round_trips(message, seq: int) -> None:
    assert codec.decode(codec.encode(message, seq)) == Packet(seq, message)


@given(st.binary(max_size=300))
def test_garbage_never_raises_from_the_stream_decoder(garbage: bytes) -> None:
    decoder = StreamDecoder()
    decoder.feed(garbage)
    frame = codec.encode(TagLeft(2, b"\x09\x08\x07\x06"), 77)
    assert decoder.feed(b"\x00" + frame) == [Packet(77, TagLeft(2, b"\x09\x08\x07\x06"))]


@given(st.lists(messages, min_size=1, max_size=8), st.binary(min_size=1, max_size=30))
def test_frames_after_garbage_all_arrive(batch, garbage: bytes) -> None:
    wire = garbage + b"\x00" + b"".join(codec.encode(m, i) for i, m in enumerate(batch))
    assert StreamDecoder().feed(wire) == [Packet(i, m) for i, m in enumerate(batch)]


@given(st.binary(max_size=64))
def test_decode_raises_only_frame_errors(junk: bytes) -> None:
    try:
        codec.decode(junk)
    except FrameError as exc:
        assert exc.kind in {"cobs", "crc", "short", "unknown_type", "bad_body", "too_long"}


def test_a_version_1_hello_still_decodes_so_the_link_can_refuse_it() -> None:
    v1 = bytes((1, 10, 3, 5)) + b"hub 1"
    frame = codec.encode_payload(Hello(1, 10, 3, "hub 1"), 0)
    assert frame[3:-4] == v1  # the layout version 1 hubs send
    assert codec.decode(codec.encode(Hello(1, 10, 3, "hub 1"), 0)).message == Hello(
        1, 10, 3, "hub 1", b"", ())
