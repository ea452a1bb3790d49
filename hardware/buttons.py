"""The table's push buttons, by role, as gpiozero `Button`s: short press and hold events.

A press is reported when the button is released before the hold time, a hold when it has
been down for the hold time; one physical push is never both. A push shorter than the bounce
time is contact chatter and reported as nothing; this check is ours, not the pin library's,
so it works the same on every GPIO backend (and on gpiozero's mock pins in tests). All this
lets "hold undo" mean something different from "press undo" without the press firing first.

gpiozero calls back from its own threads; `ButtonPanel` hands events to a plain callback, and
`ButtonPanel.to_queue` moves them safely onto an asyncio queue for the service.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from gpiozero import Button, Factory

from hardware.errors import HardwareError
from hardware.profile import ButtonSettings


class PinFactoryUnavailable(HardwareError, RuntimeError):
    """The pin library named in the profile is not installed on this machine."""


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    role: str
    kind: Literal["press", "hold"]


def make_pin_factory(name: str) -> Factory:
    """The gpiozero pin factory a profile names; imported lazily (only the Pi has them)."""
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory

            return MockFactory()
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            return NativeFactory()
    except ImportError as exc:
        raise PinFactoryUnavailable(
            f"the {name!r} GPIO library is not installed: pip install 'tabletop[pi]' ({exc})"
        ) from None
    except Exception as exc:  # gpiozero raises assorted errors when no GPIO chip is present
        raise PinFactoryUnavailable(f"cannot open GPIO through {name!r}: {exc}") from None
    raise PinFactoryUnavailable(f"unknown pin factory {name!r}")


class ButtonPanel:
    def __init__(
        self,
        settings: ButtonSettings,
        on_event: Callable[[ButtonEvent], None],
        pin_factory: Factory | None = None,
    ) -> None:
        self.settings = settings
        self._on_event = on_event
        self._factory = pin_factory or make_pin_factory(settings.pin_factory)
        self._held: set[str] = set()
        self._down_since: dict[str, float] = {}
        self._lock = threading.Lock()
        self.buttons: Mapping[str, Button] = {
            role: self._button(role, pin) for role, pin in settings.pins.items()
        }

    def _button(self, role: str, pin: int) -> Button:
        button = Button(
            pin,
            pull_up=True,
            bounce_time=self.settings.bounce_seconds or None,
            hold_time=self.settings.hold_seconds,
            pin_factory=self._factory,
        )
        button.when_pressed = lambda: self._pressed(role)
        button.when_held = lambda: self._hold(role)
        button.when_released = lambda: self._released(role)
        return button

    def _pressed(self, role: str) -> None:
        with self._lock:
            self._held.discard(role)
            self._down_since[role] = time.monotonic()

    def _hold(self, role: str) -> None:
        """From gpiozero's hold thread, which may run late on a busy machine: a hold that
        comes after the release has lost the race (the release told a press), so one gesture
        is never both; nor is a late one taken for the next press (down for less than the hold
        time). The event is handed on under the lock, before the release can tell."""
        with self._lock:
            since = self._down_since.get(role)
            if since is None or role in self._held or (
                    time.monotonic() - since < self.settings.hold_seconds):
                return  # released, held already, or a late hold of the press before
            self._held.add(role)
            self._on_event(ButtonEvent(role, "hold"))

    def _released(self, role: str) -> None:
        with self._lock:
            was_held = role in self._held
            self._held.discard(role)
            since = self._down_since.pop(role, None)
            chatter = since is None or time.monotonic() - since < self.settings.bounce_seconds
            if not was_held and not chatter:
                self._on_event(ButtonEvent(role, "press"))

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()

    @classmethod
    def to_queue(
        cls,
        settings: ButtonSettings,
        loop: asyncio.AbstractEventLoop,
        queue: asyncio.Queue[ButtonEvent],
        pin_factory: Factory | None = None,
    ) -> ButtonPanel:
        """A panel whose events land on `queue`, put there from the loop's own thread."""
        return cls(
            settings, lambda event: loop.call_soon_threadsafe(queue.put_nowait, event), pin_factory
        )
