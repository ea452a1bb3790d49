"""Loads the reader hub's real MicroPython firmware (`firmware/hub.py`, `firmware/protocol.py`,
`firmware/mfrc522.py`) into CPython, so the virtual hub runs the very scan, debounce, framing
and reader-driver code the RP2040 runs.

The firmware imports its protocol as a top-level module (``import protocol as p``), as it must
on the device. Rather than putting a module called ``protocol`` into ``sys.modules`` (where it
could shadow or be shadowed by anything else), each firmware file is executed in its own module
whose ``__import__`` hands out the sibling firmware modules by name.
"""

from __future__ import annotations

import builtins
import threading
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.firmware_files import firmware_location

FIRMWARE_DIR = firmware_location()
"""The firmware this install carries: ``firmware/`` in a checkout, ``hardware/firmware`` in a
wheel (hardware/firmware_files.py)."""
_FILES = ("config", "protocol", "hub", "mfrc522")
"""Load order: each file may import the ones before it."""


class FirmwareNotFound(FileNotFoundError):
    """The firmware sources are not next to the simulator (e.g. an install without them)."""


@dataclass(frozen=True, slots=True)
class Firmware:
    """The loaded firmware modules; `Hub` is the class `firmware/main.py` runs on the device,
    `config` the maker's settings (miss limit, heartbeat, retry times) it runs with, `mfrc522`
    the reader driver."""

    hub: types.ModuleType
    mfrc522: types.ModuleType
    protocol: types.ModuleType
    config: types.ModuleType
    source: Path

    @property
    def Hub(self) -> Any:
        return self.hub.Hub


_cache: dict[Path, Firmware] = {}
_cache_lock = threading.Lock()


def load_firmware(directory: Path = FIRMWARE_DIR) -> Firmware:
    """The firmware in `directory`, loaded once per process (the modules hold no state)."""
    directory = directory.resolve()
    with _cache_lock:
        if directory not in _cache:
            _cache[directory] = _load(directory)
        return _cache[directory]


def _load(directory: Path) -> Firmware:
    missing = [f"{name}.py" for name in _FILES if not (directory / f"{name}.py").is_file()]
    if missing:
        raise FirmwareNotFound(
            f"the hub firmware is not in {directory} (missing {', '.join(missing)}); "
            "the simulator runs the real firmware: reinstall tabletop from its wheel (in a "
            "checkout, hardware/firmware must link to ../firmware)"
        )
    loaded: dict[str, types.ModuleType] = {}

    def firmware_import(
        name: str, globals_: Any = None, locals_: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        if level == 0 and name in loaded:
            return loaded[name]
        return builtins.__import__(name, globals_, locals_, fromlist, level)

    own_builtins = dict(vars(builtins))
    own_builtins["__import__"] = firmware_import
    for name in _FILES:
        path = directory / f"{name}.py"
        module = types.ModuleType(f"simulator.firmware.{name}")
        module.__file__ = str(path)
        module.__dict__["__builtins__"] = own_builtins
        code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
        exec(code, module.__dict__)
        loaded[name] = module
    return Firmware(
        hub=loaded["hub"], mfrc522=loaded["mfrc522"], protocol=loaded["protocol"],
        config=loaded["config"], source=directory
    )
