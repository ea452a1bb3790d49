"""The club: one service that hears every table of an evening on the MQTT broker.

It keeps the tables' live state for its page and stores every finished game's result, then
answers each result with a ``Receipt`` (every time it sees one, a duplicate too: the receipt
is how the table learns it may drop the result from its outbox). Its MQTT session is
persistent (a fixed client id, ``clean_session`` off): results sent while the club is down
wait on the broker and arrive when it is back. The broker may go away at any moment (killed,
restarted); the club reconnects forever with a growing pause, and the tables play on
meanwhile.

Nothing a table sends is trusted: every payload is checked with the models of
``club_messages``; a bad one is logged, counted and changes nothing, and a table may only
speak for itself (a result or state naming another table than its topic's is refused).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from datetime import time as clock_time
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from games.core.errors import UnknownGame
from games.registry import get_game

from . import club_standings
from .club_link import PUBLISH_SECONDS, BrokerAddress, cancel_all
from .club_messages import (
    OFFLINE,
    ONLINE,
    TABLE_NAME,
    BadMessage,
    GameResult,
    Receipt,
    TableEvent,
    TableState,
    check_table_name,
    table_of,
    topic,
)
from .club_standings import EVENING_STARTS, Standing
from .club_store import ClubStore, ClubStoreError, StoredResult, TableRow
from .errors import ControllerError
from .language import catalogue

if TYPE_CHECKING:
    import aiomqtt

log = logging.getLogger(__name__)

KINDS = ("availability", "state", "events", "result")
SUBSCRIPTIONS = [(topic("+", kind), 1) for kind in KINDS]
"""Everything the club hears, all at QoS 1 (kept for it on the broker while it is away)."""
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0, 10.0)
"""Pauses between connection attempts, the last one repeated."""
KEEPALIVE = 15
"""MQTT keepalive: a broker that vanished without closing the socket is noticed this soon."""
FLUSH_SECONDS = 1.0
"""The tables' state is written to the store at most this often (results at once)."""
MAX_PAYLOAD = 64 * 1024
"""A payload longer than this is refused unread."""
EVENTS_KEPT = 5
"""The last events of each table the page can show."""
STREAM_INTERVAL = 0.25
"""At most four page updates a second: a burst of tables' states is sent once."""
STREAM_KEEPALIVE = 15.0
"""Seconds of quiet after which the page is sent the view again (the evening may roll over)."""


AVAILABILITY: dict[str | None, Literal["online", "offline"]] = {ONLINE: "online",
                                                                OFFLINE: "offline"}


class ClubNameError(ControllerError, ValueError):
    """A club name that cannot be part of an MQTT client id."""

    http_status = 422


@dataclass
class LiveTable:
    """What the club knows of one table now."""

    name: str
    availability: str | None = None
    """``online``, ``offline`` or None (not heard yet)."""
    state: TableState | None = None
    seen: float = 0.0
    events: deque[TableEvent] = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))

    def row(self) -> TableRow:
        return TableRow(self.name, self.availability,
                        self.state.model_dump_json() if self.state else None, self.seen)


# -- the page's view ---------------------------------------------------------------------------
class TableView(BaseModel):
    name: str
    availability: Literal["online", "offline", "unknown"]
    game: str | None
    game_name: str | None
    """In the table's own language (as it sends it)."""
    language: str | None
    step: str | None
    """The table's step sentence, in its own language."""
    to_act: str | None
    players: list[str]
    moves: int
    running: bool
    finished: bool
    winners: list[str]
    scores: dict[str, int] | None
    last_event: str | None
    seen: float


class FinishedGame(BaseModel):
    uid: str
    table: str
    game: str
    game_name: str
    """In the reader's language."""
    players: list[str]
    scores: dict[str, int]
    winners: list[str]
    started: float
    ended: float
    moves: int


class GameStandings(BaseModel):
    game: str
    game_name: str
    standings: list[Standing]


class ClubView(BaseModel):
    """``/api/club``: the tables now, the evening's finished games and its standings."""

    club: str
    broker: str
    connected: bool
    problem: str | None
    since: float
    """The evening began then (epoch seconds): its games and standings count from there."""
    tables: list[TableView]
    games: list[FinishedGame]
    """The evening's finished games, the latest first."""
    standings: list[Standing]
    """Over every game of the evening."""
    by_game: list[GameStandings]


def standing_view(line: Standing) -> Standing:
    """A line as the page and the exports show it: the rating to a tenth, mu and sigma to
    three places."""
    return replace(line, rating=round(line.rating, 1), mu=round(line.mu, 3),
                   sigma=round(line.sigma, 3))


def game_name(game: str, language: str) -> str:
    """A game id as the game's box names it, in ``language`` (an unknown id as it is)."""
    try:
        found = get_game(game)
    except UnknownGame:
        return game
    return catalogue(language, found).text(found.name)


def check_result(result: GameResult) -> GameResult:
    """A result whose parts agree: players named once, a score for each, winners among them."""
    if not result.players:
        raise BadMessage("GameResult: players: no players")
    if len(set(result.players)) != len(result.players):
        raise BadMessage("GameResult: players: a name appears twice")
    if set(result.scores) != set(result.players):
        raise BadMessage("GameResult: scores: not one score for each player")
    if not set(result.winners) <= set(result.players):
        raise BadMessage("GameResult: winners: a winner who did not play")
    if result.ended < result.started:
        raise BadMessage("GameResult: ended: before it started")
    return result


class ClubService:
    """The club's side of the broker; ``run()`` until cancelled, on the loop that serves its
    page (``club_web.create_club_app``). Not thread-safe: call it from that loop."""

    def __init__(self, broker: BrokerAddress | str, data: str | Path, *, name: str = "club",
                 since: clock_time | float = EVENING_STARTS,
                 clock: Callable[[], float] = time.time,
                 retry: Sequence[float] = RETRY_SECONDS) -> None:
        """``broker``: ``mqtt://[user:password@]host[:port]`` or ``mqtts://`` (TLS) or a
        parsed address (with its CA file); ``data``: the folder of ``club.sqlite3``;
        ``name``: the club's name in its MQTT client id ``tabletop-club-<name>`` (the broker
        keeps the session under it); ``since``: the time of day the evening starts (06:00),
        or a fixed moment (epoch seconds)."""
        if not TABLE_NAME.fullmatch(name):
            raise ClubNameError(f"club name {name!r}: 1 to 32 of a-z, 0-9, '-' and '_', "
                                "starting with a letter or digit (it names the MQTT session)")
        self.broker = BrokerAddress.parse(broker) if isinstance(broker, str) else broker
        self.name = name
        self.client_id = f"tabletop-club-{name}"
        self.since = since
        self.clock = clock
        self.retry = tuple(retry) or RETRY_SECONDS
        try:
            Path(data).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ClubStoreError(f"cannot create the club's data folder {data}: "
                                 f"{error.strerror}; give another --data folder") from None
        self.store = ClubStore.in_folder(data)
        self.connected = False
        self.problem: str | None = None
        self.taken = 0
        """Messages taken (stored or applied)."""
        self.refused = 0
        """Messages refused (malformed, spoofed, too long)."""
        self.receipts = 0
        """Receipts published (one per result seen, duplicates too)."""
        self.stored = 0
        """Results stored by this run (new uids)."""
        self.duplicates = 0
        """Results seen again (stored already): answered, not stored."""
        self.connections = 0
        self.version = 0
        """Counts every change the page can see."""
        self._changed = asyncio.Event()
        self._dirty: set[str] = set()
        self._results_version = 0
        self._standings: tuple[tuple[int, float], tuple[list[Standing],
                                                        dict[str, list[Standing]]]] | None = None
        self._views: dict[str, tuple[tuple[int, float], str]] = {}
        self.tables: dict[str, LiveTable] = {}
        for row in self.store.tables():
            state = None
            if row.state:
                with contextlib.suppress(BadMessage):
                    state = TableState.parse(row.state)
            self.tables[row.name] = LiveTable(row.name, row.availability, state, row.seen)

    # -- running -------------------------------------------------------------------------------
    async def run(self) -> None:
        """Listen to the broker until cancelled, reconnecting whenever it goes away."""
        import aiomqtt

        flusher = asyncio.create_task(self._flush_often(), name="club-flush")
        attempt = 0
        try:
            while True:
                try:
                    async with self.broker.client(
                            self.client_id, clean_session=False, keepalive=KEEPALIVE,
                            protocol=aiomqtt.ProtocolVersion.V311) as client:
                        attempt = 0
                        await self._online(client)
                except aiomqtt.MqttError as error:
                    self._offline(str(error))
                pause = self.retry[min(attempt, len(self.retry) - 1)]
                attempt += 1
                await asyncio.sleep(pause)
        finally:
            await cancel_all([flusher])
            self.connected = False
            self.flush()

    def _offline(self, why: str) -> None:
        if self.connected or self.problem != why:
            log.warning("club: broker %s: %s; reconnecting (the tables keep their results "
                        "until the club confirms them)", self.broker, why)
        self.connected, self.problem = False, why
        self._bump()

    async def _online(self, client: aiomqtt.Client) -> None:
        await client.subscribe(SUBSCRIPTIONS)
        self.connected, self.problem = True, None
        self.connections += 1
        log.info("club %s: listening to %s", self.name, self.broker)
        self._bump()
        async for message in client.messages:
            payload = message.payload
            data = bytes(payload) if isinstance(payload, bytes | bytearray) else (
                b"" if payload is None else str(payload).encode())
            name = str(message.topic)
            receipt = self.take(name, data)
            if receipt is not None:
                table = table_of(name) or ""
                await client.publish(topic(table, "receipt"), receipt.model_dump_json(), qos=1,
                                     timeout=PUBLISH_SECONDS)
                self.receipts += 1

    # -- what the tables say -------------------------------------------------------------------
    def take(self, name: str, data: bytes) -> Receipt | None:
        """Apply one message; the receipt to send back for a result (None: nothing to send).
        A bad message is logged and changes nothing."""
        try:
            receipt = self._take(name, data)
        except BadMessage as error:
            self.refused += 1
            log.warning("club: %s refused: %s", name, error)
            return None
        except ClubStoreError as error:  # no receipt: the table sends it again later
            self.problem = str(error)
            log.error("club: %s not stored: %s", name, error)
            self._bump()
            return None
        self.taken += 1
        return receipt

    def _take(self, name: str, data: bytes) -> Receipt | None:
        table = table_of(name)
        kind = name.split("/")[-1]
        if table is None or name.count("/") != 2 or kind not in KINDS:
            raise BadMessage(f"not a table's topic ({', '.join(KINDS)})")
        check_table_name(table)
        if len(data) > MAX_PAYLOAD:
            raise BadMessage(f"a payload is at most {MAX_PAYLOAD} bytes, this one {len(data)}")
        now = self.clock()
        if kind == "result":
            parsed = GameResult.parse(data)
            assert isinstance(parsed, GameResult)
            result = check_result(parsed)
            self._same_table(table, result.table)
            if self.store.add_result(result, now):
                self.stored += 1
                self._results_version += 1
                log.info("club: result %s stored (%s at %s)", result.uid, result.game, table)
                self._bump()
            else:
                self.duplicates += 1
            return Receipt(uid=result.uid)
        if kind == "availability":
            self._availability(table, data, now)
        elif kind == "state":
            if not data:  # the table's retained state removed
                self._live(table, now).state = None
            else:
                state = TableState.parse(data)
                assert isinstance(state, TableState)
                self._same_table(table, state.table)
                self._live(table, now).state = state
        else:
            event = TableEvent.parse(data)
            assert isinstance(event, TableEvent)
            self._same_table(table, event.table)
            self._live(table, now).events.append(event)
        self._dirty.add(table)
        self._bump()
        return None

    @staticmethod
    def _same_table(topic_table: str, named: str) -> None:
        if named != topic_table:
            raise BadMessage(f"it names table {named!r} on table {topic_table!r}'s topic: a "
                             "table speaks only for itself")

    def _availability(self, table: str, data: bytes, now: float) -> None:
        text = data.decode("utf-8", "replace")
        if not text:  # the table was forgotten on the broker (``club_link.forget_topics``)
            self.tables.pop(table, None)
            self._dirty.discard(table)
            self.store.forget_table(table)
            return
        if text not in (ONLINE, OFFLINE):
            raise BadMessage(f"availability is {ONLINE!r} or {OFFLINE!r}, not {text[:40]!r}")
        self._live(table, now).availability = text

    def _live(self, table: str, now: float) -> LiveTable:
        live = self.tables.get(table)
        if live is None:
            live = self.tables[table] = LiveTable(table)
        live.seen = now
        return live

    def flush(self) -> None:
        """Write the tables changed since the last flush to the store."""
        if not self._dirty:
            return
        rows = [self.tables[name].row() for name in sorted(self._dirty) if name in self.tables]
        try:
            self.store.save_tables(rows)
            self._dirty.clear()
        except ClubStoreError as error:  # kept dirty: tried again at the next flush
            log.error("club: tables not saved: %s", error)

    async def _flush_often(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            self.flush()

    def close(self) -> None:
        self.flush()
        self.store.close()

    # -- changes -------------------------------------------------------------------------------
    def _bump(self) -> None:
        self.version += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def changed(self, version: int | None = None) -> int:
        """Wait until the view is newer than ``version`` (None: the current one); the new
        version."""
        seen = self.version if version is None else version
        while self.version == seen:
            await self._changed.wait()
        return self.version

    async def wait_until(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        """Wait until ``condition()`` holds, checked after every change (``TimeoutError``
        after ``timeout`` seconds): for tests and benches that drive tables at the club."""
        async with asyncio.timeout(timeout):
            while not condition():
                await self.changed()

    # -- reading -------------------------------------------------------------------------------
    def evening_since(self) -> float:
        """When the evening began (epoch seconds): the most recent ``since`` time of day, or
        the fixed moment given."""
        if isinstance(self.since, int | float):
            return float(self.since)
        now = datetime.fromtimestamp(self.clock()).astimezone()
        return club_standings.evening_start(now, self.since).timestamp()

    def results(self, since: float | None = None) -> list[StoredResult]:
        """Every stored result (or those ended at ``since`` or later), in the order they
        ended."""
        return self.store.results(since)

    def evening(self) -> list[StoredResult]:
        """The results of the evening (``evening_since``)."""
        return self.store.results(self.evening_since())

    def standings(self) -> tuple[list[Standing], dict[str, list[Standing]]]:
        """The evening's standings: overall, and each game's by game id. Computed once per
        new result (``RatingUnavailable`` without OpenSkill)."""
        since = self.evening_since()
        key = (self._results_version, since)
        if self._standings is None or self._standings[0] != key:
            results = self.store.results(since)
            self._standings = key, (club_standings.standings(results),
                                    club_standings.by_game(results))
        return self._standings[1]

    def view(self, language: str = "en") -> ClubView:
        """The page's view; game names in ``language``."""
        evening = self.evening()
        overall, games = self.standings()
        tables = []
        for live in sorted(self.tables.values(), key=lambda table: table.name):
            state = live.state
            tables.append(TableView(
                name=live.name, availability=AVAILABILITY.get(live.availability, "unknown"),
                game=state.game if state else None, game_name=state.game_name if state else None,
                language=state.language if state else None, step=state.step if state else None,
                to_act=state.to_act if state else None,
                players=list(state.players) if state else [], moves=state.moves if state else 0,
                running=state.running if state else False,
                finished=state.finished if state else False,
                winners=list(state.winners) if state else [],
                scores=dict(state.scores) if state and state.scores is not None else None,
                last_event=live.events[-1].text if live.events else None, seen=live.seen))
        return ClubView(
            club=self.name, broker=str(self.broker), connected=self.connected,
            problem=self.problem, since=self.evening_since(), tables=tables,
            games=[FinishedGame(uid=r.uid, table=r.table, game=r.game,
                                game_name=game_name(r.game, language), players=list(r.players),
                                scores=dict(r.scores), winners=list(r.winners),
                                started=r.started, ended=r.ended, moves=r.moves)
                   for r in reversed(evening)],
            standings=[standing_view(line) for line in overall],
            by_game=[GameStandings(game=game, game_name=game_name(game, language),
                                   standings=[standing_view(line) for line in lines])
                     for game, lines in games.items()])

    def view_json(self, language: str = "en") -> str:
        """``view`` as JSON, made once per change and language (and evening)."""
        key = (self.version, self.evening_since())
        cached = self._views.get(language)
        if cached is None or cached[0] != key:
            cached = key, self.view(language).model_dump_json()
            self._views[language] = cached
        return cached[1]

    async def view_events(self, language: str = "en") -> AsyncIterator[dict[str, str]]:
        """One page's event stream: a ``club`` event with the view now and after each change
        (at most ``1 / STREAM_INTERVAL`` a second), and again after a quiet while."""
        while True:
            version = self.version
            yield {"event": "club", "data": self.view_json(language)}
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(STREAM_KEEPALIVE):
                    await self.changed(version)
            await asyncio.sleep(STREAM_INTERVAL)
