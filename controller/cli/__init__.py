"""The ``tabletop`` command: one module per subcommand, each with ``register(subparsers)``.

User errors exit with code 2 and one line on stderr; never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from games.core.errors import GameError

from . import bench, enroll, games_cmd, play, playout, profile_cmd, replay, run, score, sim
from .common import UserError

COMMANDS = [games_cmd, score, playout, replay, play, bench, enroll, run, sim, profile_cmd]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tabletop", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (UserError, GameError) as error:
        print(f"tabletop {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
