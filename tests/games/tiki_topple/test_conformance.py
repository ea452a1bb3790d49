"""Tiki Topple passes the core conformance check over hundreds of seeded games (every
run plays the first two seeds, `make test-slow` the whole sweep: tests/sweeps.py)."""

from __future__ import annotations

import pytest

from games.core.conformance import check_game
from tests.sweeps import seeds

from .helpers import GAME


@pytest.mark.parametrize("seed", seeds(4, quick=2))
@pytest.mark.parametrize("edition", ["schmidt", "gamewright"])
def test_conformance(edition: str, seed: int) -> None:
    report = check_game(GAME, games=13, seed=seed, options=({"edition": edition},))
    assert report.games == 13 * 3  # 2, 3 and 4 players
    assert report.hidden_checks > 0
