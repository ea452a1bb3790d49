"""A big board on several hubs (On Top's profile names six), on the realistic radio: every hub
on its own pty and link, kept in common slots; a hub that is down blinds its region and nothing
is judged until it is back; a tag lying across two hubs' readers counts once."""

from __future__ import annotations

import asyncio

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
