"""Errors the engines raise. Every message is written for the person at the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .sentence import Sentence


class GameError(ValueError):
    """Base class of every error a rule engine reports about its input.

    The message may be a ``Sentence``: ``str(error)`` is then its English and ``sentence``
    keeps it, so a page can show the refusal in its reader's language.
    """

    def __init__(self, message: str | Sentence = "", *args: object) -> None:
        self.sentence: Sentence | None = None if isinstance(message, str) else message
        super().__init__(str(message), *args)


class IllegalAction(GameError):
    """The action is not legal in this state; the message says why."""


class BadActionText(IllegalAction):
    """The text is not an action of this game at all."""


class BadSetup(GameError):
    """Player names or options that no game can start with."""


class BadPosition(GameError):
    """A position given for scoring (``tabletop score``) is malformed or impossible."""


class BadState(GameError):
    """A serialised state that does not describe a state of this game."""


class DataFileError(GameError):
    """A component data file (TOML) is missing, malformed or inconsistent."""


class UnknownGame(GameError):
    """No game is registered under that id."""
