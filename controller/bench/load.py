"""``tabletop bench load``: does a crowd of readers slow the referee, and does the service's
memory come back after it (issue 20, findings 8 and 9)?

Three processes, so that each figure is the service's own: the service is started as
``tabletop run`` would start it (a copy of the game's profile with a recording LED strip and
mock GPIO pins, the only devices a PC lacks) in a subprocess; a minimal hub answers it on a
pseudo-terminal from this process and lays the tags of scripted games (seeded random
playouts); the crowd (SSE clients and status requests) runs in a third process. An action
counts as accepted when the journal holds it, which the table's path commits before the LEDs
confirm it, so the rate is read without asking the web.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from controller.errors import UserError
from controller.unresolved import UNRESOLVED
from games.core.playout import random_step
from games.registry import get_game
from hardware.profile import find_profile

from . import BenchOptions, BenchResult, Progress
from .measure import PtyHub, percentile

GAME = "tiki_topple"
PLAYERS = ("anna", "ben")
OPTIONS = {"edition": "gamewright"}
SCAN_MS = 50
"""The scan period the hub's heartbeats report (a realistic one for eleven readers)."""
MOVE_TIMEOUT = 20.0
"""Seconds a move may wait to be accepted before the run is called stalled."""


class BenchHub(PtyHub):
    """The latency benchmark's pty hub, with heartbeats (a silent hub is taken as down) and
    whole moves laid as a hand would lay them: lifts first, then arrivals."""

    def __init__(self, readers: int) -> None:
        super().__init__(readers)
        self._lock = threading.Lock()
        self.started = time.monotonic()
        self.beats = 0

    def send(self, message: Any) -> None:
        with self._lock:  # the serving thread, the heartbeat thread and the mover share it
            super().send(message)

    def beat(self) -> None:
        from hardware.protocol import Heartbeat

        while not self.stop:
            time.sleep(1.0)
            ms = int((time.monotonic() - self.started) * 1000)
            self.send(Heartbeat(ms, ms // SCAN_MS, 0, 0, SCAN_MS * 1000))
            self.beats += 1

    def start(self) -> BenchHub:
        for target in (self.serve, self.beat):
            threading.Thread(target=target, daemon=True).start()
        return self

    def lay(self, board: dict[int, bytes]) -> None:
        """Make the readers hold ``board`` (reader to uid): lift what goes, lay what comes."""
        from hardware.protocol import TagArrived, TagLeft

        for reader in sorted(self.uids):
            if self.uids[reader] != board.get(reader):
                self.send(TagLeft(reader, self.uids.pop(reader)))
        for reader in sorted(board):
            if reader not in self.uids:
                self.uids[reader] = board[reader]
                self.send(TagArrived(reader, board[reader]))


def scripted_games(seed: int) -> Iterator[list[dict[str, str]]]:
    """Seeded random games of Tiki Topple, each as the boards after its visible steps (the
    secret mission draws change nothing on the table)."""
    game = get_game(GAME)
    rng = random.Random(seed)
    while True:
        state = game.initial(list(PLAYERS), dict(OPTIONS))
        boards: list[dict[str, str]] = []
        while not game.is_terminal(state):
            after = game.apply(state, random_step(game, state, rng))
            if game.board(after) != game.board(state):
                boards.append(game.board(after))
            state = after
        yield boards


def uid_of(piece: str) -> bytes:
    """A stable 7-byte uid per piece id (one physical tag per piece)."""
    import hashlib

    return b"\x04" + hashlib.sha1(piece.encode()).digest()[:6]


def bench_profile(data: Path) -> Path:
    """The game's shipped profile with a recording strip and mock pins (no Pi here)."""
    text = find_profile(GAME).read_text(encoding="utf-8")
    for line in text.splitlines():
        key = line.split("=")[0].strip()
        if key in ("driver", "pin_factory"):
            value = '"recording"' if key == "driver" else '"mock"'
            text = text.replace(line, f"{key} = {value}")
    path = data / "bench-profile.toml"
    path.write_text(text, encoding="utf-8")
    return path


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used, from /proc."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss(pid: int) -> dict[str, float]:
    """Resident memory of a process now and at its peak (VmHWM), in MB, from /proc."""
    figures: dict[str, float] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                figures[name] = round(int(value.split()[0]) / 1024, 1)
    return figures


class LoadTable:
    """The service in its subprocess, its hub here, and the scripted games laid on it."""

    def __init__(self, data: Path, seed: int,
                 progress: Callable[[str], None] = lambda _: None) -> None:
        from controller.compose import load_board
        from controller.setup.token import install_token
        from hardware.registry import TagRegistry

        self.data = data
        self.progress = progress
        profile_path = bench_profile(data)
        profile = load_board(str(profile_path))
        self.reader_of = {site: reader for reader, site in profile.readers.items()}
        self.hub = BenchHub(max(profile.readers) + 1).start()
        self.games = scripted_games(seed)
        self.boards: list[dict[str, str]] = []
        with TagRegistry(data / "tags.sqlite3") as registry:
            for piece in sorted({piece for pieces in self._pieces() for piece in pieces}):
                registry.enroll(uid_of(piece), piece, replace=True)
        self.token, _ = install_token(data)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(data / "service.log", "wb")  # noqa: SIM115 (closed in close())
        self.process = subprocess.Popen(
            [sys.executable, "-m", "controller.cli", "run", "--profile", str(profile_path),
             "--url", self.hub.path, "--data", str(data), "--host", "127.0.0.1",
             "--port", str(self.port), "--players", ",".join(PLAYERS),
             *(f"--option={k}={v}" for k, v in OPTIONS.items())],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.journal: sqlite3.Connection | None = None

    def _pieces(self) -> Iterator[set[str]]:
        """Every piece of the first games (Tiki Topple's pieces are the same in every game)."""
        games = scripted_games(0)
        for _ in range(5):
            for board in next(games):
                yield set(board.values())

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise UserError(f"the service exited ({self.process.returncode}): "
                                f"{(self.data / 'service.log').read_text()[-800:]}")
            with contextlib.suppress(OSError, ValueError):
                status = json.loads(urllib.request.urlopen(f"{self.url}/api/status",
                                                           timeout=5).read())
                if status["started"] and status["hardware"]["hubs"][0]["connected"]:
                    break
            if time.monotonic() > deadline:
                raise UserError("the service did not start within a minute")
            time.sleep(0.2)
        beats = self.hub.beats
        while self.hub.beats < beats + 2:  # two heartbeats measure the scan period: until
            time.sleep(0.1)                 # then the service waits for lifts by its model
        self.journal = sqlite3.connect(f"file:{self.data / 'journal.sqlite3'}?mode=ro",
                                       uri=True)

    def accepted(self) -> int:
        """Seen actions of the running game the journal holds (not undone; the unseen draws
        a seen step implies are committed after it, one by one, and are not counted)."""
        assert self.journal is not None
        row = self.journal.execute(
            "SELECT COUNT(*) FROM actions WHERE undone_at IS NULL AND action != ? AND "
            "game_id = (SELECT MAX(id) FROM games)", (UNRESOLVED,)).fetchone()
        return int(row[0])

    def new_game(self) -> None:
        """Clear the table and start the next game (through the API, with the token)."""
        self.hub.lay({})
        request = urllib.request.Request(
            f"{self.url}/api/game", method="POST",
            data=json.dumps({"players": list(PLAYERS), "options": OPTIONS}).encode(),
            headers={"Authorization": f"Bearer {self.token}",
                     "Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=30).read()
        self.boards = next(self.games)

    def play(self, seconds: float, label: str) -> dict[str, Any]:
        """Lay scripted moves one after another, each as soon as the last is accepted, for
        ``seconds``: accepted actions a second, and the time each took."""
        times: list[float] = []
        cpu = cpu_seconds(self.process.pid)
        started = time.monotonic()
        playing = 0.0
        while time.monotonic() - started < seconds:
            if not self.boards:
                self.new_game()
            board = self.boards.pop(0)
            before = self.accepted()
            laid = time.monotonic()
            self.hub.lay({self.reader_of[site]: uid_of(piece) for site, piece in board.items()})
            while self.accepted() <= before:
                if time.monotonic() - laid > MOVE_TIMEOUT:
                    raise UserError(f"{label}: a move was not accepted within {MOVE_TIMEOUT:g} s "
                                    f"(see {self.data / 'service.log'})")
                time.sleep(0.002)
            times.append(time.monotonic() - laid)
            playing += times[-1]
            self.progress(f"load: {label}: {len(times)} moves accepted")
        busy = (cpu_seconds(self.process.pid) - cpu) / (time.monotonic() - started)
        return {"moves": len(times), "accepted_per_second": round(len(times) / playing, 2),
                "move_ms_p50": round(statistics.median(times) * 1000, 1) if times else None,
                "service_cpu_percent": round(100 * busy)}

    def close(self) -> None:
        self.hub.stop = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.journal is not None:
            self.journal.close()
        self.log.close()


class Crowd:
    """The SSE clients and the status requests, in a process of their own (``crowd_main``)."""

    def __init__(self, url: str, clients: int, rate: float) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from controller.bench.load import crowd_main; "
             "crowd_main()", url, str(clients), str(rate)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if line.strip() != "ready":
            self.process.kill()
            raise UserError(f"the crowd did not connect: {line.strip() or 'it exited'}")

    def finish(self) -> dict[str, Any]:
        out, _ = self.process.communicate("", timeout=120)  # closing stdin ends it
        return json.loads(out)


def crowd_main() -> None:
    """``URL CLIENTS RATE``: connect CLIENTS SSE clients, say ``ready``, then also ask
    ``/api/status`` RATE times a second (open loop: a slow answer does not delay the next
    question) until stdin closes; print the latencies and the events received as JSON."""
    import asyncio

    url, clients, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    print(json.dumps(asyncio.run(_crowd(url, clients, rate))), flush=True)


async def _crowd(url: str, clients: int, rate: float) -> dict[str, Any]:
    import asyncio

    try:
        import httpx
    except ImportError:
        print("the load benchmark needs httpx: pip install '.[test]'", flush=True)
        raise SystemExit(2) from None
    limits = httpx.Limits(max_connections=clients + 400, max_keepalive_connections=100)
    events = [0] * clients
    latencies: list[float] = []
    errors = 0
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        connected = asyncio.Semaphore(0)

        async def listen(number: int) -> None:
            nonlocal errors
            try:
                async with client.stream("GET", "/api/events") as response:
                    connected.release()
                    async for chunk in response.aiter_bytes():
                        events[number] += chunk.count(b"event: status")
            except httpx.HTTPError:
                errors += 1
                connected.release()

        async def ask() -> None:
            nonlocal errors
            start = time.perf_counter()
            try:
                (await client.get("/api/status")).raise_for_status()
                latencies.append(time.perf_counter() - start)
            except httpx.HTTPError:
                errors += 1

        listeners = [asyncio.create_task(listen(n)) for n in range(clients)]
        for _ in range(clients):
            await connected.acquire()
        print("ready", flush=True)
        loop = asyncio.get_running_loop()
        stdin_closed = loop.run_in_executor(None, sys.stdin.read)
        asks: set[asyncio.Task[None]] = set()
        start = time.perf_counter()
        number = 0
        while not stdin_closed.done():
            task = asyncio.create_task(ask())
            asks.add(task)
            task.add_done_callback(asks.discard)
            number += 1
            await asyncio.sleep(max(0.0, start + number / rate - time.perf_counter()))
        await asyncio.gather(*asks)
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    return {"requests": len(latencies), "latencies": latencies, "errors": errors,
            "events": events}


def run_load(clients: int, rate: float, rounds: int, seconds: float, seed: int = 0,
             progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """The benchmark: a quiet game, then ``rounds`` rounds with the crowd; figures as JSON."""
    with tempfile.TemporaryDirectory(prefix="tabletop-load-") as scratch:
        table = LoadTable(Path(scratch), seed, progress)
        try:
            table.wait_ready()
            pid = table.process.pid
            memory: dict[str, Any] = {"started": rss(pid)["VmRSS"]}
            quiet = table.play(seconds, "no clients")
            memory["after_quiet_game"] = rss(pid)["VmRSS"]
            crowded = []
            latencies: list[float] = []
            after_rounds = []
            for number in range(1, rounds + 1):
                progress(f"load: round {number}/{rounds}: connecting {clients} clients")
                crowd = Crowd(table.url, clients, rate)
                played = table.play(seconds, f"round {number}/{rounds}, {clients} clients")
                result = crowd.finish()
                time.sleep(1.0)  # the service sees the clients go
                after_rounds.append(rss(pid)["VmRSS"])
                latencies.extend(result["latencies"])
                events = sorted(result["events"]) or [0]
                crowded.append({**played, "status_requests": result["requests"],
                                "errors": result["errors"],
                                "events_per_client_min": events[0],
                                "events_per_client_p50": events[len(events) // 2]})
            memory["after_rounds"] = after_rounds
            memory["peak"] = max(rss(pid)["VmHWM"], *after_rounds, memory["after_quiet_game"])
            memory["growth_over_rounds"] = round(after_rounds[-1] - after_rounds[0], 1) if (
                after_rounds) else 0.0
        finally:
            table.close()
    ms = 1000
    rates = [r["accepted_per_second"] for r in crowded]
    figures: dict[str, Any] = {
        "clients": clients, "status_requests_per_second": rate, "rounds": rounds,
        "seconds_per_phase": seconds, "game": GAME,
        "accepted_per_second_no_clients": quiet["accepted_per_second"],
        "accepted_per_second_with_clients": round(statistics.median(rates), 2) if rates else None,
        "status_ms": {name: round(percentile(latencies, share) * ms, 1) if latencies else None
                      for name, share in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99),
                                          ("max", 1.0))},
        "rss_mb": memory,
        "quiet": quiet,
        "crowded": crowded,
    }
    return figures


def bench_load(options: BenchOptions, progress: Progress) -> BenchResult:
    """A crowd of readers against ``tabletop run`` (issue 20): refereeing rate with and without
    ``--clients`` SSE clients and ``--rate`` status requests a second, status latency, and
    the service's own memory over ``--rounds`` rounds of load (see ``run_load``)."""
    if options.clients < 0 or options.rate <= 0 or options.rounds < 1:
        raise UserError("--clients must not be negative, --rate positive, --rounds at least 1")
    figures = run_load(options.clients, options.rate, options.rounds, options.seconds,
                       progress=progress)
    memory, latency = figures["rss_mb"], figures["status_ms"]
    return BenchResult(
        f"{options.clients} SSE clients and {options.rate:g} status requests/s against tabletop "
        f"run ({figures['game']}, {options.seconds:g} s a phase); memory of the service alone, "
        "MB",
        ("actions/s quiet", "with crowd", "status p50", "p95", "p99", "max", "RSS start",
         "after game", "after rounds", "peak"),
        ((figures["accepted_per_second_no_clients"], figures["accepted_per_second_with_clients"],
          latency["p50"], latency["p95"], latency["p99"], latency["max"], memory["started"],
          memory["after_quiet_game"], " ".join(map(str, memory["after_rounds"])),
          memory["peak"]),),
        {"bench": "load", "load": figures},
    )
