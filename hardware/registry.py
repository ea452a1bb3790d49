"""The tag registry: which RFID UID stands for which piece, kept in SQLite.

Interchangeable pieces (the visitors of one colour) share one piece id, so several UIDs may map
to the same piece; one UID never maps to two pieces. Unknown UIDs are reported by the caller,
never guessed. A club can share a set of enrolled tags as a JSON file (`export_file`,
`import_file`); an import is all-or-nothing and refuses conflicts unless told to replace.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import HardwareError

EXPORT_FORMAT = "tabletop-tags"
EXPORT_VERSION = 1
RECHECK_SECONDS = 1.0
"""How often ``lookup`` asks SQLite whether another process (``tabletop tags enroll`` beside a
running service) changed the tags; its own changes are seen at once."""
_PIECE = re.compile(r"^[a-z0-9_]+(:[a-z0-9_]+)*$")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid TEXT PRIMARY KEY CHECK (length(uid) BETWEEN 2 AND 20),
    piece TEXT NOT NULL,
    enrolled_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX IF NOT EXISTS tags_by_piece ON tags (piece);
"""


class RegistryError(HardwareError, ValueError):
    """Bad input to the registry; nothing was changed."""


class TagAlreadyKnown(RegistryError):
    def __init__(self, uid: str, piece: str) -> None:
        super().__init__(f"tag {uid} is already enrolled as {piece}")
        self.uid = uid
        self.piece = piece


@dataclass(frozen=True, slots=True)
class ImportReport:
    added: int
    unchanged: int
    replaced: int


def uid_hex(uid: bytes | str) -> str:
    """Canonical form of a UID: upper-case hex, 4, 7 or 10 bytes."""
    if isinstance(uid, str):
        try:
            uid = bytes.fromhex(uid)
        except ValueError:
            raise RegistryError(f"{uid!r} is not a hex tag UID") from None
    if len(uid) not in (4, 7, 10):
        raise RegistryError(f"a tag UID has 4, 7 or 10 bytes, got {len(uid)}")
    return uid.hex().upper()


def check_piece(piece: str) -> str:
    if not isinstance(piece, str) or not _PIECE.match(piece):
        raise RegistryError(f"{piece!r} is not a piece id (like tiki:lokahi or card:red:up2)")
    return piece


class TagRegistry:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._pieces: dict[str, str | None] = {}
        """Tags looked up, and their pieces. The tracker asks for every tag on the board each
        time it is read; a query per tag releases the GIL, and while a search for the players'
        dealing runs in its thread each waits up to a switch interval (the service sets 1 ms)
        to get it back."""
        self._version, self._checked = None, float("-inf")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> TagRegistry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            with self._db:
                yield self._db
        finally:
            self._pieces.clear()

    def _check_others(self) -> None:
        """Forget the looked-up pieces if another connection changed the tags meanwhile."""
        now = time.monotonic()
        if now - self._checked < RECHECK_SECONDS:
            return
        self._checked = now
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version:
            self._pieces.clear()
            self._version = version

    # -- reading --------------------------------------------------------------------------

    def lookup(self, uid: bytes | str) -> str | None:
        """The piece of a tag, or None when the tag was never enrolled."""
        key = uid_hex(uid)
        self._check_others()
        if key in self._pieces:
            return self._pieces[key]
        with closing(self._db.execute("SELECT piece FROM tags WHERE uid = ?", (key,))) as rows:
            row = rows.fetchone()
        piece = self._pieces[key] = row[0] if row else None
        return piece

    def tags_of(self, piece: str) -> tuple[str, ...]:
        query = "SELECT uid FROM tags WHERE piece = ? ORDER BY uid"
        return tuple(row[0] for row in self._db.execute(query, (piece,)))

    def all(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT uid, piece FROM tags ORDER BY piece, uid"))

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM tags").fetchone()[0])

    # -- changing -------------------------------------------------------------------------

    def enroll(self, uid: bytes | str, piece: str, *, replace: bool = False) -> bool:
        """Store uid -> piece. False if it was already so; TagAlreadyKnown if it is another
        piece (unless replace)."""
        key, piece = uid_hex(uid), check_piece(piece)
        current = self.lookup(key)
        if current == piece:
            return False
        if current is not None and not replace:
            raise TagAlreadyKnown(key, current)
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tags (uid, piece) VALUES (?, ?) "
                "ON CONFLICT (uid) DO UPDATE SET piece = excluded.piece, "
                "enrolled_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
                (key, piece),
            )
        return True

    def forget(self, uid: bytes | str) -> bool:
        with self._transaction() as db:
            return db.execute("DELETE FROM tags WHERE uid = ?", (uid_hex(uid),)).rowcount > 0

    # -- sharing --------------------------------------------------------------------------

    def export_file(self, path: str | Path) -> int:
        tags = [{"uid": uid, "piece": piece} for uid, piece in self.all().items()]
        document = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "tags": tags}
        Path(path).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        return len(tags)

    def import_file(self, path: str | Path, *, replace: bool = False) -> ImportReport:
        """Add a shared set; all or nothing. Conflicts (a UID known as another piece) are
        refused together in one message unless `replace`."""
        pairs = _read_export(Path(path))
        current = self.all()
        conflicts = [
            f"{uid} is {current[uid]} here but {piece} in the file"
            for uid, piece in pairs
            if uid in current and current[uid] != piece
        ]
        if conflicts and not replace:
            shown = "; ".join(conflicts[:5]) + ("; ..." if len(conflicts) > 5 else "")
            raise RegistryError(f"{path}: {len(conflicts)} conflicting tags: {shown}")
        added = unchanged = replaced = 0
        with self._transaction() as db:
            for uid, piece in pairs:
                if current.get(uid) == piece:
                    unchanged += 1
                    continue
                replaced += uid in current
                added += uid not in current
                db.execute(
                    "INSERT INTO tags (uid, piece) VALUES (?, ?) "
                    "ON CONFLICT (uid) DO UPDATE SET piece = excluded.piece",
                    (uid, piece),
                )
        return ImportReport(added, unchanged, replaced)


def _read_export(path: Path) -> list[tuple[str, str]]:
    try:
        document: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RegistryError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RegistryError(f"{path}: not a tag file ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise RegistryError(f"{path}: not a tag file (format must be {EXPORT_FORMAT!r})")
    if document.get("version") != EXPORT_VERSION:
        raise RegistryError(f"{path}: tag file version {document.get('version')!r} is not 1")
    tags = document.get("tags")
    if not isinstance(tags, list):
        raise RegistryError(f"{path}: 'tags' must be a list")
    pairs: dict[str, str] = {}
    for number, entry in enumerate(tags, start=1):
        if not isinstance(entry, dict) or set(entry) != {"uid", "piece"}:
            raise RegistryError(f"{path}: tag {number} must have exactly 'uid' and 'piece'")
        try:
            uid, piece = uid_hex(entry["uid"]), check_piece(entry["piece"])
        except RegistryError as exc:
            raise RegistryError(f"{path}: tag {number}: {exc}") from None
        if pairs.get(uid, piece) != piece:
            raise RegistryError(f"{path}: tag {number}: {uid} is listed twice as different pieces")
        pairs[uid] = piece
    return list(pairs.items())


def pieces_left(pieces: Iterable[str], registry: TagRegistry) -> list[str]:
    """The pieces of a box that still need a tag; a piece listed n times needs n tags."""
    need: dict[str, int] = {}
    for piece in pieces:
        need[piece] = need.get(piece, 0) + 1
    left = []
    for piece, count in need.items():
        left += [piece] * max(0, count - len(registry.tags_of(piece)))
    return left
