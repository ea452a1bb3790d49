"""What every ``tabletop`` subcommand shares: user errors, reading JSON files, options."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


class UserError(Exception):
    """Bad input from the person at the keyboard: printed as one line, exit code 2."""


def read_json(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: cannot read it ({error.__class__.__name__})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(
            f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``--option edition=gamewright`` (repeatable) as a dict."""
    options: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise UserError(f"--option takes NAME=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def parse_players(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise UserError(f"--players takes names separated by commas, not {text!r}")
    return names


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def progress(message: str) -> None:
    """Progress for long jobs, on stderr and only for a person watching a terminal."""
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{message}\033[K")
        sys.stderr.flush()


def progress_done() -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
