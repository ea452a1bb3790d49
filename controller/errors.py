"""The controller's errors: ``ControllerError`` is the base of every one (the journal's, the
club's, a refused command's), so the command line prints any of them as one line and the web
layer answers each with its own class's ``http_status``, by type rather than by the order of
a table. A refused command that is also a rule engine's refusal (nothing to confirm) derives
from the game's ``IllegalAction`` too.
"""

from __future__ import annotations

from typing import ClassVar

from games.core.errors import IllegalAction
from games.core.sentence import Sentence


class ControllerError(Exception):
    """A problem the controller reports to a person. The message may be a ``Sentence``:
    ``str(error)`` is then its English and ``sentence`` keeps it for a page to translate."""

    http_status: ClassVar[int] = 500
    """What the web layer answers when a request meets this error."""
    sentence: Sentence | None = None

    def __init__(self, message: str | Sentence = "", *args: object) -> None:
        super().__init__(str(message), *args)
        if not isinstance(message, str):  # after the game's own __init__, which sets None
            self.sentence = message


class UserError(ControllerError):
    """Bad input from the person at the keyboard (a file, an option, a name), or a step of the
    setup they can put right: the command line prints it as one line, exit code 2."""


class NothingToConfirm(ControllerError, IllegalAction):
    """A command with nothing waiting for it: no game, no choice, nothing to take back (409)."""

    http_status = 409


class NoGameRunning(NothingToConfirm):
    """A command that needs a game while none is running (409)."""


class AiUnavailable(NothingToConfirm):
    """Hints or AI seats without the AI installed (409)."""


class Refused(ControllerError, PermissionError):
    """A request the table will not grant to whoever sent it (403)."""

    http_status = 403


class SeatNotHeld(Refused):
    """A phone asked for a seat's private view without that seat's token (403)."""


class WrongSeatCode(Refused):
    """A phone gave a wrong code for a seat it tried to claim (403)."""
