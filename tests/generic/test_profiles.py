"""Every game has a board: the profile generated from its sites, or the shipped one, which wins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.compose import default_profile, game_sites, load_board
from controller.errors import UserError
from games.core.game import Game
from hardware.profile import PROFILES_DIR, load_profile


def every_site(game: Game[Any]) -> set[str]:
    return {s.id for n in range(game.min_players, game.max_players + 1) for s in game.sites(n)}


def test_the_generated_profile_loads_and_covers_every_site(game: Game[Any]) -> None:
    profile = default_profile(game)
    assert set(profile.sites) == every_site(game)
    assert set(profile.leds.sites) == every_site(game)
    assert profile.game == game.id
    assert list(profile.sites) == [site.id for site in game_sites(game)]  # reader n: n-th site


def test_the_written_profile_is_the_one_the_table_loads(game: Game[Any], tmp_path: Path,
                                                        capsys) -> None:
    path = tmp_path / f"{game.id}.toml"
    assert main(["profile", "new", game.id, "--output", str(path)]) == 0
    profile = load_profile(path, known_sites=every_site(game))
    assert profile.sites == default_profile(game).sites
    assert main(["profile", "new", game.id, "--output", str(path)]) == 2  # no silent overwrite
    assert "--force" in capsys.readouterr().err
    assert load_board(str(path)).sites == profile.sites


def test_a_profile_split_over_hubs_puts_every_reader_on_one_hub_in_stripes(
        game: Game[Any], tmp_path: Path) -> None:
    path = tmp_path / f"{game.id}.toml"
    hubs = min(3, len(game_sites(game)))
    assert main(["profile", "new", game.id, "--hubs", str(hubs), "--output", str(path)]) == 0
    profile = load_profile(path, known_sites=every_site(game))
    assert [hub.name for hub in profile.hubs] == [f"hub{n}" for n in range(1, hubs + 1)]
    readers = sorted(reader for hub in profile.hubs for reader in hub.readers)
    assert readers == sorted(profile.readers)  # each exactly once
    sizes = [len(hub.readers) for hub in profile.hubs]
    assert max(sizes) - min(sizes) <= 1  # even stripes
    assert main(["profile", "new", game.id, "--hubs", "0"]) == 2


def test_the_table_finds_a_board_for_the_game(game: Game[Any]) -> None:
    """The shipped profile where there is one (it agrees with the generated one on the sites),
    else the generated one."""
    board = load_board(game.id)
    assert set(board.sites) == every_site(game)
    shipped = PROFILES_DIR / f"{game.id}.toml"
    if shipped.exists():
        assert board.source == shipped
        assert set(default_profile(game).sites) == set(load_profile(shipped).sites)
    else:
        assert board.source.name == f"{game.id} (generated)"


def test_a_name_that_is_neither_game_nor_profile_is_one_clear_error() -> None:
    with pytest.raises(UserError, match=r"no profile 'no_such_game'.*games: "):
        load_board("no_such_game")


def test_without_a_shipped_profile_the_table_and_the_simulator_use_the_generated_one(
    game: Game[Any], tmp_path: Path, monkeypatch, capsys,
) -> None:
    import hardware.profile
    import simulator.virtual_table
    from controller import compose

    monkeypatch.setattr(hardware.profile, "PROFILES_DIR", tmp_path)
    monkeypatch.setattr(simulator.virtual_table, "PROFILES_DIR", tmp_path)
    monkeypatch.setattr(compose, "_announced", set())
    first, again = load_board(game.id), load_board(game.id)
    assert first.source.name == f"{game.id} (generated)"
    assert first.sites == again.sites == default_profile(game).sites
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "in memory" in err and "tabletop profile new" in err
    table = simulator.virtual_table.VirtualTable.for_game(game.id)
    try:
        assert table.profile.sites == first.sites
    finally:
        table.close()
