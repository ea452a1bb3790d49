"""Simulated tables of a club evening: each a virtual table with bots, linked to a broker.

Used by ``tabletop sim-club`` (``make club``), ``tabletop bench club`` and the club's tests:
each table plays whole games one after another and publishes them as a real table does. The
evening, not the radio, is what they show: the ideal radio and no mistakes; but the players
deal from the box, as at a real table, so the referee searches for their dealing as it would.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from controller.club_link import BrokerAddress, ClubLink, cancel_all
from controller.compose import build_service, load_board
from controller.compose.box_players import PREFER, BoxPlayers
from controller.errors import UserError
from controller.service import TableService
from games.registry import get_game

from .settling import settled
from .table import HEADLESS_SETTLE_MS, IDEAL_SCAN_MS, running

CLUB_GAMES = ("tiki_topple", "topiary", "on_top", "hanging_gardens", "trapper")
ROSTER = ("anna", "ben", "cleo", "dora", "emil", "fritz", "greta", "hanno")
"""The club's members: each game seats some of them."""


@dataclass
class TablePlay:
    """What one simulated table did: its games' unique ids, in order."""

    name: str
    game: str
    finished: list[str] = field(default_factory=list)
    links: list[ClubLink] = field(default_factory=list)


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


async def play_table(name: str, game_id: str, broker: BrokerAddress, data: Path, *,
                     games: int | None, seed: int, play: TablePlay | None = None,
                     delivered: bool = True, pause: float = 0.0,
                     on_link: Callable[[ClubLink], None] | None = None) -> TablePlay:
    """Play ``games`` games (None: until cancelled) at one table; with ``delivered``, each
    game's table stays up until the club has confirmed its result (as a real table would
    keep its outbox; the next game begins only then)."""
    from simulator.autoplay import AutoplayBot

    play = play or TablePlay(name, game_id)
    data.mkdir(parents=True, exist_ok=True)
    number = 0
    while games is None or number < games:
        players = seating(game_id, seed * 1000 + number)
        async with running(game_id, data, players, {}, None, IDEAL_SCAN_MS,
                           HEADLESS_SETTLE_MS) as (table, service):
            link = ClubLink(service, broker, name)
            play.links.append(link)
            if on_link is not None:
                on_link(link)
            task = asyncio.create_task(link.run(), name=f"club-link {name}")
            try:
                async def judged() -> None:
                    await settled(table, service)
                    if pause:
                        await asyncio.sleep(pause)

                bot = AutoplayBot(table, players, {}, settle=judged, seed=seed * 1000 + number,
                                  mistake_rate=0.0, settle_every="action", show_secrets=True,
                                  looks_further=lambda: service.table.may_look_further)
                await bot.play()
                await settled(table, service)
                uid = None
                while uid is None:  # the score of a game with secrets waits for them
                    result = link.result()
                    uid = result.uid if result is not None else None
                    await asyncio.sleep(0.05)
                play.finished.append(uid)
                journal = service.table.journal
                while delivered and (not journal.result_queued(uid) or any(
                        waiting == uid for waiting, _ in journal.results_waiting())):
                    await asyncio.sleep(0.1)
            finally:
                await cancel_all([task])
        number += 1
    return play


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


async def play_evening(broker: BrokerAddress, data: Path, tables: int, *,
                       games: int | None = 1, seed: int = 0,
                       game_ids: Sequence[str] = CLUB_GAMES, pause: float = 0.0,
                       on_link: Callable[[ClubLink], None] | None = None) -> list[TablePlay]:
    """``tables`` tables at once, their games taken in turn from ``game_ids``."""
    plays = [TablePlay(f"table-{n + 1}", game_ids[n % len(game_ids)]) for n in range(tables)]
    await asyncio.gather(*(
        play_table(play.name, play.game, broker, data / play.name, games=games,
                   seed=seed + n, play=play, pause=pause, on_link=on_link)
        for n, play in enumerate(plays)))
    return plays
