"""``tabletop replay RECORD.json``: replay a game record and show where it ended."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from games.core.errors import IllegalAction
from games.registry import get_game

from .common import UserError, print_json, read_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay",
        help='replay {"game", "players", "options", "revision", "actions"} and print the final '
             "view and score",
    )
    parser.add_argument("record", help="JSON replay record")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    record = read_json(args.record)
    if not isinstance(record, Mapping):
        raise UserError("a replay record is a JSON object with game, players, options, actions")
    game = get_game(_get(record, "game", str))
    players = _get(record, "players", list)
    options = record.get("options") or {}
    if not isinstance(options, Mapping):
        raise UserError("options must be a JSON object")
    actions = _get(record, "actions", list)
    # a record without a revision was written before revisions existed: the first rules
    options = game.options_at(options, record.get("revision", 1))
    state = game.initial(players, options)
    for index, action in enumerate(actions):
        if not isinstance(action, str):
            raise UserError(f"action {index} is not a string: {action!r}")
        try:
            state = game.apply(state, action)
        except IllegalAction as error:
            raise UserError(f"action {index} {action!r} is illegal: {error}") from None
    sheet = game.score(state)
    result = {
        "actions": len(actions),
        "finished": game.is_terminal(state),
        "view": game.view(state, None),
        "score": sheet.to_json(),
    }
    if game.is_terminal(state):
        result["winners"] = [sheet.players[seat] for seat in game.winners(state)]
    print_json(result)
    return 0


def _get(record: Mapping[str, Any], key: str, kind: type) -> Any:
    value = record.get(key)
    if not isinstance(value, kind):
        raise UserError(f"the record needs {key!r} as a JSON {kind.__name__}")
    return value
