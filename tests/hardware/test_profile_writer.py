"""The default profile written from plain sites is one the loader accepts, site for site."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from hardware.profile import ProfileError, load_profile, parse_profile
from hardware.profile_writer import SiteSpec, generated_profile, profile_text

SITES = [SiteSpec("pad:deal", "deal pad", 0, 0), SiteSpec("slot:1", 'the "first"\nslot', 1, 0),
         SiteSpec("slot:2", "", 2, 0.5), SiteSpec("slot:1", "again", 9, 9)]


def test_readers_and_leds_follow_the_site_order_once_each(tmp_path: Path) -> None:
    path = tmp_path / "toy.toml"
    path.write_text(profile_text("toy", "Toy Game", SITES), encoding="utf-8")
    profile = load_profile(path, known_sites={"pad:deal", "slot:1", "slot:2"})
    assert dict(profile.readers) == {0: "pad:deal", 1: "slot:1", 2: "slot:2"}
    assert dict(profile.leds.sites) == {"pad:deal": (0,), "slot:1": (1,), "slot:2": (2,)}
    assert profile.leds.count == 3
    assert {"confirm", "undo"} <= set(profile.buttons.pins)
    assert (profile.game, profile.name) == ("toy", "Toy Game")


def test_brightness_stays_within_the_power_budget() -> None:
    many = [SiteSpec(f"cell:{n}") for n in range(200)]
    profile = generated_profile("big", "Big", many)
    assert profile.leds.brightness <= profile.leds.max_brightness
    assert profile.leds.count * 0.06 * profile.leds.max_brightness <= 2.0


def test_odd_names_are_quoted_so_the_toml_reads_back() -> None:
    odd = [SiteSpec('a"b'), SiteSpec("c\\d"), SiteSpec("é:1")]
    data = tomllib.loads(profile_text("odd", 'Odd "Game"', odd))
    assert list(data["readers"].values()) == ['a"b', "c\\d", "é:1"]
    assert data["name"] == 'Odd "Game"'
    parse_profile(data, Path("odd.toml"), {'a"b', "c\\d", "é:1"})


def test_settings_reach_the_profile_and_no_sites_is_refused() -> None:
    profile = generated_profile("toy", "Toy", SITES[:1], hub_url="loop://", settle_ms=250)
    assert (profile.hub.url, profile.settle_ms) == ("loop://", 250)
    with pytest.raises(ProfileError, match="at least one site"):
        profile_text("toy", "Toy", [])
