"""``tabletop install`` / ``tabletop uninstall``: make a Raspberry Pi a table, and undo it.

Run as root from the venv tabletop was installed into (``sudo /opt/tabletop/bin/tabletop
install --profile tiki_topple``). The steps are in ``controller.setup.install``: each looks
before it changes anything and says ``already`` or ``done``, and ``uninstall`` undoes what the
install's manifest says it changed. ``--root`` (hidden) installs into a scratch folder, for the
tests.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.compose import DEFAULT_PORT
from controller.setup import install as steps


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "install", help="make this Raspberry Pi a table: service user, SPI, udev rule, "
                        "systemd service; or with --club the club's MQTT broker (run with "
                        "sudo; again changes nothing)")
    parser.add_argument("--profile", help="board profile name or .toml path (a table)")
    parser.add_argument("--club", metavar="TABLE[,TABLE...]",
                        help="instead: this machine is the club's broker; these tables get a "
                             "login (again: adds tables, keeps passwords; docs/club.md)")
    parser.add_argument("--remove", metavar="TABLE[,TABLE...]",
                        help="with the club's broker: drop these tables' logins")
    parser.add_argument("--homeassistant", action="store_true",
                        help="with the club's broker: a login for Home Assistant too")
    parser.add_argument("--data", default=str(steps.DEFAULT_DATA),
                        help=f"the service's data folder (default: {steps.DEFAULT_DATA})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="the status page's port")
    parser.add_argument("--user", default=steps.USER,
                        help=f"the service's user (default: {steps.USER})")
    _common(parser)
    parser.set_defaults(run=install)
    parser = subparsers.add_parser(
        "uninstall", help="undo tabletop install (keeps the data folder unless --purge)")
    parser.add_argument("--purge", action="store_true", help="delete the data folder too")
    _common(parser)
    parser.set_defaults(run=uninstall)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--venv", default=sys.prefix,
                        help="the venv tabletop is installed in (default: this one)")
    parser.add_argument("--root", default="/", help=argparse.SUPPRESS)


def install(args: argparse.Namespace) -> int:
    steps.install(Path(args.root), steps.Runner(print), profile=args.profile, club=args.club,
                  remove=args.remove, homeassistant=args.homeassistant, user=args.user,
                  data=Path(args.data), venv=Path(args.venv), port=args.port)
    return 0


def uninstall(args: argparse.Namespace) -> int:
    steps.uninstall(Path(args.root), steps.Runner(print), purge=args.purge)
    return 0
