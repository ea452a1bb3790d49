"""Fixtures the controller's command-line tests share."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.cli import main
from tests.mosquitto import broker  # noqa: F401 (a real Mosquitto for the club's tests)

Cli = Callable[..., tuple[int, str, str]]
RunReadOnly = Callable[[Path, list[str]], subprocess.CompletedProcess[str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """``tabletop ARGV`` in this process: its exit code, stdout and stderr."""

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def _read_only_mount_works(folder: Path) -> bool:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind {folder} {folder} && "
                            f"mount -o remount,bind,ro {folder} && ! touch {folder}/probe"],
                           capture_output=True, check=False)
    return probe.returncode == 0


@pytest.fixture
def run_read_only() -> RunReadOnly:
    """Run a command while ``folder`` is honestly read-only: a read-only bind mount as root (root
    ignores file modes), else a folder without write permission; skips where neither works."""

    def run(folder: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
        if os.geteuid() != 0:
            folder.chmod(0o555)
            try:
                return subprocess.run(command, capture_output=True, text=True, timeout=60,
                                      check=False)
            finally:
                folder.chmod(0o755)
        if not _read_only_mount_works(folder):
            pytest.skip("root without mount namespaces: no honest way to make a folder read-only")
        script = (f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && "
                  f"exec {' '.join(command)}")
        return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                              text=True, timeout=60, check=False)

    return run
