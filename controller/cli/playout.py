"""``tabletop playout``: many seeded random games, summarised as JSON."""

from __future__ import annotations

import argparse
import random
import time

from controller.errors import UserError
from games.core.playout import random_playout, seat_names
from games.registry import get_game

from .common import parse_options, print_json, progress, progress_done


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("playout", help="play random games and summarise them")
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", metavar="NAME=VALUE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.games < 1:
        raise UserError("--games must be at least 1")
    names = seat_names(args.players)
    options = parse_options(args.option)
    game.initial(names, options)  # refuse bad player counts and options before playing
    rng = random.Random(args.seed)
    totals = [0] * args.players
    wins = [0.0] * args.players
    moves = 0
    start = time.perf_counter()
    for number in range(args.games):
        result = random_playout(game, names, options, rng)
        moves += len(result.actions)
        for seat, total in enumerate(game.score(result.final).totals):
            totals[seat] += total
        winners = game.winners(result.final)
        for seat in winners:
            wins[seat] += 1 / len(winners)
        progress(f"{game.id}: {number + 1}/{args.games} games")
    seconds = time.perf_counter() - start
    progress_done()
    print_json(
        {
            "game": game.id,
            "players": args.players,
            "options": game.check_options(options),
            "seed": args.seed,
            "games": args.games,
            "moves": moves,
            "seconds": round(seconds, 3),
            "games_per_second": round(args.games / seconds, 1),
            "mean_score": {n: round(t / args.games, 3) for n, t in zip(names, totals, strict=True)},
            "win_share": {n: round(w / args.games, 3) for n, w in zip(names, wins, strict=True)},
        }
    )
    return 0
