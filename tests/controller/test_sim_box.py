"""The /sim page's box: how many of each piece are left to drag onto the table.

What the box holds minus every copy on the (virtual) table, whatever the table does with it: a
tiki on its place, a stone inside an On Top tower (a pile: its board value is the whole pile),
a Hanging Gardens card covered by another (only the top one is in the board). Lifting a piece
off puts it back in the box. The simulator is imported when used, as the other /sim tests do.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

TIKIS = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


@pytest.fixture
def sim() -> Iterator[Any]:
    """A /sim app over an ideal virtual table (no hubs started: the box is the table's own)."""
    from simulator.page import simulator_router
    from simulator.virtual_table import VirtualTable

    tables: list[VirtualTable] = []

    def make(game_id: str) -> tuple[VirtualTable, TestClient]:
        table = VirtualTable.for_game(game_id, scan_ms=20)
        tables.append(table)
        app = FastAPI()
        app.include_router(simulator_router(table, "/"))
        return table, TestClient(app)

    yield make
    for table in tables:
        table.close()


def box(client: TestClient) -> dict[str, int]:
    answer = client.get("/sim/api/table")
    assert answer.status_code == 200
    counts = {item["piece"]: item["left"] for item in answer.json()["box"]}
    assert all(left > 0 for left in counts.values())  # an empty kind is not shown
    return counts


def test_the_built_tiki_stack_is_no_longer_in_the_box(sim) -> None:
    table, client = sim("tiki_topple")
    before = box(client)
    assert all(before[f"tiki:{tiki}"] == 1 for tiki in TIKIS)  # one of each carved tiki
    # each colour holds Tiki Up 1 and Tiki Toast twice, its other cards once (the box's list)
    assert (before["card:red:up1"], before["card:red:toast"], before["card:red:topple"]) == (
        2, 2, 1)
    for place, tiki in enumerate(TIKIS, start=1):
        table.put(f"tiki:{tiki}", f"stack:{place}")
    after = box(client)
    assert not [piece for piece in after if piece.startswith("tiki:")]
    assert {piece: left for piece, left in before.items()
            if not piece.startswith("tiki:")} == after  # the cards and missions stay
    table.put("mission:1", "pad:reveal")
    table.put("mission:2", "pad:reveal")  # a pile: the board names both as one value
    assert "mission:1" not in box(client) and "mission:2" not in box(client)
    assert table.lift("stack:1") == "tiki:nani"
    assert box(client)["tiki:nani"] == 1


@pytest.mark.parametrize(("game_id", "pile"), [("on_top", True), ("hanging_gardens", False)],
                         ids=["on_top-tower", "hanging_gardens-covered-cards"])
def test_pieces_in_a_pile_or_covered_leave_the_box(sim, game_id: str, pile: bool) -> None:
    """Three pieces on one site (two copies of one, as a tower's stones or a covered card):
    every one of them leaves the box, and each lifted or pulled one comes back."""
    table, client = sim(game_id)
    site = min(s for s in table.sites
               if table.stacks_here(s) and (s in table.pile_sites) == pile)
    before = box(client)
    twice = next(piece for piece, left in before.items() if left >= 2)
    once = next(piece for piece in before if piece != twice)
    for piece in (twice, once, twice):
        table.put(piece, site)
    assert table.stacks()[site] == (twice, once, twice)
    after = box(client)
    assert after.get(twice, 0) == before[twice] - 2
    assert after.get(once, 0) == before[once] - 1
    assert {piece: left for piece, left in after.items() if piece not in (twice, once)} == {
        piece: left for piece, left in before.items() if piece not in (twice, once)}
    assert table.lift(site) == twice
    assert box(client).get(twice, 0) == before[twice] - 1
    table.pull(site, once)  # from under the top one
    assert box(client) == {**before, twice: before[twice] - 1}
