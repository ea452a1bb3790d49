"""The realistic table (the simulator's default): each reader is the firmware's MFRC522 driver on
a register-level chip in the table's radio, and the hub switches the fields class by class.
Read back through the real HubLink, as the controller reads it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from games.registry import get_game
from simulator.virtual_table import TableError, VirtualTable

from .conftest import LinkWatcher

REALISTIC_WAIT = 15.0
"""Seconds a test waits for the host to see a change (a loaded CI machine)."""
GARDEN = "garden:1:0:0"
CARDS = ("hg:c01:a", "hg:c02:a", "hg:c03:b")


@pytest.fixture
def gardens(tmp_path: Path):
    with VirtualTable.for_game("hanging_gardens", link_path=tmp_path / "tty") as table:
        yield table


def pieces(table: VirtualTable, watcher: LinkWatcher, reader: int) -> list[str | None]:
    return [table.tags.piece_of(uid) for uid in watcher.readings.get(reader, [])]


def test_the_default_table_is_the_realistic_one(gardens: VirtualTable) -> None:
    assert gardens.radio is not None and len(gardens.hubs) == 6  # as its profile names
    assert all(hub.schedule is not None for hub in gardens.hubs)
    assert [len(hub.readers) for hub in gardens.hubs] == [39, 39, 40, 39, 39, 39]  # 235 readers
    assert 25 < gardens.hub.scan_period_ms() < 150  # see docs/performance.md
    assert VirtualTable.for_game("tiki_topple", scan_ms=4).radio is None


def test_cards_laid_over_cards_are_read_as_a_stack_lifted_and_pulled(
        gardens: VirtualTable, watch_any) -> None:
    reader = gardens.reader_of(GARDEN)

    async def body(watcher: LinkWatcher) -> None:
        async def holds(*expected: str) -> None:
            await watcher.until(lambda: pieces(gardens, watcher, reader) == list(expected),
                                timeout=REALISTIC_WAIT)

        for count, card in enumerate(CARDS, start=1):
            gardens.put(card, GARDEN)
            await holds(*CARDS[:count])
        assert gardens.lift(GARDEN) == CARDS[2]
        await holds(*CARDS[:2])
        gardens.put(CARDS[2], GARDEN)
        await holds(*CARDS)
        gardens.pull(GARDEN, CARDS[1])  # from the middle: the top card sinks and stays known
        await holds(CARDS[0], CARDS[2])
        assert gardens.stacks()[GARDEN] == (CARDS[0], CARDS[2])

    watch_any(gardens, body)
    line = gardens.hubs[0].slot_line
    assert gardens.radio is not None and gardens.radio.noisy_exchanges == 0, (
        f"slot line timeouts: {line.timeouts if line else None}")


def test_two_cards_laid_at_once_are_both_read(gardens: VirtualTable, watch_any) -> None:
    """Both answer the same REQA: their ATQAs and UIDs collide and the driver walks them."""
    reader = gardens.reader_of(GARDEN)

    async def body(watcher: LinkWatcher) -> None:
        gardens.put(CARDS[0], GARDEN)
        gardens.put(CARDS[1], GARDEN)
        await watcher.until(lambda: sorted(pieces(gardens, watcher, reader)) == list(CARDS[:2]),
                            timeout=REALISTIC_WAIT)

    watch_any(gardens, body)


def test_a_pulled_piece_that_is_not_there_is_refused(gardens: VirtualTable) -> None:
    gardens.put(CARDS[0], GARDEN)
    with pytest.raises(TableError, match="hg:c02:a is not on garden:1:0:0"):
        gardens.pull(GARDEN, CARDS[1])
    assert gardens.stacks() == {GARDEN: (CARDS[0],)}


def test_the_field_schedule_defeats_the_crosstalk_of_neighbouring_fields(
        tmp_path: Path, watch_any) -> None:
    """Tiki Topple's readers sit one pitch apart: with every field on (no schedule) each
    receiver hears its neighbours' carriers and reads nothing; the schedule reads it all."""
    seen: dict[bool, dict[str, str]] = {}
    for schedule in (False, True):
        table = VirtualTable.for_game("tiki_topple", link_path=tmp_path / f"tty{schedule}",
                                      field_schedule=schedule).start()
        try:
            table.put("tiki:nani", "stack:1")
            table.put("tiki:kapu", "stack:3")

            async def body(watcher: LinkWatcher, table: VirtualTable = table,
                           schedule: bool = schedule) -> None:
                await asyncio.to_thread(table.hub.wait_scans, 6, REALISTIC_WAIT)
                if schedule:  # what a scan read reaches the host a moment later
                    await watcher.until(lambda: len(watcher.board()) == 2, timeout=5.0)
                seen[schedule] = watcher.board()

            watch_any(table, body)
            noisy = table.radio.noisy_exchanges if table.radio else 0
        finally:
            table.close()
        assert (noisy > 0) is not schedule
    assert seen == {False: {}, True: {"stack:1": "tiki:nani", "stack:3": "tiki:kapu"}}


def test_an_antenna_that_reaches_too_far_reports_its_neighbours_piece(
        tmp_path: Path, watch_any) -> None:
    """A board whose antennas reach further than their pitch: the table is no kinder than
    that radio, the piece shows on both sites (docs/wiring.md: keep the reach under the
    pitch)."""
    game = get_game("tiki_topple")
    table = VirtualTable.for_game("tiki_topple", link_path=tmp_path / "tty")
    profile = dataclasses.replace(table.profile, radio=dataclasses.replace(
        table.profile.radio, reach_mm=45.0))
    wide = VirtualTable(profile, game, link_path=tmp_path / "wide").start()
    try:
        wide.put("tiki:nani", "stack:4")

        async def body(watcher: LinkWatcher) -> None:
            await watcher.until(lambda: len(watcher.board()) == 3, timeout=REALISTIC_WAIT)
            assert set(watcher.board().values()) == {"tiki:nani"}
            assert "stack:4" in watcher.board()

        watch_any(wide, body)
    finally:
        wide.close()


def test_a_tower_of_stones_is_read_whole_in_order_on_the_realistic_radio(
        tmp_path: Path, watch_any) -> None:
    """On Top's circles are pile sites: the host sees every stone, bottom to top."""
    with VirtualTable.for_game("on_top", link_path=tmp_path / "tty") as table:
        tower = "circle:3:4"
        stones = ("stone:yellow", "stone:red", "stone:blue")

        async def body(watcher: LinkWatcher) -> None:
            async def shows(value: str | None) -> None:
                await watcher.until(lambda: watcher.board().get(tower) == value,
                                    timeout=REALISTIC_WAIT)

            for count in range(1, 4):
                table.put(stones[count - 1], tower)
                await shows(" / ".join(stones[:count]))
            table.pull(tower, "stone:red")  # from the middle: blue sinks onto yellow
            await shows("stone:yellow / stone:blue")
            table.lift(tower)
            await shows("stone:yellow")

        watch_any(table, body)
        assert table.board()[tower] == "stone:yellow"
