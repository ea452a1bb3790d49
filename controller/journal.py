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

from .unresolved import Reveal

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    revision INTEGER NOT NULL DEFAULT 1,
    dealer TEXT NOT NULL DEFAULT 'players',
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
    guess TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS reveals (
    game_id INTEGER NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    pieces TEXT NOT NULL,
    at REAL NOT NULL,
    undone_at REAL
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
    dealer: str = "players"
    """Who deals the secrets: ``players`` (from the box; unseen draws are ``?``) or
    ``digital`` (the service draws them and shows them on phones)."""
    reveals: tuple[Reveal, ...] = ()
    """Secrets shown on the reveal site, in force."""
    guesses: tuple[str | None, ...] = ()
    """The working resolution's outcome of each unseen draw (None elsewhere)."""

    def record(self) -> dict[str, Any]:
        """The replay record (``tabletop replay``): ``?`` for a draw nobody saw, and the
        secrets shown later, which a replay resolves them with."""
        record: dict[str, Any] = {"game": self.game, "players": list(self.players),
                                  "options": self.options, "revision": self.revision,
                                  "actions": list(self.actions)}
        if self.reveals:
            record["reveals"] = [reveal.to_json() for reveal in self.reveals]
        return record


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
        if "guess" not in {row[1] for row in self._db.execute("PRAGMA table_info(actions)")}:
            self._db.execute("ALTER TABLE actions ADD COLUMN guess TEXT")
        if "dealer" not in columns:  # before players dealt their own: the service drew
            self._db.execute("ALTER TABLE games ADD COLUMN dealer TEXT NOT NULL DEFAULT "
                             "'digital'")

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
              ai: Mapping[int, int] | None = None, revision: int = 1,
              dealer: str = "players") -> int:
        """A new active game; any game still active is aborted (one game at a table).

        ``ai``: the seats the AI plays, with its strength, so a restart keeps them;
        ``revision``: the engine's rules revision, so a game resumed after an upgrade keeps
        the rules it started with.
        """
        now = time.time()
        with self._transaction() as db:
            db.execute("UPDATE games SET status='aborted', ended=? WHERE status='active'", (now,))
            cursor = db.execute(
                "INSERT INTO games (game, players, options, revision, dealer, status, started) "
                "VALUES (?, ?, ?, ?, ?, 'active', ?)",
                (game, json.dumps(list(players)), json.dumps(options), revision, dealer, now),
            )
            game_id = int(cursor.lastrowid or 0)
            db.executemany("INSERT INTO ai_seats (game_id, seat, simulations) VALUES (?, ?, ?)",
                           [(game_id, seat, sims) for seat, sims in sorted((ai or {}).items())])
        return game_id

    def append(self, game_id: int, action: str, guess: str | None = None) -> int:
        """Commit one accepted action; returns its sequence number. ``guess``: for an unseen
        draw (``?``), the working resolution's outcome, so a restart resumes from the same
        one (it is the table's assumption, not anybody's knowledge)."""
        with self._transaction() as db:
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id=?", (game_id,)
            ).fetchone()
            db.execute("INSERT INTO actions (game_id, seq, action, at, guess) "
                       "VALUES (?, ?, ?, ?, ?)", (game_id, seq, action, time.time(), guess))
        return int(seq)

    def keep_guesses(self, game_id: int, guesses: Sequence[str | None]) -> None:
        """Another working resolution: the guesses of the actions in force, in order."""
        with self._transaction() as db:
            seqs = [seq for (seq,) in db.execute(
                "SELECT seq FROM actions WHERE game_id=? AND undone_at IS NULL ORDER BY seq",
                (game_id,))]
            db.executemany("UPDATE actions SET guess=? WHERE game_id=? AND seq=?",
                           [(guess, game_id, seq)
                            for seq, guess in zip(seqs, guesses, strict=True)])

    def reveal(self, game_id: int, reveal: Reveal) -> None:
        """Commit secrets a seat showed (they narrow the unseen draws for good)."""
        with self._transaction() as db:
            db.execute("INSERT INTO reveals (game_id, step, seat, pieces, at) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (game_id, reveal.step, reveal.seat, json.dumps(reveal.pieces),
                        time.time()))

    def take_back(self, game_id: int, steps: int) -> list[str]:
        """Mark the last ``steps`` actions in force as taken back (and the secrets shown for
        them); returns them, newest first."""
        with self._transaction() as db:
            rows = db.execute(
                "SELECT seq, action FROM actions WHERE game_id=? AND undone_at IS NULL "
                "ORDER BY seq DESC LIMIT ?", (game_id, steps)).fetchall()
            now = time.time()
            db.executemany("UPDATE actions SET undone_at=? WHERE game_id=? AND seq=?",
                           [(now, game_id, seq) for seq, _ in rows])
            (left,) = db.execute("SELECT COUNT(*) FROM actions WHERE game_id=? AND undone_at "
                                 "IS NULL", (game_id,)).fetchone()
            db.execute("UPDATE reveals SET undone_at=? WHERE game_id=? AND undone_at IS NULL "
                       "AND step>=?", (now, game_id, left))
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
            "SELECT id, game, players, options, revision, status, started, ended, dealer "
            "FROM games "
            "WHERE id=?",
            (game_id,)).fetchone()
        if row is None:
            return None
        rows = self._db.execute(
            "SELECT action, guess FROM actions WHERE game_id=? AND undone_at IS NULL "
            "ORDER BY seq", (game_id,)).fetchall()
        actions = tuple(action for action, _ in rows)
        ai = dict(self._db.execute(
            "SELECT seat, simulations FROM ai_seats WHERE game_id=? ORDER BY seat", (game_id,)))
        shown = self._db.execute(
            "SELECT step, seat, pieces FROM reveals WHERE game_id=? AND undone_at IS NULL "
            "ORDER BY rowid", (game_id,))
        reveals = tuple(Reveal(step, seat, tuple(json.loads(pieces)))
                        for step, seat, pieces in shown)
        return StoredGame(row[0], row[1], tuple(json.loads(row[2])), json.loads(row[3]), row[4],
                          row[5], row[6], row[7], actions, ai, row[8], reveals,
                          tuple(guess for _, guess in rows))

    def games(self) -> list[StoredGame]:
        ids = [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id")]
        return [game for game_id in ids if (game := self.get(game_id)) is not None]
