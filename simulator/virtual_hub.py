"""The virtual reader hub: the real firmware (`firmware/hub.py`) scanning virtual readers and
talking to the host through a real pseudo-terminal, with the faults of a real USB cable.

Threading: the hub runs in one daemon thread of its own, the way the RP2040 runs its loop; it
never touches an asyncio loop, so a controller in the same process reads the pty's other end
through `hardware.link.HubLink` exactly as it reads `/dev/ttyACM0` on the Pi. Every method here
is called from the caller's thread and returns at once (`unplug` joins the hub thread, which
takes at most one scan period).

The host opens `VirtualHub.url`: the pty's slave device, or, when `link_path` is given, a
symlink to it that survives replugging (like udev's /dev/serial/by-id links). Each new pty is
also announced through `on_path`.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
import tty
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from hardware.field_schedule import DEFAULT_RADIO, RadioSettings
from hardware.scan_timing import scheduled_scan, unscheduled_scan_ms
from simulator.firmware_runtime import Firmware, load_firmware
from simulator.slot_line import SlotLine
from simulator.virtual_readers import ReaderFaults, VirtualReader

FIRMWARE_VERSION = "tabletop-hub (simulated)"


class HubUnplugged(ConnectionError):
    """The virtual hub's cable is out; plug it back in first."""


@dataclass(frozen=True, slots=True)
class LinkFaults:
    """What the cable does to bytes. Defaults: a perfect cable."""

    noise_rate: float = 0.0
    """Chance that a byte arrives changed (the host's CRC catches it)."""
    drop_rate: float = 0.0
    """Chance that a byte never arrives (the host's CRC or sequence numbers catch it)."""
    host_to_hub: bool = False
    """Damage the host's commands too, not only what the hub sends."""

    def __post_init__(self) -> None:
        for name in ("noise_rate", "drop_rate"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a probability 0..1, got {value}")


@dataclass(frozen=True, slots=True)
class PortStats:
    """Byte counters of the current cable (they restart when it is plugged in again)."""

    bytes_out: int
    bytes_in: int
    corrupted: int
    dropped: int
    overflowed: int
    """Bytes thrown away because nobody read the pty and its buffer was full."""


class MonotonicClock:
    """MicroPython's `time` tick functions, on the host's monotonic clock."""

    def ticks_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000

    def ticks_us(self) -> int:
        return time.monotonic_ns() // 1_000

    def ticks_add(self, ticks: int, delta: int) -> int:
        return ticks + delta

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_ms(self, ms: int) -> None:
        time.sleep(ms / 1000)


class PtyPort:
    """The firmware's byte pipe (``read`` never blocks, ``write`` never blocks) on a pty master,
    damaging bytes as the current `LinkFaults` say."""

    def __init__(self, master: int, faults: LinkFaults, rng: random.Random) -> None:
        os.set_blocking(master, False)
        self.master = master
        self.faults = faults
        self._rng = rng
        self.bytes_out = self.bytes_in = self.corrupted = self.dropped = self.overflowed = 0

    def _damage(self, data: bytes) -> bytes:
        faults = self.faults
        if not (faults.noise_rate or faults.drop_rate):
            return data
        rng = self._rng
        out = bytearray()
        for byte in data:
            if faults.drop_rate and rng.random() < faults.drop_rate:
                self.dropped += 1
                continue
            if faults.noise_rate and rng.random() < faults.noise_rate:
                byte ^= rng.randrange(1, 256)  # a different byte, never the same one
                self.corrupted += 1
            out.append(byte)
        return bytes(out)

    def read(self) -> bytes:
        try:
            data = os.read(self.master, 256)
        except (BlockingIOError, OSError):
            return b""
        self.bytes_in += len(data)
        return self._damage(data) if self.faults.host_to_hub else data

    def write(self, data: bytes) -> None:
        data = self._damage(bytes(data))
        self.bytes_out += len(data)
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.master, view)
            except BlockingIOError:
                self.overflowed += len(view)  # no host reading: a USB CDC port drops it too
                return
            except OSError:
                return  # closed under us by unplug(); the bytes are lost with the cable
            view = view[written:]

    def stats(self) -> PortStats:
        return PortStats(
            self.bytes_out, self.bytes_in, self.corrupted, self.dropped, self.overflowed
        )


class _Cable:
    """One plugged-in life of the hub: its pty, firmware instance and thread."""

    def __init__(self, master: int, slave: int, port: PtyPort, hub: Any) -> None:
        self.master = master
        self.slave = slave
        self.slave_path = os.ttyname(slave)
        self.port = port
        self.hub = hub
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None


class VirtualHub:
    def __init__(
        self,
        readers: Sequence[VirtualReader],
        *,
        miss_limit: int | None = None,
        scan_ms: float | Literal["realistic"] = "realistic",
        schedule: Sequence[Sequence[int]] | None = None,
        radio: RadioSettings = DEFAULT_RADIO,
        heartbeat_ms: int | None = None,
        retry_ms: int | None = None,
        link_path: Path | None = None,
        on_path: Callable[[str], None] | None = None,
        firmware: Firmware | None = None,
        firmware_version: str = FIRMWARE_VERSION,
        seed: int = 0,
        hub_id: bytes | None = None,
        slot_line: SlotLine | None = None,
    ) -> None:
        if not readers:
            raise ValueError("a hub needs at least one reader")
        if scan_ms != "realistic" and not (
            isinstance(scan_ms, int | float) and 0.5 <= scan_ms <= 1000
        ):
            raise ValueError(f"scan_ms must be 0.5..1000 or 'realistic', got {scan_ms!r}")
        self.firmware = firmware or load_firmware()
        config = self.firmware.config  # unset settings are the ones firmware/config.py flashes
        self.readers = tuple(readers)
        self.miss_limit = config.MISS_LIMIT if miss_limit is None else miss_limit
        self.scan_ms = scan_ms
        """Time one scan of every reader takes on the real board (the loop takes at least this
        long); 'realistic': hardware.scan_timing's model of the MFRC522s and the schedule for
        the tags now present."""
        self.schedule = None if schedule is None else [list(members) for members in schedule]
        """The firmware's FIELD_CLASSES (None: every field stays on)."""
        self.slot_line = slot_line
        """The line that keeps this hub in the table's slots with its other hubs (None:
        the table's only hub)."""
        self.period_model: Callable[[], float] | None = None
        """The scan time of the table it keeps in step with (None: its own)."""
        self.radio = radio
        self.heartbeat_ms = config.HEARTBEAT_MS if heartbeat_ms is None else heartbeat_ms
        self.retry_ms = config.RETRY_MS if retry_ms is None else retry_ms
        self.link_path = link_path
        self.on_path = on_path
        self.firmware_version = firmware_version
        self._rng = random.Random(seed)
        self.hub_id = hub_id or b"sim" + seed.to_bytes(5, "big")
        """What machine.unique_id() gives a real hub: 8 bytes, one per hub (by default from
        the seed)."""
        self._link_faults = LinkFaults()
        self._frozen_until = 0.0
        self._lock = threading.RLock()
        self._cable: _Cable | None = None
        self.plugs = 0
        """How many times the cable has been plugged in (1 after start)."""
        self.errors: list[str] = []
        """Exceptions the firmware loop swallowed (main.py counts them as missed reads)."""

    # -- cable ------------------------------------------------------------------------------

    @property
    def plugged(self) -> bool:
        return self._cable is not None

    @property
    def path(self) -> str:
        """The current pty slave device (changes on every replug)."""
        cable = self._cable
        if cable is None:
            raise HubUnplugged("the virtual hub is unplugged")
        return cable.slave_path

    @property
    def url(self) -> str:
        """What the host opens: the stable link if there is one, else the current pty."""
        return str(self.link_path) if self.link_path is not None else self.path

    def start(self) -> VirtualHub:
        """Plug the cable in: the hub powers up, self-tests its readers and says hello."""
        with self._lock:
            if self._cable is not None:
                return self
            master, slave = os.openpty()
            tty.setraw(slave)  # binary frames: no echo, no line discipline
            port = PtyPort(master, self._link_faults, self._rng)
            cable = _Cable(master, slave, port, None)
            cable.hub = hub = self._new_firmware(cable)
            hub.boot()
            if self.slot_line is not None:
                self.slot_line.attach(self)
            if self.link_path is not None:
                temporary = self.link_path.with_name(self.link_path.name + ".new")
                with contextlib.suppress(FileNotFoundError):
                    temporary.unlink()
                temporary.symlink_to(cable.slave_path)
                os.replace(temporary, self.link_path)
            cable.thread = threading.Thread(
                target=self._run, args=(cable,), name=f"virtual-hub-{self.plugs}", daemon=True
            )
            self._cable = cable
            self.plugs += 1
            cable.thread.start()
        if self.on_path is not None:
            self.on_path(self.url)
        return self

    def unplug(self) -> None:
        """Pull the cable: the pty closes (the host's reads fail) and the hub loses power."""
        plugged = self._cable
        if plugged is not None:
            plugged.stop.set()  # the firmware no longer waits at the slot line
        if self.slot_line is not None:
            self.slot_line.detach(self)
        with self._lock:
            cable, self._cable = self._cable, None
        if cable is None:
            return
        cable.stop.set()
        if cable.thread is not None:
            cable.thread.join(5)
        if self.slot_line is not None:
            self.slot_line.detach(self)
        if self.link_path is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link_path.unlink()
        for fd in (cable.master, cable.slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def replug(self) -> str:
        """Unplug (if needed) and plug in again on a new pty; returns the new url."""
        self.unplug()
        self.start()
        return self.url

    def close(self) -> None:
        self.unplug()

    def __enter__(self) -> VirtualHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- fault knobs ------------------------------------------------------------------------

    @property
    def link_faults(self) -> LinkFaults:
        return self._link_faults

    def set_link_faults(self, faults: LinkFaults) -> None:
        """Noise and lost bytes on the cable, from now on (and after replugging)."""
        with self._lock:
            self._link_faults = faults
            if self._cable is not None:
                self._cable.port.faults = faults

    def set_reader_faults(self, reader: int, faults: ReaderFaults) -> None:
        """A dead, flickering or slow reader; the firmware notices it as it would on the board."""
        self._reader(reader).faults = faults

    def miss(self, reader: int, scans: int) -> None:
        """Make `reader` miss its tag for exactly `scans` scans in a row (a one-off flicker)."""
        if scans < 0:
            raise ValueError(f"scans must be >= 0, got {scans}")
        with self._lock:
            self._reader(reader).forced_misses = scans

    def freeze(self, seconds: float) -> None:
        """The hub's loop stalls for ``seconds`` (a hung transfer, a brown-out without a
        reset): it scans nothing, says nothing and reads nothing, then goes on where it was."""
        if not 0 <= seconds <= 60:
            raise ValueError(f"freeze for 0..60 s, not {seconds}")
        self._frozen_until = time.monotonic() + seconds

    def reboot(self) -> None:
        """A reset of the hub only (watchdog, brown-out): same pty, fresh firmware state, boot
        frames again, sequence numbers from 0."""
        with self._lock:
            cable = self._cable
            if cable is None:
                raise HubUnplugged("the virtual hub is unplugged")
            cable.hub = self._new_firmware(cable)
            cable.hub.boot()

    def _new_firmware(self, cable: _Cable) -> Any:
        return self.firmware.Hub(
            list(self.readers),
            cable.port,
            MonotonicClock(),
            self.firmware_version,
            miss_limit=self.miss_limit,
            heartbeat_ms=self.heartbeat_ms,
            retry_ms=self.retry_ms,
            hub_id=self.hub_id,
            schedule=self.schedule,
            power_up_ms=round(self.radio.power_up_ms),
            sync=None if self.slot_line is None else self.slot_line.tap(self, cable.stop),
        )

    def port_stats(self) -> PortStats:
        cable = self._cable
        if cable is None:
            raise HubUnplugged("the virtual hub is unplugged")
        return cable.port.stats()

    def scan_cycles(self) -> int:
        """Full scans done since the last plug-in (to wait for the firmware to catch up)."""
        cable = self._cable
        return int(cable.hub.scan_cycles) if cable is not None else 0

    def wait_scans(self, count: int, timeout: float = 2.0) -> None:
        """Block the calling thread until `count` more full scans have run (never call this on
        an event loop thread: use ``await asyncio.to_thread(hub.wait_scans, n)``)."""
        cable = self._cable
        if cable is None:
            raise TimeoutError("the virtual hub is unplugged: it scans nothing")
        target = cable.hub.scan_cycles + count
        deadline = time.monotonic() + timeout
        while cable.hub.scan_cycles < target:
            if time.monotonic() > deadline or self._cable is not cable:
                raise TimeoutError(f"the virtual hub did not finish {count} scans in {timeout} s")
            time.sleep(self.scan_period_ms() / 2000)

    def scan_period_ms(self) -> float:
        """How long one full scan takes (without the firmware's own pause)."""
        if self.scan_ms != "realistic":
            return float(self.scan_ms)
        if self.period_model is not None:
            return self.period_model()
        tags = self.tag_lengths()
        if self.schedule is None:
            return max(0.5, unscheduled_scan_ms(len(self.readers), tags, self.read_last()))
        return max(0.5, scheduled_scan(self.schedule, tags, self.radio,
                                       self.read_last()).scan_ms)

    def tag_lengths(self) -> dict[int, tuple[int, ...]]:
        """Per reader the UID lengths of the tags in its field (what its scan costs)."""
        return {n: tuple(len(uid) for uid in r.field.at(r.site))
                for n, r in enumerate(self.readers) if r.site is not None}

    def read_last(self) -> frozenset[int] | None:
        """The readers the firmware read in its last scan (None: every one). Watching some
        (SET_WATCH), it reads the others' stacks only now and then, and a scan is shorter."""
        cable = self._cable
        flags = getattr(cable.hub, "read_last", None) if cable is not None else None
        if flags is None or all(flags):
            return None
        return frozenset(n for n, read in enumerate(flags) if read)

    def _reader(self, reader: int) -> VirtualReader:
        if not 0 <= reader < len(self.readers):
            raise IndexError(f"no reader {reader}: the hub has readers 0..{len(self.readers) - 1}")
        return self.readers[reader]

    # -- the firmware's main loop (firmware/main.py: run) -----------------------------------

    def _run(self, cable: _Cable) -> None:
        while not cable.stop.is_set():
            frozen = self._frozen_until - time.monotonic()
            if frozen > 0:
                if self.slot_line is not None:  # stalled with its end of the line let go
                    self.slot_line.detach(self)
                cable.stop.wait(frozen)
                continue
            started = time.monotonic()
            with self._lock:
                if cable.stop.is_set():
                    return
                hub = cable.hub
                try:
                    hub.step()
                except Exception as exc:  # main.py: a bug must not silence the table
                    hub.missed_reads += 1
                    if len(self.errors) < 100:
                        self.errors.append(f"{exc.__class__.__name__}: {exc}")
            spent_ms = (time.monotonic() - started) * 1000  # power-ups and the drivers' work
            rest_ms = max(hub.scan_pause_ms, self.scan_period_ms() - spent_ms)
            cable.stop.wait(max(0.0, rest_ms) / 1000)
