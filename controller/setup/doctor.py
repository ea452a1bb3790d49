"""The doctor (``tabletop doctor``): is this table ready to play, and if not, what to do about
it.

Each check is a small function that looks at one thing (the OS, SPI, a hub, the journal...)
and returns findings: ok, warn, fail or skipped, one line saying what it saw and, when
something is wrong, one line saying how to put it right. ``examine`` runs them all and
returns a ``Report``; the command prints it as a list and exits 0 when nothing failed (the
table is ready), 1 when something did; 2 stays a usage error.

Every file the checks read goes through ``Host.path`` (a root prefix), and the commands they run
and the page they fetch through ``Host`` too, so the tests build broken machines in a scratch
folder: no SPI device, a small spidev buffer, a read-only journal, a published token.

``simulate`` (``--simulate``) runs the same hub, LED and journal checks against the simulator's
virtual hubs (the real firmware on a pty; ``tabletop doctor --simulate`` passes
``controller.cli.virtual.table.virtual_hubs``, since this room runs on the Pi and never imports
the simulator) and its recording strip, and skips what only a Pi has: this is
what ``make pi-check`` runs inside the Bookworm and Trixie root filesystems, and what a
developer runs on a laptop.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import getpass
import grp
import importlib
import json
import os
import platform
import pwd
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from controller.compose import DEFAULT_PORT, default_data, hub_urls, load_board
from controller.journal import integrity
from controller.setup.token import MIN_TOKEN, TOKEN_FILE, install_token, published_tokens
from hardware.errors import HardwareError
from hardware.field_schedule import DEFAULT_RADIO, RadioSettings
from hardware.profile import BoardProfile, HubSettings
from hardware.protocol import PROTOCOL_VERSION, ReaderStatus
from hardware.scan_timing import USB_PORT_MA, peak_ma

from . import UNIT_PATH
from .hub import HubReport, expected_firmware, probe_hub_async

Status = Literal["ok", "warn", "fail", "skip"]
MARKS: dict[str, str] = {"ok": "✓", "warn": "!", "fail": "✗", "skip": "-"}

UNIT = UNIT_PATH
"""Where `tabletop install` puts the service; doctor takes its profile, data and port from it."""
DEFAULT_PROFILE = "tiki_topple"
SUPPORTED_OS = {"bookworm": "3.11", "trixie": "3.13"}
"""Raspberry Pi OS releases the `pi` extra is checked on (codename to its Python)."""
PYTHON_MIN = (3, 11)
HELLO_SECONDS = 5.0
"""How long a hub has to answer hello (it answers within a second when it runs our firmware)."""
VirtualHubs = Callable[[BoardProfile, Path, str | None],
                       contextlib.AbstractContextManager[tuple[Any, list[str]]]]
"""Starts a profile's hubs and strip on a virtual table (``controller.cli.virtual.table
.virtual_hubs``): its recording strip and its hubs' ports, each saying the firmware given."""
SIMULATED_HELLO_SECONDS = 60.0
"""The same for a virtual hub, which shares the CPU with everything else: under qemu (make
pi-check) its firmware's boot self-test alone takes seconds. A hub that answers ends the wait."""
HELLO_RETRY = 0.5
"""The longest pause between two hellos asked of a hub that has not answered yet."""
PAGE_SECONDS = 3.0
LOW_DISK = 100 * 2**20
"""Below this much free space the journal is warned about (a game is a few kilobytes, but the
SD card's wear levelling and the OS's updates want room)."""
FULL_DISK = 5 * 2**20
"""Below this the journal may not be able to write the next move: a failure."""

# neopixel_spi (Adafruit_CircuitPython_NeoPixel_SPI 1.0.x, NeoPixel_SPI.__init__/_transmit)
# turns every colour bit into one SPI byte at 6.4 MHz (8 * n * bpp bytes) and sends it in one
# write between two reset runs of round(6_400_000 * 80e-6 / 8) = 64 zero bytes each: 24 * n +
# 128 bytes for an RGB strip. The kernel's spidev driver refuses a transfer larger than its
# bufsiz parameter (4096 by default), so at most 165 LEDs unless bufsiz is raised.
SPI_BITS_PER_BYTE = 8
SPI_RESET_BYTES = 64
SPI_DEFAULT_BUFSIZ = 4096
# Raising bufsiz is not enough: Blinka's busio.SPI writes through Adafruit_PureIO.spi
# (1.1.12: SPI.__init__ and writebytes), which cuts every write into pieces of 4096 bytes
# unless the environment variable SPI_BUFSIZE names another size. Each piece is its own
# transfer, and the pause between two latches the strip mid-frame (Adafruit_Python_PureIO pull
# request 20 added the variable "to use more than 168 Neopixels with neopixel_spi";
# Adafruit_CircuitPython_NeoPixel_SPI issue 18: bufsiz raised to 65535, still 168 LEDs).
PUREIO_CHUNK = 4096
PUREIO_CHUNK_VARIABLE = "SPI_BUFSIZE"
SPI_DEVICE = "/dev/spidev0.0"
SPI_BUFSIZ = "/sys/module/spidev/parameters/bufsiz"
GPIO_CHIP = "/dev/gpiochip0"
GPIO_MEM = "/dev/gpiomem"

IMPORTS: dict[str, tuple[str, ...]] = {
    "lgpio": ("lgpio",),
    "rpigpio": ("RPi.GPIO",),
    "native": (),
    "mock": (),
    "neopixel_spi": ("Adafruit_PureIO.spi", "gpiod", "board", "busio", "neopixel_spi"),
    "neopixel": ("board", "neopixel", "_rpi_ws281x"),
    "recording": (),
}
"""Modules each button pin factory and LED driver of a profile needs (from the `pi` extra, or
apt's python3-lgpio on Trixie)."""


def spi_bytes(count: int, pixel_order: str = "GRB") -> int:
    """Bytes neopixel_spi sends to the SPI device in one write for ``count`` LEDs."""
    return SPI_BITS_PER_BYTE * count * len(pixel_order) + 2 * SPI_RESET_BYTES


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of the report: what was seen and, when it is not ok, how to fix it."""

    check: str
    status: Status
    what: str
    fix: str = ""

    def line(self) -> str:
        fix = f" — fix: {self.fix}" if self.fix and self.status in ("warn", "fail") else ""
        return f"{MARKS[self.status]} {self.what}{fix}"


def _run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, check=False, timeout=10)


def _fetch(url: str, timeout: float) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as response:  # http to this machine only
        return response.read()


@dataclass
class Host:
    """The machine the checks look at: a root folder for every system path, the commands they
    run and the page fetch. Tests give a scratch root and keep the rest real."""

    root: Path = Path("/")
    machine: str = field(default_factory=platform.machine)
    """The kernel's architecture (uname -m)."""
    python_bits: int = 64 if sys.maxsize > 2**32 else 32
    """This Python's: a 32-bit Raspberry Pi OS boots a 64-bit kernel on a Pi 4 or 5, so
    uname says aarch64 while every program, the wheels included, is 32-bit."""
    user: str = field(default_factory=getpass.getuser)
    run: Callable[[Sequence[str]], subprocess.CompletedProcess[str]] = _run
    fetch: Callable[[str, float], bytes] = _fetch

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")


def usable(path: Path, mode: int, account: str | None = None) -> bool:
    """Whether ``account`` (None: whoever runs doctor) may use ``path`` with ``mode``
    (os.R_OK, os.W_OK, os.X_OK). Root running doctor for the service's user: the file's mode
    bits, owner and group against that user's groups (ACLs aside), and root's own os.access for
    what no mode grants (a read-only mount)."""
    if not os.access(path, mode):
        return False
    if account is None or account == getpass.getuser():
        return True
    try:
        entry = pwd.getpwnam(account)
        info = path.stat()
    except (KeyError, OSError):
        return False
    if entry.pw_uid == 0:
        return True
    groups = {entry.pw_gid, *(g.gr_gid for g in grp.getgrall() if account in g.gr_mem)}
    shift = 6 if info.st_uid == entry.pw_uid else 3 if info.st_gid in groups else 0
    need = (4 * bool(mode & os.R_OK)) | (2 * bool(mode & os.W_OK)) | bool(mode & os.X_OK)
    return (info.st_mode >> shift) & need == need


@dataclass
class Setup:
    """What the checks are about: the profile, the data folder, the hub ports, the page."""

    profile: BoardProfile
    data: Path
    urls: list[str]
    port: int = DEFAULT_PORT
    simulate: bool = False
    strip: Any = None
    """The simulator's recording strip (``--simulate``); None opens the profile's driver."""
    firmware: str | None = None
    """The firmware version the hubs must run (this install's firmware/config.py)."""
    status: dict[str, Any] | None = None
    """The running service's /api/status, once the page check fetched it: the hubs and the
    LEDs are then read from it instead of being opened a second time."""
    service_active: bool = False
    hello_seconds: float = HELLO_SECONDS
    owner: str | None = None
    """The service's user (the installed unit's ``User=``), who must own its files."""
    account: str | None = None
    """Whom devices and files are checked for: the service's user when root runs doctor
    (``sudo tabletop doctor``), else None (whoever runs it)."""
    environment: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    """The service's environment: the unit's ``Environment=`` lines, else doctor's own."""

    def who(self, host: Host) -> str:
        return self.account or host.user


Check = Callable[[Host, Setup], list[Finding]]


# -- the system ------------------------------------------------------------------------------

def check_python(host: Host, setup: Setup) -> list[Finding]:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] < PYTHON_MIN:
        return [Finding("python", "fail", f"Python {version} is too old (tabletop needs 3.11+)",
                        "use Raspberry Pi OS Bookworm (Python 3.11) or Trixie (3.13), 64-bit")]
    return [Finding("python", "ok", f"Python {version} ({sys.executable})")]


def os_release(host: Host) -> dict[str, str]:
    """/etc/os-release as a dict (empty when there is none)."""
    try:
        text = host.path("/etc/os-release").read_text(encoding="utf-8")
    except OSError:
        return {}
    found = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() and not key.startswith("#"):
            with contextlib.suppress(ValueError):
                found[key.strip()] = " ".join(shlex.split(value))
    return found


def pi_model(host: Host) -> str | None:
    for where in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            return host.path(where).read_text(encoding="utf-8").strip("\x00\n ")
    return None


def check_os(host: Host, setup: Setup) -> list[Finding]:
    release = os_release(host)
    name = release.get("PRETTY_NAME", "an unknown OS (no /etc/os-release)")
    codename = release.get("VERSION_CODENAME", "")
    model = pi_model(host)
    bits = "64-bit" if host.machine in ("aarch64", "arm64") else (
        "32-bit" if host.machine.startswith("arm") else "")
    if bits == "64-bit" and host.python_bits == 32:
        bits = "32-bit"  # a 64-bit kernel under 32-bit programs
    where = f"{name}, {host.machine}" + (f" ({bits})" if bits else "") + (
        f", {model}" if model else "")
    reinstall = "flash Raspberry Pi OS (64-bit), Bookworm or Trixie, with Raspberry Pi Imager"
    if setup.simulate and bits != "64-bit":
        return [Finding("os", "skip", f"{where}: skipped: simulated (a Pi needs aarch64)")]
    if bits == "32-bit":
        return [Finding("os", "fail", f"{where}: 32-bit Raspberry Pi OS is not supported",
                        reinstall)]
    if bits != "64-bit":
        return [Finding("os", "fail", f"{where}: not a 64-bit ARM system",
                        "run tabletop on a Raspberry Pi, or `tabletop doctor --simulate` here")]
    findings = []
    if codename in SUPPORTED_OS:
        findings.append(Finding("os", "ok", where))
    else:
        findings.append(Finding("os", "warn", f"{where}: not a release tabletop is checked on "
                                f"({', '.join(SUPPORTED_OS)})", reinstall))
    if model is None and not setup.simulate:
        findings.append(Finding("os", "warn", "no Raspberry Pi model in the device tree",
                                "GPIO, SPI and LEDs need a Raspberry Pi; elsewhere use "
                                "`tabletop doctor --simulate`"))
    return findings


def needed_modules(profile: BoardProfile) -> list[tuple[str, str]]:
    """(module, what needs it) for the profile's pin factory and LED driver."""
    wanted = [(module, f"the buttons' {profile.buttons.pin_factory} pins")
              for module in IMPORTS.get(profile.buttons.pin_factory, ())]
    wanted += [(module, f"the LEDs' {profile.leds.driver} driver")
               for module in IMPORTS.get(profile.leds.driver, ())]
    return wanted


def _import_fix(module: str) -> str:
    if module == "lgpio":
        return ("on Trixie: sudo apt install python3-lgpio and a venv made with "
                "--system-site-packages; on Bookworm: pip install 'tabletop[pi]'")
    if module == "RPi.GPIO":
        return ("on Trixie: sudo apt install python3-rpi-lgpio (venv with "
                "--system-site-packages); on Bookworm: pip install 'tabletop[pi]'")
    if module in ("neopixel", "_rpi_ws281x"):
        return ("pip install 'tabletop[pi-pwm]' (builds rpi_ws281x: needs gcc and "
                "python3-dev), or use driver = \"neopixel_spi\" in the profile")
    return "pip install 'tabletop[pi]' into the service's venv"


def _lgpio_workdir() -> None:
    """lgpio (its C library, 0.2) makes a notification pipe in $LG_WD, else in the current
    folder, and changes into it on import: where the user cannot write, the import fails. The
    service runs in its data folder; doctor may be started anywhere, so it gives lgpio one."""
    try:
        writable = os.access(os.getcwd(), os.W_OK)
    except OSError:
        writable = False
    if "LG_WD" not in os.environ and not writable:
        folder = tempfile.mkdtemp(prefix="tabletop-doctor-lgpio-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        os.environ["LG_WD"] = folder


def check_imports(host: Host, setup: Setup) -> list[Finding]:
    wanted = needed_modules(setup.profile)
    if not wanted:
        return [Finding("imports", "ok", "the profile's buttons and LEDs need no Pi library")]
    # In the simulator a missing Pi library is only news (the virtual table does not use it).
    missing: Status = "warn" if setup.simulate else "fail"
    findings = []
    for module, needer in wanted:
        if module == "lgpio":
            _lgpio_workdir()
        try:
            importlib.import_module(module)
        except ImportError as error:
            findings.append(Finding("imports", missing, f"{module} (for {needer}) is not "
                                    f"installed: {error}", _import_fix(module)))
        except Exception as error:  # Blinka raises anything off a Pi
            status: Status = "ok" if setup.simulate else "fail"
            problem = f"{error.__class__.__name__}: {error}".strip().splitlines()[0]
            findings.append(Finding("imports", status, f"{module} (for {needer}) is installed "
                                    f"but does not load here ({problem})",
                                    "run doctor on the Raspberry Pi itself; if it is one, "
                                    "reinstall: pip install --force-reinstall 'tabletop[pi]'"))
        else:
            findings.append(Finding("imports", "ok", f"{module} imports (for {needer})"))
    return findings


def check_spi(host: Host, setup: Setup) -> list[Finding]:
    leds = setup.profile.leds
    if leds.driver != "neopixel_spi":
        return [Finding("spi", "skip", f"SPI: not used (the LEDs use the {leds.driver!r} "
                                       "driver)")]
    if setup.simulate:
        return [Finding("spi", "skip", "SPI: skipped: simulated (a recording strip)")]
    device = host.path(SPI_DEVICE)
    if not device.exists():
        return [Finding("spi", "fail", f"SPI is off: no {SPI_DEVICE}",
                        "sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in "
                        "/boot/firmware/config.txt), then reboot")]
    findings = []
    who = setup.who(host)
    if usable(device, os.R_OK | os.W_OK, setup.account):
        findings.append(Finding("spi", "ok", f"SPI enabled ({SPI_DEVICE})"))
    else:
        findings.append(Finding("spi", "fail", f"SPI: {SPI_DEVICE} cannot be opened by {who}",
                                f"sudo usermod -aG spi {who}, then log in again (or restart "
                                "the service)"))
    need = spi_bytes(leds.count, leds.pixel_order)
    try:
        bufsiz = int(host.path(SPI_BUFSIZ).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        bufsiz = None
    raise_it = ("add spidev.bufsiz=65536 to the one line of /boot/firmware/cmdline.txt "
                "(sudo tabletop install does), then reboot")
    if bufsiz is None:
        status: Status = "warn" if need <= SPI_DEFAULT_BUFSIZ else "fail"
        findings.append(Finding("spi-bufsiz", status, f"SPI buffer: {SPI_BUFSIZ} cannot be "
                                f"read; {leds.count} LEDs need {need} bytes (default "
                                f"{SPI_DEFAULT_BUFSIZ})", raise_it))
    elif bufsiz < need:
        findings.append(Finding("spi-bufsiz", "fail", f"SPI buffer too small: spidev.bufsiz is "
                                f"{bufsiz} bytes, {leds.count} LEDs need {need}", raise_it))
    else:
        findings.append(Finding("spi-bufsiz", "ok", f"SPI buffer: spidev.bufsiz {bufsiz} bytes "
                                f"≥ {need} for {leds.count} LEDs"))
    if need > PUREIO_CHUNK or PUREIO_CHUNK_VARIABLE in setup.environment:
        findings.append(_pieces(setup, need))
    return findings


def _pieces(setup: Setup, need: int) -> Finding:
    """Whether Blinka hands the strip's frame to the kernel in one piece (PUREIO_CHUNK)."""
    given = setup.environment.get(PUREIO_CHUNK_VARIABLE, "")
    chunk = int(given) if given.strip().isdigit() else PUREIO_CHUNK
    said = f"{PUREIO_CHUNK_VARIABLE}={given}" if given else f"{PUREIO_CHUNK_VARIABLE} unset"
    count = setup.profile.leds.count
    if chunk < need:
        return Finding("spi-pieces", "fail", f"SPI pieces too small: Blinka writes SPI in "
                       f"{chunk}-byte pieces ({said}), {count} LEDs need {need} in one",
                       f"Environment={PUREIO_CHUNK_VARIABLE}=65536 in the [Service] of "
                       f"{UNIT}, then sudo systemctl daemon-reload && sudo systemctl restart "
                       "tabletop")
    return Finding("spi-pieces", "ok", f"SPI pieces: {said} ≥ {need} bytes for {count} LEDs")


def check_gpio(host: Host, setup: Setup) -> list[Finding]:
    factory = setup.profile.buttons.pin_factory
    if factory == "mock":
        return [Finding("gpio", "skip", "GPIO: not used (the profile's buttons are mock pins)")]
    if setup.simulate:
        return [Finding("gpio", "skip", "GPIO: skipped: simulated (mock pins)")]
    device = GPIO_MEM if factory == "rpigpio" else GPIO_CHIP
    path = host.path(device)
    if not path.exists():
        return [Finding("gpio", "fail", f"GPIO: no {device}",
                        "run on a Raspberry Pi with Raspberry Pi OS (its kernel makes it)")]
    who = setup.who(host)
    if not usable(path, os.R_OK | os.W_OK, setup.account):
        return [Finding("gpio", "fail", f"GPIO: {device} cannot be opened by {who}",
                        f"sudo usermod -aG gpio {who}, then log in again (or restart the "
                        "service)")]
    return [Finding("gpio", "ok", f"GPIO accessible ({device}, for {factory})")]


# -- the service and its page -----------------------------------------------------------------

def check_service(host: Host, setup: Setup) -> list[Finding]:
    if setup.simulate:
        return [Finding("service", "skip", "service: skipped: simulated")]
    if not host.path("/run/systemd/system").is_dir():
        return [Finding("service", "skip", "service: no systemd on this machine")]
    installed = host.path(UNIT).is_file()
    try:
        state = host.run(["systemctl", "is-active", "tabletop"]).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError) as error:
        return [Finding("service", "warn", f"service: systemctl did not answer ({error})",
                        "systemctl status tabletop")]
    if state == "active":
        setup.service_active = True
        return [Finding("service", "ok", "service tabletop is running")]
    if not installed:
        return [Finding("service", "warn", "service tabletop is not installed",
                        f"sudo {_tabletop()} install --profile {setup.profile.game}")]
    return [Finding("service", "fail", f"service tabletop is {state}",
                    "sudo systemctl start tabletop; journalctl -u tabletop -n 20 says why it "
                    "stopped")]


def check_page(host: Host, setup: Setup) -> list[Finding]:
    if setup.simulate:
        return [Finding("page", "skip", "status page: skipped: simulated")]
    url = f"http://127.0.0.1:{setup.port}/api/status"
    try:
        # In English, as the doctor speaks: the table's own language may be another, and the
        # hub checks read the service's words (its hubs' last errors).
        body = host.fetch(f"{url}?lang=en", PAGE_SECONDS)
        status = json.loads(body)
        if not isinstance(status, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        if not setup.service_active:
            return [Finding("page", "skip", f"status page: nothing answers on port "
                                            f"{setup.port} (the service is not running)")]
        return [Finding("page", "fail", f"status page {url} does not answer ({reason})",
                        "journalctl -u tabletop -n 20 (a port taken by another program? "
                        "the unit's --port)")]
    setup.status = status
    return [Finding("page", "ok", f"status page answers on http://{_address()}:{setup.port}/")]


def _address() -> str:
    """The address other devices reach the page at (the one a default route leaves by)."""
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET: no packet is sent by a UDP connect
        return str(probe.getsockname()[0])
    return "127.0.0.1"


# -- the hubs ---------------------------------------------------------------------------------

def _flash(url: str) -> str:
    return f"tabletop hub flash --port {url} (docs/firmware.md), then plug the hub in again"


def supply_finding(hub: HubSettings, schedule: Sequence[Sequence[int]], readers: int,
                   radio: RadioSettings = DEFAULT_RADIO) -> Finding:
    """The readers' peak current (their largest field class on at once, from the schedule the
    hub runs) against the 5 V supply the profile states, or a USB port's if it states none."""
    key, name = f"hub:{hub.name}:power", f"hub {hub.name!r}"
    peak = peak_ma(schedule, readers, radio)
    on = max((len(members) for members in schedule), default=0) if schedule else readers
    drawn = f"{name}: its {readers} readers draw up to {peak:,.0f} mA ({on} fields on at once)"
    fewer = "or fewer fields on at once (tabletop profile schedule; docs/wiring.md, Power)"
    if hub.supply_ma is not None:
        if peak > hub.supply_ma:
            return Finding(key, "fail", f"{drawn}, more than its {hub.supply_ma:,} mA supply",
                           f"a 5 V supply of at least {peak:,.0f} mA for its readers, {fewer}")
        return Finding(key, "ok", f"{drawn}, within its {hub.supply_ma:,} mA supply")
    if peak > USB_PORT_MA:
        return Finding(key, "warn", f"{drawn}, more than a USB port gives "
                                    f"({USB_PORT_MA:,.0f} mA)",
                       f"give its readers a 5 V supply of their own of at least {peak:,.0f} mA "
                       f"and write its rating as supply_ma in the profile's hub, {fewer}")
    return Finding(key, "ok", f"{drawn}, within a USB port's {USB_PORT_MA:,.0f} mA")


def hub_findings(hub: HubSettings, report: HubReport, firmware: str | None,
                 sites: dict[int, str], waited: float = HELLO_SECONDS,
                 account: str | None = None,
                 radio: RadioSettings = DEFAULT_RADIO) -> list[Finding]:
    """The lines for one hub from what it said (``account``: the user who must open it)."""
    key, name, url = f"hub:{hub.name}", f"hub {hub.name!r}", report.url
    who = account or getpass.getuser()
    dialout = f"sudo usermod -aG dialout {who}, then log in again (or restart the service)"
    if report.refused is not None:
        wrong_id = hub.unique_id is not None and "the cables are swapped" in report.refused
        fix = ("swap the hubs' cables, or correct unique_id in the profile" if wrong_id
               else _flash(url))
        return [Finding(key, "fail", f"{name}: {report.refused.split(': ', 1)[0]}", fix)]
    if report.hello is None:
        why = report.last_error or "it said nothing"
        if "Permission denied" in why:
            return [Finding(key, "fail", f"{name}: {url} cannot be opened by {who}", dialout)]
        return [Finding(key, "fail", f"{name}: no hello from {url} within {waited:g} s "
                                     f"({why})",
                        f"is it flashed with tabletop's firmware? {_flash(url)}")]
    hello = report.hello
    findings = []
    said = (f"{name} on {url}: {hello.firmware_version}, protocol {hello.protocol_version}, "
            f"id {hello.hub_id.hex() or '-'}")
    if firmware is None:
        findings.append(Finding(key, "warn", f"{said}: this install carries no firmware to "
                                             "compare it with", "reinstall the tabletop wheel"))
    elif hello.firmware_version != firmware:
        findings.append(Finding(key, "fail", f"{said}: this tabletop ships {firmware!r}",
                                _flash(url)))
    else:
        findings.append(Finding(key, "ok", said))
    if account is not None and "://" not in url and not usable(
            Path(url), os.R_OK | os.W_OK, account):
        findings.append(Finding(key, "fail", f"{name}: {url} cannot be opened by {who}",
                                dialout))
    expected = len(hub.readers)
    findings.append(supply_finding(hub, hello.schedule, hello.reader_count, radio))
    if hello.reader_count != expected:
        findings.append(Finding(f"{key}:readers", "fail", f"{name} has {hello.reader_count} "
                                f"readers, the profile {expected}",
                                "set CS_PINS (or READER_COUNT) in firmware/config.py to the "
                                f"board's readers and flash again: {_flash(url)}"))
    if not report.readers:
        findings.append(Finding(f"{key}:readers", "warn", f"{name}: no self-test result came",
                                "unplug the hub and plug it in again (it self-tests at boot)"))
        return findings
    bad = [(number, status) for number, status in enumerate(report.readers)
           if status != ReaderStatus.OK]
    if bad:
        listed = ", ".join(f"reader {n} ({sites.get(hub.readers[n], '?') if n < expected else '?'})"
                           f" {status.name.lower()}" for n, status in bad)
        findings.append(Finding(f"{key}:readers", "fail", f"{name}: self-test failed: {listed}",
                                "check those readers' wiring, chip select and 3.3 V "
                                "(docs/wiring.md)"))
    else:
        findings.append(Finding(f"{key}:readers", "ok", f"{name}: all {len(report.readers)} "
                                "readers pass the self-test"))
    return findings


def _hubs_from_status(hub: HubSettings, status: dict[str, Any], firmware: str | None,
                      sites: dict[int, str]) -> list[Finding]:
    """The lines for one hub from the running service's status (the service holds the port)."""
    key, name = f"hub:{hub.name}", f"hub {hub.name!r}"
    hardware = status.get("hardware", {})
    seen = next((h for h in hardware.get("hubs", []) if h.get("name") == hub.name), None)
    if seen is None:
        return [Finding(key, "warn", f"{name}: the running service does not list it",
                        "the service runs another profile: compare the unit's --profile")]
    url = seen.get("url", hub.url)
    if not seen.get("connected"):
        why = seen.get("last_error") or "not connected"
        fix = _flash(url) if "protocol" in why else (
            "plug the hub in (a USB data cable); `ls /dev/serial/by-id/` lists the hubs")
        return [Finding(key, "fail", f"{name} (seen by the service): {why}", fix)]
    said = (f"{name} on {url} (seen by the service): {seen.get('firmware')}, protocol "
            f"{PROTOCOL_VERSION}, id {seen.get('unique_id') or '-'}")
    findings = []
    if firmware is not None and seen.get("firmware") != firmware:
        findings.append(Finding(key, "fail", f"{said}: this tabletop ships {firmware!r}",
                                "sudo systemctl stop tabletop; " + _flash(url)))
    else:
        findings.append(Finding(key, "ok", said))
    mine = {sites.get(r) for r in hub.readers}
    bad = [f"{r.get('site')} {r.get('status', '').lower()}"
           for r in hardware.get("readers", [])
           if r.get("site") in mine and r.get("status", "").upper() != "OK"]
    if bad:
        findings.append(Finding(f"{key}:readers", "fail", f"{name}: readers not ok: "
                                f"{', '.join(bad)}", "check those readers' wiring, chip select "
                                "and 3.3 V (docs/wiring.md)"))
    else:
        findings.append(Finding(f"{key}:readers", "ok", f"{name}: all {len(hub.readers)} "
                                "readers ok"))
    return findings


def check_hubs(host: Host, setup: Setup) -> list[Finding]:
    profile = setup.profile
    sites = dict(profile.readers)
    if setup.status is not None:
        return [line for hub in profile.hubs
                for line in _hubs_from_status(hub, setup.status, setup.firmware, sites)]
    if setup.service_active:
        return [Finding("hubs", "warn", "hubs: not opened while the service holds their ports "
                                        "(and its page does not answer)",
                        "sudo systemctl stop tabletop, run doctor again, then start it")]
    findings: list[Finding] = []
    ask: list[tuple[HubSettings, str]] = []
    for hub, url in zip(profile.hubs, setup.urls, strict=True):
        if "://" not in url and not Path(url).exists():
            findings.append(Finding(f"hub:{hub.name}", "fail", f"hub {hub.name!r}: {url} not "
                                    "found", "plug the hub in with a USB data cable; "
                                    "`ls /dev/serial/by-id/` lists the hubs (set its url in "
                                    "the profile, or --url)"))
        else:
            ask.append((hub, url))

    async def ask_all() -> list[HubReport]:
        return list(await asyncio.gather(*(
            probe_hub_async(url, baudrate=hub.baudrate, timeout=setup.hello_seconds,
                            unique_id=hub.unique_id, hello_retry=HELLO_RETRY)
            for hub, url in ask)))

    reports = asyncio.run(ask_all()) if ask else []
    for (hub, _), report in zip(ask, reports, strict=True):
        findings += hub_findings(hub, report, setup.firmware, sites, setup.hello_seconds,
                                 setup.account, profile.radio)
    return findings


# -- the LEDs, the journal, the token ---------------------------------------------------------

def check_leds(host: Host, setup: Setup) -> list[Finding]:
    leds = setup.profile.leds
    if setup.status is not None:
        seen = setup.status.get("hardware", {}).get("leds", {})
        return [Finding("leds", "ok", f"LED strip: {seen.get('count')} LEDs, driven by the "
                                      f"running service ({seen.get('pushes')} frames shown)")]
    if setup.service_active:
        return [Finding("leds", "warn", "LED strip: not opened while the service drives it",
                        "sudo systemctl stop tabletop, run doctor again, then start it")]
    from hardware.leds import open_strip

    try:
        strip = setup.strip if setup.strip is not None else open_strip(leds)
        sent = getattr(strip, "transmitted", None)
        strip.fill((0, 0, 0))
        strip.show()  # one dark frame: the driver really writes (and spidev takes its size)
    except HardwareError as error:
        return [Finding("leds", "fail", f"LED strip: {error}",
                        "see the SPI and imports lines above; the profile's [leds] driver "
                        "and pin (docs/wiring.md)")]
    except (OSError, RuntimeError, ValueError) as error:
        return [Finding("leds", "fail", f"LED strip ({leds.driver}) does not take a frame: "
                                        f"{error}", "see the SPI line above: spidev.bufsiz and "
                                                    "access to /dev/spidev0.0")]
    driver = "recording, simulated" if setup.strip is not None else leds.driver
    frames = getattr(strip, "transmitted", None)
    if sent is not None and frames is not None and frames <= sent:
        return [Finding("leds", "fail", f"LED strip ({driver}) took no frame",
                        "the profile's [leds] settings (docs/wiring.md)")]
    if setup.strip is None:
        with contextlib.suppress(Exception):  # releasing the bus is a courtesy
            strip.deinit()
    return [Finding("leds", "ok", f"LED strip answers ({driver}, {len(strip)} LEDs, one dark "
                                  "frame sent)")]


def check_journal(host: Host, setup: Setup) -> list[Finding]:
    folder = setup.data
    journal = folder / "journal.sqlite3"
    other = "make it writable by the service's user, or give another --data folder"
    if not folder.is_dir():
        parent = next((p for p in folder.parents if p.exists()), Path("/"))
        if os.access(parent, os.W_OK):
            return [Finding("journal", "warn", f"journal: {folder} does not exist yet (made on "
                                               "the first start)",
                            "start the service once (sudo systemctl start tabletop), or "
                            "give the --data folder it uses")]
        return [Finding("journal", "fail", f"journal: {folder} does not exist and {parent} "
                                           "cannot be written", other)]
    findings = [_writable(folder, journal, other, setup.account)]
    if journal.is_dir():
        findings.append(Finding("journal", "fail", f"journal: {journal} is a directory",
                                "move it away (the next start makes a new journal)"))
    elif journal.exists():
        findings.append(_sound(journal, folder))
    findings.append(_disk(folder))
    return findings


def _writable(folder: Path, journal: Path, other: str, account: str | None) -> Finding:
    try:
        descriptor, probe = tempfile.mkstemp(prefix=".doctor-", dir=folder)
        os.close(descriptor)
        os.unlink(probe)
    except OSError as error:
        return Finding("journal", "fail", f"journal: {folder} cannot be written "
                                          f"({error.strerror.lower()})", other)
    for path, mode in ((folder, os.W_OK | os.X_OK), (journal, os.R_OK | os.W_OK)):
        if path.exists() and not usable(path, mode, account):
            by = f" by {account}" if account else ""
            fix = f"sudo chown -R {account}: {folder}" if account else other
            return Finding("journal", "fail", f"journal: {path} cannot be written{by}", fix)
    return Finding("journal", "ok", f"journal folder {folder} is writable" + (
        f" by {account}" if account else ""))


def _sound(journal: Path, folder: Path) -> Finding:
    """SQLite's quick_check on a read-only connection: it never changes or moves the file."""
    recover = (f"stop the service, then tabletop journal recover --data {folder} "
               "(docs/service.md, The journal and power cuts)")
    if journal.stat().st_size == 0:
        return Finding("journal", "fail", f"journal {journal} is empty (0 bytes)", recover)
    try:
        db = sqlite3.connect(f"{journal.absolute().as_uri()}?mode=ro", uri=True)
        try:
            problems = integrity(db)
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        problems = [str(error)]
    if problems:
        first = " ".join(" ".join(problems[:1]).split())
        return Finding("journal", "fail", f"journal {journal} is damaged ({first})", recover)
    return Finding("journal", "ok", f"journal {journal.name} is sound (SQLite quick_check)")


def _disk(folder: Path) -> Finding:
    usage = shutil.disk_usage(folder)
    free = f"{usage.free / 2**20:,.0f} MB free on the journal's disk"
    if usage.free < FULL_DISK:
        return Finding("disk", "fail", free, "free space: sudo apt clean, remove old logs "
                                             "(journalctl --vacuum-size=50M)")
    if usage.free < LOW_DISK:
        return Finding("disk", "warn", free, "sudo apt clean; journalctl --vacuum-size=50M")
    return Finding("disk", "ok", free)


def check_token(host: Host, setup: Setup) -> list[Finding]:
    profile = setup.profile
    published = published_tokens()
    if profile.web_token is not None:
        where = f"profile {profile.source}"
        if profile.web_token in published:
            return [Finding("token", "fail", f"token: {where} sets a token published in the "
                                             "repository (anyone can change your games)",
                            "remove web_token from the profile: the install's own token is "
                            "used then (`tabletop token` shows it)")]
        if len(profile.web_token) < MIN_TOKEN:
            return [Finding("token", "fail", f"token: {where}'s is shorter than {MIN_TOKEN}",
                            "remove web_token from the profile, or make it longer")]
        return [Finding("token", "ok", f"token: the profile's own ({where})")]
    path = setup.data / TOKEN_FILE
    if not path.exists():
        return [Finding("token", "warn", f"token: {path} not made yet (the first start makes "
                                         "it)", f"sudo -u {setup.owner or host.user} "
                                                f"{_tabletop()} token --data {setup.data}")]
    try:
        token = path.read_text(encoding="ascii").strip()
        mode = path.stat().st_mode & 0o777
    except (OSError, UnicodeDecodeError) as error:
        return [Finding("token", "warn", f"token: {path} cannot be read here ({error})",
                        f"sudo {_tabletop()} doctor (checks as the service's user)")]
    remake = f"delete {path}; the next start (or tabletop token) makes a new one"
    if token in published:
        return [Finding("token", "fail", f"token: {path} holds a token published in the "
                                         "repository", remake)]
    if len(token) < MIN_TOKEN:
        return [Finding("token", "fail", f"token: {path} is damaged (shorter than "
                                         f"{MIN_TOKEN})", remake)]
    if not usable(path, os.R_OK, setup.account):
        return [Finding("token", "fail", f"token: {path} cannot be read by {setup.account}",
                        f"sudo chown {setup.account}: {path}")]
    if mode & 0o077:
        return [Finding("token", "warn", f"token: {path} can be read by others "
                                         f"(mode {mode:o})", f"chmod 600 {path}")]
    return [Finding("token", "ok", f"token: the install's own ({path}, not a published one)")]


CHECKS: dict[str, Check] = {
    "python": check_python,
    "os": check_os,
    "imports": check_imports,
    "spi": check_spi,
    "gpio": check_gpio,
    "service": check_service,
    "page": check_page,
    "hubs": check_hubs,
    "leds": check_leds,
    "journal": check_journal,
    "token": check_token,
}
"""In order: the page comes before the hubs and LEDs, which are read from the running service
when it holds them (a second reader on the hub's port would steal its frames)."""


def diagnose(host: Host, setup: Setup, only: Sequence[str] | None = None) -> list[Finding]:
    """Every check's findings, in order (``only``: those checks alone)."""
    return [finding for name, check in CHECKS.items() if only is None or name in only
            for finding in check(host, setup)]


# -- the whole examination ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Installed:
    """What the installed unit runs: profile, data folder, port, hub urls (None: not set)."""

    profile: str | None = None
    data: str | None = None
    port: int | None = None
    urls: tuple[str, ...] = ()
    user: str | None = None
    environment: dict[str, str] | None = None
    """Its ``Environment=`` settings (None: no unit installed)."""


def installed_unit(host: Host) -> Installed:
    """The options of ``tabletop run`` in the installed systemd unit, if there is one."""
    try:
        text = host.path(UNIT).read_text(encoding="utf-8")
    except OSError:
        return Installed()
    line = next((line for line in text.splitlines() if line.startswith("ExecStart=")), "")
    user = next((line.partition("=")[2].strip() for line in text.splitlines()
                 if line.startswith("User=")), None)
    environment: dict[str, str] = {}
    for setting in (line.partition("=")[2] for line in text.splitlines()
                    if line.startswith("Environment=")):
        with contextlib.suppress(ValueError):
            environment.update(word.split("=", 1) for word in shlex.split(setting)
                               if "=" in word)
    try:
        words = shlex.split(line.partition("=")[2])
    except ValueError:
        return Installed()
    options: dict[str, list[str]] = {}
    for word, value in zip(words, [*words[1:], ""], strict=True):
        if word.startswith("--"):
            name, sep, inline = word.partition("=")
            options.setdefault(name, []).append(inline if sep else value)
    port = (options.get("--port") or [""])[0]
    return Installed((options.get("--profile") or [None])[0],
                     (options.get("--data") or [None])[0],
                     int(port) if port.isdigit() else None, tuple(options.get("--url", [])),
                     user or None, environment)




@dataclass(frozen=True, slots=True)
class Report:
    """What the doctor found: the board it checked, where, and every finding in order."""

    profile: BoardProfile
    data: Path
    simulated: bool
    findings: list[Finding]

    @property
    def ready(self) -> bool:
        """Nothing failed: the table can be played."""
        return not any(finding.status == "fail" for finding in self.findings)

    @property
    def failed(self) -> int:
        return sum(finding.status == "fail" for finding in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"ready": self.ready, "profile": self.profile.name, "data": str(self.data),
                "simulated": self.simulated,
                "checks": [dataclasses.asdict(finding) for finding in self.findings]}


def examine(host: Host, *, profile: str | None = None, data: str | None = None,
            urls: Sequence[str] | None = None, port: int | None = None,
            virtual: VirtualHubs | None = None, only: Sequence[str] | None = None) -> Report:
    """Every check (``only``: those alone) of the table ``host`` has: the profile, data folder,
    hub ports and page port given, else the installed unit's, else the defaults. ``virtual``:
    against the virtual hubs and strip it starts (the simulator's, which the command line
    passes)."""
    simulate = virtual is not None
    unit = installed_unit(host)
    board = load_board(profile or unit.profile or DEFAULT_PROFILE)
    ports = hub_urls(board, list(urls) if urls else [] if simulate else list(unit.urls))
    firmware = expected_firmware()
    with _table(virtual, data, board, unit, firmware) as (folder, strip, simulated_urls):
        setup = Setup(board, folder, simulated_urls or ports, port or unit.port or DEFAULT_PORT,
                      simulate, strip, firmware, hello_seconds=SIMULATED_HELLO_SECONDS
                      if simulate else HELLO_SECONDS, owner=unit.user,
                      account=unit.user if host.user == "root" and unit.user
                      and not simulate else None,
                      environment=dict(os.environ) if unit.environment is None
                      else unit.environment)
        findings = diagnose(host, setup, only)
    if only is None and unit.user and not simulate:
        findings.insert(0, _user_finding(host.user, unit.user))
    return Report(board, setup.data, simulate, findings)


def _user_finding(running: str, service: str) -> Finding:
    """Whose point of view the checks take: the service's user's, unless doctor cannot."""
    if running in ("root", service):
        return Finding("user", "ok", f"checking files and devices for {service}, the "
                                     "service's user")
    return Finding("user", "warn", f"doctor runs as {running}, the service as {service}: files "
                                   "and devices may differ for it",
                   f"sudo {_tabletop()} doctor (checks for the service's user)")


def _tabletop() -> str:
    """This install's ``tabletop`` command, as another user would have to run it."""
    here = Path(sys.executable).with_name("tabletop")
    return str(here) if here.exists() else "tabletop"


@contextlib.contextmanager
def _table(virtual: VirtualHubs | None, data: str | None, profile: BoardProfile,
           unit: Installed, firmware: str | None
           ) -> Iterator[tuple[Path, Any, list[str] | None]]:
    """The data folder, and with ``virtual`` a running virtual table: its recording strip
    and its hubs' ports (running the firmware of this install, so their version is ours)."""
    if virtual is None:
        if data:
            yield Path(data).absolute(), None, None
        else:
            yield Path(unit.data or default_data()), None, None
        return
    with tempfile.TemporaryDirectory(prefix="tabletop-doctor-") as scratch:
        folder = Path(data).absolute() if data else Path(scratch)
        if not data:
            install_token(folder)  # a fresh simulated install has its token, as `sim` makes it
        with virtual(profile, Path(scratch), firmware) as (strip, urls):
            yield folder, strip, urls
