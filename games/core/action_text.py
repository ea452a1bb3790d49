"""Reading action text typed by a person: one way for every game.

Actions are short plain-ASCII texts (``up2 lokahi``, ``visitor 0:3:N``). A person may type
extra spaces or capitals; they may not slip in look-alikes (full-width letters, superscript or
Arabic-Indic digits, zero-width spaces) that Python's ``str.isdigit`` or ``int`` would half
accept. Those are refused by name, so nobody ever gets a different action than they typed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from .errors import BadActionText

T = TypeVar("T")
_ALLOWED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:_- \t")


def checked(text: object) -> str:
    """``text`` if it is a str of characters an action may hold; else BadActionText saying why."""
    if not isinstance(text, str):
        raise BadActionText(f"an action is a text, not {type(text).__name__}")
    for char in text:
        if char not in _ALLOWED:
            raise BadActionText(
                f"{text.strip()!r}: {char!r} (U+{ord(char):04X}) cannot be part of an action; "
                "actions are plain letters, digits, ':' and '-'")
    return text


def normalised(text: object) -> str:
    """Checked, then lower case with single spaces: the canonical form of most actions."""
    return " ".join(checked(text).split()).lower()


def words(text: object) -> list[str]:
    """The lower-case words of an action; BadActionText if there are none."""
    found = normalised(text).split()
    if not found:
        raise BadActionText("empty action")
    return found


def is_number(word: str) -> bool:
    """A whole number written in ASCII digits (``"²"`` and ``"٣"`` are not)."""
    return word.isascii() and word.isdigit()


def look_up(text: object, known: Mapping[str, T], game: str, forms: str,
            normalise: Callable[[str], str] = normalised) -> tuple[str, T]:
    """The canonical text of an action and what ``known`` maps it to; BadActionText if unknown.

    Canonical texts are found at once; anything else is checked and normalised first.
    """
    if isinstance(text, str):
        hit = known.get(text)
        if hit is not None:
            return text, hit
    canonical = normalise(checked(text))
    hit = known.get(canonical)
    if hit is not None:
        return canonical, hit
    raise not_an_action(text, game, forms)


def not_an_action(text: object, game: str, forms: str) -> BadActionText:
    shown = text.strip() if isinstance(text, str) else text
    return BadActionText(f"{shown!r} is not {_article(game)} {game} action; the forms are: {forms}")


def _article(name: str) -> str:
    return "an" if name[:1].lower() in "aeiou" else "a"
