"""Simulated tables of a club evening: each a virtual table with bots, linked to a broker.

Used by ``tabletop club --demo`` (``make club``) and the club's tests: each table plays whole
games one after another and publishes them as a real table does. The evening, not the radio,
is what they show: the ideal radio and no mistakes; but the players deal from the box, as at a
real table, so the referee searches for their dealing as it would. (``tabletop bench club``
runs quick tables without hubs: ``controller.compose.quick_tables``.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from controller.club_link import BrokerAddress, ClubLink, cancel_all
from controller.compose.quick_tables import CLUB_GAMES, seating

from .settling import settled
from .table import HEADLESS_SETTLE_MS, IDEAL_SCAN_MS, running


@dataclass
class TablePlay:
    """What one simulated table did: its games' unique ids, in order."""

    name: str
    game: str
    finished: list[str] = field(default_factory=list)
    links: list[ClubLink] = field(default_factory=list)


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
