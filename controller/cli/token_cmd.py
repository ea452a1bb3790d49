"""``tabletop token [--data DIR]``: the table's token (made on first use; the work is in
``controller.setup.token``), and ``table_token``, where ``tabletop run`` gets it."""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.compose import data_dir
from controller.setup.token import TOKEN_FILE, check_token, install_token
from hardware.profile import BoardProfile


def table_token(profile: BoardProfile, data: Path, *, announce: bool = True) -> str:
    """The token guarding this table: the profile's own (checked), else the install's."""
    if profile.web_token is not None:
        return check_token(profile.web_token, f"profile {profile.source}")
    token, made = install_token(data)
    if made and announce:
        print(f"tabletop: the table's token (for the status page, asked once per browser): "
              f"{token}\n  kept in {data / TOKEN_FILE}; `tabletop token --data {data}` shows "
              f"it again")
    return token


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "token", help="show the install's token (made on first use; a profile's own "
                      "web_token, if it sets one, guards the table instead)")
    parser.add_argument("--data", help="the service's data folder (as given to tabletop run)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    token, _ = install_token(data_dir(args.data))
    print(token)
    return 0
