"""Loading component data files (TOML) with errors that name the file and the field.

Every game's ``components.py`` checks its file with these, so a mistake in any data file reads
the same way ("<file>: tiles.values must be ...") and no game writes the checks again (each
copy forgot something: a ``true`` passing as 1, a repeated name, a player count missing).
A key may be dotted (``grid.size``): it reaches into the sub-tables, and errors name the path.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from .errors import DataFileError
from .whole_numbers import in_range, is_whole, range_text

T = TypeVar("T")

PLAYER_COUNTS = (2, 3, 4)
"""The player counts a ``by_player_count`` table gives a number for."""


def load_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataFileError(f"data file {path} is missing") from None
    except tomllib.TOMLDecodeError as error:
        raise DataFileError(f"data file {path} is not valid TOML: {error}") from None


def field(table: Mapping[str, Any], key: str, kind: type[T], where: str) -> T:
    """``table[key]``, which must be of ``kind``; the error names the file and the key."""
    parent, _, last = key.rpartition(".")
    if parent:
        table = field(table, parent, dict, where)
    if last not in table:
        raise DataFileError(f"{where}: missing field {key!r}")
    value = table[last]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise DataFileError(
            f"{where}: field {key!r} must be {kind.__name__}, not {type(value).__name__}"
        )
    return value


def whole_number(
    table: Mapping[str, Any], key: str, where: str, low: int | None = 0, high: int | None = None
) -> int:
    """A whole number from ``low`` to ``high`` (None: no bound)."""
    value = field(table, key, int, where)
    if not in_range(value, low, high):
        raise DataFileError(f"{where}: {key} must be {range_text(low, high)}, not {value!r}")
    return value


def whole_numbers(
    table: Mapping[str, Any], key: str, where: str, low: int | None = 0, high: int | None = None,
    *, length: int | None = None, may_be_empty: bool = False,
) -> tuple[int, ...]:
    """A list of whole numbers from ``low`` to ``high``: ``length`` of them if given, else at
    least one unless ``may_be_empty``."""
    values = field(table, key, list, where)
    wanted = " ".join(filter(None, ("whole numbers", range_text(low, high))))
    if not all(is_whole(v) and in_range(v, low, high) for v in values):
        raise DataFileError(f"{where}: {key} must be a list of {wanted}, not {values!r}")
    if length is not None and len(values) != length:
        raise DataFileError(f"{where}: {key} must list {length} {wanted}, not {values!r}")
    if not values and not may_be_empty:
        raise DataFileError(f"{where}: {key} must not be empty")
    return tuple(values)


def words(
    table: Mapping[str, Any], key: str, where: str,
    *, count: int | None = None, may_be_empty: bool = False,
) -> tuple[str, ...]:
    """Different lower-case words (names that become piece ids and action words): ``count``
    of them if given, else at least one unless ``may_be_empty``."""
    values = field(table, key, list, where)
    if not all(isinstance(v, str) and v.isalpha() and v.islower() for v in values):
        raise DataFileError(f"{where}: {key} must be lower-case words, not {values!r}")
    if count is not None and len(values) != count:
        raise DataFileError(
            f"{where}: {key} must be {count} different lower-case words, not {values!r}"
        )
    if not values and not may_be_empty:
        raise DataFileError(f"{where}: {key} must not be empty")
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        raise DataFileError(f"{where}: {key} must not repeat a word, but repeats "
                            f"{', '.join(repeated)}")
    return tuple(values)


def by_player_count(
    table: Mapping[str, Any], key: str, where: str, low: int | None = 0,
    high: int | None = None, *, what: str = "a whole number",
) -> dict[int, int]:
    """A table ``{ 2 = N, 3 = N, 4 = N }``: ``what`` each player count gets (rounds, cards, ...),
    a whole number from ``low`` to ``high``."""
    raw = field(table, key, dict, where)
    try:
        counts = {int(k): v for k, v in raw.items()}
    except ValueError:
        raise DataFileError(f"{where}: {key} keys must be player counts "
                            f"{', '.join(map(str, PLAYER_COUNTS))}, not {sorted(raw)}") from None
    if sorted(counts) != list(PLAYER_COUNTS) or not all(
        is_whole(v) and in_range(v, low, high) for v in counts.values()
    ):
        span = range_text(low, high)
        raise DataFileError(f"{where}: {key} must give {what} for 2, 3 and 4 players"
                            f"{f' ({span})' if span else ''}, not {raw!r}")
    return counts
