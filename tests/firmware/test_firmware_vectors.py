"""The firmware's protocol module, run under MicroPython, against the shared test vectors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cobs import cobs

from hardware import codec
from hardware.protocol import CommandErrorCode, MessageType
from hardware.vectors import load_vectors

VECTORS = load_vectors()

SCRIPT = r"""
import binascii
import protocol as p
from hub import Hub
from fakes import FakeClock, FakePort, FakeReader

V = json.load(open('/input/protocol_vectors.json'))
h = lambda b: binascii.hexlify(b).decode()
uh = binascii.unhexlify


def build(t, f):
    if t == 'Hello':
        assert f['protocol_version'] == p.PROTOCOL_VERSION
        return p.HELLO, p.hello_body(f['reader_count'], f['miss_limit'], uh(f['hub_id']),
                                     f['schedule'], f['firmware_version'])
    if t == 'SelfTest':
        return p.SELF_TEST, p.self_test_body([(r['status'], r['version']) for r in f['readers']])
    if t == 'TagArrived':
        return p.TAG_ARRIVED, p.tag_body(f['reader'], uh(f['uid']))
    if t == 'TagLeft':
        return p.TAG_LEFT, p.tag_body(f['reader'], uh(f['uid']))
    if t == 'ReaderFault':
        return p.READER_FAULT, p.fault_body(f['reader'], f['status'])
    if t == 'Heartbeat':
        return p.HEARTBEAT, p.heartbeat_body(
            f['uptime_ms'], f['scan_cycles'], f['crc_errors'], f['missed_reads'], f['cycle_us'])
    if t == 'SnapshotPart':
        s = f['state']
        return p.SNAPSHOT_PART, p.part_body(f['changes'], f['reader'], f['readers'],
                                            s['status'], [uh(u) for u in s['uids']])
    if t == 'Pong':
        return p.PONG, p.u32_body(f['token'])
    if t == 'Settings':
        return p.SETTINGS, p.settings_body(f['miss_limit'], f['scan_pause_ms'])
    if t == 'Watching':
        bitmap = bytearray((max(f['readers']) // 8 + 1) if f['readers'] else 0)
        for r in f['readers']:
            bitmap[r // 8] |= 1 << (r % 8)
        return p.WATCHING, bytes([f['stride']]) + bytes(bitmap)
    if t == 'CommandError':
        return p.COMMAND_ERROR, p.command_error_body(f['command'], f['code'])
    raise ValueError(t)


def answers(frames):
    port = FakePort()
    hub = Hub([FakeReader() for _ in range(10)], port, FakeClock(), 'test')
    for kind, seq, body in frames:
        hub.handle(kind, body)
    out = p.FrameReader(limit=4096).feed(port.take())
    return [[kind, h(body)] for kind, seq, body in out]


out = {'encoded': {}, 'decoded': {}, 'corrupt': {}, 'streams': {}, 'soft_crc_ok': True}
for v in V['frames']:
    wire = uh(v['wire'])
    if p.crc32_soft(wire) != p.crc32(wire):
        out['soft_crc_ok'] = False
    if v['direction'] == 'hub':
        kind, body = build(v['type'], v['fields'])
        out['encoded'][v['name']] = h(p.encode(kind, v['seq'], body))
    else:
        frames = p.FrameReader().feed(wire)
        out['decoded'][v['name']] = [[k, s, h(b)] for k, s, b in frames]
        out['decoded'][v['name'] + ':answers'] = answers(frames)
for v in V['corrupt']:
    reader = p.FrameReader()
    frames = reader.feed(uh(v['wire']))
    out['corrupt'][v['name']] = {
        'errors': reader.errors, 'kind': reader.last_error, 'answers': answers(frames)}
for v in V['streams']:
    reader = p.FrameReader(limit=4096)
    frames = reader.feed(uh(v['wire']))
    out['streams'][v['name']] = {'frames': len(frames), 'errors': reader.errors}
report(out)
"""


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory, run_mpy) -> dict[str, Any]:
    return run_mpy(Path(tmp_path_factory.mktemp("vectors")), SCRIPT)


def test_runs_on_micropython_with_both_crc_implementations(result: dict[str, Any]) -> None:
    assert result["soft_crc_ok"] is True


HUB = [v for v in VECTORS.frames if v.direction == "hub"]
HOST = [v for v in VECTORS.frames if v.direction == "host"]


@pytest.mark.parametrize("vector", HUB, ids=lambda v: v.name)
def test_firmware_encodes_hub_frames_byte_for_byte(result: dict[str, Any], vector) -> None:
    assert bytes.fromhex(result["encoded"][vector.name]) == vector.wire


@pytest.mark.parametrize("vector", HOST, ids=lambda v: v.name)
def test_firmware_decodes_host_commands(result: dict[str, Any], vector) -> None:
    payload = codec.encode_payload(vector.message, vector.seq)
    [[kind, seq, body]] = result["decoded"][vector.name]
    assert (kind, seq, bytes.fromhex(body)) == (payload[0], vector.seq, payload[3:-4])
    answers = result["decoded"][vector.name + ":answers"]
    assert len(answers) >= 1
    assert all(kind != MessageType.COMMAND_ERROR for kind, _ in answers)


@pytest.mark.parametrize("vector", VECTORS.corrupt, ids=lambda v: v.name)
def test_firmware_rejects_corrupt_frames(result: dict[str, Any], vector) -> None:
    seen = result["corrupt"][vector.name]
    if vector.error in {"cobs", "crc", "short"}:
        assert (seen["errors"], seen["kind"], seen["answers"]) == (1, vector.error, [])
    else:  # the frame itself is sound; the hub refuses the command and says why
        [[kind, body]] = seen["answers"]
        assert kind == MessageType.COMMAND_ERROR
        frame_type = cobs.decode(vector.wire[:-1])[0]
        known = frame_type in {int(t) for t in MessageType if t >= 0x80}
        expected = CommandErrorCode.BAD_LENGTH if known else CommandErrorCode.UNKNOWN_COMMAND
        assert bytes.fromhex(body) == bytes([frame_type, expected])


@pytest.mark.parametrize("vector", VECTORS.streams, ids=lambda v: v.name)
def test_firmware_resynchronises_like_the_host(result: dict[str, Any], vector) -> None:
    assert result["streams"][vector.name] == {
        "frames": len(vector.frames),
        "errors": vector.dropped,
    }


def test_firmware_answers_a_request_for_some_parts_with_those_only(result: dict[str, Any]) -> None:
    answers = result["decoded"]["request_snapshot_parts:answers"]
    assert [kind for kind, _ in answers] == [MessageType.SNAPSHOT_PART] * 2
    assert [bytes.fromhex(body)[2] for _, body in answers] == [1, 3]  # changes u16, reader


@pytest.mark.parametrize("name", ["set_watch", "set_watch_every_reader"])
def test_firmware_confirms_a_watch_with_the_same_body(result: dict[str, Any], name: str) -> None:
    [[_, _, body]] = result["decoded"][name]
    assert result["decoded"][name + ":answers"] == [[MessageType.WATCHING, body]]
