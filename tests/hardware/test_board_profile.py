"""Board profiles: the shipped Tiki Topple profile loads; every kind of mistake is named."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from hardware.profile import (
    PROFILES_DIR,
    ProfileError,
    TimingSettings,
    find_profile,
    load_profile,
    parse_profile,
)

TIKI = PROFILES_DIR / "tiki_topple.toml"
TIKI_SITES = [f"stack:{i}" for i in range(1, 10)] + ["pad:play", "pad:reveal"]


def base() -> dict[str, Any]:
    return tomllib.loads(TIKI.read_text())


def test_shipped_tiki_topple_profile_loads() -> None:
    profile = load_profile(find_profile("tiki_topple"), TIKI_SITES)
    assert profile.game == "tiki_topple"
    assert profile.sites == tuple(TIKI_SITES)
    assert profile.reader_of("pad:play") == 9
    assert profile.leds.sites["stack:1"] == (0, 1)
    assert profile.leds.brightness <= profile.leds.max_brightness
    assert {"confirm", "undo", "hint"} <= set(profile.buttons.pins)
    assert profile.colours["wrong"] == (0xD5, 0, 0)
    assert profile.hub.baudrate == 115_200 and profile.settle_ms == 400


def test_profile_sites_against_the_real_game() -> None:
    registry = pytest.importorskip("games.registry")
    game = registry.get_game("tiki_topple")
    sites = [site.id for site in game.sites(2)]
    assert load_profile(TIKI, sites).sites == tuple(sorted(sites, key=TIKI_SITES.index))


def test_every_shipped_profile_is_valid() -> None:
    paths = sorted(PROFILES_DIR.glob("*.toml"))
    assert len(paths) >= 5, f"{PROFILES_DIR}: a profile for each game, found {len(paths)}"
    for path in paths:
        load_profile(path)


def change(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(base())
    *parents, last = path.split("/")
    node = data
    for key in parents:
        node = node.setdefault(key, {})
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return data


DELETE = object()

MISTAKES = [
    ("readers/3", "stack:10", "'stack:10' is not a site of this game"),
    ("readers/3", "stack:1", "site 'stack:1' is also reader 0"),
    ("readers/x", "stack:1", "reader numbers are 0..254"),
    ("readers/9", DELETE, "sites of this game with no reader: pad:play"),
    ("readers", {}, "no readers"),
    ("leds/sites/stack:2", [1], "LED 1 already lights 'stack:1'"),
    ("leds/sites/stack:2", [99], "LED 99 is outside the strip (count = 24)"),
    ("leds/sites/stack:2", [], "must be a non-empty list"),
    ("leds/sites/grid:1:1", [0], "no reader watches this site"),
    ("leds/driver", "ws2812", "'ws2812' is not one of neopixel"),
    ("leds/brightness", 0.9, "above max_brightness"),
    ("leds/gamma", 9, "between 1.0 and 3.0"),
    ("leds/count", "many", "must be int"),
    ("leds/colour", 1, "unknown key 'colour'"),
    ("buttons/pins/undo", 5, "GPIO5 is already the 'confirm' button"),
    ("buttons/pins/hint", 40, "BCM numbers 0..27"),
    ("buttons/pins/Big Red", 20, "roles are lower-case names"),
    ("buttons/pins/undo", DELETE, "every table needs these buttons: undo"),
    ("buttons/pin_factory", "pigpio", "'pigpio' is not one of lgpio"),
    ("buttons/gestures", {"tap undo": "undo"}, "a gesture is 'press ROLE' or 'hold ROLE'"),
    ("buttons/gestures", {"hold reset": "abort"}, "there is no 'reset' button"),
    ("buttons/gestures", {"hold undo": "explode"}, "a button can give confirm, undo, hint, "),
    ("colours/legal", "green", "a colour is '#rrggbb'"),
    ("colours/legal", [0, 300, 0], "a colour is '#rrggbb'"),
    ("colours/idle", DELETE, "missing colours: idle"),
    ("hub/url", "  ", "must name the hub's serial port"),
    ("hub", DELETE, "[hub]: this table is missing"),
    ("settle_ms", 5, "between 50 and 10000"),
    ("settle_ms", True, "must be int"),
    ("web_token", "short", "at least 8 characters"),
    ("ledz", {}, "unknown key 'ledz'"),
    ("radio/uid_bytes", 5, "4 (MIFARE Classic) or 7 (NTAG, Ultralight), not 5"),
    ("radio/uid_bytes", 10, "between 4 and 7"),
    ("radio/uid_bytes", 7.0, "must be int"),
    ("timing/silent_ms", 900, "between 1200 and 60000"),
    ("timing/flicker_scans", "1.5", "must be int or float"),
    ("timing/settle_ms", 300, "unknown key 'settle_ms'"),
    ("timing/plain_mistakes", "fast", "'fast' is not one of settle, quick"),
    ("timing/plain_mistakes", True, "must be str"),
]


def two_hubs(*readers: list[Any], **changes: Any) -> dict[str, Any]:
    """The Tiki Topple profile on two hubs (readers 0-4 and 5-10 unless given)."""
    data = copy.deepcopy(base())
    url = data.pop("hub")["url"]
    first, second = readers or (["0-4"], [5, 6, 7, 8, 9, 10])
    data["hubs"] = [{"name": "left", "url": url + "-left", "readers": first},
                    {"name": "right", "url": url + "-right", "readers": second,
                     "unique_id": "e6614c311b7a2f2c"}]
    for key, value in changes.items():
        data["hubs"][1][key] = value
    return data


def test_several_hubs_each_scan_their_readers_in_their_own_order() -> None:
    profile = parse_profile(two_hubs(["0-4"], [9, "5-8", 10]), TIKI, TIKI_SITES)
    left, right = profile.hubs
    assert (left.name, left.readers, left.unique_id) == ("left", (0, 1, 2, 3, 4), None)
    assert right.readers == (9, 5, 6, 7, 8, 10) and right.unique_id == "e6614c311b7a2f2c"
    assert profile.hub is left and profile.hub_of(9) is right
    single = parse_profile(base(), TIKI, TIKI_SITES)
    assert single.hub.readers == tuple(range(11)) and single.hub.name == "hub"
    assert single.hub.supply_ma is None and left.supply_ma is None  # not stated
    stated = parse_profile(two_hubs(supply_ma=2000), TIKI, TIKI_SITES)
    assert stated.hubs[1].supply_ma == 2000


HUB_MISTAKES = [
    (two_hubs(["0-4"], ["5-8", 10]), "readers no hub scans: 9"),
    (two_hubs(["0-5"], ["5-10"]), "reader 5 is also on hub 'left'"),
    (two_hubs(["0-4"], ["5-10", 12]), "reader 12 is not in [readers]"),
    (two_hubs(["0-4"], ["9-5"]), "'9-5' runs backwards"),
    (two_hubs(["0-4"], ["five"]), "list reader numbers or runs"),
    (two_hubs(["0-4"], []), "a hub needs at least one reader"),
    (two_hubs(name="left"), "two hubs with the same name: left"),
    (two_hubs(name="my hub"), "letters, digits, - and _"),
    (two_hubs(unique_id="E6614C"), "is not the hex id a hub reports"),
    (two_hubs(speed=9600), "unknown key 'speed'"),
    (two_hubs(supply_ma="2 A"), "supply_ma: must be int"),
    (two_hubs(supply_ma=50), "between 100 and 50000"),
    ({**two_hubs(), "hub": {"url": "/dev/ttyACM0"}}, "not both"),
]


@pytest.mark.parametrize(("data", "message"), HUB_MISTAKES, ids=[m[1] for m in HUB_MISTAKES])
def test_hub_mistakes_are_named(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(data, TIKI, TIKI_SITES)
    assert message in str(caught.value)


@pytest.mark.parametrize(("path", "value", "message"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_mistakes_are_named_with_file_and_key(path: str, value: Any, message: str) -> None:
    with pytest.raises(ProfileError) as caught:
        parse_profile(change(path, value), TIKI, TIKI_SITES)
    assert message in str(caught.value)
    assert str(caught.value).startswith("tiki_topple.toml: ")


def test_button_gestures_default_to_the_usual_commands_and_can_be_changed() -> None:
    profile = parse_profile(base(), TIKI, TIKI_SITES)
    assert dict(profile.buttons.gestures) == {"press confirm": "confirm", "press undo": "undo",
                                              "hold undo": "undo", "press hint": "hint"}
    changed = parse_profile(change("buttons/gestures", {"hold hint": "abort"}), TIKI, TIKI_SITES)
    assert changed.buttons.gestures["hold hint"] == "abort"
    assert changed.buttons.gestures["press hint"] == "hint"  # the rest stay as they were
    without_hint = parse_profile(change("buttons/pins/hint", DELETE), TIKI, TIKI_SITES)
    assert "press hint" not in without_hint.buttons.gestures


def test_the_judgements_waits_default_and_an_owner_tunes_them() -> None:
    assert parse_profile(base(), TIKI, TIKI_SITES).timing == TimingSettings()
    tuned = parse_profile(change("timing/under_way_ms", 600), TIKI, TIKI_SITES).timing
    assert tuned.under_way_ms == 600 and tuned.silent_ms == TimingSettings().silent_ms
    assert TimingSettings().plain_mistakes == "settle"
    quick = parse_profile(change("timing/plain_mistakes", "quick"), TIKI, TIKI_SITES).timing
    assert quick.plain_mistakes == "quick" and quick.under_way_ms == TimingSettings().under_way_ms


def test_file_level_errors(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="no such profile file"):
        load_profile(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("name = 'x\n")
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(broken)
    with pytest.raises(ProfileError, match=r"shipped profiles: .*tiki_topple"):
        find_profile("no_such_game")


def test_profile_is_immutable() -> None:
    profile = load_profile(TIKI)
    with pytest.raises(TypeError):
        profile.readers[0] = "pad:play"  # type: ignore[index]
    with pytest.raises(AttributeError):
        profile.name = "other"  # type: ignore[misc]
