"""Loading component data files (TOML) with errors that name the file and the field."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from .errors import DataFileError

T = TypeVar("T")


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
    if key not in table:
        raise DataFileError(f"{where}: missing field {key!r}")
    value = table[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise DataFileError(
            f"{where}: field {key!r} must be {kind.__name__}, not {type(value).__name__}"
        )
    return value
