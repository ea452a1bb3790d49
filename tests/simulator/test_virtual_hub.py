"""The virtual hub: the real firmware on a real pty, read by the host codec and the HubLink,
and each fault knob doing what it says."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path

import pytest

from hardware import codec
from hardware.link import LinkDown, LinkUp
from hardware.protocol import (
    PROTOCOL_VERSION,
    Heartbeat,
    Hello,
    Ping,
    Pong,
    ReaderFault,
    ReaderStatus,
    RequestSnapshot,
    SelfTest,
    Snapshot,
    SnapshotPart,
    TagArrived,
    TagLeft,
)
from simulator.firmware_runtime import FIRMWARE_DIR, FirmwareNotFound, load_firmware
from simulator.virtual_hub import LinkFaults, VirtualHub
from simulator.virtual_readers import ReaderFaults, TagField, VirtualReader
from simulator.virtual_table import VirtualTable

UID = bytes.fromhex("04a1b2c3d4e5f6")


def read_frames(fd: int, decoder: codec.StreamDecoder, want: int, timeout: float = 3.0) -> list:
    """Packets from a raw pty fd until `want` have arrived."""
    packets: list = []
    deadline = time.monotonic() + timeout
    while len(packets) < want:
        assert time.monotonic() < deadline, f"only {len(packets)} frames arrived: {packets}"
        try:
            packets += decoder.feed(os.read(fd, 4096))
        except BlockingIOError:
            time.sleep(0.005)
    return packets


def test_the_firmware_is_the_real_one_loaded_without_touching_sys_modules() -> None:
    import sys

    firmware = load_firmware()
    assert Path(firmware.hub.__file__) == FIRMWARE_DIR / "hub.py"
    assert firmware.hub.p is firmware.protocol  # `import protocol as p` got the firmware's
    assert "protocol" not in sys.modules and "hub" not in sys.modules
    hub = VirtualHub([VirtualReader("a", TagField(), random.Random(0))])
    assert (hub.miss_limit, hub.heartbeat_ms, hub.retry_ms) == (
        firmware.config.MISS_LIMIT, firmware.config.HEARTBEAT_MS, firmware.config.RETRY_MS)


def test_missing_firmware_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FirmwareNotFound, match=r"hub\.py"):
        load_firmware(tmp_path)


def test_frames_on_the_pty_decode_with_the_host_codec() -> None:
    field = TagField()
    readers = [VirtualReader(f"s{i}", field, random.Random(i)) for i in range(3)]
    readers[2].faults = ReaderFaults(dead=True)
    with VirtualHub(readers, scan_ms=2, firmware_version="fw-test") as hub:
        # The hub made the pty raw already; tty.setraw here would flush the boot frames.
        fd = os.open(hub.path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            decoder = codec.StreamDecoder()
            hello, self_test = read_frames(fd, decoder, 2)
            assert hello.message == Hello(PROTOCOL_VERSION, 3, 1, "fw-test", hub.hub_id, ())
            assert (hello.seq, self_test.seq) == (0, 1)
            assert [c.status for c in self_test.message.readers] == [
                ReaderStatus.OK, ReaderStatus.OK, ReaderStatus.NO_RESPONSE]
            field.add("s1", UID)
            [arrived] = read_frames(fd, decoder, 1)
            assert arrived.message == TagArrived(1, UID) and arrived.seq == 2
            os.write(fd, codec.encode(RequestSnapshot(), 0) + codec.encode(Ping(7), 1))
            packets = read_frames(fd, decoder, 4)
            parts = [packet.message for packet in packets[:3]]
            assert all(isinstance(part, SnapshotPart) for part in parts)
            assert [(p.changes, p.reader, p.readers) for p in parts] == [(1, 0, 3), (1, 1, 3),
                                                                         (1, 2, 3)]
            assert [p.state.uids for p in parts] == [(), (UID,), ()]
            assert packets[3].message == Pong(7)
            assert decoder.dropped == 0
        finally:
            os.close(fd)


def test_link_sees_hello_self_test_tags_and_snapshots(table: VirtualTable, watch) -> None:
    async def body(w) -> None:
        await w.until(lambda: w.of(LinkUp))  # connected, and the watcher has recorded it
        assert w.of(LinkUp)[0].hello.reader_count == 11
        await w.until(lambda: w.of(SelfTest) and w.of(Snapshot))
        assert all(c.status == ReaderStatus.OK for c in w.of(SelfTest)[0].readers)
        table.put("tiki:nani", "stack:4")
        await w.settle()
        uid = table.tags.tags_of("tiki:nani")[0].uid
        assert w.of(TagArrived) == [TagArrived(3, uid)]
        table.lift("stack:4")
        await w.until(lambda: w.of(TagLeft))
        assert w.of(TagLeft) == [TagLeft(3, uid)]
        table.put("tiki:kapu", "pad:play")
        await asyncio.to_thread(table.hub.wait_scans, 2)
        await w.link.request_snapshot()
        await w.until(lambda: len(w.of(Snapshot)) >= 2)
        last = w.of(Snapshot)[-1]
        assert last.readers[9].uids == (table.tags.tags_of("tiki:kapu")[0].uid,)
        assert w.board() == {"pad:play": "tiki:kapu"}

    watch(body)


def test_noise_is_caught_by_the_crc_and_counted(table: VirtualTable, watch) -> None:
    async def body(w) -> None:
        table.set_link_faults(LinkFaults(noise_rate=0.05))
        for site in ("stack:1", "stack:2", "stack:3"):
            table.put("tiki:nani" if site == "stack:1" else f"card:red:up{site[-1]}", site)
            await asyncio.sleep(0.02)
            table.lift(site)
            await asyncio.sleep(0.02)
        await w.link.request_snapshot()
        await w.until(lambda: w.link.health().crc_errors > 0)
        assert table.hub.port_stats().corrupted > 0
        table.set_link_faults(LinkFaults())
        table.put("tiki:eepo", "stack:9")
        await w.link.request_snapshot()
        await w.settle()  # a clean cable brings the host back to the truth

    watch(body)


def test_dropped_bytes_show_as_lost_frames(table: VirtualTable, watch) -> None:
    async def body(w) -> None:
        table.set_link_faults(LinkFaults(drop_rate=0.03))
        for _ in range(6):
            table.put("tiki:huhu", "stack:5")
            await asyncio.sleep(0.03)
            table.lift("stack:5")
            await asyncio.sleep(0.03)
        await w.until(lambda: w.link.health().dropped + w.link.health().gaps > 0)
        assert table.hub.port_stats().dropped > 0

    watch(body)


def test_unplug_and_replug_reconnects_the_link(table: VirtualTable, watch) -> None:
    paths: list[str] = []
    table.hub.on_path = paths.append

    async def body(w) -> None:
        table.put("tiki:nui", "stack:2")
        await w.settle()
        table.unplug()
        await w.until(lambda: w.of(LinkDown))
        assert not w.link.health().connected
        table.lift("stack:2")
        table.put("tiki:nui", "stack:6")  # moved while the cable was out
        table.replug()
        await w.until(lambda: len(w.of(LinkUp)) == 2)
        await w.settle()  # the snapshot after reconnecting shows the move
        assert w.link.health().reconnects >= 1
        assert w.board() == {"stack:6": "tiki:nui"}

    watch(body)
    assert paths == [str(table.hub.link_path)]  # announced once: on the replug
    assert table.hub.plugs == 2 and os.path.realpath(table.url) == table.hub.path


def test_replug_without_a_link_announces_the_new_pty() -> None:
    seen: list[str] = []
    field = TagField()
    with VirtualHub([VirtualReader("a", field, random.Random(0))], on_path=seen.append) as hub:
        hub.replug()
        assert seen == [seen[0], hub.path] and len(seen) == 2
        assert os.path.exists(hub.path)


def test_dead_reader_fails_self_test_and_faults_while_running(make_table, watch) -> None:
    table = make_table(prepare=lambda t: t.kill_reader("stack:7"), retry_ms=200)

    async def body(w) -> None:
        await w.until(lambda: w.of(SelfTest))
        checks = w.of(SelfTest)[0].readers
        assert checks[6].status == ReaderStatus.NO_RESPONSE
        assert [c.status for i, c in enumerate(checks) if i != 6] == [ReaderStatus.OK] * 10
        table.kill_reader("stack:7", dead=False)  # reseated: the firmware's retry finds it
        await w.until(lambda: ReaderFault(6, ReaderStatus.OK) in w.events)
        table.put("tiki:kapu", "stack:7")
        await w.settle()
        table.kill_reader("stack:7")  # dies while a tag lies on it
        await w.until(lambda: ReaderFault(6, ReaderStatus.COMM_ERROR) in w.events)
        await w.until(lambda: ReaderFault(6, ReaderStatus.NO_RESPONSE) in w.events)

    watch(body, on=table)


def test_flicker_shorter_than_the_miss_limit_is_debounced(make_table, watch) -> None:
    table = make_table(miss_limit=3)  # a board whose tags flicker (config.py says 1)

    async def body(w) -> None:
        table.put("tiki:akamai", "stack:3")
        await w.settle()
        table.miss("stack:3", 2)  # miss limit is 3: not gone, but maybe put back on top
        await w.until(lambda: len(w.of(TagArrived)) == 2)  # announced again (frames take a moment)
        assert w.of(TagLeft) == []
        table.miss("stack:3", 1)  # one miss is a flicker: nothing at all
        await asyncio.to_thread(table.hub.wait_scans, 4)
        assert w.of(TagLeft) == [] and len(w.of(TagArrived)) == 2
        table.miss("stack:3", 6)  # long enough to count as lifted and laid again
        await w.until(lambda: w.of(TagLeft) and len(w.of(TagArrived)) == 3)
        assert w.board() == {"stack:3": "tiki:akamai"}

    watch(body, on=table)


def test_a_flicker_rate_makes_some_scans_miss(table: VirtualTable, watch) -> None:
    async def body(w) -> None:
        table.put("tiki:akamai", "stack:3")
        await w.settle()
        table.flicker("stack:3", 0.9)
        await w.until(lambda: w.of(TagLeft), timeout=5)
        table.flicker("stack:3", 0.0)
        await w.settle()

    watch(body)


def test_slow_reader_slows_the_scan(make_table, watch) -> None:
    table = make_table(heartbeat_ms=100)
    table.slow_reader("stack:1", 30)

    async def body(w) -> None:
        await w.until(lambda: any(h.cycle_us >= 30_000 for h in w.of(Heartbeat)))

    watch(body, on=table)


def test_a_hub_reset_says_hello_again_and_the_host_catches_up(table: VirtualTable, watch) -> None:
    async def body(w) -> None:
        table.put("tiki:eepo", "stack:8")
        await w.settle()
        table.hub.reboot()
        await w.until(lambda: len(w.of(LinkUp)) == 2)
        await w.until(lambda: len(w.of(Snapshot)) >= 2)
        await w.settle()
        assert w.link.health().reconnects == 0  # same cable: only the firmware restarted

    watch(body)


def test_realistic_scan_timing_follows_the_hardware_model(make_table) -> None:
    from hardware.scan_timing import scheduled_scan, unscheduled_scan_ms

    table = make_table(scan_ms="realistic")
    schedule = table.hub.schedule
    assert schedule is not None and len(schedule) == 4  # Tiki Topple's 11 readers
    radio = table.profile.radio
    empty = scheduled_scan(schedule, {}, radio).scan_ms
    assert table.hub.scan_period_ms() == pytest.approx(empty)
    table.put("tiki:nani", "stack:1")
    table.put("tiki:kapu", "stack:2")
    size = radio.uid_bytes  # the profile's tags (4 bytes by default, what the BOM lists)
    assert size == 4 and {len(uid) for uid in table.tag_map()} == {size * 2}  # hex
    two = {table.reader_of("stack:1"): (size,), table.reader_of("stack:2"): (size,)}
    assert table.hub.scan_period_ms() == pytest.approx(scheduled_scan(schedule, two, radio).scan_ms)
    assert table.hub.scan_period_ms() > empty

    unscheduled = make_table(scan_ms="realistic", field_schedule=False)
    assert unscheduled.hub.schedule is None
    assert unscheduled.hub.scan_period_ms() == pytest.approx(unscheduled_scan_ms(11, {}))


@pytest.mark.parametrize("scan_ms", [0, 5000, "fast"])
def test_impossible_scan_times_are_refused(scan_ms) -> None:
    reader = VirtualReader("a", TagField(), random.Random(0))
    with pytest.raises(ValueError, match="scan_ms"):
        VirtualHub([reader], scan_ms=scan_ms)
