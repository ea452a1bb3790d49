"""Square boards numbered row by row: cell numbers and their ``R:C`` names."""

from __future__ import annotations


def cell_name(cell: int, size: int) -> str:
    """``"2:3"`` for row 2, column 3 (both from 0) of a ``size`` by ``size`` grid."""
    return f"{cell // size}:{cell % size}"
