"""The ``tabletop`` command: one module per subcommand, each with ``register(subparsers)``.

User errors of every layer (a bad file, a game's refusal, a device that is not there) exit with
code 2 and one line on stderr, mapped here and nowhere else; never a traceback. A reader that
stops reading (``tabletop games | head -1``) ends the command quietly with 141, as it would end
a Unix tool killed by SIGPIPE.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from controller.errors import ControllerError
from games.core.errors import GameError
from hardware.errors import HardwareError

from . import (
    bench,
    club_cmd,
    doctor,
    enroll,
    games_cmd,
    hub_cmd,
    install_cmd,
    journal_cmd,
    play,
    playout,
    playthrough,
    profile_cmd,
    replay,
    run,
    score,
    sim,
    token_cmd,
)

USER_ERRORS = (ControllerError, GameError, HardwareError)
"""What a person can put right: printed as ``tabletop COMMAND: message``, exit code 2."""
BROKEN_PIPE_EXIT = 128 + 13  # SIGPIPE

COMMANDS = [games_cmd, score, playout, playthrough, replay, play, bench, enroll, run, sim,
            profile_cmd, token_cmd, journal_cmd, doctor, install_cmd, hub_cmd, club_cmd]


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
        code = int(args.run(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except USER_ERRORS as error:
        print(f"tabletop {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # Python's own advice: point stdout at devnull so the flush at exit cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE_EXIT
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
