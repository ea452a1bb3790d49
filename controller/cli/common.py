"""What every ``tabletop`` subcommand shares: user errors, reading JSON files, options."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from controller.errors import UserError


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


def parse_ai(values: list[str] | None, players: list[str]) -> dict[str, int]:
    """``--ai ben`` or ``--ai ben:400`` (repeatable): AI players and their simulations a move."""
    from controller.advice import HINT_SIMULATIONS, MAX_SIMULATIONS

    seats: dict[str, int] = {}
    for value in values or []:
        name, sep, budget = value.partition(":")
        name = name.strip()
        if name not in players:
            raise UserError(f"--ai {value}: {name!r} is not among the players "
                            f"({', '.join(players)})")
        simulations = HINT_SIMULATIONS
        if sep:
            if not budget.strip().isdigit() or not 1 <= int(budget) <= MAX_SIMULATIONS:
                raise UserError(f"--ai {value}: the strength after ':' is a number of "
                                f"simulations from 1 to {MAX_SIMULATIONS}")
            simulations = int(budget)
        seats[name] = simulations
    return seats


def add_ai_argument(parser: Any) -> None:
    parser.add_argument(
        "--ai", action="append", metavar="NAME[:SIMULATIONS]",
        help="a player the AI plays (repeatable); its strength in simulations a move, "
             "200 by default (needs pip install '.[ai]')")


def load_advisor_class() -> Any:
    """``games.ai.Advisor``, or a one-line error naming the extra to install."""
    try:
        from games.ai import Advisor
    except ImportError as error:
        raise UserError(f"the AI needs OpenSpiel: pip install '.[ai]' ({error})") from None
    return Advisor
