"""Action texts: ``lucky coral`` (a secret deal), ``fill pearl:2`` (a shell drawn into the
first empty pool), ``take 3`` (a diver takes the shell in pool 3)."""

from __future__ import annotations

from games.core import BadActionText

VERBS = ("fill", "lucky", "take")


def parse(text: str) -> tuple[str, str]:
    """``(verb, argument)`` of what a person typed, in canonical (lower-case) form."""
    words = text.strip().lower().split()
    if len(words) != 2 or words[0] not in VERBS or not words[1].isascii():
        raise BadActionText(
            f"{text!r} is not a Pearl Divers action (try 'take 1', 'fill pearl:1', 'lucky coral')"
        )
    verb, argument = words
    if verb == "take" and not (argument.isdigit() and 1 <= int(argument) <= 9):
        raise BadActionText(f"{text!r}: take names a pool by its number, like 'take 2'")
    return verb, argument


def text(verb: str, argument: str | int) -> str:
    return f"{verb} {argument}"
