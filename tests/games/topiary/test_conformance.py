"""The core conformance check over 300 seeded games, split so that xdist
spreads them; every run plays the first seeds, `make test-slow` the whole sweep
(tests/sweeps.py)."""

from __future__ import annotations

import pytest

from games.core.conformance import check_game
from games.topiary import GAME
from tests.sweeps import seeds

GAMES_PER_CASE = 10


@pytest.mark.parametrize("seed", seeds(5, quick=2))
@pytest.mark.parametrize("draft", ["off", "on"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int, draft: str, seed: int) -> None:
    report = check_game(
        GAME,
        games=GAMES_PER_CASE,
        seed=seed,
        player_counts=[players],
        options=[{"draft": draft}],
    )
    assert report.games == GAMES_PER_CASE
    assert report.hidden_checks > 0
