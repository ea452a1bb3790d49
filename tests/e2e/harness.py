"""The whole table in one process: virtual hub (real firmware, real pty) and the real service."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from controller.cli.virtual import settling
from controller.cli.virtual.table import running
from controller.service import TableService
from simulator.virtual_table import VirtualTable

SETTLE_MS = 60


def running_table(data: Path, game: str = "tiki_topple", players: Sequence[str] = ("anna", "ben"),
                  options: Mapping[str, str] | None = None, new_game: bool = True, seed: int = 0,
                  settle_ms: int | None = SETTLE_MS, plain_mistakes: str | None = None,
                  ) -> AbstractAsyncContextManager[tuple[VirtualTable, TableService]]:
    """``running`` with the tests' defaults, so each test names only what it is about:
    ``seed`` the service's secret draws (missions, set-aside cards), so runs repeat;
    ``settle_ms`` short for speed (None: the profile's, as at a real table); a game the journal
    resumed is kept, and ``new_game`` False starts none (the test starts its own);
    ``plain_mistakes``: the profile's ``[timing] plain_mistakes`` instead of its own."""
    return running(game, data, players, options or {}, settle_ms=settle_ms,
                   rng=random.Random(seed), start="unless resumed" if new_game else "no",
                   plain_mistakes=plain_mistakes)


def perform(table: VirtualTable, after: dict[str, str]) -> None:
    """Move pieces by hand until the table shows ``after``: lift what goes, lay what comes."""
    before = table.board()
    for site in sorted(before):
        if before[site] != after.get(site):
            table.lift(site)
    for site in sorted(after):
        if before.get(site) != after[site]:
            table.put(after[site], site)


def known(board: dict[str, str]) -> dict[str, str]:
    return {site: piece for site, piece in board.items() if not piece.startswith("uid:")}


async def settled(table: VirtualTable, service: TableService, timeout: float = 30.0) -> None:
    """Wait until the service has judged exactly what lies on the virtual table (the wait the
    bots of ``tabletop sim --autoplay`` use, button presses included), then let the LEDs and
    subscribers catch up."""
    await settling.settled(table, service, timeout)
    await asyncio.sleep(0.02)


def play(scenario) -> None:
    """Run an async scenario in a thread of its own (Playwright's sync API may own this
    thread's event loop when browser tests share the worker)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()
