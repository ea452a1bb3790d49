"""Reading the fields of a state back from its JSON (a journal, a saved game, a page's copy).

JSON that does not describe a state of the game is refused with ``BadState`` naming the field
and the bad value, so a damaged journal says where it is damaged instead of failing somewhere
deep in a rule, and no game writes these checks again (each forgot something: a bool passing
as a number, a string passing as a list).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import BadState
from .whole_numbers import in_range, is_whole, range_text


def whole(value: Any, field: str, low: int | None = 0, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (None: no bound), never a bool or a text."""
    if not is_whole(value) or not in_range(value, low, high):
        wanted = " ".join(filter(None, ("a whole number", range_text(low, high))))
        raise BadState(f"{field} must be {wanted}, not {value!r}")
    return value


def entries(value: Any, field: str) -> list[Any]:
    """A JSON list (an object or a text would be iterated by its keys or letters)."""
    if not isinstance(value, list):
        raise BadState(f"{field} must be a list, not {value!r}")
    return value


def wholes(
    value: Any, field: str, low: int | None = 0, high: int | None = None,
    *, length: int | None = None,
) -> tuple[int, ...]:
    """A list of whole numbers, each checked as ``whole`` does (the error names its index),
    of ``length`` entries if given."""
    numbers = tuple(whole(v, f"{field}[{index}]", low, high)
                    for index, v in enumerate(entries(value, field)))
    if length is not None and len(numbers) != length:
        raise BadState(f"{field} must list {length} whole numbers, not {len(numbers)}")
    return numbers


def flag(value: Any, field: str) -> bool:
    """``true`` or ``false`` (a 0, 1 or text is a damaged state, not a truth value)."""
    if not isinstance(value, bool):
        raise BadState(f"{field} must be true or false, not {value!r}")
    return value


def texts(value: Any, field: str) -> tuple[str, ...]:
    """A list of strings."""
    listed = entries(value, field)
    for index, text in enumerate(listed):
        if not isinstance(text, str):
            raise BadState(f"{field}[{index}] must be a text, not {text!r}")
    return tuple(listed)


def one_of(value: Any, field: str, choices: Sequence[str]) -> str:
    """One of the ``choices`` (a phase, an option's value)."""
    if not isinstance(value, str) or value not in choices:
        raise BadState(f"unknown {field} {value!r}: it is one of {', '.join(choices)}")
    return value


def player_names(value: Any, least: int = 2, most: int = 4) -> tuple[str, ...]:
    """The ``players`` field: ``least`` to ``most`` names."""
    names = texts(value, "players")
    if not least <= len(names) <= most:
        raise BadState(f"players must be {least} to {most} names, not {len(names)}")
    return names
