"""The hub's scan loop under MicroPython with fake readers, read back with the host codec."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware import codec
from hardware.codec import StreamDecoder
from hardware.protocol import (
    PROTOCOL_VERSION,
    CommandError,
    CommandErrorCode,
    Heartbeat,
    Hello,
    Message,
    Packet,
    Ping,
    Pong,
    ReaderCheck,
    ReaderFault,
    ReaderState,
    ReaderStatus,
    RequestSnapshot,
    SelfTest,
    SetScan,
    Settings,
    SetWatch,
    Snapshot,
    SnapshotPart,
    TagArrived,
    TagLeft,
    Watching,
)

SETUP = """
import binascii
from hub import Hub
from fakes import FakeClock, FakePort, FakeReader
clock = FakeClock()
port = FakePort()
readers = [FakeReader() for _ in range({n})]
out = []
def mark():
    out.append(binascii.hexlify(port.take()).decode())
"""

UID_A = bytes.fromhex("04a1b2c3")
UID_B = bytes.fromhex("04112233445566")


def frames(hexes: list[str]) -> list[list[Packet]]:
    """Decode each marked chunk of firmware output; any damaged frame fails the test."""
    decoder = StreamDecoder()
    chunks = [decoder.feed(bytes.fromhex(h)) for h in hexes]
    assert decoder.dropped == 0, decoder.last_error
    return chunks


def messages(chunk: list[Packet]) -> list[Message | Snapshot]:
    """The messages, each run of snapshot parts (reader 0 to the last, all counting the same
    changes) joined into the Snapshot it makes."""
    out: list[Message | Snapshot] = []
    parts: list[SnapshotPart] = []
    for packet in chunk:
        message = packet.message
        if not isinstance(message, SnapshotPart):
            out.append(message)
            continue
        parts.append(message)
        if message.reader == message.readers - 1:
            assert [part.reader for part in parts] == list(range(message.readers))
            assert len({part.changes for part in parts}) == 1
            out.append(Snapshot(tuple(part.state for part in parts)))
            parts = []
    assert not parts, f"an unfinished snapshot: {parts}"
    return out


def test_boot_self_test_reports_every_reader(micropython: Callable[[str], Any]) -> None:
    out = micropython(SETUP.format(n=4) + """
readers[1].broken = True
readers[2].version_register = 0x00
readers[3].version_register = 0x37
hub = Hub(readers, port, clock, 'fw 9', miss_limit=4, hub_id=b'\\x01\\x02')
hub.boot()
mark()
report({'out': out, 'inits': [r.inits for r in readers]})
""")
    [boot] = frames(out["out"])
    assert messages(boot) == [
        Hello(PROTOCOL_VERSION, 4, 4, "fw 9", b"\x01\x02", ()),  # no schedule: every field stays on
        SelfTest(
            (
                ReaderCheck(ReaderStatus.OK, 0x92),
                ReaderCheck(ReaderStatus.NO_RESPONSE, 0),
                ReaderCheck(ReaderStatus.NO_RESPONSE, 0),
                ReaderCheck(ReaderStatus.BAD_VERSION, 0x37),
            )
        ),
    ]
    assert [p.seq for p in boot] == [0, 1]
    assert out["inits"] == [1, 0, 0, 0]


def test_debounce_needs_k_missed_scans(micropython: Callable[[str], Any]) -> None:
    out = micropython(SETUP.format(n=2) + """
hub = Hub(readers, port, clock, 'fw', miss_limit=3)
hub.boot(); port.take()
readers[0].uid = UID_A
hub.scan_cycle(); mark()              # arrives
readers[0].uid = None
hub.scan_cycle(); hub.scan_cycle(); mark()   # two misses: still there
readers[0].uid = UID_A
hub.scan_cycle(); mark()              # back after two misses: put back, announced again
readers[0].uid = None
hub.scan_cycle(); hub.scan_cycle(); mark()
hub.scan_cycle(); mark()              # third miss in a row: left
readers[1].uid = UID_A
hub.scan_cycle(); readers[1].uid = UID_B; hub.scan_cycle(); mark()   # swapped
report({'out': out, 'missed': hub.missed_reads})
""".replace("UID_A", repr(UID_A)).replace("UID_B", repr(UID_B)))
    chunks = [messages(c) for c in frames(out["out"])]
    assert chunks == [
        [TagArrived(0, UID_A)],
        [],
        [TagArrived(0, UID_A)],
        [],
        [TagLeft(0, UID_A)],
        [TagArrived(1, UID_A), TagArrived(1, UID_B)],  # the new one at once, the old debounced
    ]
    assert out["missed"] == 6


def test_a_failing_reader_is_reported_retried_and_recovers(
    micropython: Callable[[str], Any],
) -> None:
    out = micropython(SETUP.format(n=3) + """
hub = Hub(readers, port, clock, 'fw', retry_ms=500)
hub.boot(); port.take()
readers[2].uid = UID_A
readers[1].broken = True
for _ in range(3):
    hub.scan_cycle()
mark()
hub.scan_cycle(); mark()          # faulty and not yet due for a retry: silent
clock.advance_ms(600)
hub.scan_cycle(); mark()          # retried: now it does not answer at all
readers[1].broken = False
clock.advance_ms(600)
hub.scan_cycle(); mark()          # retried and well again
hub.send_snapshot(); mark()
report({'out': out, 'cycles': hub.scan_cycles})
""".replace("UID_A", repr(UID_A)))
    chunks = [messages(c) for c in frames(out["out"])]
    assert chunks[0] == [TagArrived(2, UID_A), ReaderFault(1, ReaderStatus.COMM_ERROR)]
    assert chunks[1] == []
    assert chunks[2] == [ReaderFault(1, ReaderStatus.NO_RESPONSE)]
    assert chunks[3] == [ReaderFault(1, ReaderStatus.OK)]
    assert chunks[4] == [
        Snapshot(
            (
                ReaderState(ReaderStatus.OK, ()),
                ReaderState(ReaderStatus.OK, ()),
                ReaderState(ReaderStatus.OK, (UID_A,)),
            )
        )
    ]
    assert out["cycles"] == 6


def test_host_commands_and_heartbeat(micropython: Callable[[str], Any]) -> None:
    commands = (
        codec.encode(RequestSnapshot(), 0)
        + b"\x13\x37garbage\x00"
        + codec.encode(Ping(0xCAFE), 1)
        + codec.encode(SetScan(5, 20), 2)
        + codec.encode(SetScan(0, 20), 3)
        + codec.encode(Pong(1), 4)
    )
    out = micropython(SETUP.format(n=1) + f"""
hub = Hub(readers, port, clock, 'fw', heartbeat_ms=1000)
hub.boot(); port.take()
readers[0].uid = {UID_B!r}
port.inbox.extend({commands!r})
hub.step(); mark()
clock.advance_ms(1200)
hub.step(); mark()
report({{'out': out, 'misses': hub.miss_limit, 'pause': hub.scan_pause_ms}})
""")
    first, second = frames(out["out"])
    replies = [m for m in messages(first) if not isinstance(m, TagArrived)]
    assert replies == [
        Snapshot((ReaderState(ReaderStatus.OK, (UID_B,)),)),  # commands come after each reader
        Pong(0xCAFE),
        Settings(5, 20),
        CommandError(0x84, CommandErrorCode.BAD_VALUE),
        CommandError(0x08, CommandErrorCode.UNKNOWN_COMMAND),
    ]
    assert TagArrived(0, UID_B) in messages(first)
    [heartbeat] = messages(second)
    assert isinstance(heartbeat, Heartbeat)
    assert heartbeat.crc_errors == 1 and heartbeat.scan_cycles == 2
    assert heartbeat.uptime_ms >= 1200
    seqs = [p.seq for p in first + second]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert (out["misses"], out["pause"]) == (5, 20)


def test_garbage_and_bad_readers_never_stop_the_hub(micropython: Callable[[str], Any]) -> None:
    out = micropython(SETUP.format(n=3) + f"""
state = [7]
def rnd(n):  # a small LCG: deterministic noise without the random module
    state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return state[0] % n
hub = Hub(readers, port, clock, 'fw')
hub.boot(); port.take()
readers[0].uid = bytes(12)               # a reader returning nonsense
readers[1].collect = lambda present: 1 / 0   # a reader whose driver crashes
readers[2].uid = {UID_A!r}
for _ in range(100):  # more steps crash the WASI interpreter itself (a memory fault in it)
    port.inbox.extend(bytes(rnd(256) for _ in range(1 + rnd(40))))
    hub.step()
port.take()
port.inbox.extend(b'\\x00' + {codec.encode(Ping(5), 0)!r})
hub.step(); mark()
report({{'out': out, 'crc_errors': hub.frames_in.errors, 'status': [s.status for s in hub.slots]}})
""")
    [chunk] = frames(out["out"])
    assert Pong(5) in messages(chunk)
    assert out["crc_errors"] > 0
    assert out["status"] == [ReaderStatus.COMM_ERROR, ReaderStatus.COMM_ERROR, ReaderStatus.OK]


def test_a_stack_is_reported_tag_by_tag_and_in_snapshots(
    micropython: Callable[[str], Any],
) -> None:
    uid_c = bytes.fromhex("04010203")
    out = micropython(SETUP.format(n=1) + f"""
hub = Hub(readers, port, clock, 'fw', miss_limit=3)
hub.boot(); port.take()
readers[0].uids = [{UID_A!r}]
hub.scan_cycle(); mark()
readers[0].uids = [{UID_A!r}, {UID_B!r}]        # a card laid on top
hub.scan_cycle(); mark()
readers[0].uids = [{UID_A!r}, {UID_B!r}, {uid_c!r}]
hub.scan_cycle(); hub.send_snapshot(); mark()
readers[0].uids = [{UID_A!r}, {uid_c!r}]        # the middle one pulled out
hub.scan_cycle(); hub.scan_cycle(); hub.scan_cycle(); mark()
readers[0].uids = [{uid_c!r}]                   # the bottom card lifted for two scans...
hub.scan_cycle(); hub.scan_cycle(); mark()
readers[0].uids = [{uid_c!r}, {UID_A!r}]        # ...and put back on top
hub.scan_cycle(); hub.send_snapshot(); mark()
readers[0].uids = [{uid_c!r}]                   # a flicker of one scan reorders nothing
hub.scan_cycle(); readers[0].uids = [{UID_A!r}, {uid_c!r}]; hub.scan_cycle(); mark()
report({{'out': out}})
""")
    chunks = [messages(c) for c in frames(out["out"])]
    assert chunks == [
        [TagArrived(0, UID_A)],
        [TagArrived(0, UID_B)],
        [TagArrived(0, uid_c), Snapshot((ReaderState(ReaderStatus.OK, (UID_A, UID_B, uid_c)),))],
        [TagLeft(0, UID_B)],
        [],
        [TagArrived(0, UID_A), Snapshot((ReaderState(ReaderStatus.OK, (uid_c, UID_A)),))],
        [],
    ]


def test_a_reader_that_fails_during_its_slot_has_its_field_switched_off(
    micropython: Callable[[str], Any],
) -> None:
    """Its third failed transfer in a row marks it faulty in the middle of its class's slot;
    its field must still go off with the class, not stay on through the other hubs' slots."""
    out = micropython(SETUP.format(n=2) + """
hub = Hub(readers, port, clock, 'fw', schedule=[[0], [1]], power_up_ms=5, retry_ms=60000)
hub.boot(); port.take()
readers[0].broken = True
fields = []
for _ in range(4):
    hub.scan_cycle()
    fields.append(readers[0].on)
report({'on_after_scans': fields, 'status': hub.slots[0].status, 'switches': readers[0].switches})
""")
    assert out["status"] != 0  # faulty by now (COMM_ERROR)
    assert out["on_after_scans"] == [False] * 4
    assert out["switches"][-1] is False


def test_a_field_schedule_switches_classes_and_waits_the_power_up(
    micropython: Callable[[str], Any],
) -> None:
    out = micropython(SETUP.format(n=4) + f"""
hub = Hub(readers, port, clock, 'fw', schedule=[[0, 2], [1, 3]], power_up_ms=5)
hub.boot(); port.take()
off_after_boot = [r.on for r in readers]
boot_switches = [list(r.switches) for r in readers]
for r in readers:
    r.switches.clear()
readers[3].uid = {UID_A!r}
from fakes import CALLS
del CALLS[:]
start = clock.us
hub.scan_cycle(); mark()
took = clock.us - start
calls = [(name, readers.index(r)) for name, r in CALLS]
try:
    Hub(readers, port, clock, 'fw', schedule=[[0, 1], [1, 2]])
    error = None
except ValueError as exc:
    error = str(exc)
hub.send_hello(); mark()
report({{'out': out, 'off': off_after_boot, 'boot': boot_switches,
        'switches': [r.switches for r in readers],
        'took': took, 'error': error, 'calls': calls}})
""")
    scan, hello = (messages(c) for c in frames(out["out"]))
    assert out["off"] == [False] * 4  # fields are off until their class is read
    # not even for a moment while the readers are probed: another hub may be in its slot
    assert out["boot"] == [[]] * 4
    assert out["switches"] == [[True, False]] * 4  # each field on once per scan, then off
    assert scan == [TagArrived(3, UID_A)]  # read while its class was on
    assert out["took"] >= 2 * 5000  # the power-up, once per class
    # each class's REQAs are all started before any answer is collected: their waits overlap
    assert [tuple(call) for call in out["calls"]] == [
        ("request", 0), ("request", 2), ("collect", 0), ("collect", 2),
        ("request", 1), ("request", 3), ("collect", 1), ("collect", 3)]
    assert "every reader 0..3 exactly once" in out["error"]
    assert hello[0] == Hello(PROTOCOL_VERSION, 4, 3, "fw", b"", ((0, 2), (1, 3)))


def test_snapshot_parts_count_the_changes_and_answer_only_what_was_asked(
    micropython: Callable[[str], Any],
) -> None:
    commands = codec.encode(RequestSnapshot((2,)), 0) + codec.encode(RequestSnapshot(), 1)
    out = micropython(SETUP.format(n=3) + f"""
hub = Hub(readers, port, clock, 'fw', miss_limit=1)
hub.boot(); port.take()
readers[1].uid = {UID_A!r}
hub.scan_cycle(); readers[1].uid = None; hub.scan_cycle(); readers[1].uid = {UID_A!r}
hub.scan_cycle(); mark()
port.inbox.extend({commands!r})
hub.poll(); mark()
report({{'out': out}})
""")
    events, answers = frames(out["out"])
    assert messages(events) == [TagArrived(1, UID_A), TagLeft(1, UID_A), TagArrived(1, UID_A)]
    ok = ReaderState(ReaderStatus.OK, ())
    here = ReaderState(ReaderStatus.OK, (UID_A,))
    assert [packet.message for packet in answers] == [
        SnapshotPart(3, 2, 3, ok),  # only what was asked for, then every reader
        SnapshotPart(3, 0, 3, ok), SnapshotPart(3, 1, 3, here), SnapshotPart(3, 2, 3, ok)]


def test_a_command_written_twice_is_answered_once(micropython: Callable[[str], Any]) -> None:
    """Over a noisy cable the host writes a request twice (same sequence number)."""
    twice = codec.encode(RequestSnapshot((0,)), 7)
    commands = b"\x00" + twice + b"\x00" + twice + codec.encode(Ping(5), 8) * 2 + twice
    out = micropython(SETUP.format(n=2) + f"""
hub = Hub(readers, port, clock, 'fw')
hub.boot(); port.take()
port.inbox.extend({commands!r})
hub.poll(); mark()
report({{'out': out}})
""")
    [answers] = frames(out["out"])
    empty = SnapshotPart(0, 0, 2, ReaderState(ReaderStatus.OK, ()))
    assert [packet.message for packet in answers] == [empty, Pong(5), empty]


def test_a_watch_reads_the_watched_and_empty_readers_every_scan_and_other_stacks_in_turn(
    micropython: Callable[[str], Any],
) -> None:
    """Readers 0-2 hold stacks, 3 is empty; reader 1 is watched, the stride 3."""
    watch = codec.encode(SetWatch(3, (1,)), 0)
    out = micropython(SETUP.format(n=4) + f"""
for r in readers[:3]:
    r.uids = [{UID_A!r}, {UID_B!r}]
hub = Hub(readers, port, clock, 'fw', miss_limit=1)
hub.boot()
hub.scan_cycle(); hub.scan_cycle(); port.take()  # the stacks found, and read once more
before = [r.reads for r in readers]
port.inbox.extend({watch!r}); hub.poll(); mark()
for _ in range(6):
    hub.scan_cycle()
reads = [r.reads - b for r, b in zip(readers, before)]
readers[0].uids = []  # a stack nobody watches taken away: seen within the stride
missed = readers[0].reads
scans = 0
while readers[0].reads == missed:
    hub.scan_cycle()
    scans += 1
mark()
before = readers[0].reads
for _ in range(3):  # its tags just changed: read every scan for a stride of scans
    hub.scan_cycle()
lively = readers[0].reads - before
port.inbox.extend({codec.encode(SetWatch(0, (1,)), 1)!r}); hub.poll(); mark()
stride = hub.stride
port.inbox.extend({codec.encode(SetWatch(1, ()), 2)!r}); hub.poll(); mark()
before = [r.reads for r in readers]
hub.scan_cycle()
every = [r.reads - b for r, b in zip(readers, before)]
port.inbox.extend({watch!r}); hub.poll()
hub.send_hello(); port.take()  # a new host session
before = [r.reads for r in readers]
hub.scan_cycle()
report({{'out': out, 'reads': reads, 'stride': stride, 'all': every, 'lively': lively,
        'scans': scans,
        'after_hello': [r.reads - b for r, b in zip(readers, before)]}})
""")
    answer, lifted, refused, every = (messages(c) for c in frames(out["out"]))
    assert answer == [Watching(3, (1,))]
    assert out["reads"] == [2, 6, 2, 6]  # the other stacks one scan in three, in turn
    assert lifted == [TagLeft(0, UID_A), TagLeft(0, UID_B)]
    assert out["scans"] <= 3 and out["lively"] == 3  # then read in each of the next three
    assert refused == [CommandError(0x85, CommandErrorCode.BAD_VALUE)]
    assert out["stride"] == 3  # a refused watch changes nothing
    assert every == [Watching(1, ())]
    assert out["all"] == [1, 1, 1, 1]
    assert out["after_hello"] == [1, 1, 1, 1]  # the host that said hello assumes no watch
