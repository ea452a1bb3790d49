"""Virtual buttons drive gpiozero mock pins that the hardware layer's ButtonPanel reads."""

from __future__ import annotations

import asyncio
import dataclasses
import threading

import pytest
from gpiozero import Button

from hardware.buttons import ButtonEvent, ButtonPanel
from simulator.virtual_buttons import UnknownButton
from simulator.virtual_table import VirtualTable


def test_press_and_hold_reach_the_button_panel(table: VirtualTable) -> None:
    settings = dataclasses.replace(table.profile.buttons, hold_seconds=0.2)
    events: list[ButtonEvent] = []
    held = threading.Event()

    def record(event: ButtonEvent) -> None:
        events.append(event)
        if event.kind == "hold":
            held.set()

    panel = ButtonPanel(settings, record, pin_factory=table.buttons.factory)
    try:
        asyncio.run(table.press("confirm"))
        asyncio.run(table.hold("undo", 350))
        assert held.wait(2)
        assert events == [ButtonEvent("confirm", "press"), ButtonEvent("undo", "hold")]
    finally:
        panel.close()


def test_a_gpiozero_button_sees_the_pin_go_down_and_up(table: VirtualTable) -> None:
    button = Button(table.profile.buttons.pins["hint"], pin_factory=table.buttons.factory)
    try:
        table.buttons.down("hint")
        assert button.is_pressed and table.buttons.is_down("hint")
        table.buttons.up("hint")
        assert not button.is_pressed and not table.buttons.is_down("hint")
    finally:
        button.close()


def test_unknown_buttons_are_named_in_the_error(table: VirtualTable) -> None:
    with pytest.raises(UnknownButton, match="confirm, undo, hint"):
        table.buttons.down("reset")
    with pytest.raises(ValueError, match="0 ms or more"):
        asyncio.run(table.hold("confirm", -5))
    assert not table.buttons.is_down("confirm")
