"""pytest plugin for test runs under qemu-aarch64 (loaded by .ci/pi-check with -p).

Emulation runs Python several times slower, so Hypothesis's per-example deadline would time the
emulator rather than the code: this profile lifts it and the too-slow health check. The waits
for the simulated hardware (tests/simulator/conftest.py, ``SLOWDOWN``) are stretched as much:
one of The Hanging Gardens' six virtual hubs took more than the 10 s a PC is given to show a
board, with the machine otherwise busy.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

os.environ.setdefault("TABLETOP_TEST_SLOWDOWN", "8")

settings.register_profile(  # no example database: the copied tests are read-only here
    "pi-check", deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
settings.load_profile("pi-check")
