"""``tabletop games``: the games this table can referee, and the games it has journalled.

``tabletop games`` lists the engines; ``tabletop games list|show|export`` read the journal.
"""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path

from controller.errors import UserError
from controller.journal import Journal, StoredGame
from games.registry import all_games

from .common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "games", help="list the games (id, name, player counts), or stored games: list|show|export")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    stored = parser.add_subparsers(dest="stored", required=False, parser_class=type(parser))
    for name, text in [("list", "games in the journal"), ("show", "one stored game"),
                       ("export", "one stored game as a replay record")]:
        sub = stored.add_parser(name, help=text)
        sub.add_argument("--data", help="the service's data folder (default ~/.local/share)")
        if name != "list":
            sub.add_argument("id", type=int, help="the game's number (see `tabletop games list`)")
        if name == "export":
            sub.add_argument("-o", "--output", help="write to this file instead of stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.stored is None:
        return catalogue(args.json)
    from controller.compose import data_dir

    path = data_dir(args.data) / "journal.sqlite3"
    if not path.exists():
        raise UserError(f"no journal at {path}: the service has not run with this data folder")
    journal = Journal(path)
    if args.stored == "list":
        for game in journal.games():
            print(f"{game.id:>4}  {_when(game.started)}  {game.game:<16} {game.status:<9} "
                  f"{len(game.actions):>4} actions  {', '.join(game.players)}")
        return 0
    game = journal.get(args.id)
    if game is None:
        raise UserError(f"no stored game {args.id}; see `tabletop games list`")
    if args.stored == "show":
        print_json(_summary(game))
        return 0
    if args.output:
        Path(args.output).write_text(json.dumps(game.record(), indent=2) + "\n")
        print(f"wrote {args.output}: replay it with `tabletop replay {args.output}`")
    else:
        print_json(game.record())
    return 0


def catalogue(as_json: bool) -> int:
    rows = [
        {
            "id": game.id,
            "name": game.name,
            "players": f"{game.min_players}-{game.max_players}",
            "options": {spec.name: list(spec.choices) for spec in game.options},
        }
        for game in all_games()
    ]
    if as_json:
        print_json(rows)
        return 0
    width = max(len(row["id"]) for row in rows)
    for row in rows:
        options = "; ".join(f"{k}: {'|'.join(v)}" for k, v in row["options"].items())
        line = f"{row['id']:<{width}}  {row['name']:<22} {row['players']} players"
        print(f"{line}  {options}".rstrip())
    return 0


def _summary(game: StoredGame) -> dict:
    return {"id": game.id, "game": game.game, "players": list(game.players),
            "options": game.options, "status": game.status, "started": _when(game.started),
            "ended": _when(game.ended) if game.ended else None, "actions": list(game.actions)}


def _when(stamp: float) -> str:
    return datetime.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M")
