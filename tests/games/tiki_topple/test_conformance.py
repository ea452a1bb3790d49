"""Tiki Topple passes the core conformance check over hundreds of seeded games."""

from __future__ import annotations

import pytest

from games.core.conformance import check_game

from .helpers import GAME


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("edition", ["schmidt", "gamewright"])
def test_conformance(edition: str, seed: int) -> None:
    report = check_game(GAME, games=13, seed=seed, options=({"edition": edition},))
    assert report.games == 13 * 3  # 2, 3 and 4 players
    assert report.hidden_checks > 0
