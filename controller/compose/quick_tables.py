"""Quick tables: a table service with no hub, whose players lay each step's board on the
referee directly, and a Mosquitto of its own for a simulated club evening.

The fastest a table can go: no radio, no timing, but people dealing from the box
(``BoxPlayers``), so the referee searches for their dealing as at a real table. ``tabletop
bench club`` runs a hundred of them, and the club's tests a few; the simulated evening of
``tabletop club --demo`` (``controller.cli.virtual.club_tables``) lays its boards on virtual
hubs instead.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from controller.errors import UserError
from controller.service import TableService
from games.registry import get_game

from . import build_service, load_board
from .box_players import PREFER, BoxPlayers

CLUB_GAMES = ("tiki_topple", "topiary", "on_top", "hanging_gardens", "trapper")
ROSTER = ("anna", "ben", "cleo", "dora", "emil", "fritz", "greta", "hanno")
"""The club's members: each game seats some of them."""


def lay_steps(service: TableService, players: Sequence[str], seed: int) -> Iterator[str]:
    """A quick table's players: they deal from the box (``BoxPlayers``), start a game and lay
    each step's board on the referee as an ideal radio would report it (no hub, no timing:
    the fastest a table can go), confirming or choosing what the board cannot tell and
    showing their secrets when the score asks. No service loop runs a quick table, so the
    searches its table asks run on the spot (``Table.search_now``). Yields each action once
    the table has it; a step it does not take ends the game with the reason (a club bench
    that waited for that game's result would wait for ever)."""
    table = service.table
    people = BoxPlayers(table, list(players), seed=seed,
                        prefer=PREFER.get(table.game.id, lambda action: False),
                        start=lambda names, options: service.new_game(names, options))
    while not table.game.is_terminal(people.state):
        action = people.step()
        people.show()
        if len(table.actions) < len(people.actions):
            raise RuntimeError(f"the referee did not take step {len(people.actions)} "
                               f"{action!r}: {type(table.decision).__name__}")
        yield action
    people.show()


def quick_service(game_id: str, data: Path, seed: int) -> TableService:
    """A table service with no hub, LEDs on a recording strip, buttons on mock pins: for a
    table whose bots lay their boards on the referee directly (``lay_steps``)."""
    from gpiozero.pins.mock import MockFactory

    from hardware.leds import RecordingStrip

    data.mkdir(parents=True, exist_ok=True)
    profile = load_board(game_id)
    service, _ = build_service(
        profile, data, urls=[str(data / f"no-hub-{n}") for n in range(len(profile.hubs))],
        strip=RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order),
        pin_factory=MockFactory(), rng=random.Random(seed))
    for hub in service.hubs:
        hub.seen = True  # judged as if each hub had sent its snapshot
    return service


def seating(game_id: str, seed: int) -> list[str]:
    game = get_game(game_id)
    rng = random.Random(f"seats {seed}")
    count = rng.randint(game.min_players, min(game.max_players, 4))
    return rng.sample(ROSTER, count)


@contextlib.contextmanager
def local_broker(folder: Path) -> Iterator[str]:
    """Debian's Mosquitto on a free loopback port, for a simulated evening: its URL."""
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(mosquitto).exists():
        raise UserError("no Mosquitto here: `sudo apt install mosquitto` (or `make club`)")
    folder.mkdir(parents=True, exist_ok=True)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = "user root\n" if os.geteuid() == 0 else ""  # else it drops to a user who cannot
    (folder / "mosquitto.conf").write_text(  # read this folder
        f"listener {port} 127.0.0.1\nallow_anonymous true\n{root}")
    process = subprocess.Popen([mosquitto, "-c", str(folder / "mosquitto.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port),
                                                                        timeout=0.2):
                break
            if process.poll() is not None:
                raise UserError(f"Mosquitto did not start (exit {process.returncode})")
            time.sleep(0.05)
        yield f"mqtt://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(5)
