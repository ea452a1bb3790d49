"""What `tabletop[pi]` left in a venv: run inside a pi-check root filesystem by .ci/pi-check.

The wheel's own metadata says what the `pi` extra asks for on this Python, so this needs no list
of its own: each requirement whose marker applies must be installed, and its modules must import
(a module that needs a real Pi, such as Blinka's `board`, is reported, not counted as a failure).
Exit 1 when a requirement is missing.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import platform
import sys
from importlib import metadata

try:
    from packaging.requirements import Requirement
except ImportError:  # a venv without `packaging` still has pip's copy
    from pip._vendor.packaging.requirements import Requirement

# Modules that import only on a real Pi (they read the board's device tree), as do those raising
# NotImplementedError (Blinka's "not supported for this board"): reported, never failed.
# usb_hid reads /proc/modules, which containers lack.
NEEDS_A_PI = {"board", "digitalio", "busio", "neopixel_spi", "neopixel", "RPi", "microcontroller",
              "usb_hid"}


def os_name() -> str:
    """PRETTY_NAME from os-release, the way the doctor names the OS."""
    with open("/etc/os-release", encoding="utf-8") as f:
        for line in f:
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    return "unknown"


def top_level_modules(dist: metadata.Distribution) -> list[str]:
    """The importable names a distribution installs (top_level.txt, else its files)."""
    text = dist.read_text("top_level.txt")
    if text:
        return sorted({name for name in text.split() if not name.startswith("_")})
    names = set()
    for path in dist.files or []:
        part = path.parts[0]
        if part.endswith((".dist-info", ".data")) or part.startswith(("_", "..")):
            continue
        names.add(part.removesuffix(".py").split(".")[0])
    return sorted(names)


def main() -> int:
    print(f"python       {platform.python_version()} {platform.machine()} on {os_name()}")
    tabletop = metadata.distribution("tabletop")
    controller = importlib.import_module("controller")
    print(f"tabletop     {tabletop.version} imported from {controller.__file__}")
    missing = 0
    env = {"extra": "pi"}
    for text in tabletop.requires or []:
        req = Requirement(text)
        if not req.marker or "extra" not in str(req.marker) or not req.marker.evaluate(env):
            continue  # a base dependency, or one the marker leaves out on this Python
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            print(f"pi extra     {req.name}: MISSING ({text})")
            missing += 1
            continue
        where = "system" if "/dist-packages/" in str(dist.locate_file("")) else "venv"
        results = []
        for module in top_level_modules(dist):
            try:  # quietly: Blinka prints its board warnings on import
                with contextlib.redirect_stdout(io.StringIO()):
                    importlib.import_module(module)
                results.append(f"{module} ok")
            except Exception as exc:  # any import error is the finding being reported
                why = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                pi_only = module in NEEDS_A_PI or isinstance(exc, NotImplementedError)
                tag = "needs a Pi" if pi_only else "FAILED"
                results.append(f"{module} {tag} ({why[:70]})")
        print(f"pi extra     {req.name} {dist.version} [{where}]: {'; '.join(results)}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
