"""A game at the virtual table: every layer real except the hardware itself."""

from __future__ import annotations

import asyncio

from controller.status import Prompt, UnknownTag
from simulator.virtual_hub import LinkFaults

from .harness import SETTLE_MS, perform, play, running_table, settled

STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")

LOADED = 2.0
"""Slack on the 2 s promise for a shared, busy test machine: the test checks that play goes
on; `tabletop bench noisy-link` measures against the promise itself."""


async def build(table, service) -> None:
    for place, tiki in enumerate(STACK, start=1):
        table.put(f"tiki:{tiki}", f"stack:{place}")
    await settled(table, service)


async def up1_wikiwiki(table, service) -> None:
    """anna lays her up1 card and swaps nani and wikiwiki by hand."""
    table.put("card:red:up1", "pad:play")
    table.lift("stack:1")
    table.lift("stack:2")
    table.put("tiki:wikiwiki", "stack:1")
    table.put("tiki:nani", "stack:2")
    await settled(table, service)


def test_a_move_is_refereed_and_lit(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            await build(table, service)
            assert service.status().phase == "play"
            assert service.status().to_act == "anna"
            await up1_wikiwiki(table, service)
            assert service.table.actions[-1] == "up1 wikiwiki"
            assert service.status().to_act == "ben"
            assert service.table.journal.active().actions[-1] == "up1 wikiwiki"

    play(scenario)


def test_a_wrong_board_changes_nothing_and_blinks_the_wrong_sites(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            await build(table, service)
            before = list(service.table.actions)
            table.lift("stack:9")
            table.put("tiki:kapu", "pad:play")  # a tiki on the card pad
            await settled(table, service)
            status = service.status()
            assert status.discrepancy.wrong_sites == ["pad:play", "stack:9"]
            assert service.table.actions == before
            await asyncio.sleep(0.6)  # let the 4 Hz blink show up in the recorded frames
            assert table.led("pad:play") == "wrong"
            assert table.led("stack:9") == "wrong"
            table.lift("pad:play")
            table.put("tiki:kapu", "stack:9")
            await settled(table, service)
            assert service.status().discrepancy is None

    play(scenario)


def test_restoring_the_table_and_pressing_confirm_undoes(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            await build(table, service)
            await up1_wikiwiki(table, service)
            count = len(service.table.actions)
            table.lift("pad:play")
            table.lift("stack:1")
            table.lift("stack:2")
            table.put("tiki:nani", "stack:1")
            table.put("tiki:wikiwiki", "stack:2")
            await settled(table, service)
            assert service.status().prompt == Prompt(kind="undo", steps=1)
            await table.press("confirm")
            for _ in range(100):
                if len(service.table.actions) == count - 1:
                    break
                await asyncio.sleep(0.02)
            assert len(service.table.actions) == count - 1
            assert service.status().to_act == "anna"

    play(scenario)


def test_the_hub_unplugged_mid_move_loses_nothing(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            await build(table, service)
            # anna's first card move (her hand is dealt at random: up1 may be set aside)
            game, state = service.table.game, service.table.state
            move = next(a for a in game.legal_actions(state) if a not in ("pass", "toast"))
            after = game.board(game.apply(state, move))
            table.put(after["pad:play"], "pad:play")
            table.unplug()
            perform(table, after)  # the tikis are moved while the hub is away
            await asyncio.sleep(0.3)
            table.replug()
            await service.link.wait_connected(10)
            await settled(table, service)
            assert service.table.actions[-1] == move
            assert service.link.health().reconnects >= 1

    play(scenario)


def test_one_percent_byte_noise_is_survived(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            table.set_link_faults(LinkFaults(noise_rate=0.01))
            await build(table, service)
            await up1_wikiwiki(table, service)
            # ben plays the first card his hand allows, moved by hand from board to board
            game, state = service.table.game, service.table.state
            move = next(a for a in game.legal_actions(state) if a != "pass")
            perform(table, game.board(game.apply(state, move)))
            await settled(table, service, timeout=20)
            assert service.table.actions[-2:] == ["up1 wikiwiki", move]
            assert service.link.health().crc_errors > 0  # the noise was real, and was caught

    play(scenario)


def test_an_unknown_tag_is_reported_not_guessed(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            await build(table, service)
            table.put_tag("04deadbeef0001", "pad:play")
            for _ in range(100):
                if service.status().unknown_tags:
                    break
                await asyncio.sleep(0.02)
            assert service.status().unknown_tags == [UnknownTag(site="pad:play",
                                                                uid="04DEADBEEF0001")]
            assert service.status().phase == "play"

    play(scenario)


def test_holding_the_undo_button_takes_back_the_last_move(tmp_path) -> None:
    """The profile's default gestures: a hold of undo (gpiozero mock pins) is an undo too."""
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            assert service.profile.buttons.gestures["hold undo"] == "undo"
            await build(table, service)
            await up1_wikiwiki(table, service)
            count = len(service.table.actions)
            await table.hold("undo", 1500)
            for _ in range(100):
                if len(service.table.actions) < count:
                    break
                await asyncio.sleep(0.02)
            assert service.table.actions[-1] != "up1 wikiwiki"
            assert len(service.table.actions) == count - 1
            assert service.status().to_act == "anna"
            assert list(service.table.journal.active().actions) == service.table.actions

    play(scenario)


def test_a_refused_button_command_is_logged_and_changes_nothing(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            await build(table, service)
            before = list(service.table.actions)
            await table.press("confirm")  # nothing waits for a confirmation
            for _ in range(100):
                if service.status().events[-1].kind == "button":
                    break
                await asyncio.sleep(0.02)
            assert service.status().events[-1].text == (
                "press confirm: nothing is waiting for a confirmation")
            assert service.table.actions == before

    play(scenario)


def test_five_percent_byte_noise_still_judges_each_move_within_two_seconds(tmp_path) -> None:
    """Issue 20, finding 7: at 5 % byte noise no move was accepted in 60 s. Now each move is
    judged within 2 s of the hand (plus the profile's settle time), and nothing wrong is."""
    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            table.set_link_faults(LinkFaults(noise_rate=0.05))
            await build(table, service)
            start = asyncio.get_running_loop().time()
            await up1_wikiwiki(table, service)
            judged = asyncio.get_running_loop().time() - start
            assert service.table.actions[-1] == "up1 wikiwiki"
            assert judged < LOADED * 2.0 + SETTLE_MS / 1000, judged
            assert service.status().to_act == "ben"
            game, state = service.table.game, service.table.state
            move = next(a for a in game.legal_actions(state) if a != "pass")
            start = asyncio.get_running_loop().time()
            perform(table, game.board(game.apply(state, move)))
            await settled(table, service, timeout=20)
            judged = asyncio.get_running_loop().time() - start
            assert service.table.actions[-2:] == ["up1 wikiwiki", move]
            assert judged < LOADED * 2.0 + SETTLE_MS / 1000, judged
            health = service.link.health()
            assert health.crc_errors > 10 and not health.too_noisy

    play(scenario)


def test_the_bots_wait_until_a_button_they_pressed_has_been_handled(tmp_path) -> None:
    """Autoplay's ``settled``: a press reaches the service through the pins' callback and the
    service's queue, a loop turn or two later. A bot that moved on before that would change
    the board under the search a confirm starts (``looks further``), and the table read the
    next board without it (a Trapper joker then recorded in another colour)."""
    from controller.cli.virtual.settling import settled as bots_settled

    async def scenario() -> None:
        async with running_table(tmp_path) as (table, service):
            await build(table, service)
            handled = []
            press = service.press

            def recorded(role: str, kind: str = "press") -> str:
                handled.append((role, kind))
                return press(role, kind)

            service.press = recorded  # type: ignore[method-assign]
            await table.press("confirm")
            await bots_settled(table, service)
            assert handled == [("confirm", "press")]

    play(scenario)
