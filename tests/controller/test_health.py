"""The hub's word on itself: self-test, faults, snapshots and heartbeats, as the page shows them."""

from __future__ import annotations

from controller.health import HardwareHealth
from hardware.link import HubLink, LinkDown, LinkUp
from hardware.protocol import (
    Heartbeat,
    Hello,
    ReaderCheck,
    ReaderFault,
    ReaderState,
    ReaderStatus,
    SelfTest,
    Snapshot,
)


def test_reader_states_follow_the_self_test_faults_and_snapshots() -> None:
    health = HardwareHealth({0: "stack:1", 1: "stack:2"})
    assert health.note(SelfTest((ReaderCheck(ReaderStatus.OK, 0x92),
                                 ReaderCheck(ReaderStatus.NO_RESPONSE, 0)))) is None
    assert health.readers[1] == {"site": "stack:2", "status": "no_response", "version": 0}
    assert health.note(ReaderFault(0, ReaderStatus.COMM_ERROR)) == "reader 0 (stack:1): comm_error"
    health.note(Snapshot((ReaderState(ReaderStatus.OK, b""), ReaderState(ReaderStatus.OK, b""),
                          ReaderState(ReaderStatus.OK, b""))))
    assert [entry["status"] for entry in health.readers.values()] == ["ok", "ok", "ok"]
    assert health.readers[2]["site"] is None  # a reader the profile does not name


def test_the_link_and_heartbeats_are_reported() -> None:
    health = HardwareHealth({0: "stack:1"})
    hello = Hello(protocol_version=1, reader_count=1, miss_limit=3, firmware_version="1.2.0")
    assert health.note(LinkUp(hello)) == "hub connected (firmware 1.2.0)"
    assert health.note(LinkDown("unplugged")) == "hub disconnected: unplugged"
    assert health.note(Heartbeat(5000, 120, 1, 2, 41_000)) is None
    hardware = health.report(HubLink("loop://"), led_count=22, led_pushes=None)
    assert hardware.heartbeat.cycle_us == 41_000 and hardware.heartbeat.crc_errors == 1
    assert hardware.readers[0].site == "stack:1" and hardware.readers[0].status == "unknown"
    assert hardware.hub.connected is False and hardware.leds.count == 22
