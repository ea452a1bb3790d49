"""Seeds for a sweep (the conformance check over hundreds of seeded games): every run plays
the first few; the rest are marked ``slow`` and run with ``make test-slow`` (a CI run on two
shared cores has no room for the whole sweep, and the first seeds already play every rule)."""

from __future__ import annotations

from typing import Any

import pytest


def seeds(count: int, quick: int = 1) -> list[Any]:
    """Seeds ``0 .. count - 1``: the first ``quick`` in every run, the others slow."""
    return [seed if seed < quick else pytest.param(seed, marks=pytest.mark.slow)
            for seed in range(count)]
