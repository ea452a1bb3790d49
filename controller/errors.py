"""Why the service refused a command; the web layer maps each to one HTTP status.

They derive from the game's error types, so the command line prints them as one line and a
test can catch them as the rule engine's errors.
"""

from __future__ import annotations

from games.core.errors import IllegalAction


class NothingToConfirm(IllegalAction):
    """A command with nothing waiting for it: no game, no choice, nothing to take back (409)."""


class NoGameRunning(NothingToConfirm):
    """A command that needs a game while none is running (409)."""


class AiUnavailable(NothingToConfirm):
    """Hints or AI seats without the AI installed (409)."""


class SeatNotHeld(PermissionError):
    """A phone asked for a seat's private view without that seat's token (403)."""


class WrongSeatCode(PermissionError):
    """A phone gave a wrong code for a seat it tried to claim (403)."""
