"""The journal: every accepted action, committed to SQLite before the LEDs confirm it.

WAL mode with synchronous=FULL, so a power cut loses nothing that was confirmed. Undo does not
delete: it marks actions as taken back, so the record of what happened at the table survives.

A journal that cannot be written (its disk full, its folder read-only) or that is damaged is
reported with a specific ``JournalError`` saying what to do; a damaged one is never written to
nor overwritten: it is set aside beside itself (``journal.sqlite3.damaged-<time>``, with its
``-wal``) for ``tabletop journal recover``. See docs/service.md, "The journal".
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from games.core.game import Sentence

from .data_place import check_place, committed
from .errors import ControllerError
from .seats import SeatRecord
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
    step INTEGER,
    shown TEXT,
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
CREATE TABLE IF NOT EXISTS outbox (
    uid TEXT PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    payload TEXT NOT NULL,
    made REAL NOT NULL,
    sent REAL,
    received REAL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    code TEXT NOT NULL,
    token_hash TEXT,
    claimed_at REAL,
    PRIMARY KEY (game_id, seat)
);
"""


class JournalError(ControllerError, RuntimeError):
    """The journal file cannot be used; the message says which file and why (503: the table
    cannot record a move until it is put right). ``sentence``: the message as a Sentence, for
    one a player at the table reads (None: shown as written)."""

    http_status = 503


class JournalFull(JournalError):
    """The journal's disk is full (SQLite's SQLITE_FULL): nothing new is committed until space
    is freed; everything committed before is kept. The table refuses the move meanwhile."""

    def __init__(self, path: Path) -> None:
        self.sentence = Sentence(
            "the journal's disk is full: free space on the disk of {folder} (delete old files "
            "there); until then no move is recorded, and none recorded is lost",
            {"folder": str(path.parent)})
        super().__init__(str(self.sentence))


class JournalReadOnly(JournalError):
    """The journal or its folder cannot be written (a read-only mount, permissions)."""


class JournalDamaged(JournalError):
    """The journal file is not a sound SQLite database (truncated, overwritten, emptied).
    ``aside``: where it was moved (kept as it was), if it was."""

    def __init__(self, message: str, aside: Path | None = None) -> None:
        super().__init__(message)
        self.aside = aside


T = TypeVar("T")
SQLITE_FULL, SQLITE_READONLY, SQLITE_CORRUPT, SQLITE_NOTADB = 13, 8, 11, 26
DAMAGED = "damaged-"
"""Set-aside damaged journals are named ``<journal>.damaged-<time>``."""


def integrity(db: sqlite3.Connection, quick: bool = True) -> list[str]:
    """SQLite's own check of every page (``quick_check``: structure and records, in time
    linear in the file; ``integrity_check`` also matches every index): [] if sound."""
    rows = db.execute("PRAGMA quick_check" if quick else "PRAGMA integrity_check").fetchall()
    found = [str(row[0]) for row in rows]
    return [] if found == ["ok"] else found


def set_aside(path: Path) -> Path:
    """Move a damaged journal (with its -wal and -shm) to ``<name>.damaged-<time>`` beside it,
    never over anything; returns the new path. Renamed, not copied: its bytes stay as they
    were for a recovery."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{DAMAGED}{stamp}")
    n = 1
    while any(Path(f"{target}{tail}").exists() for tail in ("", "-wal", "-shm")):
        n += 1
        target = path.with_name(f"{path.name}.{DAMAGED}{stamp}-{n}")
    os.rename(path, target)
    for tail in ("-wal", "-shm"):
        if Path(f"{path}{tail}").exists():
            os.rename(f"{path}{tail}", f"{target}{tail}")
    return target


def _reads(method: Callable[..., T]) -> Callable[..., T]:
    """A read of the journal: a page found damaged while the service runs is a
    ``JournalDamaged`` saying what to do, not a raw ``sqlite3.DatabaseError``."""
    @functools.wraps(method)
    def reading(self: Journal, *args: Any, **kwargs: Any) -> T:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as error:
            if isinstance(error, (sqlite3.IntegrityError, sqlite3.ProgrammingError)):
                raise
            raise self._failed(error, "read") from None
    return reading


def _code(error: sqlite3.Error) -> int:
    """SQLite's primary result code of an error (0 if it has none)."""
    return (getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF


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
    taken_back: tuple[tuple[int, str], ...] = ()
    """(step, action) of every action taken back, oldest first: a secret drawn there stays
    dealt (a take-back never deals it anew)."""
    shown: str | None = None
    """The piece laid on the choice site that made the latest choice shown so (it may still
    lie there: the first board seen after a restart tells)."""

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
        """Open the journal at ``path``, creating it if there is none. Refuses (one line
        each) a folder that cannot be written and a directory in its place; a damaged file
        (SQLite's quick_check on every open) is set aside and refused (``JournalDamaged``)."""
        self.path = Path(path)
        self.damaged: JournalDamaged | None = None
        """Set when a read or write finds the file damaged while running: from then on
        nothing is written to it (``tabletop journal recover`` saves what can be saved)."""
        check_place(self.path, "a journal", JournalError, JournalReadOnly)
        wal = Path(f"{self.path}-wal")
        if not self.path.exists() and wal.exists() and wal.stat().st_size:
            raise JournalDamaged(
                f"the journal {self.path} is missing but its write-ahead log {wal.name} is "
                "there, the only remains of it: restore the journal, or move the log away to "
                "begin a new one")
        if not self.path.exists():
            self._create()
        self._check_sound()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._upgrade()
        except sqlite3.DatabaseError as error:
            raise self._failed(error, "open") from None

    def _create(self) -> None:
        """A new journal, built under a temporary name and renamed into place once its schema
        is committed: so the service never leaves an empty file at ``path``, and an empty one
        found there is a journal that lost its contents."""
        building = self.path.with_name(f"{self.path.name}.new")
        for tail in ("", "-wal", "-shm", "-journal"):
            Path(f"{building}{tail}").unlink(missing_ok=True)  # never a journal: it had no name
        try:
            db = sqlite3.connect(building, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(SCHEMA)
            finally:
                db.close()
            os.chmod(building, 0o600)  # seat codes and dealt secrets: the service's user only
            os.rename(building, self.path)
        except sqlite3.DatabaseError as error:
            raise self._failed(error, "create") from None
        except OSError as error:
            raise JournalError(f"cannot create the journal {self.path}: {error.strerror}"
                               ) from None

    def _check_sound(self) -> None:
        """SQLite's quick_check, on a read-only connection (which cannot write a damaged file
        nor checkpoint its -wal into it); a damaged journal is set aside and refused."""
        wal = Path(f"{self.path}-wal")
        if self.path.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size):
            self._damaged("is empty (0 bytes): its contents are lost (the service never leaves "
                          "an empty journal)")
        uri = f"{self.path.absolute().as_uri()}?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True)
            try:
                problems = integrity(db)
            finally:
                db.close()
        except sqlite3.DatabaseError as error:
            if _code(error) not in (SQLITE_CORRUPT, SQLITE_NOTADB):
                raise self._failed(error, "open") from None
            problems = [str(error)]
        if problems:
            first = " ".join(" ".join(problems[:2]).split())  # one line
            self._damaged(f"is damaged ({first})")

    def _damaged(self, why: str) -> None:
        aside: Path | None = None
        try:
            aside = set_aside(self.path)
            kept = f"it is kept, untouched, as {aside.name}"
        except OSError as error:
            kept = f"it could not be moved aside ({error.strerror}), so it is left as it is"
        raise JournalDamaged(
            f"the journal {self.path} {why}; {kept}. `tabletop journal recover --data "
            f"{self.path.parent}` saves what can be saved; the next start begins a new journal",
            aside)

    def _failed(self, error: sqlite3.DatabaseError, doing: str) -> JournalError:
        """The specific JournalError for an SQLite error while ``doing``."""
        code = _code(error)
        if code == SQLITE_FULL:
            return JournalFull(self.path)
        if code == SQLITE_READONLY:
            return JournalReadOnly(f"{self.path} cannot be written ({error}): make its folder "
                                   "writable, or give another --data folder")
        if code in (SQLITE_CORRUPT, SQLITE_NOTADB):
            self.damaged = JournalDamaged(
                f"the journal {self.path} is damaged ({error}): stop the service and run "
                f"`tabletop journal check --data {self.path.parent}`")
            return self.damaged
        return JournalError(f"cannot {doing} the journal {self.path}: {error}")

    def _upgrade(self) -> None:
        """Journals written before games had a rules revision: theirs is 1."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "revision" not in columns:
            self._db.execute("ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 1")
        actions = {row[1] for row in self._db.execute("PRAGMA table_info(actions)")}
        if "guess" not in actions:
            self._db.execute("ALTER TABLE actions ADD COLUMN guess TEXT")
        if "step" not in actions:  # older rows keep NULL: nothing to deal again from them
            self._db.execute("ALTER TABLE actions ADD COLUMN step INTEGER")
        if "shown" not in actions:
            self._db.execute("ALTER TABLE actions ADD COLUMN shown TEXT")
        if "dealer" not in columns:  # before players dealt their own: the service drew
            self._db.execute("ALTER TABLE games ADD COLUMN dealer TEXT NOT NULL DEFAULT "
                             "'digital'")

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction, or none: an SQLite failure (a full disk, say) rolls it
        back and is raised as the specific ``JournalError``."""
        if self.damaged is not None:  # found damaged while running: never written again
            raise self.damaged
        with committed(self._db, self._failed) as db:
            yield db

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

    def append(self, game_id: int, action: str, guess: str | None = None,
               shown: str | None = None) -> int:
        """Commit one accepted action; returns its sequence number. ``guess``: for an unseen
        draw (``?``), the working resolution's outcome, so a restart resumes from the same
        one (it is the table's assumption, not anybody's knowledge). ``shown``: the piece
        laid on the game's choice site that made this choice (a restart with it still lying
        there waits for it to come off, as before)."""
        with self._transaction() as db:
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id=?", (game_id,)
            ).fetchone()
            (step,) = db.execute("SELECT COUNT(*) FROM actions WHERE game_id=? AND undone_at "
                                 "IS NULL", (game_id,)).fetchone()
            db.execute("INSERT INTO actions (game_id, seq, action, at, guess, step, shown) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_id, seq, action, time.time(), guess, step, shown))
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

    def keep_seats(self, game_id: int, records: Sequence[SeatRecord]) -> None:
        """Commit seats' codes and claims (a token's hash, never the token), so a restart
        keeps who holds which seat."""
        with self._transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO seats (game_id, seat, code, token_hash, claimed_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [(game_id, r.seat, r.code, r.token_hash, r.claimed_at) for r in records])

    @_reads
    def seats(self, game_id: int) -> dict[int, SeatRecord]:
        """The seats kept for ``game_id`` (none for a journal written before seats had
        codes: the game's seats get new ones)."""
        rows = self._db.execute(
            "SELECT seat, code, token_hash, claimed_at FROM seats WHERE game_id=?", (game_id,))
        return {seat: SeatRecord(seat, code, digest, at) for seat, code, digest, at in rows}

    @_reads
    def active(self) -> StoredGame | None:
        row = self._db.execute(
            "SELECT id FROM games WHERE status='active' ORDER BY id DESC LIMIT 1").fetchone()
        return self.get(row[0]) if row else None

    @_reads
    def get(self, game_id: int) -> StoredGame | None:
        row = self._db.execute(
            "SELECT id, game, players, options, revision, status, started, ended, dealer "
            "FROM games "
            "WHERE id=?",
            (game_id,)).fetchone()
        if row is None:
            return None
        rows = self._db.execute(
            "SELECT action, guess, shown FROM actions WHERE game_id=? AND undone_at IS NULL "
            "ORDER BY seq", (game_id,)).fetchall()
        actions = tuple(action for action, _, _ in rows)
        ai = dict(self._db.execute(
            "SELECT seat, simulations FROM ai_seats WHERE game_id=? ORDER BY seat", (game_id,)))
        shown = self._db.execute(
            "SELECT step, seat, pieces FROM reveals WHERE game_id=? AND undone_at IS NULL "
            "ORDER BY rowid", (game_id,))
        reveals = tuple(Reveal(step, seat, tuple(json.loads(pieces)))
                        for step, seat, pieces in shown)
        taken_back = tuple(self._db.execute(
            "SELECT step, action FROM actions WHERE game_id=? AND undone_at IS NOT NULL AND "
            "step IS NOT NULL ORDER BY seq", (game_id,)))
        return StoredGame(row[0], row[1], tuple(json.loads(row[2])), json.loads(row[3]), row[4],
                          row[5], row[6], row[7], actions, ai, row[8], reveals,
                          tuple(guess for _, guess, _ in rows), taken_back,
                          next((shown for _, _, shown in reversed(rows) if shown), None))

    def queue_result(self, uid: str, game_id: int, payload: str) -> bool:
        """Keep a finished game's result for the club until it says it has it (``received``);
        False if it is kept already."""
        with self._transaction() as db:
            added = db.execute("INSERT OR IGNORE INTO outbox (uid, game_id, payload, made) "
                               "VALUES (?, ?, ?, ?)", (uid, game_id, payload, time.time()))
        return added.rowcount == 1

    def result_sent(self, uid: str) -> None:
        """The broker acknowledged the result (QoS 1): not yet proof the club has it."""
        with self._transaction() as db:
            db.execute("UPDATE outbox SET sent=? WHERE uid=? AND sent IS NULL",
                       (time.time(), uid))

    def result_received(self, uid: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE outbox SET received=? WHERE uid=? AND received IS NULL",
                       (time.time(), uid))

    @_reads
    def results_waiting(self) -> list[tuple[str, str]]:
        """(uid, payload) of every result the club has not confirmed, oldest first."""
        return list(self._db.execute(
            "SELECT uid, payload FROM outbox WHERE received IS NULL ORDER BY made"))

    @_reads
    def result_queued(self, uid: str) -> bool:
        return self._db.execute("SELECT 1 FROM outbox WHERE uid=?", (uid,)).fetchone() is not None

    @_reads
    def games(self) -> list[StoredGame]:
        ids = [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id")]
        return [game for game_id in ids if (game := self.get(game_id)) is not None]
