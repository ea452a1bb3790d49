"""The table's buttons as gpiozero mock pins, by the roles of the board profile.

The controller builds its `hardware.buttons.ButtonPanel` on `VirtualButtons.factory` (a real
gpiozero `MockFactory`), so its `Button`s, debouncing and hold timing are the ones it uses on
the Pi; pressing here drives the mock pin low, as a button shorting its pin to ground does.

`down` and `up` return at once; `press` and `hold` take real time (a press must outlast the
profile's bounce time or the panel rightly calls it contact chatter) and are coroutines, so they
never block an event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from types import MappingProxyType

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.profile import ButtonSettings

PRESS_MARGIN_S = 0.03
"""A press lasts the bounce time plus this, well short of any hold time (0.2 s at least)."""


class UnknownButton(KeyError):
    """A role the board profile has no button for."""


class VirtualButtons:
    def __init__(self, settings: ButtonSettings, factory: MockFactory | None = None) -> None:
        self.settings = settings
        self.factory = factory or MockFactory()
        self.pins: Mapping[str, MockPin] = MappingProxyType(
            {role: self.factory.pin(number) for role, number in settings.pins.items()}
        )
        self._down: set[str] = set()

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(self.pins)

    def _pin(self, role: str) -> MockPin:
        try:
            return self.pins[role]
        except KeyError:
            known = ", ".join(self.pins)
            raise UnknownButton(f"no button {role!r} on this table (buttons: {known})") from None

    def down(self, role: str) -> None:
        """Push the button and keep it down."""
        self._pin(role).drive_low()
        self._down.add(role)

    def up(self, role: str) -> None:
        self._pin(role).drive_high()
        self._down.discard(role)

    def is_down(self, role: str) -> bool:
        self._pin(role)
        return role in self._down

    @property
    def press_seconds(self) -> float:
        return self.settings.bounce_seconds + PRESS_MARGIN_S

    async def press(self, role: str) -> None:
        """A short press: down for the bounce time plus a margin, then up."""
        await self.hold(role, self.press_seconds * 1000)

    async def hold(self, role: str, ms: float) -> None:
        """Down for `ms` milliseconds, then up (a hold if `ms` reaches the hold time)."""
        if ms < 0:
            raise ValueError(f"a button is held for 0 ms or more, not {ms}")
        self.down(role)
        try:
            await asyncio.sleep(ms / 1000)
        finally:
            self.up(role)
