"""``tabletop bench club``: many tables on one broker and one club, at the pace of a game.

Every table is a quick table (its bots lay each step's board on the referee, ``lay_steps``)
with its real ``ClubLink``; the broker is a Mosquitto of the bench's own, the club the real
``ClubService`` in this process, the tables in another (on the floor each is a Pi of its
own). Measured: how long the broker takes to acknowledge a
table's message, how long a table's event takes to reach the club's view, results lost or
counted twice, and the referee's own rate on one table with its link and without.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from controller.bench import BenchOptions, BenchResult, Progress
from controller.club_link import BrokerAddress, ClubLink, cancel_all
from controller.club_service import ClubService
from controller.compose.quick_tables import (
    CLUB_GAMES,
    lay_steps,
    local_broker,
    quick_service,
    seating,
)
from controller.errors import UserError


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


async def _table(name: str, game_id: str, url: BrokerAddress, data: Path, seed: int,
                 pace: float, publish_ms: list[float]) -> str | None:
    service = quick_service(game_id, data, seed)
    link = ClubLink(service, url, name)
    link.timings = publish_ms
    task = asyncio.create_task(link.run())
    try:
        while not link.connected:
            await asyncio.sleep(0.05)
        rng = random.Random(f"pace {seed}")
        for _ in lay_steps(service, seating(game_id, seed), seed):
            service.publish()
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)
        service.publish()
        result = None
        for _ in range(1200):  # a minute for the result to be kept and confirmed
            result = link.result()
            journal = service.table.journal
            if result is not None and journal.result_queued(result.uid) and not any(
                    uid == result.uid for uid, _ in journal.results_waiting()):
                break
            await asyncio.sleep(0.05)
        return result.uid if result is not None else None
    finally:
        await cancel_all([task])
        service.table.journal.close()


def _referee_rate(url: BrokerAddress | None, data: Path) -> float:
    """Steps a second one table's referee judges in a whole Tiki Topple game, with its link
    publishing to ``url`` or without one (CPU time of this thread)."""
    async def play() -> float:
        service = quick_service("tiki_topple", data, 7)
        link = ClubLink(service, url, "rate") if url is not None else None
        task = asyncio.create_task(link.run()) if link is not None else None
        try:
            while link is not None and not link.connected:
                await asyncio.sleep(0.05)
            steps, spent = 0, 0.0
            for _ in range(3):  # three games: a steadier figure
                started = time.thread_time()
                for _ in lay_steps(service, seating("tiki_topple", 7), steps):
                    service.publish()
                    steps += 1
                    spent += time.thread_time() - started
                    await asyncio.sleep(0)  # the link publishes between two steps
                    started = time.thread_time()
            return steps / spent
        finally:
            if task is not None:
                await cancel_all([task])
            service.table.journal.close()

    return asyncio.run(play())


def _tables(address: str, folder: str, tables: int, pace: float) -> tuple[list[str | None],
                                                                       list[float]]:
    """Every table, in a process of their own (each would be a Pi of its own): the uids of
    their results and each message's time to the broker's acknowledgement."""
    url = BrokerAddress.parse(address)
    publish_ms: list[float] = []

    async def play() -> list[str | None]:
        return list(await asyncio.gather(*(
            _table(f"t{n + 1}", CLUB_GAMES[n % len(CLUB_GAMES)], url, Path(folder) / f"t{n + 1}",
                   n, pace, publish_ms) for n in range(tables))))

    return asyncio.run(play()), publish_ms


def club_bench(tables: int, pace: float,
               progress: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-club-") as scratch, \
            local_broker(Path(scratch) / "broker") as address:
        url = BrokerAddress.parse(address)
        alone: list[float] = []
        linked: list[float] = []
        for round_ in range(3):  # in turn, the median of each: this machine is shared
            progress(f"bench club: the referee alone and with its link ({round_ + 1}/3)")
            alone.append(_referee_rate(None, Path(scratch) / f"alone{round_}"))
            linked.append(_referee_rate(url, Path(scratch) / f"linked{round_}"))
        update_ms: list[float] = []
        club = ClubService(address, Path(scratch) / "club")
        take = club.take

        def timed(name: str, data: bytes) -> Any:
            answer = take(name, data)
            if name.endswith("/events"):
                update_ms.append((time.time() - json.loads(data)["at"]) * 1000)
            return answer

        club.take = timed  # type: ignore[method-assign]

        async def evening() -> tuple[list[str | None], list[float]]:
            listening = asyncio.create_task(club.run())
            try:
                while not club.connected:
                    await asyncio.sleep(0.05)
                with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
                    playing = asyncio.get_running_loop().run_in_executor(
                        pool, _tables, address, scratch, tables, pace)
                    while not playing.done():
                        progress(f"bench club: {club.stored}/{tables} results stored")
                        await asyncio.wait([playing], timeout=1.0)
                    return playing.result()
            finally:
                await cancel_all([listening])

        started = time.monotonic()
        uids, publish_ms = asyncio.run(evening())
        wall = time.monotonic() - started
        finished = {uid for uid in uids if uid is not None}
        stored = [result.uid for result in club.results()]
        figures = {
            "tables": tables,
            "messages": len(publish_ms),
            "seconds": round(wall, 1),
            "publish_p99_ms": percentile(publish_ms, 0.99),
            "club_update_p99_ms": percentile(update_ms, 0.99),
            "club_update_p50_ms": percentile(update_ms, 0.5),
            "lost": len(finished - set(stored)) + uids.count(None),
            "duplicates_counted": len(stored) - len(set(stored)),
            "duplicates_received": club.duplicates,
            "referee_steps_per_s_alone": round(statistics.median(alone)),
            "referee_steps_per_s_linked": round(statistics.median(linked)),
            "referee_rate_ratio": round(statistics.median(linked) / statistics.median(alone), 3),
        }
        club.close()
        return figures


def bench_club(options: BenchOptions, progress: Progress) -> BenchResult:
    """Issue 36: ``--tables`` tables (100) on one Mosquitto and one club, each playing a game
    with a step every ``--pace`` seconds or so (1.0); goals: nothing lost or counted twice,
    a table's event in the club's view within 200 ms (p99), the referee's rate with its link
    within 10 % of its rate without."""
    if options.tables < 1 or options.pace < 0:
        raise UserError("--tables must be at least 1, --pace not negative")
    figures = club_bench(options.tables, options.pace, progress=progress)
    ok = figures["lost"] == 0 and figures["duplicates_counted"] == 0
    return BenchResult(
        f"{options.tables} tables on one broker and one club, a step every ~{options.pace:g} s "
        f"({figures['seconds']:g} s); ms (goals: lost 0, counted twice 0, club update p99 "
        "<= 200, referee rate with link / without within 0.9..1.1)",
        ("tables", "messages", "publish p99", "club update p50", "p99", "lost",
         "counted twice", "referee steps/s", "with link", "ratio"),
        ((figures["tables"], figures["messages"], figures["publish_p99_ms"],
          figures["club_update_p50_ms"], figures["club_update_p99_ms"], figures["lost"],
          figures["duplicates_counted"], figures["referee_steps_per_s_alone"],
          figures["referee_steps_per_s_linked"], figures["referee_rate_ratio"]),),
        {"bench": "club", **figures}, ok)
