"""Checking a journal and saving what can be saved of a damaged one (``tabletop journal``).

Both use SQLite's own tools: ``PRAGMA integrity_check`` to check, and the ``sqlite3`` shell's
``.recover`` to recover (it reads every page it can, even of a damaged b-tree); without that
shell, a row-by-row salvage through Python's sqlite3 reads each table in rowid order and skips
what it cannot read. The damaged file is only read, from a copy: it stays as it was.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .journal import DAMAGED, SCHEMA, Journal, JournalError, integrity

TABLES = ("games", "actions", "reveals", "ai_seats", "seats", "outbox")
"""The journal's tables, in the order a salvage restores them (games before their rows)."""
RECOVER_TIMEOUT = 600


@dataclass
class Health:
    """What ``integrity_check`` and a count of the rows say about one journal file."""

    path: Path
    problems: list[str]
    games: int = 0
    active: int = 0
    actions: int = 0
    size: int = 0

    @property
    def sound(self) -> bool:
        return not self.problems


def _read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot change the file (nor checkpoint a -wal into it)."""
    return sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)


def check(path: Path) -> Health:
    """SQLite's full ``integrity_check`` of ``path``, and its games and actions if sound."""
    if path.is_dir():
        return Health(path, ["it is a directory, not a journal"])
    size = path.stat().st_size
    if size == 0:
        return Health(path, ["it is empty (0 bytes)"])
    try:
        db = _read_only(path)
        try:
            problems = integrity(db, quick=False)
            if problems:
                return Health(path, problems, size=size)
            games, active = db.execute(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE status='active') FROM games").fetchone()
            (actions,) = db.execute("SELECT COUNT(*) FROM actions WHERE undone_at IS NULL"
                                    ).fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        return Health(path, [str(error)], size=size)
    return Health(path, [], games, active, actions, size)


def set_aside_copies(journal: Path) -> list[Path]:
    """Damaged journals set aside beside ``journal``, oldest first."""
    found = journal.parent.glob(f"{journal.name}.{DAMAGED}*")
    return sorted(p for p in found if not p.name.endswith(("-wal", "-shm")))


@dataclass
class Recovery:
    """What a recovery wrote, and how."""

    source: Path
    output: Path
    method: str
    health: Health
    lost: list[str] = field(default_factory=list)
    """Games whose actions were not all found (marked aborted: never resumed)."""
    orphans: int = 0
    """Rows ``.recover`` could not place (kept in its ``lost_and_found`` table)."""


def recover(source: Path, output: Path, *, shell: str | None = None) -> Recovery:
    """Save what can be read of ``source`` into a new journal at ``output`` (which must not
    exist). ``shell``: the ``sqlite3`` program (default: the one on PATH, if any)."""
    if output.exists():
        raise JournalError(f"{output} exists: give another -o (nothing is overwritten)")
    shell = shell if shell is not None else shutil.which("sqlite3")
    building = output.with_name(f"{output.name}.new")
    for tail in ("", "-wal", "-shm", "-journal"):
        Path(f"{building}{tail}").unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="tabletop-recover-") as scratch:
        copy = Path(scratch) / "damaged.sqlite3"  # the original is only ever read
        shutil.copyfile(source, copy)
        for tail in ("-wal",):
            if Path(f"{source}{tail}").exists():
                shutil.copyfile(f"{source}{tail}", f"{copy}{tail}")
        why, unread = "no sqlite3 shell found", []
        if shell:
            try:
                _shell_recover(shell, copy, building)
                method = f"SQLite's .recover ({_version(shell)})"
            except _ShellFailed as failed:
                why = f"the sqlite3 shell's .recover failed: {failed}"
                for tail in ("", "-wal", "-shm", "-journal"):
                    Path(f"{building}{tail}").unlink(missing_ok=True)
        if not building.exists():
            method = f"a row-by-row salvage through Python's sqlite3 ({why})"
            unread = _salvage(copy, building)
    try:
        db = sqlite3.connect(building, isolation_level=None)
        try:
            db.executescript(SCHEMA)  # tables .recover found nothing of
            orphans = _count(db, "lost_and_found")
            if orphans:
                unread.append("lost_and_found")
            lost = _mark_incomplete(db, unread)
            db.execute("PRAGMA journal_mode=WAL")
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        raise JournalError(f"the recovered journal {building} is not usable: {error}") from None
    building.rename(output)
    Journal(output).close()  # opens as the service will: SQLite's quick_check, the schema
    health = check(output)
    if not health.sound:
        raise JournalError(f"the recovered journal {output} fails SQLite's integrity check: "
                           f"{health.problems[0]}")
    return Recovery(source, output, method, health, lost, orphans)


class _ShellFailed(Exception):
    """The sqlite3 shell could not recover (an old one, or one built without the dbpage
    table ``.recover`` reads pages through): the Python salvage takes over."""


def _version(shell: str) -> str:
    done = subprocess.run([shell, "--version"], capture_output=True, text=True, check=False)
    return f"sqlite3 {done.stdout.split()[0]}" if done.stdout else shell


def _shell_recover(shell: str, damaged: Path, output: Path) -> None:
    """``sqlite3 damaged .recover | sqlite3 output``."""
    dump = subprocess.run([shell, str(damaged), ".recover"], capture_output=True,
                          timeout=RECOVER_TIMEOUT, check=False)  # on a scratch copy
    if dump.returncode != 0:
        why = dump.stderr.decode(errors="replace").strip().splitlines() or ["no output"]
        raise _ShellFailed(why[0])
    load = subprocess.run([shell, str(output)], input=dump.stdout, capture_output=True,
                          timeout=RECOVER_TIMEOUT, check=False)
    if load.returncode != 0 or not output.exists():
        why = load.stderr.decode(errors="replace").strip().splitlines() or ["no output"]
        raise _ShellFailed(f"its rows could not be written: {why[0]}")


def _salvage(damaged: Path, output: Path) -> list[str]:
    """Every row of the journal's tables that can be read, table by table in rowid order;
    a run of unreadable rows is skipped by looking further and further ahead. Returns the
    tables some rows of which could not be read."""
    _pad(damaged)
    target = sqlite3.connect(output, isolation_level=None)
    try:
        target.executescript(SCHEMA)
        unread: list[str] = []
        try:
            source = _read_only(damaged)
        except sqlite3.DatabaseError:
            return list(TABLES)  # not even its header: nothing to save
        try:
            for table in TABLES:
                if _lacks(source, table):
                    continue  # a journal older than that table: nothing lost
                columns = _columns(source, table) & _columns(target, table)
                if not columns:
                    unread.append(table)
                    continue
                names = ", ".join(sorted(columns))
                marks = ", ".join("?" * len(columns))
                target.execute("BEGIN")
                for row in _rows(source, table, sorted(columns), unread):
                    target.execute(f"INSERT OR IGNORE INTO {table} ({names}) VALUES ({marks})",
                                   row)
                target.execute("COMMIT")
        finally:
            source.close()
    finally:
        target.close()
    return unread


def _pad(copy: Path) -> None:
    """A truncated file (on a scratch copy): zero pages up to the size its header gives, so
    that SQLite reads its schema (it refuses a table whose root page lies past the end) and
    every page that is left."""
    with copy.open("r+b") as file:
        header = file.read(100)
        if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
            return
        size = int.from_bytes(header[16:18], "big")
        page = 65536 if size == 1 else size
        pages = int.from_bytes(header[28:32], "big")
        if 512 <= page <= 65536 and 0 < pages < 2 ** 22:  # sane, and below 16 GB
            file.seek(0, 2)
            if file.tell() < page * pages:
                file.truncate(page * pages)


def _lacks(db: sqlite3.Connection, table: str) -> bool:
    """The journal's schema, if it can be read, has no such table."""
    try:
        return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                          (table,)).fetchone() is None
    except sqlite3.DatabaseError:
        return False


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    try:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        return set()


def _rows(db: sqlite3.Connection, table: str, columns: list[str], unread: list[str]
          ) -> Iterator[tuple]:
    names = ", ".join(columns)
    last, jump = -(2 ** 63), 1
    while True:
        try:
            cursor = db.execute(f"SELECT rowid, {names} FROM {table} WHERE rowid > ? "
                                "ORDER BY rowid", (last,))
            for row in cursor:
                last, jump = row[0], 1
                yield row[1:]
            return
        except sqlite3.DatabaseError:
            if table not in unread:
                unread.append(table)
            if jump > 2 ** 40:
                return
            last, jump = last + jump, jump * 2  # past the unreadable page, if it ends


def _count(db: sqlite3.Connection, table: str) -> int:
    try:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.DatabaseError:
        return 0


def _mark_incomplete(db: sqlite3.Connection, unread: list[str]) -> list[str]:
    """Games with actions missing cannot be replayed: an active one is marked aborted, so
    that the service never resumes a wrong position (its rows are kept). Missing: a gap in
    its sequence numbers; or, when rows of ``unread`` tables could not be read, any of its
    last ones (a lost tail leaves no gap)."""
    lost = []
    if unread:
        for game_id, game in db.execute(
                "SELECT id, game FROM games WHERE status='active'").fetchall():
            db.execute("UPDATE games SET status='aborted', ended=? WHERE id=?",
                       (time.time(), game_id))
            lost.append(f"game {game_id} ({game}) was under way, and rows of "
                        f"{', '.join(unread)} could not be read: marked aborted, never resumed")
    for game_id, game, status, seqs, top in db.execute(
            "SELECT g.id, g.game, g.status, COUNT(a.seq), MAX(a.seq) FROM games g "
            "LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.id ORDER BY g.id").fetchall():
        if top is None or seqs == top + 1:
            continue
        note = f"game {game_id} ({game}): {top + 1 - seqs} of its {top + 1} actions lost"
        if status == "active":
            db.execute("UPDATE games SET status='aborted', ended=? WHERE id=?",
                       (time.time(), game_id))
            note += ": marked aborted, never resumed"
        lost.append(note)
    (strays,) = db.execute("SELECT COUNT(DISTINCT game_id) FROM actions WHERE game_id NOT IN "
                           "(SELECT id FROM games)").fetchone()
    if strays:
        lost.append(f"the actions of {strays} game(s) whose row was lost (kept, not listed)")
    return lost

