"""A table's link to a club's broker, against a real Mosquitto: commands, results through the
outbox (a broker killed -9 loses none, a result is counted once), Home Assistant discovery, and
nothing secret in what it publishes."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from controller.club_link import (
    MAX_SEATS,
    STATE_INTERVAL,
    BrokerAddress,
    ClubLink,
    cancel_all,
    discovery,
)
from controller.club_messages import HA_STATUS, Response, topic
from controller.club_service import ClubService
from controller.compose.quick_tables import quick_service
from controller.language import catalogue
from games.registry import get_game
from tests.playing import play_to_end

from .test_public_status import positions, table_at


def a_service(data: Path):
    return quick_service("tiki_topple", data, 1)


def run(scenario) -> None:
    """A scenario that hangs fails, naming where it waited."""
    asyncio.run(asyncio.wait_for(scenario, 90))


async def until(check, seconds: float = 15.0) -> None:
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.02)


async def ask(url: BrokerAddress, table: str, command: str, payload: bytes) -> Response:
    async with url.client("test-admin") as client:
        await client.subscribe(topic(table, "response", command), qos=1)
        await client.publish(topic(table, "set", command), payload, qos=1)
        async with asyncio.timeout(10):
            async for message in client.messages:
                return Response.parse(message.payload)
    raise AssertionError("no response")


def test_commands_are_carried_out_and_bad_ones_refused_changing_nothing(tmp_path, broker):
    async def scenario() -> None:
        url = BrokerAddress.parse(broker.url)
        service = a_service(tmp_path)
        link = ClubLink(service, url, "kitchen")
        task = asyncio.create_task(link.run())
        await until(lambda: link.connected)
        answer = await ask(url, "kitchen", "new_game",
                           b'{"id": "r1", "players": ["anna", "ben", "cleo"]}')
        assert answer == Response(id="r1", ok=True, message="new game: anna, ben, cleo")
        assert service.table.players == ("anna", "ben", "cleo")
        game_id = service.table.game_id
        refusals = {
            "new_game": (b"not json", None, "Command: payload"),
            "rematch": (json.dumps({"id": "big", "players": ["x" * 5000]}).encode(), None,
                        "at most 4096 bytes"),  # refused unread
            "fly": (b'{"id": "r3"}', "r3", "unknown command 'fly'"),
        }
        for command, (payload, request_id, said) in refusals.items():
            answer = await ask(url, "kitchen", command, payload)
            assert not answer.ok and answer.id == request_id and said in answer.message
        answer = await ask(url, "kitchen", "new_game", b'{"id": "r4", "players": ["solo"]}')
        assert not answer.ok and answer.id == "r4"  # the engine's own refusal, in words
        assert service.table.game_id == game_id and service.table.players == ("anna", "ben",
                                                                              "cleo")
        answer = await ask(url, "kitchen", "abort", b'{"id": "r5"}')
        assert answer.ok and not service.table.started
        await cancel_all([task])

    run(scenario())


def test_results_reach_the_club_once_across_a_broker_killed_and_a_link_restarted(tmp_path,
                                                                                broker):
    async def scenario() -> None:
        url = BrokerAddress.parse(broker.url)
        service = a_service(tmp_path / "table")
        club = ClubService(broker.url, tmp_path / "club")
        club_task = asyncio.create_task(club.run())
        link = ClubLink(service, url, "kitchen")
        link_task = asyncio.create_task(link.run())
        await until(lambda: link.connected and club.connected)
        journal = service.table.journal
        for number in range(2):
            service.new_game(["anna", "ben"], {}, None, "digital")  # the score needs no showing
            if number == 1:
                broker.kill()  # mid-evening, with no goodbye
                await until(lambda: not link.connected)
            play_to_end(service.table, random.Random(number))
            service.publish()
            if number == 1:
                await until(lambda: link.report().waiting == 1)
                await asyncio.sleep(1.0)  # the table plays on; the result waits in the journal
                assert club.stored == 1 and len(journal.results_waiting()) == 1
                shown = service.status().club  # what the status page says of it
                assert shown is not None and not shown.connected and shown.waiting == 1
                assert shown.broker == str(url) and shown.problem
                broker.start()
            await until(lambda n=number: club.stored == n + 1 and not journal.results_waiting(),
                        40)
        await cancel_all([link_task])
        again = ClubLink(service, url, "kitchen")  # a restart: nothing is sent twice
        again.resend_seconds = 0.2
        again_task = asyncio.create_task(again.run())
        await until(lambda: again.connected)
        await asyncio.sleep(0.5)
        results = club.results()
        assert [list(r.players) for r in results] == [["anna", "ben"]] * 2
        assert len({r.uid for r in results}) == 2 and club.store.result_count() == 2
        assert all(r.uid.startswith("kitchen/") for r in results)
        await cancel_all([again_task, club_task])
        club.close()

    run(scenario())


def test_home_assistant_finds_the_table_and_again_when_it_restarts(tmp_path, broker):
    async def scenario() -> None:
        url = BrokerAddress.parse(broker.url)
        service = a_service(tmp_path)
        service.new_game(["anna", "ben"])
        link = ClubLink(service, url, "kitchen")
        task = asyncio.create_task(link.run())
        await until(lambda: link.connected)
        expected = discovery("kitchen", "Tiki Topple")
        assert len(expected) == 4 + MAX_SEATS
        seen: dict[str, int] = {}
        async with url.client("home-assistant") as ha:
            await ha.subscribe("homeassistant/#", qos=1)
            await ha.subscribe(topic("kitchen", "state"), qos=1)
            async def count(messages: int) -> None:
                async for message in ha.messages:
                    seen[str(message.topic)] = seen.get(str(message.topic), 0) + 1
                    if sum(seen.values()) >= messages:
                        return
            async with asyncio.timeout(10):
                await count(len(expected) + 1)  # retained: the configs and the state
            assert set(seen) == {*expected, topic("kitchen", "state")}
            config = json.loads(json.dumps(expected[
                "homeassistant/binary_sensor/tabletop_kitchen/running/config"]))
            assert config["device"]["identifiers"] == ["tabletop_kitchen"]
            await ha.publish(HA_STATUS, "online", qos=1)  # Home Assistant started again
            async with asyncio.timeout(10):
                await count(2 * len(expected) + 3)  # and its own "online" heard back
            assert all(seen[name] == 2 for name in expected)
            assert seen[topic("kitchen", "state")] == 2 and seen[HA_STATUS] == 1
        await cancel_all([task])

    run(scenario())


def test_a_table_stopped_cleanly_says_it_is_offline(tmp_path, broker):
    """The last will speaks only for a link that dropped; a table switched off with care would
    otherwise stay ``online`` (retained) on the club's page and in Home Assistant."""
    async def availability(url: BrokerAddress) -> str:
        async with url.client("reader") as reader:
            await reader.subscribe(topic("kitchen", "availability"), qos=1)
            async with asyncio.timeout(10):
                async for message in reader.messages:
                    return bytes(message.payload).decode()
        raise AssertionError("no availability retained")

    async def scenario() -> None:
        url = BrokerAddress.parse(broker.url)
        link = ClubLink(a_service(tmp_path), url, "kitchen")
        task = asyncio.create_task(link.run())
        await until(lambda: link.connected)
        assert await availability(url) == "online"
        await cancel_all([task])
        assert await availability(url) == "offline"

    run(scenario())


def test_the_state_is_rendered_only_when_the_table_changed(tmp_path, broker, monkeypatch):
    """What wakes the link is mostly the hubs (heartbeats, frames), which change nothing the
    club sees: the status is rendered again only after a move, a verdict or a language."""
    async def scenario() -> None:
        url = BrokerAddress.parse(broker.url)
        service = a_service(tmp_path)
        service.new_game(["anna", "ben"])
        link = ClubLink(service, url, "kitchen")
        renders: list[int] = []
        real = link.state
        monkeypatch.setattr(link, "state", lambda: renders.append(1) or real())
        task = asyncio.create_task(link.run())
        await until(lambda: link.connected and link._sent_state is not None)
        first = len(renders)
        for _ in range(6):  # six heartbeats' worth of wakes, a state interval apart
            service.publish()
            await asyncio.sleep(STATE_INTERVAL)
        assert len(renders) == first
        service.table.observe(service.table.successors.changing[0].board)  # the stack laid
        service.publish()
        moves = len(service.table.actions)  # with the missions dealt after it
        await until(lambda: json.loads(link._sent_state or b"{}").get("moves") == moves)
        assert len(renders) == first + 1
        service.language = "de"  # the profile's language, after a restart with another
        service.publish()
        await until(lambda: json.loads(link._sent_state or b"{}").get("language") == "de")
        await cancel_all([task])

    run(scenario())


@pytest.mark.parametrize("game_id", ["tiki_topple", "topiary", "trapper"])
def test_what_a_table_publishes_is_the_same_whatever_the_secrets(game_id, tmp_path) -> None:
    """Redraw every secret: the state and the events a club sees stay the same (the status
    page's own check, over what goes on the broker)."""
    game = get_game(game_id)
    for number, state in enumerate(positions(game, seed=3, count=4)):
        redrawn = game.resample(state, None, random.Random(number))
        payloads = []
        for name, position in (("a", state), ("b", redrawn)):
            table = table_at(game, position, tmp_path / f"{name}{number}.sqlite3")
            table.observe(game.board(position))
            service = SimpleNamespace(table=table, listeners=[], club=None,
                                      texts=lambda t=table: catalogue("de", t.game))
            link = ClubLink(service, BrokerAddress("127.0.0.1", 1), "kitchen")  # type: ignore[arg-type]
            link._sent_events = 0
            state_json = link.state().model_dump(exclude={"game_uid"})
            events = [e.model_dump(exclude={"at", "game_uid"}) for e in link.events()]
            payloads.append((state_json, events))
        assert payloads[0] == payloads[1], f"{game_id} position {number}"


def test_a_table_with_a_bad_name_or_broker_is_refused_in_one_line(tmp_path) -> None:
    from controller.club_link import BrokerAddressError
    from controller.club_messages import BadMessage

    with pytest.raises(BrokerAddressError, match="mqtt://host"):
        BrokerAddress.parse("http://example.org")
    with pytest.raises(BadMessage, match="part of MQTT topics"):
        ClubLink(a_service(tmp_path), BrokerAddress("h", 1), "kitchen/#")
    assert str(BrokerAddress.parse("mqtts://t1:secret@club.local")) == "mqtts://t1@club.local:8883"
