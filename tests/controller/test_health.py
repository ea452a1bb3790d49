"""The hubs' word on themselves: self-test, faults, snapshots and heartbeats, as the page shows
them, by the profile's reader numbers whichever hub scans them."""

from __future__ import annotations

from controller.health import HardwareHealth
from controller.hubs import WATCH_STRIDE, Hub
from hardware.link import HubLink, LinkDown, LinkUp
from hardware.profile import HubSettings
from hardware.protocol import (
    Heartbeat,
    Hello,
    ReaderCheck,
    ReaderFault,
    ReaderState,
    ReaderStatus,
    SelfTest,
    SetWatch,
    Snapshot,
    Watching,
)


def hub(name: str = "hub", readers: tuple[int, ...] = (0, 1, 2)) -> Hub:
    return Hub(HubSettings("loop://", 115_200, name, None, readers), HubLink("loop://"))


def test_reader_states_follow_the_self_test_faults_and_snapshots() -> None:
    health = HardwareHealth({0: "stack:1", 1: "stack:2"})
    one = hub()
    assert health.note(SelfTest((ReaderCheck(ReaderStatus.OK, 0x92),
                                 ReaderCheck(ReaderStatus.NO_RESPONSE, 0))), one) is None
    assert health.readers[1] == {"site": "stack:2", "status": "no_response", "version": 0}
    assert str(health.note(ReaderFault(0, ReaderStatus.COMM_ERROR), one)) == \
        "reader 0 (stack:1): comm_error"
    health.note(Snapshot((ReaderState(ReaderStatus.OK, b""), ReaderState(ReaderStatus.OK, b""),
                          ReaderState(ReaderStatus.OK, b""))), one)
    assert [entry["status"] for entry in health.readers.values()] == ["ok", "ok", "ok"]
    assert health.readers[2]["site"] is None  # a reader the profile does not name


def test_a_second_hubs_readers_are_the_profiles_numbers() -> None:
    health = HardwareHealth({0: "a", 1: "b", 5: "c", 7: "d"})
    left, right = hub("left", (0, 1)), hub("right", (7, 5))
    assert str(health.note(ReaderFault(0, ReaderStatus.COMM_ERROR), right)) == \
        "reader 7 (d): comm_error"
    health.note(SelfTest((ReaderCheck(ReaderStatus.OK, 0x92),
                          ReaderCheck(ReaderStatus.NO_RESPONSE, 0))), left)
    assert (health.readers[0]["status"], health.readers[1]["status"]) == ("ok", "no_response")
    assert health.readers[7]["status"] == "comm_error" and health.readers[5]["status"] == "unknown"
    assert "not name" in str(health.note(ReaderFault(2, ReaderStatus.COMM_ERROR), right))
    assert 9 not in health.readers


def test_the_links_and_heartbeats_are_reported_per_hub() -> None:
    health = HardwareHealth({0: "stack:1", 1: "stack:2"})
    left, right = hub("left", (0,)), hub("right", (1,))
    hello = Hello(protocol_version=1, reader_count=1, miss_limit=3, firmware_version="1.2.0")
    assert str(health.note(LinkUp(hello), left)) == "hub left connected (firmware 1.2.0)"
    assert str(health.note(LinkDown("unplugged"), right)) == "hub right disconnected: unplugged"
    assert health.note(Heartbeat(5000, 120, 1, 2, 41_000), left) is None
    hardware = health.report([left, right], led_count=22, led_pushes=None, blind={"stack:2"})
    first, second = hardware.hubs
    assert (first.name, second.name) == ("left", "right")
    assert first.heartbeat.cycle_us == 41_000 and first.heartbeat.crc_errors == 1
    assert second.heartbeat is None and first.readers == second.readers == 1
    assert first.blind and second.blind  # neither has sent a snapshot
    assert hardware.blind_sites == ["stack:2"]
    assert hardware.readers[0].site == "stack:1" and hardware.readers[0].status == "unknown"
    assert first.connected is False and hardware.leds.count == 22


def test_the_scan_period_is_measured_between_heartbeats() -> None:
    one = hub()
    assert not one.note_beat(Heartbeat(1000, 10, 0, 0, 0))
    assert one.note_beat(Heartbeat(2000, 30, 0, 0, 0))
    assert one.period == 0.05 and one.lift_latency == (3 + 0.25) * 0.05
    assert not one.note_beat(Heartbeat(500, 2, 0, 0, 0))  # rebooted: not a measurement
    assert one.period == 0.05


def test_a_cable_too_noisy_to_play_on_is_named_with_what_to_check() -> None:
    health = HardwareHealth({0: "stack:1"})
    noisy, clean = hub("left"), hub("right")
    noisy.link._update(byte_errors=0.3, too_noisy=True)  # what the link measured
    clean.link._update(byte_errors=0.01)
    left, right = health.report([noisy, clean], 0, None).hubs
    assert left.byte_errors == 0.3 and right.byte_errors == 0.01
    assert right.too_noisy is None
    assert left.too_noisy is not None
    assert "hub left is too noisy" in left.too_noisy and "30%" in left.too_noisy
    assert "USB cable of hub left (loop://)" in left.too_noisy


def test_one_scan_is_counted_on_only_for_readers_the_hub_confirmed_it_watches() -> None:
    one = hub()
    one.note_beat(Heartbeat(1000, 10, 0, 0, 0))
    one.note_beat(Heartbeat(2000, 30, 0, 0, 0))  # 50 ms a scan
    assert one.watch == SetWatch(1, ()) and one.rescan == 0.05  # no watch: every reader
    one.wanted = (0, 2)
    assert one.watch == SetWatch(WATCH_STRIDE, (0, 2))
    assert one.rescan == 0.05  # not asked yet: the hub still reads every reader every scan
    one.watching = Watching(WATCH_STRIDE, (0,))  # an older watch: reader 2 one scan in 8
    assert one.rescan == WATCH_STRIDE * 0.05
    assert one.lift_latency == (3 + 0.25) * WATCH_STRIDE * 0.05
    one.watching = one.confirming
    assert one.rescan == 0.05 and one.lift_latency == (3 + 0.25) * 0.05
    one.wanted = None  # nothing to watch: every reader, once the hub has confirmed that
    assert one.rescan == WATCH_STRIDE * 0.05
    one.watching = one.confirming
    assert one.watching == Watching(1, ()) and one.rescan == 0.05
