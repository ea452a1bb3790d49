"""pytest plugin for test runs under qemu-aarch64 (loaded by .ci/pi-check with -p).

Emulation runs Python several times slower, so Hypothesis's per-example deadline would time the
emulator rather than the code: this profile lifts it and the too-slow health check.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(  # no example database: the copied tests are read-only here
    "pi-check", deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
settings.load_profile("pi-check")
