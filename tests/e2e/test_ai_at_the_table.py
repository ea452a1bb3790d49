"""An AI seat and a hint at the virtual table: the real service, the real AI, real LEDs.

The AI's move is lit in the advice colour for a person to carry out; the referee refuses any
other move for that seat and accepts the AI's once it is on the table.
"""

from __future__ import annotations

import asyncio

import pytest

from .harness import known, perform, play, running_table, settled

pytest.importorskip("pyspiel", reason="the AI needs OpenSpiel: pip install '.[ai]'")

STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


async def build(table, service) -> None:
    for place, tiki in enumerate(STACK, start=1):
        table.put(f"tiki:{tiki}", f"stack:{place}")
    await settled(table, service)


async def advice_of(service, kind: str, timeout: float = 60.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        advice = service.table.current_advice()
        if advice is not None and advice.kind == kind:
            await asyncio.sleep(0.1)  # the LEDs relight and blink on
            return advice
        await asyncio.sleep(0.02)
    raise TimeoutError(f"no {kind} advice came")


async def lit_in_advice_colour(table, sites) -> None:
    """Every LED site of ``sites`` shows the advice colour (within one blink period)."""
    with_leds = [site for site in sites if site in table.profile.leds.sites]
    assert with_leds
    for _ in range(150):
        if all(table.strip.colour(site) == "advice" for site in with_leds):
            return
        await asyncio.sleep(0.02)
    raise AssertionError({site: table.strip.colour(site) for site in with_leds})


def test_an_ai_seat_move_is_lit_checked_and_accepted(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path, new_game=False) as (table, service):
            service.new_game(["anna", "ben"], {"edition": "gamewright"}, {"anna": 30})
            await build(table, service)
            game = service.table.game
            assert service.status().ai_seats == ["anna"]
            advice = await advice_of(service, "ai")
            state = service.table.state
            assert advice.action in game.legal_actions(state)
            status = service.status()
            assert status.advice.action == advice.action
            sites = set(status.advice.sites)
            assert sites
            await lit_in_advice_colour(table, sites)
            before = known(table.board())
            other = next(a for a in game.legal_actions(state) if a != advice.action)
            perform(table, game.board(game.apply(state, other)))
            await settled(table, service)
            assert service.status().discrepancy is not None  # not the AI's move
            assert service.table.actions[-1] != other
            perform(table, before)
            await settled(table, service)
            perform(table, game.board(game.apply(state, advice.action)))
            await settled(table, service)
            assert service.table.actions[-1] == advice.action
            assert service.table.journal.active().actions[-1] == advice.action

    play(scenario)


def test_the_hint_button_lights_a_move_for_the_player_on_turn(tmp_path) -> None:
    async def scenario() -> None:
        async with running_table(tmp_path, options={"edition": "gamewright"}) as (table,
                                                                                   service):
            await build(table, service)
            assert service.status().to_act == "anna"
            await table.buttons.press("hint")
            advice = await advice_of(service, "hint")
            assert advice.seat == 0
            assert service.status().advice.kind == "hint"
            await lit_in_advice_colour(table, service.table.advice_sites())
            # A hint is advice, not a rule: anna may play something else.
            game = service.table.game
            state = service.table.state
            other = next(a for a in game.legal_actions(state) if a != advice.action
                         and game.board(game.apply(state, a)) != game.board(state))
            perform(table, game.board(game.apply(state, other)))
            await settled(table, service)
            assert service.table.actions[-1] == other

    play(scenario)


def test_an_ai_that_fails_is_reported_once_and_the_table_goes_on(tmp_path) -> None:
    calls = []

    def broken(request):
        calls.append(request)
        raise RuntimeError("out of memory")

    async def scenario() -> None:
        async with running_table(tmp_path, new_game=False) as (table, service):
            service.advisor = broken
            service.new_game(["anna", "ben"], {"edition": "gamewright"}, {"anna": 30})
            await build(table, service)
            for _ in range(100):
                if any("could not think" in e.text for e in service.table.events):
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)
            assert len(calls) == 1  # not asked again for the same position
            assert any("the AI could not think: out of memory" in e.text
                       for e in service.table.events)
            assert service.status().thinking is None
            assert service.status().phase == "play"

    play(scenario)


def test_without_the_ai_installed_ai_seats_and_hints_say_what_to_install(tmp_path) -> None:
    from games.core.errors import BadSetup

    async def scenario() -> None:
        async with running_table(tmp_path, options={"edition": "gamewright"}) as (table,
                                                                                   service):
            service.advisor = None
            await build(table, service)
            assert service.press("hint") == "hints need the AI: pip install '.[ai]'"
            assert service.status().ai_available is False
            with pytest.raises(BadSetup, match=r"pip install '\.\[ai\]'"):
                service.new_game(["anna", "ben"], {}, {"ben": 10})
            assert service.table.ai == {}

    play(scenario)
