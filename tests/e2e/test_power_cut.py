"""kill -9 the service at random points of a game; every accepted move survives the restart,
and so do the draws the players made unseen from the box (journalled as ``?``).

The virtual table (real firmware, real pty behind a stable link) lives in this process; the
service runs as `tabletop run` in a child process with a recording LED strip and mock pins.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from controller.journal import Journal
from controller.referee import Successors
from controller.status import Status
from games.core.game import CHANCE
from games.registry import get_game
from hardware.profile import find_profile
from simulator.virtual_table import VirtualTable

from .harness import perform

GAME = get_game("tiki_topple")
KILLS = 24


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def simulated_profile(tmp_path: Path) -> Path:
    text = find_profile("tiki_topple").read_text()
    text = text.replace('driver = "neopixel_spi"', 'driver = "recording"')
    text = text.replace('pin_factory = "lgpio"', 'pin_factory = "mock"')
    text = text.replace("settle_ms = 400", "settle_ms = 60")
    path = tmp_path / "profile.toml"
    path.write_text(text)
    return path


class Service:
    def __init__(self, profile: Path, data: Path, url: str) -> None:
        self.argv = [str(Path(sys.executable).with_name("tabletop")), "run", "--profile",
                     str(profile), "--data", str(data), "--url", url, "--host", "127.0.0.1",
                     "--port", str(free_port())]
        self.port = int(self.argv[-1])
        self.process: subprocess.Popen | None = None

    def start(self, *extra: str) -> float:
        began = time.monotonic()
        self.process = subprocess.Popen([*self.argv, *extra], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        while True:
            try:
                status = self.status()
                if status.hardware.hubs[0].connected:
                    return time.monotonic() - began
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(self.process.stderr.read().decode())
            if time.monotonic() - began > 30:
                raise TimeoutError("the service did not come up")
            time.sleep(0.05)

    def status(self) -> Status:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/status", timeout=2) as r:
            return Status.model_validate_json(r.read())

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def journalled(data: Path) -> list[str]:
    journal = Journal(data / "journal.sqlite3")
    try:
        stored = journal.active() or journal.games()[-1]
        return list(stored.actions)
    finally:
        journal.close()


def agrees(journalled: list[str], actions: list[str]) -> bool:
    """The journal holds the players' actions, ``?`` where they drew unseen from the box."""
    return len(journalled) <= len(actions) and all(
        known in ("?", real) for known, real in zip(journalled, actions, strict=False))


def wait_for(condition, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        time.sleep(0.03)


def test_kill_9_at_random_points_loses_no_accepted_move(tmp_path) -> None:
    rng = random.Random(20261122)
    data = tmp_path / "data"
    data.mkdir()
    profile = simulated_profile(tmp_path)
    table = VirtualTable.for_game("tiki_topple", profile=profile, link_path=data / "hub").start()
    service = Service(profile, data, table.url)
    try:
        from hardware.registry import TagRegistry

        with TagRegistry(data / "tags.sqlite3") as registry:
            for uid, piece in table.tag_map().items():
                registry.enroll(uid, piece)
        service.start("--players", "anna,ben")
        resumes = []
        kills = 0
        state, actions = GAME.initial(["anna", "ben"]), []  # the players' own game
        while kills < KILLS:
            if GAME.is_terminal(state):
                break
            if Successors(GAME, state).hidden_chance:  # a mission dealt from the box, unseen
                action = GAME.sample_chance(state, rng)
                state = GAME.apply(state, action)
                actions.append(action)
                continue
            wait_for(lambda: len(journalled(data)) == len(actions))  # the table wrote its ?s
            accepted = journalled(data)
            assert agrees(accepted, actions)
            count = len(accepted)
            if GAME.actor(state) == CHANCE:  # the stack: the players build one
                action = GAME.sample_chance(state, rng)
            else:
                legal = [a for a in GAME.legal_actions(state) if a != "pass"]
                action = rng.choice(legal)
            after = GAME.apply(state, action)
            perform(table, GAME.board(after))
            time.sleep(rng.uniform(0.0, 0.25))  # sometimes before, sometimes after acceptance
            seen_before_kill = len(journalled(data))
            service.kill()
            kills += 1
            assert journalled(data)[:len(accepted)] == accepted  # nothing accepted was lost
            assert len(journalled(data)) >= seen_before_kill
            resumes.append(service.start())
            wait_for(lambda a=action, n=count: len(journalled(data)) > n
                     and journalled(data)[n] == a)
            wait_for(lambda: service.status().decision == "NoChange")
            state = after
            actions.append(action)
        assert kills == KILLS
        status = service.status()
        assert status.expected_board == status.observed_board
        assert "?" in journalled(data) and status.unseen_draws == journalled(data).count("?")
        assert agrees(journalled(data), actions)
        assert status.moves == len(journalled(data))
        print(f"resume after kill -9: median {sorted(resumes)[len(resumes) // 2]:.2f} s, "
              f"max {max(resumes):.2f} s over {len(resumes)} kills")
    finally:
        if service.process and service.process.poll() is None:
            service.kill()
        table.close()
