"""The core conformance check over 300 seeded games, split so that xdist spreads them (every
run plays the first seed of each case, `make test-slow` the whole sweep: tests/sweeps.py); and
a box with few score tiles, so that running out of tiles is played through too."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.core.conformance import check_game
from games.core.game import CHANCE
from games.core.playout import random_playout
from games.hanging_gardens import GAME, HangingGardens
from games.hanging_gardens.components import DATA_FILE, load_components
from tests.sweeps import seeds

GAMES_PER_CASE = 20


@pytest.mark.parametrize("seed", seeds(5))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int, seed: int) -> None:
    report = check_game(GAME, games=GAMES_PER_CASE, seed=seed, player_counts=[players])
    assert report.games == GAMES_PER_CASE


def few_tiles(tmp_path: Path) -> HangingGardens:
    """The same box with one tile of each series: 12 tiles, which random games use up."""
    text = re.sub(r"count = \d+", "count = 1", DATA_FILE.read_text())
    path = tmp_path / "few.toml"
    path.write_text(text)
    return HangingGardens(load_components(path))


def test_running_out_of_tiles_is_played_through(tmp_path: Path) -> None:
    game = few_tiles(tmp_path)
    check_game(game, games=10, seed=1, player_counts=[4])
    ran_out, early = 0, 0
    for seed in range(40):
        final = random_playout(game, ["a", "b", "c", "d"], rng=random.Random(seed)).final
        if final.ending:
            ran_out += 1
            assert sum(final.stack) == 0  # the trigger: the stack is empty
            early += final.round < 14  # ended with cards still in the deck
    assert ran_out > 0 and early > 0


def test_hidden_extra_tiles_are_redrawn_by_resample() -> None:
    """Random games rarely build a group of 6 and take the extra tile, so the conformance
    runs above may not meet one: play games that always take it, and check the views."""
    rng = random.Random(3)
    seen = 0
    for _ in range(30):
        state = GAME.initial(["a", "b", "c"])
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            if GAME.actor(state) == CHANCE:
                action = GAME.sample_chance(state, rng)
            else:
                action = "take extra" if "take extra" in legal else rng.choice(legal)
            state = GAME.apply(state, action)
            if sum(map(sum, state.extras)) and GAME.actor(state) >= 0:
                for player in range(3):
                    other = GAME.resample(state, player, rng)
                    assert GAME.view(other, player) == GAME.view(state, player)
                    seen += other != state
    assert seen > 0
