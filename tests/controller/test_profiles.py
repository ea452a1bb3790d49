"""Every shipped board profile fits its game: each sensed site has a reader and an LED."""

from __future__ import annotations

import pytest

from controller.compose import load_board
from games.registry import get_game
from hardware.profile import PROFILES_DIR

PROFILES = sorted(path.stem for path in PROFILES_DIR.glob("*.toml"))


def test_every_game_has_a_profile() -> None:
    from games.registry import all_games

    assert {game.id for game in all_games()} <= set(PROFILES)


@pytest.mark.parametrize("name", PROFILES)
def test_a_profile_covers_its_games_sites(name: str) -> None:
    profile = load_board(name)
    game = get_game(profile.game)
    sites = {site.id for site in game.sites(game.max_players)}
    assert sites == set(profile.readers.values())
    assert sites == set(profile.leds.sites)
    assert {"confirm", "undo"} <= set(profile.buttons.pins)
