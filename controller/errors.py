"""Why the service refused a command; the web layer maps each to one HTTP status.

They derive from the game's error types, so the command line prints them as one line and a
test can catch them as the rule engine's errors.
"""

from __future__ import annotations

from games.core.errors import IllegalAction
from games.core.game import Sentence


class NothingToConfirm(IllegalAction):
    """A command with nothing waiting for it: no game, no choice, nothing to take back (409)."""


class NoGameRunning(NothingToConfirm):
    """A command that needs a game while none is running (409)."""


class AiUnavailable(NothingToConfirm):
    """Hints or AI seats without the AI installed (409)."""


class Refused(PermissionError):
    """A refusal worded as a Sentence (like ``GameError``): ``str`` is the English,
    ``sentence`` what a page translates."""

    def __init__(self, message: str | Sentence = "") -> None:
        self.sentence: Sentence | None = None if isinstance(message, str) else message
        super().__init__(str(message))


class SeatNotHeld(Refused):
    """A phone asked for a seat's private view without that seat's token (403)."""


class WrongSeatCode(Refused):
    """A phone gave a wrong code for a seat it tried to claim (403)."""
