"""The club against a real Mosquitto: results stored once and answered every time, bad and
spoofed messages refused, results kept over a restart and delivered from the broker's queue
(the persistent session), and a broker killed with -9 and started again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiomqtt
import pytest

from controller.club_messages import GameResult, Receipt, TableState, topic
from controller.club_service import ClubService
from tests.mosquitto import Broker

FAST = (0.1, 0.2, 0.5)
"""The club's pauses between attempts here: a test waits for the reconnect, not the bench."""
WAIT = 8.0


def result(uid: str, table: str = "t1", **changes: object) -> GameResult:
    now = time.time()
    data = {"uid": uid, "table": table, "game": "tiki_topple", "players": ["anna", "ben"],
            "scores": {"anna": 12, "ben": 7}, "winners": ["anna"], "started": now - 600,
            "ended": now, "moves": 40, **changes}
    return GameResult.model_validate(data)


def state(table: str = "t1", **changes: object) -> TableState:
    data = {"table": table, "game": "tiki_topple", "game_name": "Tiki Topple",
            "language": "en", "players": ["anna", "ben"], "to_act": "ben",
            "step": "ben plays a card", "moves": 3, "running": True, **changes}
    return TableState.model_validate(data)


@contextlib.asynccontextmanager
async def club_running(url: str, data: Path) -> AsyncIterator[ClubService]:
    club = ClubService(url, data, name="test", retry=FAST)
    task = asyncio.create_task(club.run())
    try:
        await club.wait_until(lambda: club.connected, WAIT)
        yield club
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        club.close()


@contextlib.asynccontextmanager
async def table_client(url: str, name: str = "test-table") -> AsyncIterator[
        tuple[aiomqtt.Client, list[str]]]:
    """A stand-in table: publishes as a table does and collects the club's receipts."""
    port = int(url.rsplit(":", 1)[1])
    receipts: list[str] = []
    async with aiomqtt.Client("127.0.0.1", port, identifier=name) as client:
        await client.subscribe(topic("+", "receipt"), qos=1)

        async def collect() -> None:
            async for message in client.messages:
                receipts.append(Receipt.model_validate_json(bytes(message.payload)).uid)

        collecting = asyncio.create_task(collect())
        try:
            yield client, receipts
        finally:
            collecting.cancel()
            await asyncio.gather(collecting, return_exceptions=True)


async def until(condition, timeout: float = WAIT) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


def test_each_result_is_stored_once_and_answered_every_time(broker: Broker,
                                                            tmp_path: Path) -> None:
    async def scenario() -> None:
        async with club_running(broker.url, tmp_path) as club, \
                table_client(broker.url) as (table, receipts):
            await table.publish(topic("t1", "availability"), "online", qos=1, retain=True)
            await table.publish(topic("t1", "state"), state().model_dump_json(), qos=1,
                                retain=True)
            first, second = result("t1/1/1"), result("t1/2/2", scores={"anna": 3, "ben": 9},
                                                       winners=["ben"])
            for sent in (first, first, second):  # the first one again, as after a cut
                await table.publish(topic("t1", "result"), sent.model_dump_json(), qos=1)
            await until(lambda: len(receipts) == 3)
            assert sorted(receipts) == ["t1/1/1", "t1/1/1", "t1/2/2"]
            assert [r.uid for r in club.results()] == ["t1/1/1", "t1/2/2"]
            assert club.store.result_count() == 2
            stored = club.results()[1]
            assert (stored.scores, stored.winners, stored.players) == (
                {"anna": 3, "ben": 9}, ("ben",), ("anna", "ben"))
            view = club.view()
            [t1] = view.tables
            assert (t1.name, t1.availability, t1.step, t1.to_act) == (
                "t1", "online", "ben plays a card", "ben")
            assert [g.uid for g in view.games] == ["t1/2/2", "t1/1/1"]  # the latest first
            # one win each; ben's came later, against a stronger anna: he rates higher
            assert [(s.player, s.played, s.wins, s.points) for s in view.standings] == [
                ("ben", 2, 1, 16), ("anna", 2, 1, 15)]
            await until(lambda: club.receipts == 3)  # counted once the broker has it
            assert (club.stored, club.duplicates) == (2, 1)

    asyncio.run(scenario())


def test_malformed_and_spoofed_messages_change_nothing(broker: Broker,
                                                       tmp_path: Path) -> None:
    async def scenario() -> None:
        async with club_running(broker.url, tmp_path) as club, \
                table_client(broker.url) as (table, receipts):
            await table.publish(topic("t1", "state"), state().model_dump_json(), qos=1)
            await until(lambda: "t1" in club.tables)
            before = club.view().model_dump()
            bad = [
                (topic("t1", "result"), b"{not json"),
                (topic("t1", "result"), json.dumps({"uid": "x", "table": "t1"}).encode()),
                (topic("t1", "result"), result("t1/9/9", scores={"anna": 1}).model_dump_json()),
                (topic("t2", "result"), result("t1/6/6").model_dump_json()),  # spoofed
                (topic("t2", "state"), state("t1", step="spoofed").model_dump_json()),
                (topic("t1", "state"), b"[]"),
                (topic("t1", "availability"), b"maybe"),
                (topic("T!", "result"), result("t1/7/7").model_dump_json()),
            ]
            for name, payload in bad:
                await table.publish(name, payload, qos=1)
            sentinel = result("t1/8/8")  # sent last: once it is answered, the rest were read
            await table.publish(topic("t1", "result"), sentinel.model_dump_json(), qos=1)
            await until(lambda: receipts == ["t1/8/8"])
            await asyncio.sleep(0.2)  # a receipt for a refused result would be here by now
            assert receipts == ["t1/8/8"]
            assert [r.uid for r in club.results()] == ["t1/8/8"]
            assert club.refused == len(bad)
            assert set(club.tables) == {"t1"}
            after = club.view().model_dump()
            assert after["tables"] == before["tables"]  # the spoofed step is not shown

    asyncio.run(scenario())


def test_results_survive_a_restart_and_queued_ones_arrive(broker: Broker,
                                                          tmp_path: Path) -> None:
    async def scenario() -> None:
        async with club_running(broker.url, tmp_path) as club, \
                table_client(broker.url) as (table, receipts):
            await table.publish(topic("t1", "result"), result("t1/1/1").model_dump_json(),
                                qos=1)
            await until(lambda: receipts == ["t1/1/1"])
            assert club.connections == 1
        # the club is down: the broker keeps what comes for its session
        async with table_client(broker.url, "another-table") as (table, receipts):
            for uid in ("t2/1/1", "t2/2/2"):
                await table.publish(topic("t2", "result"),
                                    result(uid, table="t2").model_dump_json(), qos=1)
            await asyncio.sleep(0.1)
            assert receipts == []
            async with club_running(broker.url, tmp_path) as club:
                await club.wait_until(lambda: len(club.results()) == 3, WAIT)
                assert [r.uid for r in club.results()] == ["t1/1/1", "t2/1/1", "t2/2/2"]
                await until(lambda: sorted(receipts) == ["t2/1/1", "t2/2/2"])

    asyncio.run(scenario())


def test_the_club_comes_back_after_the_broker_is_killed(broker: Broker,
                                                        tmp_path: Path) -> None:
    async def scenario() -> None:
        async with club_running(broker.url, tmp_path / "club") as club:
            async with table_client(broker.url) as (table, receipts):
                await table.publish(topic("t1", "result"), result("t1/1/1").model_dump_json(),
                                    qos=1)
                await until(lambda: receipts == ["t1/1/1"])
            broker.kill()
            await club.wait_until(lambda: not club.connected, WAIT)
            assert club.problem
            await asyncio.sleep(0.3)  # a few attempts fail while it is away
            broker.start()
            await club.wait_until(lambda: club.connected, WAIT)
            assert club.connections == 2
            async with table_client(broker.url) as (table, receipts):
                await table.publish(topic("t1", "result"), result("t1/2/2").model_dump_json(),
                                    qos=1)
                await until(lambda: receipts == ["t1/2/2"])
            assert [r.uid for r in club.results()] == ["t1/1/1", "t1/2/2"]

    asyncio.run(scenario())


def test_the_command_refuses_bad_options_in_one_line(cli, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = cli("club", "--mqtt", "http://club.local", "--data", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "mqtt://host" in err
    code, _, err = cli("club", "--mqtt", "mqtt://club.local", "--since", "6 pm")
    assert code == 2 and "HH:MM" in err
    (tmp_path / "club.sqlite3").write_bytes(b"not a database at all, but long enough " * 40)
    code, _, err = cli("club", "--mqtt", "mqtt://club.local", "--data", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "damaged" in err
    monkeypatch.setitem(sys.modules, "openskill.models", None)  # as if not installed
    code, _, err = cli("club", "--mqtt", "mqtt://club.local", "--data", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "pip install 'tabletop[club]'" in err
