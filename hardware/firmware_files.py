"""The reader hub's MicroPython firmware as this install carries it, for flashing and the simulator.

A source checkout keeps the firmware in the top-level ``firmware/`` folder; ``hardware/firmware``
is a symbolic link to it, so the wheel build (which follows the link) copies the files into the
installed ``hardware`` package. Reading them through ``importlib.resources`` therefore gives the
same files in a checkout, an editable install and a wheel installed on the Pi, with no second
copy to keep in step.
"""

from __future__ import annotations

import ast
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from hardware.errors import HardwareError

PACKAGE = "hardware"
FOLDER = "firmware"
ENTRY = "main.py"
"""The file MicroPython runs at boot: it must stay source on the board (never ``.mpy``)."""
CONFIG = "config.py"
"""The maker's settings (pins, wiring, scan); holds ``FIRMWARE_VERSION``."""


class FirmwareMissing(HardwareError, FileNotFoundError):
    """This install carries no hub firmware (a build that lost ``hardware/firmware``)."""


def firmware_root() -> Traversable:
    """The folder of firmware files inside the installed ``hardware`` package."""
    root = resources.files(PACKAGE) / FOLDER
    if not root.is_dir() or not root.joinpath(ENTRY).is_file():
        raise FirmwareMissing(
            f"no hub firmware in this install ({root} has no {ENTRY}); reinstall tabletop from "
            "its wheel, or in a checkout restore the link: ln -s ../firmware hardware/firmware")
    return root


def firmware_location() -> Path:
    """Where this install keeps the firmware on disk, checked or not (the link resolved, so a
    checkout gives its top-level ``firmware/``)."""
    return Path(str(resources.files(PACKAGE) / FOLDER)).resolve()


def firmware_dir() -> Path:
    """The firmware folder on disk, checked (what the simulator executes); pip installs are
    never zipped, so this is a real directory."""
    root = firmware_root()
    if not isinstance(root, Path):  # a zipped install: nothing to execute from
        raise FirmwareMissing(f"the hub firmware is inside an archive ({root}); install "
                              "tabletop unzipped (pip install) to run or flash it")
    return root.resolve()


def firmware_files() -> dict[str, bytes]:
    """Every firmware file, ``{"hub.py": b"..."}``, sorted by name: what goes onto the hub."""
    root = firmware_root()
    return {entry.name: entry.read_bytes() for entry in sorted(root.iterdir(),
                                                               key=lambda e: e.name)
            if entry.is_file() and entry.name.endswith(".py")}


def firmware_version(files: dict[str, bytes] | None = None) -> str:
    """``FIRMWARE_VERSION`` from ``config.py`` (read, never executed): the version a hub flashed
    from this install says in its hello."""
    source = (files if files is not None else firmware_files()).get(CONFIG)
    if source is None:
        raise FirmwareMissing(f"the hub firmware has no {CONFIG}")
    for node in ast.parse(source).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "FIRMWARE_VERSION"
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            return node.value.value
    raise FirmwareMissing(f"the hub firmware's {CONFIG} sets no FIRMWARE_VERSION string")
