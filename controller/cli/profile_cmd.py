"""``tabletop profile new GAME``: write a game's default board profile from its own sites.
``tabletop profile schedule PROFILE``: the field classes to flash into the hub's config.py.

A sixth game needs no hand-written profile: the engine lists its sites, and this command lays
one reader and one LED under each. The result is a starting point for a maker to edit; a
profile shipped in ``hardware/profiles/`` wins over it whenever both exist.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.compose import default_profile_text, game_sites, load_board
from controller.errors import UserError
from games.registry import get_game


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("profile", help="board profiles: write a game's default one")
    actions = parser.add_subparsers(dest="profile_command", required=True,
                                    parser_class=type(parser))
    new = actions.add_parser("new", help="a default profile generated from the game's sites")
    new.add_argument("game", help="game id (see tabletop games)")
    new.add_argument("--output", "-o", metavar="PATH",
                     help="write the profile here (default: print it)")
    new.add_argument("--players", type=int, metavar="N",
                     help="only the sites of an N-player table (default: every player count)")
    new.add_argument("--hubs", type=int, default=1, metavar="N",
                     help="split the readers over N hubs, one stripe of the board each")
    new.add_argument("--force", action="store_true", help="replace an existing file")
    new.set_defaults(run=run_new)
    schedule = actions.add_parser(
        "schedule", help="the hub's FIELD_CLASSES for a profile, from its sites' coordinates")
    schedule.add_argument("profile", help="a game id or a profile file")
    schedule.set_defaults(run=run_schedule)


def run_schedule(args: argparse.Namespace) -> int:
    """Print the lines a maker pastes into each hub's ``firmware/config.py`` (the same
    classes the simulator's realistic table switches)."""
    from hardware.field_schedule import reader_layout, table_schedules

    board = load_board(args.profile)
    game = get_game(board.game)
    where = {site.id: (site.x, site.y) for site in game_sites(game)}
    positions = reader_layout(board.readers, where, board.radio)
    schedules = table_schedules(positions, [hub.readers for hub in board.hubs], board.radio)
    for hub, classes in zip(board.hubs, schedules, strict=True):
        if len(board.hubs) > 1:
            print(f"# hub {hub.name}: its reader n is the profile's reader "
                  f"{list(hub.readers)}[n]; {len(classes)} slots shared with the other hubs")
        print(f"# {game.name}, {len(hub.readers)} readers: {len(classes)} field classes of at "
              f"most {board.radio.max_fields_on} fields on at once")
        print(f"FIELD_CLASSES = {[list(members) for members in classes]}")
        print(f"POWER_UP_MS = {round(board.radio.power_up_ms)}")
    return 0


def run_new(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    sites = game_sites(game, args.players)
    if not 1 <= args.hubs <= len(sites):
        raise UserError(f"--hubs must be 1..{len(sites)} (one reader a hub at least)")
    text = default_profile_text(game, args.players, args.hubs)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    path = Path(args.output)
    if path.exists() and not args.force:
        raise UserError(f"{path} exists; pass --force to replace it")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(f"{path}: cannot write it ({error.__class__.__name__})") from None
    print(f"tabletop profile: wrote {path} ({len(game_sites(game, args.players))} sites)",
          file=sys.stderr)
    return 0
