"""The table's line to a club: its public state, events and results on an MQTT broker.

The table plays on whatever the broker does: the link runs beside the service, reconnects with
a growing pause, and keeps every finished game's result in the journal's outbox until the club
says it has stored it (a ``Receipt``). A broker's acknowledgement alone is not enough: a broker
killed before it saved or delivered the message would lose it. The club counts a result once
by its unique id, so sending it again after a cut costs nothing.

Home Assistant finds each table by MQTT discovery (a device with sensors for whose turn, the
step, each seat's score, a binary sensor for a running game and an event entity).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from games.core.errors import GameError

from .club_messages import (
    COMMANDS,
    DISCOVERY,
    HA_STATUS,
    MAX_COMMAND_BYTES,
    OFFLINE,
    ONLINE,
    BadMessage,
    Command,
    GameResult,
    Receipt,
    Response,
    TableEvent,
    TableState,
    check_table_name,
    game_uid,
    topic,
)
from .errors import ControllerError
from .journal import JournalError

if TYPE_CHECKING:
    import aiomqtt

    from .service import TableService

log = logging.getLogger(__name__)

STATE_INTERVAL = 0.25
"""At most four state messages a second: a burst of hub frames is one message."""
GOODBYE_SECONDS = 2.0
"""How long a stopping table waits to say ``offline`` (its retained ``online`` would stay)."""
RESEND_SECONDS = 30.0
"""A result the club has not confirmed is sent again this long after (and on every
reconnect)."""
RETRY_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Pauses between connection attempts, the last one repeated."""
PUBLISH_SECONDS = 10.0
"""A publish the broker has not acknowledged by then counts as a lost connection."""
MAX_SEATS = 8
"""Score sensors announced to Home Assistant (more than any of our games seats)."""
EVENT_KINDS = {"move": "move", "wrong": "mistake", "end": "game_over"}
"""The table's log kinds worth telling the club, by the name the events topic gives them."""


async def cancel_all(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` until they have ended: on Python 3.11 a cancel that meets a
    ``wait_for`` finishing at that moment is lost (aiomqtt waits with it), and the task would
    run on."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=0.5)


class BrokerAddressError(ControllerError, ValueError):
    """A broker URL the link cannot use: the reason, in one line."""

    http_status = 422


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: Path | None = None
    """The CA to trust for TLS instead of the system's (a club's own certificate)."""

    @classmethod
    def parse(cls, url: str, *, password: str | None = None,
              ca_file: Path | None = None) -> BrokerAddress:
        """``mqtt://[user[:password]@]host[:port]`` (1883), or ``mqtts://`` for TLS (8883)."""
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise BrokerAddressError(f"{url!r}: give the broker as mqtt://host[:port] (or "
                                     "mqtts:// for TLS), with user:password@ if it asks")
        try:
            port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
        except ValueError:
            raise BrokerAddressError(f"{url!r}: the port is not a number from 1 to 65535"
                                     ) from None
        return cls(parts.hostname, port, unquote(parts.username) if parts.username else None,
                   password or (unquote(parts.password) if parts.password else None),
                   parts.scheme == "mqtts", ca_file)

    def __str__(self) -> str:  # never the password
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"

    def client(self, identifier: str, **options: Any) -> aiomqtt.Client:
        import aiomqtt

        context = None
        if self.tls:
            context = ssl.create_default_context(
                cafile=str(self.ca_file) if self.ca_file else None)
        return aiomqtt.Client(self.host, self.port, username=self.username,
                              password=self.password, identifier=identifier,
                              tls_context=context, **options)


@dataclass(frozen=True, slots=True)
class LinkReport:
    """The link as the status page shows it."""

    broker: str
    table: str
    connected: bool
    waiting: int
    """Results kept until the club confirms them."""
    problem: str | None


class ClubLink:
    """Publishes one table to a broker and takes the club's commands; ``run`` until cancelled."""

    def __init__(self, service: TableService, broker: BrokerAddress, table: str, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.broker = broker
        self.table = check_table_name(table)
        self.clock = clock
        self.connected = False
        self.problem: str | None = None
        self.published = 0
        """Messages the broker acknowledged."""
        self.timings: list[float] | None = None
        """When a list: each message's time to the broker's acknowledgement, ms (the bench)."""
        self.resend_seconds = RESEND_SECONDS
        self._changed = asyncio.Event()
        self._new_result = asyncio.Event()
        self._announce = asyncio.Event()
        self._sent_state: bytes | None = None
        self._told: tuple[Any, ...] = ()
        """What ``_sent_state`` was made from (``_facts``)."""
        self._sent_events = service.table.logged
        """The table's event count told already: a link begun mid-game tells what follows."""
        self._maybe_ended = asyncio.Event()
        service.listeners.append(self._note)
        service.club = self

    # -- what the page shows -------------------------------------------------------------------
    def report(self) -> LinkReport:
        journal = self.service.table.journal
        try:
            waiting = len(journal.results_waiting())
        except JournalError:
            waiting = 0
        return LinkReport(str(self.broker), self.table, self.connected, waiting, self.problem)

    def _note(self) -> None:
        """The table changed (called on its path: only take note)."""
        self._changed.set()
        self._maybe_ended.set()

    # -- running ---------------------------------------------------------------------------------
    async def run(self) -> None:
        keeper = asyncio.create_task(self._keep_results(), name="club-outbox")
        try:
            await self._connect()
        finally:
            await cancel_all([keeper])

    async def _keep_results(self) -> None:
        """Put each finished game's result in the outbox, connected or not."""
        while True:
            await self._maybe_ended.wait()
            self._maybe_ended.clear()
            self._queue_result()
            await asyncio.sleep(STATE_INTERVAL)

    async def _connect(self) -> None:
        import aiomqtt

        attempt = 0
        while True:
            will = aiomqtt.Will(topic(self.table, "availability"), OFFLINE, qos=1, retain=True)
            try:
                async with self.broker.client(f"tabletop-table-{self.table}", will=will,
                                              keepalive=15) as client:
                    attempt = 0
                    await self._online(client)
            except aiomqtt.MqttError as error:
                self._offline(str(error))
            pause = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
            attempt += 1
            await asyncio.sleep(pause)

    def _offline(self, why: str) -> None:
        if self.connected or self.problem != why:
            log.warning("club broker %s: %s; the table plays on and sends its results later",
                        self.broker, why)
        self.connected, self.problem = False, why
        self.service.publish()

    async def _online(self, client: aiomqtt.Client) -> None:
        await client.subscribe([(topic(self.table, "set", "+"), 1),
                                (topic(self.table, "receipt"), 1), (HA_STATUS, 1)])
        await self._send(client, topic(self.table, "availability"), ONLINE, retain=True)
        await self._discovery(client)
        self.connected, self.problem, self._sent_state = True, None, None
        log.info("club broker %s: table %s online", self.broker, self.table)
        self.service.publish()
        self._changed.set()
        tasks = [asyncio.create_task(self._listen(client), name="club-listen"),
                 asyncio.create_task(self._tell(client), name="club-tell"),
                 asyncio.create_task(self._results(client), name="club-results")]
        stopping = False
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()  # the broker went away: MqttError, to run()
        except asyncio.CancelledError:
            stopping = True
            raise
        finally:
            await cancel_all(tasks)
            if stopping:  # a clean stop: the last will only speaks for a link that dropped
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._send(client, topic(
                        self.table, "availability"), OFFLINE, retain=True), GOODBYE_SECONDS)

    async def _listen(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            name, payload = str(message.topic), message.payload
            data = payload if isinstance(payload, bytes | bytearray) else str(payload).encode()
            if name == HA_STATUS:
                if bytes(data) == ONLINE.encode():
                    self._announce.set()
                    self._changed.set()
            elif name == topic(self.table, "receipt"):
                self._received(bytes(data))
            elif name.startswith(topic(self.table, "set") + "/"):
                command = name.rsplit("/", 1)[1]
                answer = self.command(command, bytes(data))
                await self._send(client, topic(self.table, "response", command),
                                 answer.model_dump_json())

    def _received(self, data: bytes) -> None:
        try:
            receipt = Receipt.parse(data)
            self.service.table.journal.result_received(receipt.uid)  # type: ignore[attr-defined]
        except (BadMessage, JournalError) as error:
            log.warning("club receipt not taken: %s", error)
            return
        self.service.publish()  # the page's count of results waiting

    # -- commands ----------------------------------------------------------------------------
    def command(self, name: str, data: bytes) -> Response:
        """Carry out one command from the club; every refusal says why and changes nothing."""
        request_id = None
        try:
            if len(data) > MAX_COMMAND_BYTES:  # refused unread
                raise BadMessage(f"a command is at most {MAX_COMMAND_BYTES} bytes, this one "
                                 f"{len(data)}")
            with contextlib.suppress(ValueError, AttributeError):
                request_id = str(json.loads(data).get("id"))[:64]
            if name not in COMMANDS:
                raise BadMessage(f"unknown command {name!r}: {', '.join(COMMANDS)}")
            request = Command.parse(data)
            request_id = request.id
            texts = self.service.texts()
            if name == "new_game":
                if not request.players:
                    raise BadMessage("new_game: give the players, in seat order")
                reply = self.service.new_game(request.players, request.options)
            elif name == "rematch":
                reply = self.service.rematch()
            else:
                reply = self.service.abort()
            return Response(id=request_id, ok=True, message=texts.text(reply))
        except BadMessage as error:
            return Response(id=request_id, ok=False, message=str(error))
        except (GameError, JournalError) as error:
            sentence = getattr(error, "sentence", None)
            return Response(id=request_id, ok=False,
                            message=self.service.texts().text(sentence or str(error)))

    # -- state and events ----------------------------------------------------------------------
    async def _tell(self, client: aiomqtt.Client) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            if self._announce.is_set():
                self._announce.clear()
                await self._discovery(client)
                self._sent_state = None  # Home Assistant reads the state anew
            for event in self.events():
                await self._send(client, topic(self.table, "events"), event.model_dump_json())
            facts = self._facts()
            if self._sent_state is None or not _same(facts, self._told):
                state = self.state().model_dump_json().encode()
                if state != self._sent_state:
                    await self._send(client, topic(self.table, "state"), state, retain=True)
                    self._sent_state = state
                self._told = facts
            await asyncio.sleep(STATE_INTERVAL)

    def _facts(self) -> tuple[Any, ...]:
        """What the public state is made from, cheap to take: the position (the state object
        itself), the game, its log, the verdict and the language. Most of what wakes ``_tell``
        is the hubs' heartbeats and frames, which change none of it; the state is rendered only
        when one of these changed (on a Pi a status render costs tens of milliseconds)."""
        table = self.service.table
        return (table.state if table.started else None, table.game_id, table.logged,
                table.decision, len(table.reveals), self.service.texts().language)

    def _uid(self) -> str | None:
        table = self.service.table
        if table.game_id is None:
            return None
        stored = table.journal.get(table.game_id)
        return None if stored is None else game_uid(self.table, stored.id, stored.started)

    def state(self) -> TableState:
        """The table's public state, in its own language."""
        texts = self.service.texts()
        status = self.service.table.status(texts)
        game = self.service.table.game
        return TableState(
            table=self.table, game=game.id, game_name=texts.text(game.name),
            language=texts.language, game_uid=self._uid() if status.started else None,
            players=status.players, to_act=status.to_act,
            step=status.step.text if status.step else None, moves=status.moves,
            scores=dict(status.scores.scores) if status.scores else None,
            finished=status.finished, winners=status.winners,
            running=status.started and not status.finished)

    def events(self) -> list[TableEvent]:
        """The table's log lines since the last call that the club hears of."""
        table = self.service.table
        new = min(table.logged - self._sent_events, len(table.events))
        self._sent_events = table.logged
        texts = self.service.texts()
        uid = self._uid() if table.started else None
        now = self.clock()
        return [TableEvent(table=self.table, game_uid=uid, event_type=EVENT_KINDS[line.kind],
                           text=texts.text(line.message), at=now)
                for line in (table.events[-new:] if new else []) if line.kind in EVENT_KINDS]

    # -- results ---------------------------------------------------------------------------------
    def result(self) -> GameResult | None:
        """The finished game's result, once the score is known (None before)."""
        table = self.service.table
        if not table.started or table.game_id is None or not table.game.is_terminal(
                table.state) or not table.score_known:
            return None
        stored = table.journal.get(table.game_id)
        if stored is None or stored.ended is None:
            return None
        status = table.status()
        if status.scores is None:
            return None
        return GameResult(uid=game_uid(self.table, stored.id, stored.started), table=self.table,
                          game=table.game.id, players=list(status.players),
                          scores=dict(status.scores.scores), winners=status.winners,
                          started=stored.started, ended=stored.ended, moves=status.moves)

    def _queue_result(self) -> None:
        try:
            result = self.result()
            if result is not None and self.service.table.journal.queue_result(
                    result.uid, self.service.table.game_id, result.model_dump_json()):
                log.info("club: the result of %s is kept until the club has it", result.uid)
                self._new_result.set()  # send it now
        except JournalError as error:  # the journal's own retry loop says what to do
            log.warning("club: the result is not kept yet: %s", error)

    async def _results(self, client: aiomqtt.Client) -> None:
        """Send every result the club has not confirmed: at once, on every reconnect, and
        again every ``resend_seconds`` until its receipt comes."""
        journal = self.service.table.journal
        self._queue_result()  # a game that ended while the link was down
        while True:
            self._new_result.clear()
            try:
                waiting = journal.results_waiting()
            except JournalError as error:
                log.warning("club: cannot read the outbox: %s", error)
                waiting = []
            for uid, payload in waiting:
                await self._send(client, topic(self.table, "result"), payload)
                with contextlib.suppress(JournalError):
                    journal.result_sent(uid)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.resend_seconds):
                    await self._new_result.wait()

    async def _send(self, client: aiomqtt.Client, name: str, payload: str | bytes,
                    retain: bool = False) -> None:
        """One QoS 1 message, back once the broker has acknowledged it."""
        started = time.perf_counter()
        await client.publish(name, payload, qos=1, retain=retain, timeout=PUBLISH_SECONDS)
        self.published += 1
        if self.timings is not None:
            self.timings.append((time.perf_counter() - started) * 1000)

    # -- Home Assistant ------------------------------------------------------------------------
    async def _discovery(self, client: aiomqtt.Client) -> None:
        for name, config in discovery(self.table, self.service.table.game.name).items():
            await self._send(client, name, json.dumps(config), retain=True)


def discovery(table: str, game_name: str) -> dict[str, dict[str, Any]]:
    """Home Assistant's discovery messages for one table: config topic to payload."""
    node = f"tabletop_{table}"
    state, events = topic(table, "state"), topic(table, "events")
    device = {"identifiers": [node], "name": f"tabletop {table}", "model": game_name,
              "manufacturer": "tabletop"}
    common = {"availability_topic": topic(table, "availability"), "payload_available": ONLINE,
              "payload_not_available": OFFLINE, "device": device}

    def entity(component: str, key: str, name: str, **config: Any) -> tuple[str, dict]:
        return (f"{DISCOVERY}/{component}/{node}/{key}/config",
                {"name": name, "unique_id": f"{node}_{key}", "object_id": f"{node}_{key}",
                 **common, **config})

    entities = [
        entity("sensor", "to_act", "Whose turn", state_topic=state, icon="mdi:account-arrow-right",
               value_template="{{ value_json.to_act or '' }}"),
        entity("sensor", "step", "Step", state_topic=state, icon="mdi:message-text",
               value_template="{{ (value_json.step or '')[:255] }}"),
        entity("binary_sensor", "running", "Game running", state_topic=state,
               value_template="{{ 'ON' if value_json.running else 'OFF' }}"),
        entity("event", "events", "Game events", state_topic=events,
               event_types=sorted(set(EVENT_KINDS.values()))),
        *(entity("sensor", f"score_{seat}", f"Seat {seat} score", state_topic=state,
                 state_class="measurement", icon="mdi:scoreboard",
                 value_template=(f"{{% set p = value_json.players %}}{{{{ value_json.scores[p"
                                 f"[{seat - 1}]] if value_json.scores and p | length > {seat - 1}"
                                 " else None }}"),
                 json_attributes_topic=state,
                 json_attributes_template=(f"{{{{ {{'player': value_json.players[{seat - 1}]"
                                           f" if value_json.players | length > {seat - 1} "
                                           "else None} | tojson }}"))
          for seat in range(1, MAX_SEATS + 1)),
    ]
    return dict(entities)


def forget_topics(table: str) -> list[str]:
    """Every retained topic a table leaves on the broker: an empty retained message on each
    removes the table from the broker and from Home Assistant."""
    return [*discovery(table, "").keys(), topic(table, "state"), topic(table, "availability")]


def _same(facts: tuple[Any, ...], told: tuple[Any, ...]) -> bool:
    """The position by identity (two states may be equal and deep to compare), the rest by
    value."""
    return bool(told) and facts[0] is told[0] and facts[1:] == told[1:]
