"""The journal: every accepted action, committed to SQLite before the LEDs confirm it.

WAL mode with synchronous=FULL, so a power cut loses nothing that was confirmed. Undo does not
delete: it marks actions as taken back, so the record of what happened at the table survives.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    revision INTEGER NOT NULL DEFAULT 1,
    status TEXT NOT NULL CHECK (status IN ('active', 'finished', 'aborted')),
    started REAL NOT NULL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    undone_at REAL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS ai_seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    simulations INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""


class JournalError(RuntimeError):
    """The journal file cannot be used; the message says which file and why."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: int
    game: str
    players: tuple[str, ...]
    options: dict[str, str]
    revision: int
    """The engine's rules revision the game was started under (``Game.options_at``)."""
    status: str
    started: float
    ended: float | None
    actions: tuple[str, ...]
    """The actions in force (taken-back ones left out), in order."""
    ai: dict[int, int]
    """Seats the AI plays, with its strength (simulations per move)."""

    def record(self) -> dict[str, Any]:
        """The replay record (``tabletop replay``)."""
        return {"game": self.game, "players": list(self.players), "options": self.options,
                "revision": self.revision, "actions": list(self.actions)}


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._upgrade()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path} is not a usable journal: {error}") from None

    def _upgrade(self) -> None:
        """Journals written before games had a rules revision: theirs is 1."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "revision" not in columns:
            self._db.execute("ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 1")

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def start(self, game: str, players: Sequence[str], options: dict[str, str],
              ai: Mapping[int, int] | None = None, revision: int = 1) -> int:
        """A new active game; any game still active is aborted (one game at a table).

        ``ai``: the seats the AI plays, with its strength, so a restart keeps them;
        ``revision``: the engine's rules revision, so a game resumed after an upgrade keeps
        the rules it started with.
        """
        now = time.time()
        with self._transaction() as db:
            db.execute("UPDATE games SET status='aborted', ended=? WHERE status='active'", (now,))
            cursor = db.execute(
                "INSERT INTO games (game, players, options, revision, status, started) "
                "VALUES (?, ?, ?, ?, 'active', ?)",
                (game, json.dumps(list(players)), json.dumps(options), revision, now),
            )
            game_id = int(cursor.lastrowid or 0)
            db.executemany("INSERT INTO ai_seats (game_id, seat, simulations) VALUES (?, ?, ?)",
                           [(game_id, seat, sims) for seat, sims in sorted((ai or {}).items())])
        return game_id

    def append(self, game_id: int, action: str) -> int:
        """Commit one accepted action; returns its sequence number."""
        with self._transaction() as db:
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id=?", (game_id,)
            ).fetchone()
            db.execute("INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                       (game_id, seq, action, time.time()))
        return int(seq)

    def take_back(self, game_id: int, steps: int) -> list[str]:
        """Mark the last ``steps`` actions in force as taken back; returns them, newest first."""
        with self._transaction() as db:
            rows = db.execute(
                "SELECT seq, action FROM actions WHERE game_id=? AND undone_at IS NULL "
                "ORDER BY seq DESC LIMIT ?", (game_id, steps)).fetchall()
            db.executemany("UPDATE actions SET undone_at=? WHERE game_id=? AND seq=?",
                           [(time.time(), game_id, seq) for seq, _ in rows])
        return [action for _, action in rows]

    def end(self, game_id: int, status: str = "finished") -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET status=?, ended=? WHERE id=?", (status, time.time(),
                                                                          game_id))

    def active(self) -> StoredGame | None:
        row = self._db.execute(
            "SELECT id FROM games WHERE status='active' ORDER BY id DESC LIMIT 1").fetchone()
        return self.get(row[0]) if row else None

    def get(self, game_id: int) -> StoredGame | None:
        row = self._db.execute(
            "SELECT id, game, players, options, revision, status, started, ended FROM games "
            "WHERE id=?",
            (game_id,)).fetchone()
        if row is None:
            return None
        actions = tuple(action for (action,) in self._db.execute(
            "SELECT action FROM actions WHERE game_id=? AND undone_at IS NULL ORDER BY seq",
            (game_id,)))
        ai = dict(self._db.execute(
            "SELECT seat, simulations FROM ai_seats WHERE game_id=? ORDER BY seat", (game_id,)))
        return StoredGame(row[0], row[1], tuple(json.loads(row[2])), json.loads(row[3]), row[4],
                          row[5], row[6], row[7], actions, ai)

    def games(self) -> list[StoredGame]:
        ids = [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id")]
        return [game for game_id in ids if (game := self.get(game_id)) is not None]
