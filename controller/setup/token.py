"""The table's token: made per install, kept in its data folder, and never one that anyone can
read in the repository.

The token guards everything that changes a game. It is generated per install on first start
(``secrets.token_urlsafe``), kept in ``<data>/web-token`` readable by its owner only (0600),
printed once when it is made, and shown again by ``tabletop token``. A profile may still name
its own ``web_token``; ``tabletop run`` refuses one that is in the repository for everyone to
read (the old shipped default above all) or shorter than ``MIN_TOKEN``.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from pathlib import Path

from controller.errors import UserError

TOKEN_FILE = "web-token"
MIN_TOKEN = 8
SHIPPED_DEFAULT = "change-me-before-game-night"
"""The token every profile shipped with until each install got its own."""
REPOSITORY = Path(__file__).resolve().parents[2]
_TOKEN_LINE = re.compile(r"""web_token\s*=\s*["']([^"']+)["']""")


def published_tokens(root: Path = REPOSITORY) -> set[str]:
    """Tokens anyone can read in the repository: the old default, and any ``web_token`` a
    shipped profile or a document writes out (copied into a profile, they guard nothing)."""
    found = {SHIPPED_DEFAULT}
    files = [*root.glob("hardware/profiles/*.toml"), *root.glob("docs/**/*.md"),
             root / "README.md"]
    for path in files:
        try:
            found.update(_TOKEN_LINE.findall(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue  # an installed package has no docs: the default is still known
    return found


def check_token(token: str, origin: str) -> str:
    """``token`` if it can guard a table; a one-line UserError saying why not otherwise."""
    if token in published_tokens():
        raise UserError(f"{origin} uses a token published in the repository: anyone could "
                        f"change your games. Remove web_token from the profile (the install's "
                        f"own token is used then; `tabletop token` shows it) or set your own")
    if len(token) < MIN_TOKEN:
        raise UserError(f"{origin}: the token must be at least {MIN_TOKEN} characters")
    return token


def install_token(data: Path) -> tuple[str, bool]:
    """The install's token from ``data``, made (mode 0600) if there is none yet; True when it
    was just made (the caller prints it, once)."""
    path = data / TOKEN_FILE
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_token(path), False
    except OSError as error:
        raise UserError(f"{path}: cannot create the table's token ({error.strerror})") from None
    token = secrets.token_urlsafe(18)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(token + "\n")
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:  # a full disk, say: leave no empty file to be read as damaged
        path.unlink(missing_ok=True)
        raise UserError(f"{path}: cannot write the table's token ({error.strerror})") from None
    return token, True


def _read_token(path: Path) -> str:
    try:
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(0o600)  # others must not read it
        token = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: cannot read the table's token ({error})") from None
    if len(token) < MIN_TOKEN:
        raise UserError(f"{path}: the table's token is damaged (shorter than {MIN_TOKEN} "
                        "characters); delete the file and a new one is made")
    return token
