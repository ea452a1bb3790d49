"""``tabletop doctor``: is this table ready to play, and if not, what to do about it.

The checks are in ``controller.setup.doctor``; this reads the options, prints the findings as
a list (or as JSON) and exits 0 when nothing failed (the table is ready), 1 when something
did; 2 stays a usage error.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from controller.compose import DEFAULT_PORT
from controller.setup.doctor import DEFAULT_PROFILE, Host, examine

from .common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor", help="check that this table is ready: OS, libraries, SPI, GPIO, hubs, LEDs, "
                       "journal, service, token; each problem with its fix")
    parser.add_argument("--profile", help="board profile (default: the installed service's, "
                                          f"else {DEFAULT_PROFILE})")
    parser.add_argument("--data", help="the service's data folder (default: the installed "
                                       "service's, else ~/.local/share/tabletop)")
    parser.add_argument("--url", action="append", metavar="[HUB=]PORT",
                        help="a hub's serial port, overriding the profile's (as for tabletop "
                             "run)")
    parser.add_argument("--port", type=int, help="the status page's port (default: the "
                                                 f"installed service's, else {DEFAULT_PORT})")
    parser.add_argument("--simulate", action="store_true",
                        help="check against the simulator's virtual hubs and strip, skipping "
                             "what only a Pi has")
    parser.add_argument("--json", action="store_true", help="the findings as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, host: Host | None = None,
        only: Sequence[str] | None = None) -> int:
    virtual = None
    if args.simulate:  # the simulator is loaded only when asked for
        from .virtual.table import virtual_hubs as virtual
    report = examine(host or Host(), profile=args.profile, data=args.data, urls=args.url,
                     port=args.port, virtual=virtual, only=only)
    if args.json:
        print_json(report.to_json())
    else:
        profile = report.profile
        where = "simulated table" if args.simulate else f"data {report.data}"
        print(f"tabletop doctor: {profile.name} ({profile.source.name}), {where}")
        for finding in report.findings:
            print(finding.line())
        failed = report.failed
        print("ready: the table can be played" if report.ready else
              f"not ready: {failed} problem{'s' * (failed != 1)} (each with its fix above)")
    return 0 if report.ready else 1
