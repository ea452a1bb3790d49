"""Is a SQLite file's place in the data folder usable? Checked before the file is opened, so
the journal and the club's store say what is wrong with the folder in words, not SQLite's."""

from __future__ import annotations

import os
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
