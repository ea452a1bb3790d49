"""A club evening against one real Mosquitto and the real club: 30 tables play whole games
(the players deal from the box and lay each step's board on the table's referee, as an ideal
radio would report it; each table searches for their dealing on the one loop);
every result reaches the standings once. Then the same with the broker killed (-9) and started
again mid-evening, and one table cut off from the broker for longer than its games take."""

from __future__ import annotations

import asyncio
from pathlib import Path

from controller.club_link import BrokerAddress, ClubLink, cancel_all
from controller.club_service import ClubService
from controller.compose.quick_tables import CLUB_GAMES, lay_steps, quick_service, seating
from tests.mosquitto import Broker, free_port

TABLES = 30
CUT_SECONDS = 20.0
"""How long one table is cut off (longer than a game there takes)."""


class Cable:
    """A TCP proxy between one table and the broker that can be pulled: open connections
    drop, new ones are refused until it is plugged in again (a Wi-Fi cut)."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = free_port()
        self.plugged = True
        self._writers: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._connect, "127.0.0.1", self.port)

    async def _connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.plugged:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except OSError:
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def pull(self) -> None:
        self.plugged = False
        for writer in self._writers:
            writer.close()
        self._writers.clear()

    def close(self) -> None:
        self.pull()
        if self._server is not None:
            self._server.close()


async def play(name: str, game_id: str, url: BrokerAddress, data: Path, seed: int,
               links: list[ClubLink]) -> str:
    """One table's game, a step at a time on the shared loop; its result's uid."""
    service = quick_service(game_id, data, seed)
    link = ClubLink(service, url, name)
    links.append(link)
    task = asyncio.create_task(link.run())
    try:
        for _ in lay_steps(service, seating(game_id, seed), seed):
            service.publish()
            await asyncio.sleep(0)  # other tables and the links run between two steps
        service.publish()
        async with asyncio.timeout(120):
            while (result := link.result()) is None or any(
                    uid == result.uid for uid, _ in service.table.journal.results_waiting()) \
                    or not service.table.journal.result_queued(result.uid):
                await asyncio.sleep(0.05)
        return result.uid
    finally:
        await cancel_all([task])
        service.table.journal.close()


async def evening(tmp_path: Path, broker: Broker, *, faults: bool) -> None:
    club = ClubService(broker.url, tmp_path / "club")
    club_task = asyncio.create_task(club.run())
    cable = Cable(broker.port)
    await cable.start()
    links: list[ClubLink] = []
    try:
        async with asyncio.timeout(15):
            while not club.connected:
                await asyncio.sleep(0.02)
        direct = BrokerAddress.parse(broker.url)
        through_cable = BrokerAddress("127.0.0.1", cable.port)
        tables = [asyncio.create_task(play(
            f"t{n + 1}", CLUB_GAMES[n % len(CLUB_GAMES)],
            through_cable if faults and n == 0 else direct, tmp_path / f"t{n + 1}", n, links))
            for n in range(TABLES)]
        if faults:
            cable.pull()  # table t1 plays its whole game cut off
            while club.stored < TABLES // 3:
                await asyncio.sleep(0.05)
            broker.kill()
            await asyncio.sleep(1.0)
            broker.start()
            await asyncio.sleep(CUT_SECONDS)
            assert "t1" not in {r.table for r in club.results()}
            cable.plugged = True
        async with asyncio.timeout(300):  # 30 quick tables on one loop, searching too
            uids = await asyncio.gather(*tables)
            while club.stored < TABLES:
                await asyncio.sleep(0.05)
        results = club.results()
        assert sorted(r.uid for r in results) == sorted(uids)  # all 30, once each
        assert club.store.result_count() == TABLES
        overall, by_game = club.standings()
        assert sum(s.played for s in overall) == sum(len(r.players) for r in results)
        assert set(by_game) == set(CLUB_GAMES)
        if faults:
            assert club.connections >= 2  # it came back after the broker did
    finally:
        await cancel_all([club_task])
        club.close()
        cable.close()


def test_thirty_tables_each_result_once_in_the_standings(tmp_path, broker) -> None:
    asyncio.run(evening(tmp_path, broker, faults=False))


def test_a_broker_killed_and_a_table_cut_off_lose_and_double_no_result(tmp_path, broker) -> None:
    asyncio.run(evening(tmp_path, broker, faults=True))


def test_the_demo_tables_play_on_virtual_hubs_with_the_players_dealing(tmp_path, broker) -> None:
    """``make club``'s tables (``play_evening``): whole games on virtual tables whose players
    deal from the box and show their secrets when asked; each result reaches the club once."""
    from controller.cli.virtual.club_tables import play_evening
    from controller.journal import Journal

    games = ("tiki_topple", "trapper")  # both with unseen draws that decide what is legal

    async def main() -> None:
        club = ClubService(broker.url, tmp_path / "club")
        club_task = asyncio.create_task(club.run())
        try:
            async with asyncio.timeout(240):
                plays = await play_evening(BrokerAddress.parse(broker.url), tmp_path / "tables",
                                           len(games), game_ids=games, seed=3)
                while club.stored < len(games):
                    await asyncio.sleep(0.05)
            assert sorted(r.uid for r in club.results()) == sorted(
                uid for play in plays for uid in play.finished)
            for play in plays:
                journal = Journal(tmp_path / "tables" / play.name / "journal.sqlite3")
                stored = journal.games()[-1]
                assert stored.status == "finished" and stored.dealer == "players"
                assert "?" in stored.actions  # the table never saw their draws
                journal.close()
        finally:
            await cancel_all([club_task])
            club.close()

    asyncio.run(main())
