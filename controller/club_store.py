"""The club's memory: the tables it has seen and every result they sent, in SQLite.

A result is stored before its receipt goes back (the table then forgets it), so the store is
WAL with synchronous=FULL, as the table's journal: a power cut loses no result the club has
confirmed. ``uid`` is the primary key and results are inserted with ``INSERT OR IGNORE``: a
result sent again after a cut counts once. A file that cannot be used (damaged, read-only,
someone else's database, its disk full) is refused with a specific ``ClubStoreError`` saying
what to do; a damaged one is never written to.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .club_messages import GameResult
from .data_place import check_place, committed
from .errors import ControllerError

FILE_NAME = "club.sqlite3"
APPLICATION_ID = 0x54544342
"""``PRAGMA application_id`` of a club store ("TTCB"): another SQLite file is not taken."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    availability TEXT,
    state TEXT,
    seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    uid TEXT PRIMARY KEY,
    table_name TEXT NOT NULL,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    scores TEXT NOT NULL,
    winners TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL NOT NULL,
    moves INTEGER NOT NULL,
    received REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS results_by_end ON results (ended, uid);
"""
SQLITE_FULL, SQLITE_READONLY, SQLITE_CORRUPT, SQLITE_NOTADB = 13, 8, 11, 26


class ClubStoreError(ControllerError, RuntimeError):
    """The club's store cannot be used; the message says which file, why and what to do."""

    http_status = 503


class ClubStoreDamaged(ClubStoreError):
    """Not a sound SQLite file (truncated, overwritten): left untouched for a recovery."""


class ClubStoreReadOnly(ClubStoreError):
    """The store or its folder cannot be written."""


class ClubStoreFull(ClubStoreError):
    """Its disk is full: nothing new is stored (and no receipt sent) until space is freed."""


class NotAClubStore(ClubStoreError):
    """A sound SQLite file that belongs to something else (a table's journal, say)."""


@dataclass(frozen=True, slots=True)
class StoredResult:
    """A result as the club keeps it: the table's ``GameResult`` and when it came."""

    uid: str
    table: str
    game: str
    players: tuple[str, ...]
    scores: dict[str, int]
    winners: tuple[str, ...]
    started: float
    ended: float
    moves: int
    received: float

    def to_json(self) -> dict[str, object]:
        return {"uid": self.uid, "table": self.table, "game": self.game,
                "players": list(self.players), "scores": dict(self.scores),
                "winners": list(self.winners), "started": self.started, "ended": self.ended,
                "moves": self.moves, "received": self.received}


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table the club has heard of: its last availability and state (raw JSON)."""

    name: str
    availability: str | None
    state: str | None
    seen: float


def _code(error: sqlite3.Error) -> int:
    return (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF


class ClubStore:
    """One SQLite file, ``club.sqlite3`` in the club's data folder. Used from one thread (the
    club's asyncio loop); every write is one committed transaction."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._check_place()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.DatabaseError as error:
            raise self._failed(error, "open") from None
        try:
            self._check_ours()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(f"PRAGMA application_id={APPLICATION_ID};{SCHEMA}")
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise self._failed(error, "open") from None
        except ClubStoreError:
            self._db.close()
            raise

    @classmethod
    def in_folder(cls, folder: str | Path) -> ClubStore:
        return cls(Path(folder) / FILE_NAME)

    def _check_place(self) -> None:
        check_place(self.path, "the club's store", ClubStoreError, ClubStoreReadOnly)
        if self.path.exists() and self.path.stat().st_size == 0 and not Path(
                f"{self.path}-wal").exists():
            raise ClubStoreDamaged(f"the club's store {self.path} is empty (0 bytes): its "
                                   "results are lost; restore a copy, or delete it to begin "
                                   "a new one")

    def _check_ours(self) -> None:
        """A quick_check of every page, and the file is a club store (or new)."""
        rows = [str(row[0]) for row in self._db.execute("PRAGMA quick_check")]
        if rows != ["ok"]:
            first = " ".join(" ".join(rows[:2]).split())
            raise ClubStoreDamaged(f"the club's store {self.path} is damaged ({first}): it is "
                                   "left untouched; restore a copy, or move it away to begin "
                                   "a new one")
        (app,) = self._db.execute("PRAGMA application_id").fetchone()
        names = {row[0] for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if app not in (0, APPLICATION_ID) or (app == 0 and names and "results" not in names):
            raise NotAClubStore(f"{self.path} is another program's SQLite file, not the club's "
                                "store: give the club a --data folder of its own")

    def _failed(self, error: sqlite3.DatabaseError, doing: str) -> ClubStoreError:
        code = _code(error)
        if code == SQLITE_FULL:
            return ClubStoreFull(f"the disk of the club's store {self.path} is full: free "
                                 "space there; until then no result is stored or confirmed")
        if code == SQLITE_READONLY:
            return ClubStoreReadOnly(f"{self.path} cannot be written ({error}): make its "
                                     "folder writable, or give another --data folder")
        if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
            return ClubStoreDamaged(f"the club's store {self.path} is damaged ({error}): it is "
                                    "left untouched; restore a copy, or move it away to begin "
                                    "a new one")
        return ClubStoreError(f"cannot {doing} the club's store {self.path}: {error}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with committed(self._db, self._failed) as db:
            yield db

    def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as error:
            raise self._failed(error, "read") from None

    def close(self) -> None:
        self._db.close()

    # -- results -------------------------------------------------------------------------------
    def add_result(self, result: GameResult, received: float) -> bool:
        """Keep ``result``; False if its uid is kept already (the first one stays)."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO results (uid, table_name, game, players, scores, "
                "winners, started, ended, moves, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (result.uid, result.table, result.game, json.dumps(result.players),
                 json.dumps(result.scores), json.dumps(result.winners), result.started,
                 result.ended, result.moves, received))
        return cursor.rowcount == 1

    def results(self, since: float | None = None) -> list[StoredResult]:
        """Every result (or those that ended at ``since`` or later), in the order they
        ended (the uid breaks a tie, so the order is the same on every read)."""
        rows = self._read(
            "SELECT uid, table_name, game, players, scores, winners, started, ended, moves, "
            "received FROM results WHERE ended >= ? ORDER BY ended, uid",
            (float("-inf") if since is None else since,))
        return [StoredResult(uid, table, game, tuple(json.loads(players)), json.loads(scores),
                             tuple(json.loads(winners)), started, ended, moves, received)
                for uid, table, game, players, scores, winners, started, ended, moves, received
                in rows]

    def result_count(self) -> int:
        return int(self._read("SELECT COUNT(*) FROM results")[0][0])

    # -- tables --------------------------------------------------------------------------------
    def save_tables(self, rows: Iterable[TableRow]) -> None:
        """Keep the tables' last availability and state, in one transaction."""
        with self._transaction() as db:
            db.executemany(
                "INSERT INTO tables (name, availability, state, seen) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET availability=excluded.availability, "
                "state=excluded.state, seen=excluded.seen",
                [(row.name, row.availability, row.state, row.seen) for row in rows])

    def forget_table(self, name: str) -> None:
        """A table removed from the broker (its retained topics emptied); its results stay."""
        with self._transaction() as db:
            db.execute("DELETE FROM tables WHERE name=?", (name,))

    def tables(self) -> list[TableRow]:
        return [TableRow(*row) for row in self._read(
            "SELECT name, availability, state, seen FROM tables ORDER BY name")]
