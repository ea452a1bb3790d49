"""The async host link against a fake hub on a real pty, and on pyserial's loop://."""

from __future__ import annotations

import asyncio
import threading
import zlib
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import serial
from cobs import cobs

from hardware import codec
from hardware.link import Backoff, HubLink, HubNotConnected, LinkDown, LinkUp
from hardware.protocol import (
    PROTOCOL_VERSION,
    Heartbeat,
    Hello,
    Ping,
    Pong,
    ReaderFault,
    ReaderStatus,
    RequestHello,
    RequestSnapshot,
    Snapshot,
    TagArrived,
    TagLeft,
)

UID = bytes.fromhex("04a1b2c3")
FAST = Backoff(initial=0.02, factor=2.0, maximum=0.2)


async def next_of(link: HubLink, kind: type, timeout: float = 3.0) -> Any:
    """The next event of a type, skipping others (self-test, snapshots we did not ask about)."""
    async with asyncio.timeout(timeout):
        while True:
            event = await link.next_event()
            if isinstance(event, kind):
                return event


async def until(condition: Callable[[], bool], timeout: float = 3.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def run_with_link(url: str, body: Callable[[HubLink], Awaitable[None]], **kwargs: Any) -> None:
    async def main() -> None:
        link = HubLink(url, backoff=FAST, **kwargs)
        task = asyncio.create_task(link.run())
        try:
            await body(link)
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(main())


def test_handshake_then_snapshot_then_events(fake_hub) -> None:
    async def body(link: HubLink) -> None:
        up = await next_of(link, LinkUp)
        assert up.hello == Hello(PROTOCOL_VERSION, 3, 3, "fake-hub 0.1")
        snapshot = await next_of(link, Snapshot)
        assert [r.status for r in snapshot.readers] == [ReaderStatus.OK] * 3
        fake_hub.send(TagArrived(1, UID))
        fake_hub.send(TagLeft(1, UID))
        assert await next_of(link, TagArrived) == TagArrived(1, UID)
        assert await next_of(link, TagLeft) == TagLeft(1, UID)
        await link.send(Ping(41))
        assert await next_of(link, Pong) == Pong(41)
        health = link.health()
        assert health.connected and health.hello == up.hello
        assert health.frames >= 6 and health.gaps == 0 and health.dropped == 0
        assert health.last_frame_at is not None
        assert health.readers == (ReaderStatus.OK,) * 3
        fake_hub.send(ReaderFault(1, ReaderStatus.NO_RESPONSE))
        fake_hub.send(Heartbeat(5000, 40, 0, 2, 150_000))
        await next_of(link, Heartbeat)
        assert link.health().readers[1] == ReaderStatus.NO_RESPONSE
        assert link.health().heartbeat == Heartbeat(5000, 40, 0, 2, 150_000)
        assert isinstance(fake_hub.commands[0], RequestHello)
        assert isinstance(fake_hub.commands[1], RequestSnapshot)

    run_with_link(fake_hub.url, body)


def test_sequence_gap_asks_for_a_snapshot(fake_hub) -> None:
    """Frames lost with a change among them: one part shows that the hub's change count moved
    on, so the other parts are asked for, and a whole snapshot follows."""

    async def body(link: HubLink) -> None:
        await next_of(link, Snapshot)
        fake_hub.skip(2)
        fake_hub.send(TagArrived(0, UID))
        assert await next_of(link, TagArrived) == TagArrived(0, UID)
        await next_of(link, Snapshot)
        assert link.health().gaps == 1 and link.health().missed_changes == 1
        asked = [c for c in fake_hub.commands if isinstance(c, RequestSnapshot)]
        assert len(asked) == 3 and asked[0] == RequestSnapshot()  # after hello: every reader
        [probe] = asked[1].readers
        assert asked[2] == RequestSnapshot(tuple(r for r in range(3) if r != probe))

    run_with_link(fake_hub.url, body)


def test_lost_frames_without_a_change_cost_one_small_part(fake_hub) -> None:
    """A lost heartbeat (or snapshot part) changes nothing: one part says the change count is
    the same, and no snapshot is asked for or handed on."""

    async def body(link: HubLink) -> None:
        await next_of(link, Snapshot)
        fake_hub.skip(2, changes=False)
        fake_hub.send(Heartbeat(5000, 40, 0, 2, 150_000))
        await next_of(link, Heartbeat)
        await until(lambda: sum(isinstance(c, RequestSnapshot) for c in fake_hub.commands) == 2)
        with pytest.raises(TimeoutError):
            await next_of(link, Snapshot, timeout=0.4)
        asked = [c for c in fake_hub.commands if isinstance(c, RequestSnapshot)]
        assert len(asked) == 2 and len(asked[1].readers) == 1
        health = link.health()
        assert (health.gaps, health.missed_changes, health.snapshot_requests) == (1, 0, 2)

    run_with_link(fake_hub.url, body)


def test_a_damaged_last_frame_is_made_good_by_a_snapshot_at_once(fake_hub) -> None:
    """Nothing follows the damaged frame to show the gap, yet its news is not lost."""

    async def body(link: HubLink) -> None:
        await next_of(link, Snapshot)
        asked = sum(isinstance(c, RequestSnapshot) for c in fake_hub.commands)
        fake_hub.uids[2] = UID  # the tag lies there; the frame saying so is damaged
        frame = bytearray(codec.encode(TagArrived(2, UID), fake_hub.seq))
        frame[5] ^= 0x01
        fake_hub.skip(1)  # the damaged frame used a sequence number and was a change
        fake_hub.send_raw(bytes(frame))
        snapshot = await next_of(link, Snapshot, timeout=0.5)  # well before a heartbeat
        assert snapshot.readers[2].uids == (UID,)
        # one part to check the change count, then the parts not yet current
        assert sum(isinstance(c, RequestSnapshot) for c in fake_hub.commands) == asked + 2

    run_with_link(fake_hub.url, body)


def test_corrupt_input_is_counted_and_dropped(fake_hub) -> None:
    async def body(link: HubLink) -> None:
        await next_of(link, Snapshot)
        frame = bytearray(codec.encode(TagArrived(2, UID), fake_hub.seq))
        frame[5] ^= 0x01
        fake_hub.send_raw(b"\xde\xad\xbe\xef\x00" + bytes(frame))
        fake_hub.skip(1)  # that damaged frame used a sequence number
        fake_hub.send(TagLeft(2, UID))
        assert await next_of(link, TagLeft) == TagLeft(2, UID)
        health = link.health()
        assert health.crc_errors == 2  # the garbage (bad stuffing) and the damaged frame
        assert health.dropped == 2
        assert health.gaps == 1
        assert "dropped a frame" in str(health.last_error)

    run_with_link(fake_hub.url, body)


def test_reconnects_after_the_cable_is_pulled(fake_hub) -> None:
    async def body(link: HubLink) -> None:
        await next_of(link, LinkUp)
        fake_hub.unplug()
        down = await next_of(link, LinkDown)
        assert "lost the hub" in str(down.reason)
        assert not link.health().connected
        with pytest.raises(HubNotConnected):
            await link.send(Ping(1))
        await until(lambda: "cannot open" in str(link.health().last_error))
        fake_hub.plug_in()
        await next_of(link, LinkUp)
        fake_hub.send(TagArrived(0, UID))
        assert await next_of(link, TagArrived) == TagArrived(0, UID)
        assert link.health().reconnects == 1 and link.health().connected

    run_with_link(fake_hub.url, body)


def test_hello_is_repeated_until_the_hub_answers(fake_hub) -> None:
    fake_hub.answer_hello = False

    async def body(link: HubLink) -> None:
        await until(lambda: sum(isinstance(c, RequestHello) for c in fake_hub.commands) >= 2)
        assert not link.health().connected
        fake_hub.answer_hello = True
        await next_of(link, LinkUp)

    run_with_link(fake_hub.url, body, hello_timeout=0.1)


def test_port_is_only_touched_from_worker_threads(fake_hub) -> None:
    """The event loop's thread never reads or writes the port, so it never waits on it."""
    callers: set[str] = set()

    class Watched:
        def __init__(self, port: Any) -> None:
            self.port = port

        def __getattr__(self, name: str) -> Any:
            if name == "in_waiting":  # a property: reading it is the I/O
                callers.add(threading.current_thread().name)
            attr = getattr(self.port, name)
            if name not in {"read", "write", "close"}:
                return attr

            def call(*args: Any) -> Any:
                callers.add(threading.current_thread().name)
                return attr(*args)

            return call

    def factory(url: str, baudrate: int) -> Any:
        return Watched(serial.serial_for_url(url, baudrate=baudrate, timeout=0.05))

    async def body(link: HubLink) -> None:
        await next_of(link, Snapshot)
        await link.send(Ping(3))
        await next_of(link, Pong)

    run_with_link(fake_hub.url, body, serial_factory=factory)
    assert callers and threading.main_thread().name not in callers


def test_unusable_but_sound_frames_are_dropped_not_counted_as_damage(fake_hub) -> None:
    async def body(link: HubLink) -> None:
        await next_of(link, Snapshot)
        head = bytes([0x7F, fake_hub.seq & 0xFF, fake_hub.seq >> 8])  # a type we do not know
        fake_hub.send_raw(cobs.encode(head + zlib.crc32(head).to_bytes(4, "little")) + b"\0")
        fake_hub.skip(1)
        fake_hub.send(TagLeft(0, UID))
        await next_of(link, TagLeft)
        assert (link.health().crc_errors, link.health().dropped) == (0, 1)

    run_with_link(fake_hub.url, body)


def opened_into(ports: list[Any]) -> Callable[[str, int], Any]:
    """A serial factory that opens the URL for real and keeps the port for the test."""

    def factory(url: str, baudrate: int) -> Any:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=0.05)
        ports.append(port)
        return port

    return factory


def test_loop_url_opens_and_reads_what_is_written() -> None:
    ports: list[Any] = []
    factory = opened_into(ports)

    async def body(link: HubLink) -> None:
        await until(lambda: bool(ports))
        await until(lambda: link.health().unexpected >= 1)  # our own RequestHello came back
        ports[0].write(codec.encode(Hello(PROTOCOL_VERSION, 64, 3, "loop"), 0))
        assert (await next_of(link, LinkUp)).hello.reader_count == 64

    run_with_link("loop://", body, serial_factory=factory)


def test_a_hub_with_the_old_protocol_is_refused_with_what_to_do() -> None:
    """A hub still running protocol 1 firmware: never connected, its frames never used, and
    the health says to flash the new firmware."""
    ports: list[Any] = []
    factory = opened_into(ports)

    async def body(link: HubLink) -> None:
        await until(lambda: bool(ports))
        ports[0].write(codec.encode(Hello(1, 10, 3, "tabletop-hub 1.0.0"), 0))
        await until(lambda: link.health().refused is not None)
        ports[0].write(codec.encode(TagArrived(2, UID), 1))
        await until(lambda: link.health().dropped >= 1)
        health = link.health()
        assert not health.connected and health.hello is None
        assert "speaks protocol 1" in str(health.refused) and "flash the new firmware" in str(
            health.refused)
        assert link.health().last_error == health.refused

    run_with_link("loop://", body, serial_factory=factory)


def test_bad_urls_are_refused_or_retried() -> None:
    with pytest.raises(ValueError, match="serial URL"):
        HubLink("")

    async def body(link: HubLink) -> None:
        await until(lambda: link.health().last_error is not None)
        assert "cannot open nosuch://x" in str(link.health().last_error)

    run_with_link("nosuch://x", body)


def test_only_host_commands_can_be_sent() -> None:
    async def main() -> None:
        with pytest.raises(TypeError, match="not a host command"):
            await HubLink("loop://").send(TagLeft(0, UID))  # type: ignore[arg-type]

    asyncio.run(main())


def test_backoff_grows_to_its_maximum() -> None:
    backoff = Backoff(initial=0.1, factor=2, maximum=1.0)
    assert [backoff.delay(n) for n in range(6)] == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]


def test_over_a_noisy_cable_requests_are_written_twice_after_a_zero() -> None:
    """The zero ends whatever a damaged command left in the hub's buffer; the second copy (same
    sequence number, answered once by the hub) gets through when the first does not."""

    class Port:
        def __init__(self) -> None:
            self.written: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.written.append(data)

    async def body() -> None:
        link = HubLink("loop://")
        link._port = port = Port()
        await link.send(RequestSnapshot((1,)))
        link._update(byte_errors=0.05)  # what the link estimated
        await link.send(RequestSnapshot((1,)))
        await link.send(Ping(3))  # not a request that a lost copy of would stall anything
        first, second, ping = port.written
        assert first == b"\x00" + codec.encode(RequestSnapshot((1,)), 0)
        assert second == (b"\x00" + codec.encode(RequestSnapshot((1,)), 1)) * 2
        assert ping == b"\x00" + codec.encode(Ping(3), 2)

    asyncio.run(body())
