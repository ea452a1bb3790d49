"""The core conformance check over 280 seeded games, split so that xdist spreads them."""

from __future__ import annotations

import pytest

from games.core.conformance import check_game
from games.on_top import GAME

GAMES_PER_CASE = 10


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int, seed: int) -> None:
    report = check_game(GAME, games=GAMES_PER_CASE, seed=seed, player_counts=[players])
    assert report.games == GAMES_PER_CASE
    assert report.steps > 60 * GAMES_PER_CASE  # whole games: 34 rhombi are drawn and laid


@pytest.mark.parametrize("seed", range(4))
def test_conformance_partner_game(seed: int) -> None:
    report = check_game(
        GAME, games=GAMES_PER_CASE, seed=seed, player_counts=[4], options=[{"partners": "on"}]
    )
    assert report.games == GAMES_PER_CASE
