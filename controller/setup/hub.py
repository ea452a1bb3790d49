"""Finding and asking a reader hub: which port (``--port``, the profile's hub, or the one
MicroPython board plugged in), what its HELLO and self-test say (``HubReport``, from the one
probe, ``probe_hub``), and whether the service holds the port. ``tabletop hub info`` prints
the report, ``hub flash`` checks the flashed hub with it, and ``doctor`` judges it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from controller.errors import UserError
from hardware.errors import HardwareError
from hardware.firmware_files import firmware_version
from hardware.link import DEFAULT_BAUDRATE, Backoff, HubLink, LinkUp
from hardware.profile import HubSettings, find_profile, load_profile
from hardware.protocol import (
    PROTOCOL_VERSION,
    Hello,
    ReaderCheck,
    ReaderFault,
    ReaderStatus,
    SelfTest,
    Snapshot,
)

from . import SERVICE

BY_ID = Path("/dev/serial/by-id")
"""Where udev names USB serial devices after what they are (stable across replugging)."""
BOARD_NAME = "MicroPython"
"""What a MicroPython board's USB descriptor says (``usb-MicroPython_Board_in_FS_mode_...``)."""
INFO_TIMEOUT = 5.0
"""Seconds ``hub info`` waits for a HELLO: a hub answers REQUEST_HELLO at once, but one just
plugged in waits BOOT_GRACE_MS (2 s) before it starts."""
AFTER_HELLO = 2.0
"""Seconds to wait, after the HELLO, for the SELF_TEST and the first snapshot that follow it."""
QUICK_BACKOFF = Backoff(initial=0.05, factor=2.0, maximum=0.5)

READER_ADVICE = {
    ReaderStatus.NO_RESPONSE: "nothing answers on the SPI bus: check the reader's power, its "
                              "SPI wires and its chip-select line (docs/wiring.md)",
    ReaderStatus.BAD_VERSION: "something answers, but not as an MFRC522: a wrong module, or a "
                              "chip select shared with another device (docs/wiring.md)",
    ReaderStatus.COMM_ERROR: "it answered at boot and then stopped: a loose wire or a long "
                             "ribbon cable; check it and restart the hub",
}


def expected_firmware() -> str | None:
    """The FIRMWARE_VERSION of the firmware this install carries, which a hub it flashed says
    (None when it carries none, or none that says its version)."""
    try:
        return firmware_version()
    except (HardwareError, OSError):
        return None


@dataclass(frozen=True, slots=True)
class HubReport:
    """What one hub said when asked, or why it said nothing. Never raised: reported."""

    url: str
    hello: Hello | None = None
    self_test: tuple[ReaderCheck, ...] | None = None
    """The boot self-test per reader (None: not heard)."""
    readers: tuple[ReaderStatus, ...] = ()
    """Each reader's status now (from the first snapshot and any fault since)."""
    tags: tuple[int, ...] = ()
    """How many tags lie on each reader now (from the first snapshot)."""
    error: str | None = None
    """Why there is no usable HELLO, with what to do: the port, silence, another protocol,
    another hub."""
    refused: str | None = None
    """What the link refused in the hub's HELLO (another protocol, another hub's unique id)."""
    last_error: str | None = None
    """The link's own last error (the port would not open, a damaged frame), as it said it."""

    @property
    def ok(self) -> bool:
        """The hub answered in our protocol and every reader works."""
        return (self.error is None and self.hello is not None
                and all(status == ReaderStatus.OK for status in self._statuses()))

    def _statuses(self) -> tuple[ReaderStatus, ...]:
        if self.readers:
            return self.readers
        return tuple(check.status for check in self.self_test or ())

    def problems(self) -> list[str]:
        """One line per thing that is wrong, each saying what to do about it."""
        if self.error is not None:
            return [self.error]
        if self.hello is None:
            return [f"no hub answered on {self.url}"]
        found = []
        for reader, status in enumerate(self._statuses()):
            if status != ReaderStatus.OK:
                found.append(f"reader {reader}: {status.name}: {READER_ADVICE[status]}")
        return found

    def lines(self) -> list[str]:
        """What ``tabletop hub info`` prints."""
        if self.hello is None:
            return [f"hub on {self.url}: {self.problems()[0]}"]
        hello = self.hello
        ours = firmware_version()
        version_note = "" if hello.firmware_version == ours else f" (this install has {ours!r})"
        schedule = (f"{len(hello.schedule)} field classes" if hello.schedule
                    else "every field on")
        out = [
            f"hub on {self.url}",
            f"  firmware   {hello.firmware_version}{version_note}",
            f"  protocol   {hello.protocol_version}"
            + ("" if hello.protocol_version == PROTOCOL_VERSION
               else f" (this table speaks {PROTOCOL_VERSION})"),
            f"  unique id  {hello.hub_id.hex() or '(none)'}",
            f"  readers    {hello.reader_count} ({schedule}, a tag is gone after "
            f"{hello.miss_limit} missed scan{'s' if hello.miss_limit != 1 else ''})",
        ]
        if self.self_test is None:
            out.append("  self-test  not heard (the hub sends it right after its hello)")
        else:
            passed = sum(check.status == ReaderStatus.OK for check in self.self_test)
            out.append(f"  self-test  {passed} of {len(self.self_test)} readers passed")
            for reader, check in enumerate(self.self_test):
                now = self.readers[reader] if reader < len(self.readers) else check.status
                line = (f"    reader {reader:<3} {check.status.name:<11} "
                        f"version 0x{check.version:02x}")
                if now != check.status:
                    line += f", now {now.name}"
                if reader < len(self.tags) and self.tags[reader]:
                    line += f", {self.tags[reader]} tag{'s' if self.tags[reader] > 1 else ''}"
                out.append(line)
        out.extend(f"  problem: {problem}" for problem in self.problems())
        return out


async def probe_hub_async(url: str, *, baudrate: int = DEFAULT_BAUDRATE,
                          timeout: float = INFO_TIMEOUT, unique_id: str | None = None,
                          hello_retry: float | None = None) -> HubReport:
    """Open ``url``, wait for the hub's HELLO, SELF_TEST and first snapshot, and close it.
    ``hello_retry``: the longest pause between two REQUEST_HELLOs while the hub is silent
    (None: the link's own)."""
    link = HubLink(url, baudrate=baudrate, backoff=QUICK_BACKOFF, unique_id=unique_id,
                   **({} if hello_retry is None else {"hello_timeout": hello_retry}))
    task = asyncio.create_task(link.run())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    hello: Hello | None = None
    self_test: tuple[ReaderCheck, ...] | None = None
    readers: list[ReaderStatus] = []
    tags: tuple[int, ...] = ()
    snapshot_seen = False
    try:
        while not (hello and self_test is not None and snapshot_seen):
            left = deadline - loop.time()
            if left <= 0 or link.health().refused:
                break
            try:
                event = await link.next_event(min(left, 0.1))
            except TimeoutError:
                continue
            match event:
                case LinkUp(hello=said):
                    hello = said
                    deadline = min(deadline, loop.time() + AFTER_HELLO)
                case SelfTest(readers=checks):
                    self_test = checks
                case Snapshot(readers=states):
                    snapshot_seen = True
                    readers = [state.status for state in states]
                    tags = tuple(len(state.uids) for state in states)
                case ReaderFault(reader=reader, status=status) if reader < len(readers):
                    readers[reader] = status
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    health = link.health()
    # The command line speaks English: the link's words as their English text.
    refused = None if health.refused is None else str(health.refused)
    last_error = None if health.last_error is None else str(health.last_error)
    error = refused
    if hello is None and error is None:
        reason = f" ({last_error})" if last_error else ""
        error = port_problem(url) or (
            f"no hub answered on {url} within {timeout:g} s{reason}: check the cable, and "
            "that the hub runs the tabletop firmware (tabletop hub flash)")
    if self_test is not None and len(readers) != len(self_test):
        readers = [check.status for check in self_test]
    return HubReport(url, hello, self_test, tuple(readers), tags, error, refused, last_error)


def probe_hub(url: str, *, baudrate: int = DEFAULT_BAUDRATE, timeout: float = INFO_TIMEOUT,
              unique_id: str | None = None, hello_retry: float | None = None) -> HubReport:
    """`probe_hub_async` for callers without an event loop (not from inside a running one)."""
    return asyncio.run(probe_hub_async(url, baudrate=baudrate, timeout=timeout,
                                       unique_id=unique_id, hello_retry=hello_retry))


def port_problem(url: str) -> str | None:
    """Why a device path cannot be opened at all, with the fix (None: no such trouble, or a
    pyserial URL that is not a path)."""
    if not url.startswith("/"):
        return None
    if not os.path.exists(url):
        return (f"no such port {url}: plug the hub in (a data cable, not a charging one); "
                f"ls {BY_ID}/ shows the ports there are")
    if not os.access(url, os.R_OK | os.W_OK):
        return (f"no permission to open {url}: add yourself to the dialout group (sudo usermod "
                "-aG dialout $USER) and log in again")
    return None


def service_running(unit: str = SERVICE) -> bool:
    """Whether systemd runs the table service (which reads the same port)."""
    if shutil.which("systemctl") is None:
        return False
    try:
        result = subprocess.run(["systemctl", "is-active", "--quiet", unit], timeout=10,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


# -- which port --------------------------------------------------------------------------------


def boards_by_id(folder: Path | None = None) -> list[Path]:
    """MicroPython boards plugged in, by their stable names (in ``folder``, default BY_ID)."""
    folder = BY_ID if folder is None else folder
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir() if BOARD_NAME in path.name)


def chosen_hubs(port: str | None, profile: str | None, hub: str | None, *, one: bool
                ) -> list[HubSettings]:
    """The hubs a command works on: the port given, the profile's (``hub`` names one of them),
    or the one MicroPython board plugged in. ``one``: the command works on a single hub."""
    if port:
        return [HubSettings(url=port, baudrate=DEFAULT_BAUDRATE)]
    if profile:
        hubs = list(load_profile(find_profile(profile)).hubs)
        if hub:
            hubs = [settings for settings in hubs if settings.name == hub]
            if not hubs:
                names = ", ".join(h.name for h in load_profile(find_profile(profile)).hubs)
                raise UserError(f"profile {profile} has no hub named {hub!r} (it has {names})")
        if one and len(hubs) > 1:
            raise UserError(f"profile {profile} has {len(hubs)} hubs, each with its own "
                            f"wiring: pick one with --hub ({', '.join(h.name for h in hubs)})")
        return hubs
    found = boards_by_id()
    if len(found) == 1:
        return [HubSettings(url=str(found[0]), baudrate=DEFAULT_BAUDRATE)]
    if not found:
        raise UserError(f"no MicroPython board under {BY_ID}/: plug the hub in (a data cable, "
                        "not a charging one), or name its port with --port")
    names = " ".join(str(path) for path in found)
    raise UserError(f"{len(found)} boards are plugged in ({names}): name one with --port, or "
                    "give --profile")
