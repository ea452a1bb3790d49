"""``tabletop score GAME POSITION.json``: score a position the way the game's rules do."""

from __future__ import annotations

import argparse

from games.registry import get_game

from .common import print_json, read_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score", help="score a position given as JSON (format per game in docs/games/)"
    )
    parser.add_argument("game", help="game id, see `tabletop games`")
    parser.add_argument("position", help="JSON file with the position")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    sheet, winners = game.score_position(read_json(args.position))
    result = sheet.to_json()
    result["winners"] = [sheet.players[seat] for seat in winners]
    print_json(result)
    return 0
