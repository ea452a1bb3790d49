"""``tabletop play``: play a game in the terminal, against the AI or random bots if you like."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from controller.advice import HINT_SIMULATIONS
from controller.errors import UserError
from games.core.errors import IllegalAction
from games.core.game import CHANCE, Game
from games.registry import get_game

from .common import (
    add_ai_argument,
    load_advisor_class,
    parse_ai,
    parse_options,
    parse_players,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", help="play in the terminal (AI or random bots too)")
    parser.add_argument("game")
    parser.add_argument("--players", required=True, help="names, comma separated: anna,ben")
    parser.add_argument("--bots", default="", help="which of the players are random bots")
    add_ai_argument(parser)
    parser.add_argument("--seed", type=int, default=None, help="seed for chance and the bots")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    players = parse_players(args.players)
    bots = set(parse_players(args.bots)) if args.bots else set()
    if not bots <= set(players):
        raise UserError(f"--bots names players not in --players: {', '.join(bots - set(players))}")
    ai = parse_ai(args.ai, players)
    if bots & set(ai):
        raise UserError(f"a player is either a random bot or the AI: {', '.join(bots & set(ai))}")
    options = parse_options(args.option)
    state = game.initial(players, options)
    rng = random.Random(args.seed)
    made: list[Any] = []

    def advisor() -> Any:
        """The AI, made when first needed (a hint needs it too)."""
        if not made:
            made.append(load_advisor_class()(game, len(players), options,
                                             seed=rng.randrange(2**32)))
        return made[0]

    if ai:
        advisor()  # no OpenSpiel: say so before the game starts
    print(f"{game.name}: {', '.join(players)}. Type a move, its number, 'moves', 'hint' "
          "or 'quit'.")
    while not game.is_terminal(state):
        seat = game.actor(state)
        if seat == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        legal = game.legal_actions(state)
        name = players[seat]
        if name in bots:
            action = rng.choice(legal)
            print(f"{name} (bot): {action}")
        elif name in ai:
            advice = advisor().advise(state, simulations=ai[name])
            action = advice.action
            thought = f" ({advice.seconds:.1f} s)" if advice.simulations else ""
            print(f"{name} (AI): {action}{thought}")
        elif len(legal) == 1:
            action = legal[0]
            print(f"{name}: {action} (the only move)")
        else:
            action = _ask(game, state, seat, legal,
                          lambda current: advisor().advise(
                              current, simulations=HINT_SIMULATIONS).action)
            if action is None:
                print("game abandoned")
                return 0
        state = game.apply(state, action)
    print()
    print(game.render(state, None))
    sheet = game.score(state)
    for name, lines in zip(sheet.players, sheet.lines, strict=True):
        for line in lines:
            print(f"  {name}: {line.text}")
    winners = [players[seat] for seat in game.winners(state)]
    print(f"winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}")
    return 0


def _ask(game: Game, state: object, seat: int, legal: list[str],
         hint: Callable[[object], str]) -> str | None:
    print()
    print(game.render(state, seat))
    _show_moves(legal)
    while True:
        try:
            text = input(f"{game.players(state)[seat]}> ").strip()
        except EOFError:
            print()
            return None
        if text in ("quit", "exit"):
            return None
        if text in ("moves", "help", "?", ""):
            _show_moves(legal)
            continue
        if text == "hint":
            try:
                suggestion = hint(state)
            except UserError as error:
                print(f"  {error}")
                continue
            print(f"  the AI would play: {suggestion} (move {legal.index(suggestion) + 1})")
            continue
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            print(f"  pick a number from 1 to {len(legal)}")
            continue
        try:
            action = game.parse_action(text)
            game.apply(state, action)
        except IllegalAction as error:
            print(f"  {error}")
            continue
        return action


def _show_moves(legal: list[str]) -> None:
    cells = [f"{n:>3}. {action:<22}" for n, action in enumerate(legal, start=1)]
    for row in range(0, len(cells), 3):
        print("".join(cells[row : row + 3]).rstrip())
