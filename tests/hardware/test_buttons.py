"""Buttons by role on gpiozero's MockFactory: press, hold, bounce, and the asyncio bridge."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from types import MappingProxyType

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonEvent, ButtonPanel, PinFactoryUnavailable, make_pin_factory
from hardware.profile import ButtonSettings

SETTINGS = ButtonSettings(
    pin_factory="mock",
    hold_seconds=0.2,
    bounce_seconds=0.0,
    pins=MappingProxyType({"confirm": 5, "undo": 6, "player:1": 20}),
    gestures=MappingProxyType({}),
)


class Recorder:
    def __init__(self) -> None:
        self.events: list[ButtonEvent] = []
        self.changed = threading.Condition()

    def __call__(self, event: ButtonEvent) -> None:
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    def wait_for(self, count: int, timeout: float = 2.0) -> list[ButtonEvent]:
        with self.changed:
            self.changed.wait_for(lambda: len(self.events) >= count, timeout)
        return list(self.events)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.close()


def push(factory: MockFactory, pin: int, seconds: float) -> None:
    factory.pin(pin).drive_low()  # pull-up buttons connect the pin to ground
    time.sleep(seconds)
    factory.pin(pin).drive_high()


def test_short_push_is_a_press_of_its_role(factory: MockFactory) -> None:
    seen = Recorder()
    panel = ButtonPanel(SETTINGS, seen, factory)
    push(factory, 6, 0.02)
    push(factory, 20, 0.02)
    assert seen.wait_for(2) == [ButtonEvent("undo", "press"), ButtonEvent("player:1", "press")]
    panel.close()


def test_long_push_is_a_hold_and_not_also_a_press(factory: MockFactory) -> None:
    seen = Recorder()
    panel = ButtonPanel(SETTINGS, seen, factory)
    push(factory, 5, 0.4)
    time.sleep(0.05)
    assert seen.wait_for(1) == [ButtonEvent("confirm", "hold")]
    push(factory, 5, 0.02)
    assert seen.wait_for(2)[1] == ButtonEvent("confirm", "press")
    panel.close()


def test_a_late_hold_and_a_release_make_one_gesture(factory: MockFactory) -> None:
    """gpiozero's hold thread and the release race on a busy machine: whichever comes first
    tells the gesture, never both, and a late hold is not taken for the next press (the hold
    thread's call is made here by hand, at each side of the release)."""
    recorder = Recorder()
    panel = ButtonPanel(SETTINGS, recorder, pin_factory=factory)
    button, pin = panel.buttons["undo"], factory.pin(6)
    pin.drive_low()
    pin.drive_high()
    button.when_held()  # the hold thread, late: the button is up already
    assert recorder.events == [ButtonEvent("undo", "press")]
    recorder.events.clear()
    pin.drive_low()
    button.when_held()  # late for the press before: not this press's hold either
    assert recorder.events == []
    time.sleep(SETTINGS.hold_seconds)
    button.when_held()  # in time (or the hold thread's own, once): the release tells nothing
    pin.drive_high()
    assert recorder.events == [ButtonEvent("undo", "hold")]
    panel.close()


def test_bounces_within_the_debounce_time_are_one_press(factory: MockFactory) -> None:
    seen = Recorder()
    settings = ButtonSettings("mock", 1.0, 0.05, MappingProxyType({"confirm": 5, "undo": 6}),
                              MappingProxyType({}))
    panel = ButtonPanel(settings, seen, factory)
    pin = factory.pin(5)
    for _ in range(4):  # contact chatter on the way down
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.1)
    pin.drive_high()
    time.sleep(0.1)
    assert seen.wait_for(1) == [ButtonEvent("confirm", "press")]
    time.sleep(0.1)
    assert len(seen.events) == 1
    panel.close()


def test_events_reach_an_asyncio_queue(factory: MockFactory) -> None:
    async def main() -> ButtonEvent:
        queue: asyncio.Queue[ButtonEvent] = asyncio.Queue()
        panel = ButtonPanel.to_queue(SETTINGS, asyncio.get_running_loop(), queue, factory)
        await asyncio.to_thread(push, factory, 5, 0.02)
        event = await asyncio.wait_for(queue.get(), 2)
        panel.close()
        return event

    assert asyncio.run(main()) == ButtonEvent("confirm", "press")


def test_pin_factories_fail_with_a_clear_message() -> None:
    assert isinstance(make_pin_factory("mock"), MockFactory)
    with pytest.raises(PinFactoryUnavailable, match="unknown pin factory"):
        make_pin_factory("pigpio2")
    try:
        make_pin_factory("lgpio")
    except PinFactoryUnavailable as exc:  # the usual case off a Raspberry Pi
        assert "lgpio" in str(exc)
