"""A big board on several hubs (On Top's profile names six), on the realistic radio: every hub
on its own pty and link, kept in common slots; a hub that is down blinds its region and nothing
is judged until it is back; a tag lying across two hubs' readers counts once."""

from __future__ import annotations

import asyncio

import pytest

from controller.referee import Discrepancy

from .harness import perform, play, running_table, settled

BLACKS = {"tri:2:4": "black", "tri:3:10": "black"}
"""On Top's first step: the two black pieces on their triangles (hub2's and hub5's)."""


async def until(condition, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


def test_a_hub_that_is_down_blinds_its_region_until_it_is_back(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path, game="on_top") as (table, service):
            assert [hub.name for hub in service.hubs] == [f"hub{n}" for n in range(1, 7)]
            await until(lambda: all(hub.seen for hub in service.hubs))
            # the wait for unreported lifts comes from the scan model at hello (not 4 s)
            assert service.tracker.lift_latency < 1.5
            assert service.profile.hub_of(service.profile.reader_of("tri:3:10")).name == "hub5"
            table.unplug("hub5")
            await until(lambda: service.blind_sites)
            hub5 = {service.profile.readers[r] for r in service.profile.hubs[4].readers}
            assert service.blind_sites == hub5
            status = service.status().hardware
            assert [hub.name for hub in status.hubs if hub.blind] == ["hub5"]
            assert status.blind_sites == sorted(hub5)
            perform(table, BLACKS)  # the step, half of it in the blind region
            await asyncio.sleep(3.0)
            assert service.table.actions == [] and service.table.last_board == {}
            assert table.strip.colour("tri:3:10", window_s=2.5) == "blind"
            assert table.strip.colour("tri:2:4", window_s=2.5) != "blind"
            table.replug("hub5")
            await settled(table, service)
            assert service.table.actions == ["start"] and not service.blind_sites
            assert service.status().hardware.hubs[4].reconnects == 1

    play(scenario)


def test_a_piece_across_two_hubs_readers_lies_where_the_step_wants_it(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path, game="on_top") as (table, service):
            await until(lambda: all(hub.seen for hub in service.hubs))
            table.put("black", "tri:2:4")
            table.put_across("black", "tri:3:10", "tri:3:9")  # tri:3:9 is on hub4
            await settled(table, service)
            assert service.table.actions == ["start"]
            # no step can change tri:3:9 now: its hub reads it one scan in four
            await until(lambda: service.tracker.shared, timeout=5)
            await settled(table, service)
            assert service.table.actions == ["start"]
            (heard_on,) = service.tracker.shared.values()  # the readers around hear it too
            hubs = {service.profile.hub_of(service.profile.reader_of(site)).name
                    for site in heard_on}
            assert "tri:3:10" in heard_on and {"hub4", "hub5"} <= hubs
            assert table.hubs[0].slot_line.timeouts == 0  # the hubs kept in step

    play(scenario)


def test_a_hub_that_falls_silent_is_blind_until_it_answers_again(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path, game="on_top") as (table, service):
            await until(lambda: all(hub.seen for hub in service.hubs))
            table.freeze(5.0, hub="hub5")  # its loop stalls; the cable stays in
            table.put("black", "tri:3:10")  # hub5's: not seen while it is stalled
            await until(lambda: service.blind_sites, timeout=10)
            assert "tri:3:10" in service.blind_sites
            assert service.status().hardware.hubs[4].connected  # the port is still open
            table.put("black", "tri:2:4")
            await asyncio.sleep(0.5)
            assert service.table.actions == []  # not judged while hub5 is blind
            await settled(table, service)  # it wakes, answers the snapshot asked of it
            assert service.table.actions == ["start"] and not service.blind_sites
            assert any("hub hub5 has said nothing" in event.text
                       for event in service.status().events)

    play(scenario)


def test_the_hubs_watch_what_the_next_step_could_change_and_still_see_the_rest(
        tmp_path) -> None:
    """After each judgement every hub is told which of its readers the next step could
    change: it reads those (and its empty ones) every scan, its other stacks one scan in four.
    A piece taken from a reader nobody watches is still seen, and judged wrong."""
    async def scenario() -> None:
        async with running_table(tmp_path, game="on_top") as (table, service):
            await until(lambda: all(hub.seen for hub in service.hubs))
            perform(table, BLACKS)
            await settled(table, service)
            assert service.table.actions == ["start"]
            await until(lambda: all(hub.watching == hub.confirming for hub in service.hubs))
            hot = service._hot_sites()
            assert hot and "tri:2:4" not in hot  # the black laid there stays
            for hub in service.hubs:
                watched = {service.profile.readers[hub.settings.readers[n]]
                           for n in hub.watching.readers}
                assert watched == hot & hub.sites
                assert hub.rescan == hub.period  # one scan: every watched reader read again
            # the black's reader: nobody expects its tag to change, most scans skip it
            hub2 = table.hub_named("hub2")
            local = service.profile.hubs[1].readers.index(
                service.profile.reader_of("tri:2:4"))
            skipped = 0
            for _ in range(16):
                await asyncio.to_thread(hub2.wait_scans, 1)
                skipped += local not in (hub2.read_last() or {local})  # None: all read
            assert skipped >= 8
            table.lift("tri:2:4")  # a mistake where nobody watches: seen all the same
            await until(lambda: "tri:2:4" not in service.tracker.board, timeout=5)
            await settled(table, service)
            assert service.table.decision.__class__.__name__ == "Discrepancy"
            table.put("black", "tri:2:4")
            await settled(table, service)
            assert service.table.actions == ["start"]

    play(scenario)


@pytest.mark.parametrize("plain_mistakes", ["settle", "quick"])
def test_pieces_dragged_over_wrong_sites_are_judged_only_where_they_land(
        tmp_path, plain_mistakes: str) -> None:
    """Every piece laid is dragged over the two nearest empty sites where it makes no legal
    step, each in its reader's field for two scans of its hub: with the profile's settle time
    the table never judges a board mid-way, and each move is taken as it lands (``bench
    hand-to-light``'s slides). The trade an owner makes with ``[timing] plain_mistakes =
    "quick"``: such a piece may light red on its way, but every move is still taken where it
    lands, no right move is refused for good."""
    from controller.bench.hand_to_light import HandToLight
    from simulator.autoplay import AutoplayBot

    async def scenario() -> None:
        async with running_table(tmp_path, game="on_top", settle_ms=None,
                                 plain_mistakes=plain_mistakes) as (table, service):
            assert service.judgement.quick_mistakes == (plain_mistakes == "quick")
            await until(lambda: all(hub.seen for hub in service.hubs))
            timing = HandToLight(table, service)
            bot = AutoplayBot(table, ["anna", "ben"], settle=lambda: settled(table, service),
                              seed=4, settle_every="action", slide_rate=1.0)
            for _ in range(6):
                await bot.play_one()
            await settled(table, service)
            assert bot.slides >= 4 and len(timing.slide_ms) >= 4
            assert service.table.actions == bot.actions
            assert not isinstance(service.table.decision, Discrepancy)
            if plain_mistakes == "settle":
                assert timing.judged_wrong == 0

    play(scenario)
