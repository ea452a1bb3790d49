"""The virtual strip: frames recorded by the hardware layer's RecordingStrip, read per site."""

from __future__ import annotations

import time

import pytest

from hardware.leds import SiteLights, UnknownSite
from simulator.virtual_table import VirtualTable


def lights(table: VirtualTable) -> SiteLights:
    return SiteLights(table.strip.strip, table.profile.leds)


def test_site_colours_read_back_by_name(table: VirtualTable) -> None:
    colours = table.profile.colours
    driver = lights(table)
    assert table.led("stack:3") == "off"
    driver.show({"stack:3": colours["wrong"], "pad:play": colours["legal"]})
    assert table.strip.strip.transmitted == 1
    assert table.led("stack:3") == "wrong"
    assert table.led("pad:play") == "legal"
    assert table.led("stack:4") == "off"
    assert table.strip.colours()["stack:3"] == "wrong"


def test_brightness_changes_do_not_confuse_the_names(table: VirtualTable) -> None:
    driver = lights(table)
    driver.set_brightness(0.45)
    driver.show({"stack:1": table.profile.colours["active"]})
    assert table.led("stack:1") == "active"


def test_blinking_reads_as_the_colour_until_the_window_passes(table: VirtualTable) -> None:
    driver = lights(table)
    driver.show({"stack:2": table.profile.colours["score"]})
    driver.show({})  # the off half of a blink
    assert table.strip.now("stack:2") == "off"
    assert table.led("stack:2") == "score"
    time.sleep(0.05)
    assert table.strip.colour("stack:2", window_s=0.01) == "off"


def test_a_colour_outside_the_palette_is_shown_as_hex(table: VirtualTable) -> None:
    table.strip.strip[0] = (10, 20, 30)
    table.strip.strip.show()
    assert table.strip.now("stack:1").startswith("#")


def test_sites_without_leds_are_refused(table: VirtualTable) -> None:
    with pytest.raises(UnknownSite):
        table.strip.colour("stack:99")
