"""Every exception the controller defines is a ControllerError (found by walking its modules),
and the web layer answers each with its own class's HTTP status."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import controller
from controller.errors import ControllerError, NothingToConfirm, Refused
from controller.journal import JournalError, JournalFull
from controller.web import http_status
from games.core.errors import BadActionText, IllegalAction
from games.core.sentence import Sentence


def controller_exceptions() -> list[type[BaseException]]:
    """Every exception class of the controller's modules, its rooms' included (cli, compose,
    setup, bench)."""
    found = []
    for info in pkgutil.walk_packages(controller.__path__, "controller."):
        if info.name.endswith(".__main__"):  # runs the command line
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an extra not installed here (the AI, the club's rating)
            continue
        found += [obj for _, obj in inspect.getmembers(module, inspect.isclass)
                  if issubclass(obj, BaseException) and obj.__module__ == module.__name__
                  and not obj.__name__.startswith("_")]
    return found


def test_every_controller_exception_is_a_controller_error() -> None:
    exceptions = controller_exceptions()
    assert len(exceptions) >= 15  # the walk found them (JournalError, ClubStoreError, ...)
    strays = [e.__qualname__ for e in exceptions if not issubclass(e, ControllerError)]
    assert strays == [], f"derive these from controller.errors.ControllerError: {strays}"


@pytest.mark.parametrize(("error", "status"), [
    (NothingToConfirm(Sentence("nothing is waiting for a confirmation")), 409),
    (Refused("a wrong seat code"), 403),
    (JournalFull(Path("/data/journal.sqlite3")), 503),
    (JournalError("cannot open the journal"), 503),
    (BadActionText("not an action"), 422),
])
def test_each_error_answers_its_own_status_whatever_else_it_is(error: Exception,
                                                                status: int) -> None:
    """NothingToConfirm is a game's IllegalAction too (422 there), yet answers 409: by type."""
    assert http_status(error) == status


def test_a_sentence_survives_the_game_errors_own_init() -> None:
    sentence = Sentence("there is no choice to make")
    error = NothingToConfirm(sentence)
    assert isinstance(error, IllegalAction) and error.sentence == sentence
    assert str(error) == "there is no choice to make"
    full = JournalFull(Path("/data/j.sqlite3"))
    assert full.sentence is not None and str(full) == str(full.sentence)
