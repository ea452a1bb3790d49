"""What the journal and the club's store share around their SQLite file: whether its place in
the data folder is usable (checked before the file is opened, so each says what is wrong with
the folder in words, not SQLite's), and one committed transaction or none."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


def check_place(path: Path, what: str, error: type[Exception],
                read_only: type[Exception]) -> None:
    """Raise ``error`` if ``path`` is a folder or its folder is missing, ``read_only`` if
    either cannot be written. ``what`` names the file in the message ("a journal")."""
    folder = path.parent
    if path.is_dir():
        raise error(f"{path} is a directory, not {what}: move it away or give another "
                    "--data folder")
    if not folder.is_dir():
        raise error(f"{folder}: no such folder for {what}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise read_only(f"{path} cannot be written (the data folder is read-only): make it "
                        "writable, or give another --data folder")


@contextmanager
def committed(db: sqlite3.Connection,
              failed: Callable[[sqlite3.DatabaseError, str], Exception]
              ) -> Iterator[sqlite3.Connection]:
    """One committed transaction, or none: an SQLite failure (a full disk, say) rolls it back
    and is raised as the store's own error, ``failed(error, "write")``. An integrity or
    programming error is a bug, not the file: raised as it is."""
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite may have rolled back already (SQLITE_FULL)
                with suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise
    except sqlite3.DatabaseError as error:
        if isinstance(error, (sqlite3.IntegrityError, sqlite3.ProgrammingError)):
            raise
        raise failed(error, "write") from None
