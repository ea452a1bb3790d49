"""A real Mosquitto (Debian's ``mosquitto``) on a free loopback port, for the club's tests.

Started as its own process from a config file written here, so a test can kill it (``-9``, as
a power cut does) and start it again on the same port with the same persistence file.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Broker:
    """One Mosquitto. ``extra`` is more of its config (passwords, ACL); without it anyone on
    loopback may connect."""

    def __init__(self, folder: Path, extra: str = "", port: int | None = None) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.config = folder / "mosquitto.conf"
        self.log = folder / "mosquitto.log"
        allow = "" if "password_file" in extra else "allow_anonymous true\n"
        if os.geteuid() == 0:  # as root it would drop to the mosquitto user, who cannot read
            allow += "user root\n"  # pytest's folders (nor write its log and persistence)
        self.config.write_text(
            f"listener {self.port} 127.0.0.1\n{allow}persistence true\n"
            f"persistence_location {folder}/\nautosave_interval 1\n"
            f"log_dest file {self.log}\nlog_type error\nlog_type warning\nlog_type notice\n"
            f"{extra}")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def listeners(self) -> list[int]:
        """Every port the config opens, its included folders' files too: a loaded machine can
        pause Mosquitto between two listeners, so waiting for the first one is not enough."""
        ports, files = [], [self.config]
        while files:
            for line in files.pop().read_text().splitlines():
                words = line.split()
                if len(words) >= 2 and words[0] == "listener":
                    ports.append(int(words[1]))
                elif len(words) == 2 and words[0] == "include_dir":
                    files += sorted(Path(words[1]).glob("*.conf"))
        return ports

    def start(self) -> Broker:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        waiting, deadline = self.listeners(), time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = self.process.stderr.read().decode() if self.process.stderr else ""
                log = self.log.read_text() if self.log.exists() else ""
                raise RuntimeError(f"mosquitto did not start: {error}{log}")
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", waiting[0]), timeout=0.2):
                waiting.pop(0)
                if not waiting:
                    return self
                continue
            time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {waiting} within 10 s")

    def kill(self) -> None:
        """``kill -9``: no goodbye to anyone, no last save."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(5)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.fixture
def broker(tmp_path: Path):
    """An open Mosquitto on loopback for one test."""
    if not Path(MOSQUITTO).exists():
        pytest.fail("Debian's mosquitto is not installed: `make test` installs it")
    with Broker(tmp_path / "broker") as running:
        yield running
