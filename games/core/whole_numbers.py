"""Whole numbers as JSON and TOML hand them over, and the words an error uses for a range.

Python's ``True`` is an ``int``: ``isinstance(value, int)`` lets a JSON ``true`` or a TOML
``true`` through as 1. Every check of a count, a seat or a value in games/ goes through
``is_whole`` so none of them forgets the bool.
"""

from __future__ import annotations

from typing import TypeGuard


def is_whole(value: object) -> TypeGuard[int]:
    """An ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def in_range(value: int, low: int | None, high: int | None) -> bool:
    """``low <= value <= high``; a bound of None is no bound."""
    return (low is None or value >= low) and (high is None or value <= high)


def range_text(low: int | None, high: int | None) -> str:
    """``from 0 to 3``, ``at least 1``, ``at most 9``, or empty without bounds: how an error
    message says which numbers it wanted."""
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return ""
