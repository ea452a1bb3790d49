"""The virtual table: hands on pieces, what the host sees of them, and refusals that change
nothing."""

from __future__ import annotations

import asyncio

import pytest

from hardware.protocol import TagArrived, TagLeft
from simulator.virtual_table import (
    NoSuchSite,
    NoTagLeft,
    SiteEmpty,
    SiteOccupied,
    TableError,
    VirtualTable,
)


def test_put_and_lift_keep_the_physical_board(table: VirtualTable) -> None:
    table.put("tiki:nani", "stack:1")
    table.put("card:red:up2", "pad:play")
    assert table.board() == {"pad:play": "card:red:up2", "stack:1": "tiki:nani"}
    assert table.lift("stack:1") == "tiki:nani"
    assert table.board() == {"pad:play": "card:red:up2"}


@pytest.mark.parametrize(
    ("do", "error"),
    [
        (lambda t: t.put("tiki:nani", "stack:1"), SiteOccupied),
        (lambda t: t.put("tiki:nani", "stack:10"), NoSuchSite),
        (lambda t: t.put("tiki:godzilla", "stack:2"), TableError),
        (lambda t: t.lift("stack:2"), SiteEmpty),
        (lambda t: t.put_tag("04AABBCCDD", "stack:2"), ValueError),
    ],
)
def test_impossible_steps_are_refused_and_change_nothing(table: VirtualTable, do, error) -> None:
    table.put("tiki:nani", "stack:1")
    before = (table.board(), table.field.items())
    with pytest.raises(error):
        do(table)
    assert (table.board(), table.field.items()) == before


def test_each_copy_is_a_separate_tag_until_none_is_left(table: VirtualTable) -> None:
    table.put("card:red:toast", "stack:1")
    table.put("card:red:toast", "stack:2")
    uids = {table.field.at("stack:1")[0], table.field.at("stack:2")[0]}
    assert len(uids) == 2
    with pytest.raises(NoTagLeft, match="all 2 of card:red:toast in the box"):
        table.put("card:red:toast", "stack:3")


def test_slide_path_follows_the_site_coordinates(table: VirtualTable) -> None:
    assert table.path("stack:4", "stack:1") == ("stack:3", "stack:2")
    assert table.path("stack:1", "stack:2") == ()
    assert table.path("stack:1", "pad:play") == ()


def test_a_slid_piece_is_seen_by_the_readers_on_its_way(table: VirtualTable, watch) -> None:
    async def body(w) -> None:
        table.put("tiki:lokahi", "stack:4")
        table.put("tiki:nui", "stack:1")
        await w.settle()
        assert await table.slide("stack:4", "stack:2") == "tiki:lokahi"
        await w.settle()
        uid = table.tags.tags_of("tiki:lokahi")[0].uid
        assert TagArrived(2, uid) in w.events and TagLeft(2, uid) in w.events  # stack:3
        assert TagArrived(1, uid) in w.events  # stack:2, where it stays
        assert w.board() == {"stack:1": "tiki:nui", "stack:2": "tiki:lokahi"}

    watch(body)


def test_slide_refuses_an_occupied_end_and_changes_nothing(table: VirtualTable) -> None:
    table.put("tiki:nani", "stack:1")
    table.put("tiki:nui", "stack:3")
    with pytest.raises(SiteOccupied):
        asyncio.run(table.slide("stack:3", "stack:1"))
    assert table.board() == {"stack:1": "tiki:nani", "stack:3": "tiki:nui"}


def test_a_tag_from_outside_the_box_reaches_the_host_unnamed(table: VirtualTable, watch) -> None:
    async def body(w) -> None:
        table.put_tag("04aabbcc", "stack:5")
        await w.settle()
        assert w.board() == {"stack:5": "uid:04AABBCC"}
        assert w.of(TagArrived)[-1] == TagArrived(4, bytes.fromhex("04aabbcc"))

    watch(body)


def test_tag_map_is_what_the_controller_registry_needs(table: VirtualTable) -> None:
    mapping = table.tag_map()
    table.put("tiki:hookipa", "stack:8")
    [uid] = table.field.at("stack:8")
    assert mapping[uid.hex().upper()] == "tiki:hookipa"


def test_on_change_reports_every_new_board(table: VirtualTable) -> None:
    seen: list[dict[str, str]] = []
    table.on_change = seen.append
    table.put("tiki:nani", "stack:1")
    table.lift("stack:1")
    assert seen == [{"stack:1": "tiki:nani"}, {}]


def test_a_slide_while_unplugged_still_moves_the_piece(table: VirtualTable) -> None:
    table.put("tiki:nani", "stack:5")
    table.unplug()
    assert asyncio.run(table.slide("stack:5", "stack:2")) == "tiki:nani"
    assert table.board() == {"stack:2": "tiki:nani"}
    assert table.field.items() == {"stack:2": (table.tags.tags_of("tiki:nani")[0].uid,)}


def test_coordinates_come_from_the_game_and_cannot_be_changed(table: VirtualTable) -> None:
    coordinates = table.coordinates
    assert set(coordinates) == set(table.sites)
    assert (coordinates["stack:3"].x, coordinates["stack:3"].y) == (0.0, 2.0)
    with pytest.raises(TypeError):
        coordinates["stack:3"] = coordinates["stack:4"]  # type: ignore[index]


def test_a_stacking_site_keeps_the_covered_pieces_in_its_readers_field() -> None:
    """The Hanging Gardens: a card laid over cards. Every tag stays in the field, the board
    shows the top one, and lifting it uncovers the one below."""
    table = VirtualTable.for_game("hanging_gardens")
    site = "garden:1:2:2"
    assert table.stacks_here(site) and not table.stacks_here("display:1")
    table.put("hg:c01:a", site)
    table.put("hg:c02:b", site)
    table.put("hg:temple:red", site)
    assert table.board()[site] == "hg:temple:red"
    assert table.stacks()[site] == ("hg:c01:a", "hg:c02:b", "hg:temple:red")
    assert table.piece_under(site) == "hg:c02:b"
    assert len(table.field.at(site)) == 3  # the reader hears all three
    assert table.lift(site) == "hg:temple:red" and table.board()[site] == "hg:c02:b"
    table.put("hg:c03:a", "display:1")
    with pytest.raises(SiteOccupied):
        table.put("hg:c04:a", "display:1")  # a display slot holds one card
    table.put("hg:temple:red", site)
    for _ in range(4):
        table.put("hg:temple:red", f"garden:1:0:{_}")
    with pytest.raises(NoTagLeft, match="covered ones included"):
        table.put("hg:temple:red", "garden:1:1:1")  # the box has five
