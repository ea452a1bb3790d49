""""Do the next step for me" pressed until a game ends, through the real service (no browser).

The hook is composed as ``tabletop sim`` composes it; the players deal the secrets from the box,
so the end needs their secrets shown on the reveal pad before the score is known.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from controller.cli.virtual.sim_next import next_step_for
from controller.cli.virtual.table import running
from games.core.game import CHANCE
from simulator.next_step import NothingToDo


async def press_until_the_end(folder: Path, presses: int = 400) -> dict:
    kinds: list[str] = []
    async with running("tiki_topple", folder, ["anna", "ben"], {"edition": "gamewright"},
                       scan=10.0) as (table, service):
        hook = next_step_for(table, service, seed=5)
        for _ in range(presses):
            moves = len(service.table.actions)
            try:
                done = await hook()
            except NothingToDo as reason:
                last = str(reason.sentence)
                break
            kinds.append(done.plan.kind)
            if done.plan.kind != "show":
                assert len(service.table.actions) > moves, done.to_json()
            if done.plan.action is not None and done.plan.kind != "chance":
                assert service.table.actions[moves] == done.plan.action
            assert table.board() == service.table.expected_board
        else:
            raise AssertionError(f"no end after {presses} presses")
        status = service.status()
        game = service.table.game
        return {"kinds": kinds, "last": last, "finished": status.finished,
                "scores": status.scores, "to_act": game.actor(service.table.state),
                "unseen": service.table.unseen}


def test_pressing_next_step_plays_tiki_topple_to_its_scored_end(tmp_path) -> None:
    result = asyncio.run(press_until_the_end(tmp_path))
    assert result["finished"] and result["to_act"] != CHANCE
    assert result["scores"] is not None, "every secret the score waits for was shown"
    assert result["unseen"] > 0, "the players drew their missions from the box"
    assert {"chance", "move", "show"} <= set(result["kinds"])
    assert result["last"].startswith("The game is over")


async def press_with_the_hub_unplugged(folder: Path) -> tuple[str, str, int, int]:
    async with running("tiki_topple", folder, ["anna", "ben"], {"edition": "gamewright"},
                       scan=10.0) as (table, service):
        hook = next_step_for(table, service)
        table.unplug()
        try:
            await hook()
        except NothingToDo as reason:
            said = str(reason.sentence)
        else:
            raise AssertionError("a step was made on a table the referee cannot see")
        return said, table.profile.hubs[0].name, len(table.board()), len(service.table.actions)


def test_with_a_hub_unplugged_nothing_is_touched_and_the_page_says_why(tmp_path) -> None:
    said, hub, pieces, actions = asyncio.run(press_with_the_hub_unplugged(tmp_path))
    assert said == f"Hub {hub} is unplugged: plug it back in, then try again."
    assert (pieces, actions) == (0, 0)


async def press_for_people(folder: Path, moves: int = 2) -> tuple[int, list[str], list[str]]:
    """Press until ``moves`` moves of a person's seat were made; meanwhile note every event
    logged and every role the LEDs were given."""
    async with running("tiki_topple", folder, ["anna", "ben"], {"edition": "gamewright"},
                       scan=10.0) as (table, service):
        assert service.advisor is not None, "the AI (OpenSpiel) is installed for these tests"
        asked: list[int] = []
        advisor = service.advisor

        def counting(request):
            asked.append(request.seat)
            return advisor(request)

        service.advisor = counting
        roles: set[str] = set()

        async def watch() -> None:
            while True:
                roles.update(service.table.led_roles().values())
                await asyncio.sleep(0.01)

        watcher = asyncio.create_task(watch())
        hook = next_step_for(table, service, seed=3)
        made = 0
        try:
            for _ in range(30):
                done = await hook()
                made += done.plan.kind in {"move", "confirm"}
                if made >= moves:
                    break
        finally:
            watcher.cancel()
        return len(asked), [event.kind for event in service.table.events], sorted(roles)


def test_next_step_for_a_person_asks_the_ai_unseen_nothing_logged_or_lit(tmp_path) -> None:
    asked, kinds, roles = asyncio.run(press_for_people(tmp_path))
    assert asked >= 2, "the advisor chose the people's moves"
    assert "hint" not in kinds, "a hint names a card of a hidden hand to the whole table"
    assert "advice" not in roles
