"""What tables and the club say to each other over MQTT: the topics and the payloads.

One module both ends import, so a table and the club cannot drift apart. The layout follows
Zigbee2MQTT and Home Assistant: everything of one table under ``tabletop/<table>/``, a
retained ``availability`` that the broker turns to ``offline`` (the last will) when the table
drops, a retained ``state``, and commands under ``set/`` answered under ``response/``.

Only public things travel: the state is made from the status every player may see (no hand,
mission or face-down tile), and a result is the scored end of a game.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import ControllerError

ROOT = "tabletop"
DISCOVERY = "homeassistant"
"""Home Assistant's discovery prefix (its default)."""
HA_STATUS = f"{DISCOVERY}/status"
"""Home Assistant says ``online`` here when it starts: tables announce themselves again."""
ONLINE, OFFLINE = "online", "offline"
COMMANDS = ("new_game", "rematch", "abort")
MAX_COMMAND_BYTES = 4096
"""A command payload longer than this is refused unread."""
TABLE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A table's name in topics: no ``/``, ``+`` or ``#``; lower case, as Home Assistant ids."""


class BadMessage(ControllerError, ValueError):
    """A payload that is not what its topic carries: the reason, in one line."""

    http_status = 422


def check_table_name(name: str) -> str:
    if not TABLE_NAME.fullmatch(name):
        raise BadMessage(f"table name {name!r}: 1 to 32 of a-z, 0-9, '-' and '_', starting "
                         "with a letter or digit (it is a part of MQTT topics)")
    return name


def topic(table: str, *parts: str) -> str:
    """``tabletop/<table>/<parts...>``."""
    return "/".join((ROOT, table, *parts))


def table_of(name: str) -> str | None:
    """The table a ``tabletop/<table>/...`` topic belongs to (None: not a table's topic)."""
    parts = name.split("/")
    return parts[1] if len(parts) >= 3 and parts[0] == ROOT else None


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def parse(cls, payload: bytes | str) -> Message:
        """The payload as this model, or ``BadMessage`` saying why not."""
        try:
            return cls.model_validate_json(payload)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "payload"
            raise BadMessage(f"{cls.__name__}: {where}: {first['msg']}") from None


class TableState(Message):
    """``tabletop/<table>/state``, retained: what anyone near the table could see."""

    table: str
    game: str
    """The engine id (``tiki_topple``)."""
    game_name: str
    language: str
    """The language ``step`` is written in (the table's own)."""
    game_uid: str | None = None
    """The running or last game's unique id (None: no game yet)."""
    players: list[str] = Field(default_factory=list)
    to_act: str | None = None
    step: str | None = None
    """The step sentence as the table's page says it."""
    moves: int = 0
    scores: dict[str, int] | None = None
    """None while the score waits for secrets to be shown."""
    finished: bool = False
    winners: list[str] = Field(default_factory=list)
    running: bool = False
    """A game is under way (started and not finished)."""


class TableEvent(Message):
    """``tabletop/<table>/events`` (QoS 1): a line of the table's log worth telling."""

    table: str
    game_uid: str | None
    event_type: Literal["move", "mistake", "game_over"]
    """Named as Home Assistant's event entity wants it."""
    text: str
    at: float


class GameResult(Message):
    """``tabletop/<table>/result`` (QoS 1): a finished game, scored. Sent until the club's
    receipt comes back; ``uid`` makes a result sent twice count once."""

    uid: str
    table: str
    game: str
    players: list[str]
    scores: dict[str, int]
    winners: list[str]
    started: float
    ended: float
    moves: int


class Receipt(Message):
    """``tabletop/<table>/receipt``: the club has stored the result ``uid``."""

    uid: str


class Command(Message):
    """``tabletop/<table>/set/<command>``: ``id`` comes back in the response."""

    id: str = Field(min_length=1, max_length=64)
    players: list[str] | None = None
    """new_game: the players, in seat order."""
    options: dict[str, str] = Field(default_factory=dict)
    """new_game: the game's options."""


class Response(Message):
    """``tabletop/<table>/response/<command>``."""

    id: str | None
    ok: bool
    message: str


def game_uid(table: str, game_id: int, started: float) -> str:
    """A game's id across tables and journals: the table, the journal's game number and the
    millisecond it started (a journal begun anew numbers from 1 again)."""
    return f"{table}/{game_id}/{round(started * 1000)}"
