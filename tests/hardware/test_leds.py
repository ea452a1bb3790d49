"""LEDs through adafruit_pixelbuf: mapping, gamma, brightness cap, push only on change."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

from hardware.leds import (
    LedDriverUnavailable,
    RecordingStrip,
    SiteLights,
    UnknownSite,
    gamma_table,
    open_strip,
)
from hardware.profile import PROFILES_DIR, LedSettings, load_profile

SETTINGS = LedSettings(
    driver="recording",
    pin="D18",
    count=6,
    pixel_order="GRB",
    brightness=1.0,
    max_brightness=1.0,
    gamma=1.0,
    sites=MappingProxyType({"stack:1": (0, 1), "pad:play": (4,)}),
)


def lights(**changes: object) -> tuple[RecordingStrip, SiteLights]:
    settings = dataclasses.replace(SETTINGS, **changes)
    strip = open_strip(settings)
    assert isinstance(strip, RecordingStrip)
    return strip, SiteLights(strip, settings)


def test_sites_light_their_leds_in_strip_byte_order() -> None:
    strip, leds = lights()
    assert leds.show({"stack:1": (255, 10, 0), "pad:play": (0, 0, 200)})
    assert strip.shown() == [(255, 10, 0)] * 2 + [(0, 0, 0)] * 2 + [(0, 0, 200), (0, 0, 0)]
    assert strip.frames[-1][:3] == bytes([10, 255, 0])  # GRB on the wire


def test_a_frame_is_pushed_only_when_it_changes() -> None:
    strip, leds = lights()
    assert leds.show({"stack:1": (1, 2, 3)})
    assert not leds.show({"stack:1": (1, 2, 3)})
    assert leds.show({"pad:play": (1, 2, 3)})
    assert leds.off()
    assert not leds.off()
    assert strip.transmitted == leds.pushes == 3


def test_brightness_is_capped_and_applied_by_pixelbuf() -> None:
    strip, leds = lights(brightness=0.5, max_brightness=0.5)
    leds.show({"pad:play": (200, 100, 50)})
    assert strip.shown()[4] == (100, 50, 25)
    leds.set_brightness(1.0)  # asks for more than the power budget
    assert strip.brightness == 0.5
    leds.set_brightness(0.25)
    assert leds.show({"pad:play": (200, 100, 50)})  # same colours, new brightness: pushed
    assert strip.shown()[4] == (50, 25, 12)


def test_gamma_darkens_low_values() -> None:
    strip, leds = lights(gamma=2.2)
    leds.show({"pad:play": (255, 128, 0)})
    assert strip.shown()[4] == (255, gamma_table(2.2)[128], 0)
    assert gamma_table(2.2)[128] < 64


def test_unknown_sites_are_refused_and_nothing_changes() -> None:
    strip, leds = lights()
    leds.show({"stack:1": (9, 9, 9)})
    with pytest.raises(UnknownSite, match="grid:1:1"):
        leds.show({"stack:1": (1, 1, 1), "grid:1:1": (1, 1, 1)})
    assert strip.transmitted == 1 and strip.shown()[0] == (9, 9, 9)
    for bad in ((256, 0, 0), (1, 2), (-1, 0, 0), "red"):
        with pytest.raises(ValueError, match=r"must be \(r, g, b\) of 0\.\.255"):
            leds.show({"stack:1": bad})  # type: ignore[dict-item]
    assert strip.transmitted == 1


def test_strip_must_be_long_enough() -> None:
    with pytest.raises(ValueError, match="needs 6"):
        SiteLights(RecordingStrip(3), SETTINGS)


def test_pi_drivers_are_optional_and_explain_themselves() -> None:
    for driver in ("neopixel", "neopixel_spi"):
        try:
            open_strip(dataclasses.replace(SETTINGS, driver=driver))
        except LedDriverUnavailable as exc:  # off a Raspberry Pi
            assert driver in str(exc)
            extra = "pi-pwm" if driver == "neopixel" else "pi"  # PWM: not in the pi extra
            assert f"tabletop[{extra}]" in str(exc) or "cannot open" in str(exc)


def test_profile_leds_drive_a_recording_strip() -> None:
    profile = load_profile(PROFILES_DIR / "tiki_topple.toml")
    settings = dataclasses.replace(profile.leds, driver="recording")
    strip = open_strip(settings)
    leds = SiteLights(strip, settings)
    leds.show({"pad:play": profile.colours["legal"]})
    lit = [i for i, colour in enumerate(strip.shown()) if colour != (0, 0, 0)]
    assert lit == list(profile.leds.sites["pad:play"])
