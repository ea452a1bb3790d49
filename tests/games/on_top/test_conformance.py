"""The core conformance check over 280 seeded games, split so that xdist
spreads them; every run plays the first seeds, `make test-slow` the whole sweep
(tests/sweeps.py)."""

from __future__ import annotations

import pytest

from games.core.conformance import check_game
from games.on_top import GAME
from tests.sweeps import seeds

GAMES_PER_CASE = 10


@pytest.mark.parametrize("seed", seeds(8, quick=2))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int, seed: int) -> None:
    report = check_game(GAME, games=GAMES_PER_CASE, seed=seed, player_counts=[players])
    assert report.games == GAMES_PER_CASE
    assert report.steps > 60 * GAMES_PER_CASE  # whole games: 34 rhombi are drawn and laid


@pytest.mark.parametrize("seed", seeds(4))
def test_conformance_partner_game(seed: int) -> None:
    report = check_game(
        GAME, games=GAMES_PER_CASE, seed=seed, player_counts=[4], options=[{"partners": "on"}]
    )
    assert report.games == GAMES_PER_CASE
