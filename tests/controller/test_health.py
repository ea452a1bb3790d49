"""The hubs' word on themselves: self-test, faults, snapshots and heartbeats, as the page shows
them, by the profile's reader numbers whichever hub scans them."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import pytest
import serial
from cobs import cobs

from controller import status as report
from controller.health import HardwareHealth
from controller.hubs import WATCH_STRIDE, Hub
from controller.language import CONTROLLER_LOCALE, ENGLISH
from games.core.translation import CORE_LOCALE, cached_catalogue
from hardware import codec
from hardware.link import Backoff, HubLink, LinkDown, LinkHealth, LinkUp
from hardware.profile import HubSettings
from hardware.protocol import (
    PROTOCOL_VERSION,
    Heartbeat,
    Hello,
    ReaderCheck,
    ReaderFault,
    ReaderState,
    ReaderStatus,
    SelfTest,
    SetWatch,
    Snapshot,
    TagArrived,
    Watching,
)
from hardware.wording import PORT_CLOSED, Wording


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


# -- the link's troubles in the reader's language -------------------------------------------

URL = "/dev/ttyHUB"
GERMAN = cached_catalogue("de", (CORE_LOCALE, CONTROLLER_LOCALE))
OLD_HELLO = Hello(1, 10, 3, "tabletop-hub 1.0.0")


class ScriptedPort:
    """A serial port that returns its reads in turn (an exception is raised instead), then
    nothing; what the link writes is taken and forgotten."""

    def __init__(self, *reads: bytes | Exception) -> None:
        self.reads = list(reads)
        self.in_waiting = 0

    def read(self, size: int) -> bytes:
        if not self.reads:
            time.sleep(0.01)  # the port's read timeout
            return b""
        said = self.reads.pop(0)
        if isinstance(said, Exception):
            raise said
        return said

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        pass


def damaged_frame() -> bytes:
    payload = bytearray(codec.encode_payload(TagArrived(2, b"\x04\xa1\xb2\xc3"), 0))
    payload[-1] ^= 0xFF  # the CRC no longer fits
    return cobs.encode(bytes(payload)) + codec.DELIMITER


def link_trouble(port: ScriptedPort | Exception, unique_id: str | None = None,
                 until: Callable[[LinkHealth], bool] = lambda h: h.last_error is not None,
                 ) -> tuple[HubLink, list[object]]:
    """A link run on ``port`` (an exception: the port will not open) until ``until``, with
    the events it handed on."""
    def factory(url: str, baudrate: int) -> ScriptedPort:
        if isinstance(port, Exception):
            raise port
        return port

    link = HubLink(URL, backoff=Backoff(0.01, 1, 0.01), serial_factory=factory,
                   unique_id=unique_id)

    async def main() -> list[object]:
        task = asyncio.create_task(link.run())
        try:
            async with asyncio.timeout(3):
                while not until(link.health()):
                    await asyncio.sleep(0.01)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        events = []
        while not link._events.empty():
            events.append(link._events.get_nowait())
        return events

    return link, asyncio.run(main())


LINK_TROUBLES = {
    "cannot open": (
        lambda: link_trouble(serial.SerialException("[Errno 2] No such file or directory")),
        f"cannot open {URL}: [Errno 2] No such file or directory",
        f"{URL} lässt sich nicht öffnen: [Errno 2] No such file or directory"),
    "lost": (
        lambda: link_trouble(ScriptedPort(OSError(5, "Input/output error"))),
        f"lost the hub at {URL}: [Errno 5] Input/output error",
        f"Verbindung zum Hub an {URL} verloren: [Errno 5] Input/output error"),
    "dropped": (
        lambda: link_trouble(ScriptedPort(damaged_frame())),
        "dropped a frame: CRC mismatch: the frame was damaged on the way",
        "Paket verworfen: CRC stimmt nicht: Das Paket wurde unterwegs beschädigt"),
    "old protocol": (
        lambda: link_trouble(ScriptedPort(codec.encode(OLD_HELLO, 0))),
        f"the hub on {URL} speaks protocol 1 (firmware 'tabletop-hub 1.0.0'); this table needs "
        f"protocol {PROTOCOL_VERSION}: flash the new firmware (docs/firmware.md, Flashing), "
        "then plug the hub in again",
        f"Der Hub an {URL} spricht Protokoll 1 (Firmware 'tabletop-hub 1.0.0'); dieser Tisch "
        f"braucht Protokoll {PROTOCOL_VERSION}: Spiel die neue Firmware auf (docs/firmware.md, "
        "Flashing) und steck den Hub dann neu ein"),
    "another hub": (
        lambda: link_trouble(ScriptedPort(codec.encode(Hello(PROTOCOL_VERSION, 3, 3, "hub"), 0)),
                             unique_id="c0ffee"),
        f"the hub on {URL} is nameless, not c0ffee as the profile says: the cables are "
        "swapped, or the profile names the wrong port (the status page shows each hub's id)",
        f"Der Hub an {URL} ist namenlos und nicht c0ffee, wie das Profil sagt: Die Kabel sind "
        "vertauscht, oder das Profil nennt den falschen Anschluss (die Statusseite zeigt die "
        "ID jedes Hubs)"),
}


@pytest.mark.parametrize("kind", LINK_TROUBLES)
def test_each_link_trouble_reaches_the_status_in_german_and_english(kind: str) -> None:
    run, english, german = LINK_TROUBLES[kind]
    link, _ = run()
    one = Hub(HubSettings(URL, 115_200, "left", None, (0,)), link)
    health = HardwareHealth({0: "stack:1"})
    assert str(link.health().refused or link.health().last_error) == english  # the CLI's
    assert health.report([one], 0, None).hubs[0].last_error == english
    assert health.report([one], 0, None, translate=ENGLISH.text).hubs[0].last_error == english
    assert health.report([one], 0, None, translate=GERMAN.text).hubs[0].last_error == german


def test_a_hub_lost_is_logged_with_its_reason_in_the_readers_language() -> None:
    hello = codec.encode(Hello(PROTOCOL_VERSION, 1, 3, "fake"), 0)
    _, events = link_trouble(ScriptedPort(hello, OSError(5, "Input/output error")),
                             until=lambda h: h.reconnects > 0)
    down = next(event for event in events if isinstance(event, LinkDown))
    line = HardwareHealth({}).note(down, hub("left"))
    assert line is not None
    logged = report.Logged("hardware", line)
    assert logged.text == f"hub left disconnected: lost the hub at {URL}: [Errno 5] " \
                          "Input/output error"
    assert logged.event(GERMAN.text).text == \
        f"Hub left getrennt: Verbindung zum Hub an {URL} verloren: [Errno 5] Input/output error"
    closed = HardwareHealth({}).note(LinkDown(PORT_CLOSED), hub("left"))
    assert closed is not None and str(closed) == "hub left disconnected: port closed"
    assert GERMAN.text(closed) == "Hub left getrennt: Anschluss geschlossen"


NOT_A_STR: Any = 3
"""A value of the wrong type, as a careless caller might pass it."""


@pytest.mark.parametrize(("said", "english", "german"), [
    (Wording("cannot open {url}: {error}", {"url": "x"}), "cannot open x: {error}",
     "x lässt sich nicht öffnen: {error}"),
    (Wording("port closed", {"stray": "y"}), "port closed", "Anschluss geschlossen"),
    (Wording("dropped a frame: {reason}", {"reason": Wording("unknown frame type {type}")}),
     "dropped a frame: unknown frame type {type}", "Paket verworfen: unbekannter Pakettyp {type}"),
    (Wording("a stray { brace, {n}", {"n": "1"}), "a stray { brace, {n}",
     "a stray { brace, {n}"),
    (Wording("no msgid anyone knows: {n}", {"n": NOT_A_STR}), "no msgid anyone knows: 3",
     "no msgid anyone knows: 3"),
    ("unplugged", "unplugged", "unplugged"),
], ids=["missing", "extra", "nested missing", "stray brace", "unknown msgid", "bare text"])
def test_bad_or_unknown_link_words_are_shown_not_raised(said: Wording | str, english: str,
                                                        german: str) -> None:
    link = HubLink(URL)
    link._update(last_error=said)
    one = Hub(HubSettings(URL, 115_200, "left", None, (0,)), link)
    health = HardwareHealth({0: "stack:1"})
    assert health.report([one], 0, None).hubs[0].last_error == english
    assert health.report([one], 0, None, translate=GERMAN.text).hubs[0].last_error == german
    line = health.note(LinkDown(said), one)  # type: ignore[arg-type]  # a bare text too
    assert line is not None and GERMAN.text(line) == f"Hub left getrennt: {german}"
