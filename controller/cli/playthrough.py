"""``tabletop playthrough GAME``: one seeded random game, step by step, as text.

``--write DIR`` writes the golden playthroughs of every game (each player-count extreme and
each option) that ``tests/playthroughs`` compares, so a rule change reads as a diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.errors import UserError
from games.core.playthrough import SEED, Setup, playthrough, setups
from games.registry import all_games, get_game

from .common import parse_options, progress, progress_done


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("playthrough", help="a seeded game step by step, as text")
    parser.add_argument("game", nargs="?", help="game id (omit with --write)")
    parser.add_argument("--players", type=int, help="player count (default: the fewest)")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--write", metavar="DIR",
                        help="write every game's golden playthroughs into DIR/<game>/")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.write:
        if args.game or args.players or args.option:
            raise UserError("--write writes every game's playthroughs; give no game with it")
        write_all(Path(args.write))
        return 0
    if not args.game:
        raise UserError("name a game (tabletop games lists them), or use --write DIR")
    game = get_game(args.game)
    players = game.check_player_count(args.players or game.min_players)
    sys.stdout.write(playthrough(game, Setup(game.id, players, parse_options(args.option),
                                             args.seed)))
    return 0


def write_all(folder: Path) -> None:
    jobs = [(game, setup) for game in all_games() for setup in setups(game)]
    for number, (game, setup) in enumerate(jobs, start=1):
        path = folder / game.id / f"{setup.name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(playthrough(game, setup), encoding="utf-8")
        progress(f"playthroughs: {number}/{len(jobs)} ({path})")
    progress_done()
    print(f"wrote {len(jobs)} playthroughs into {folder}")
