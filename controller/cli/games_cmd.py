"""``tabletop games``: the games this table can referee."""

from __future__ import annotations

import argparse

from games.registry import all_games

from .common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games", help="list the games (id, name, player counts)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rows = [
        {
            "id": game.id,
            "name": game.name,
            "players": f"{game.min_players}-{game.max_players}",
            "options": {spec.name: list(spec.choices) for spec in game.options},
        }
        for game in all_games()
    ]
    if args.json:
        print_json(rows)
        return 0
    width = max(len(row["id"]) for row in rows)
    for row in rows:
        options = "; ".join(f"{k}: {'|'.join(v)}" for k, v in row["options"].items())
        line = f"{row['id']:<{width}}  {row['name']:<22} {row['players']} players"
        print(f"{line}  {options}".rstrip())
    return 0
