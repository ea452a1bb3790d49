"""Mission scoring: how each tiki on a mission card scores against the top of the stack."""

from __future__ import annotations

from games.core.scoresheet import ScoreLine

from .components import Edition

ORDINAL = ("first", "second", "third")


def mission_points(edition: Edition, stack: tuple[str, ...], mission: tuple[str, ...]) -> int:
    return sum(
        points
        for tiki, points, depth in zip(mission, edition.points, edition.depth, strict=True)
        if tiki in stack[:depth]
    )


def mission_line(
    edition: Edition,
    stack: tuple[str, ...],
    mission: tuple[str, ...],
    prefix: str,
    on_table: bool = True,
) -> ScoreLine:
    """E.g. ``round 1: hookipa at 1 (needs top 1): 9, lokahi at 4 (needs top 2): 0, ... = 9``."""
    parts = []
    sites = []
    total = 0
    for tiki, points, depth in zip(mission, edition.points, edition.depth, strict=True):
        place = f"at {stack.index(tiki) + 1}" if tiki in stack else "toasted"
        got = points if tiki in stack[:depth] else 0
        total += got
        parts.append(f"{tiki} {place} (needs top {depth}): {got}")
        if got and on_table:  # the end-of-game sweep lights the tikis that scored
            sites.append(f"stack:{stack.index(tiki) + 1}")
    return ScoreLine(f"{prefix}{', '.join(parts)} = {total}", total, tuple(sites))
