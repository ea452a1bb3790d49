"""``tabletop replay RECORD.json``: replay a game record and show where it ended."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from controller.errors import UserError
from controller.table import RESUME_BUDGET
from controller.unresolved import UNRESOLVED, Reveal, search_dealings, secrets_owed
from games.core.errors import IllegalAction
from games.registry import get_game

from .common import print_json, read_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay",
        help='replay {"game", "players", "options", "revision", "actions", "reveals"} and print '
             "the final view and score (? for a draw nobody saw: any dealing that fits)",
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
    reveals = _reveals(record.get("reveals", []), len(actions), len(players))
    if UNRESOLVED in actions:  # draws nobody at the table saw: any dealing that fits
        found, cost = search_dealings(game, state, actions, reveals=reveals, budget=RESUME_BUDGET)
        if found is None:
            why = "the search gave up" if cost.gave_up else "there is none"
            raise UserError(f"no way of dealing the box explains the record's unseen draws "
                            f"(?) and the secrets shown ({why})")
        states = list(found.states)
    else:
        states = [state]
        for index, action in enumerate(actions):
            try:
                states.append(game.apply(states[-1], action))
            except IllegalAction as error:
                raise UserError(f"action {index} {action!r} is illegal: {error}") from None
    state = states[-1]
    waiting = sorted({seat for _, seat in secrets_owed(game, states, reveals)}
                     ) if UNRESOLVED in actions else []
    view = game.view(state, None)
    result: dict[str, Any] = {
        "actions": len(actions),
        "unseen": actions.count(UNRESOLVED),
        "finished": game.is_terminal(state),
        "view": game.withhold(view, waiting) if waiting else view,
        "score": None if waiting else game.score(state).to_json(),
    }
    if waiting:
        result["waiting_for_secrets_of"] = [players[seat] for seat in waiting]
    elif game.is_terminal(state):
        sheet = game.score(state)
        result["winners"] = [sheet.players[seat] for seat in game.winners(state)]
    print_json(result)
    return 0


def _reveals(data: Any, steps: int, seats: int) -> list[Reveal]:
    """The record's secrets shown: [{"step", "seat", "pieces"}, ...]."""
    if not isinstance(data, list):
        raise UserError("reveals must be a JSON list of {step, seat, pieces}")
    reveals = []
    for index, item in enumerate(data):
        if not (isinstance(item, Mapping) and isinstance(item.get("step"), int)
                and 0 <= item["step"] <= steps and isinstance(item.get("seat"), int)
                and 0 <= item["seat"] < seats and isinstance(item.get("pieces"), list)
                and all(isinstance(piece, str) for piece in item["pieces"])):
            raise UserError(f"reveal {index} must be {{step: 0..{steps}, seat: 0..{seats - 1}, "
                            f"pieces: [piece, ...]}}, not {item!r}")
        reveals.append(Reveal(item["step"], item["seat"], tuple(item["pieces"])))
    return reveals


def _get(record: Mapping[str, Any], key: str, kind: type) -> Any:
    value = record.get(key)
    if not isinstance(value, kind):
        raise UserError(f"the record needs {key!r} as a JSON {kind.__name__}")
    return value
