"""Mission scoring: how each tiki on a mission card scores against the top of the stack."""

from __future__ import annotations

from games.core.game import Sentence
from games.core.scoresheet import ScoreLine

from . import words
from .components import Edition


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
    round_number: int | None,
    on_table: bool = True,
) -> ScoreLine:
    """E.g. ``round 1: hookipa at 1 (needs top 1): 9, lokahi at 4 (needs top 2): 0, ... = 9``
    (without ``round N:`` when ``round_number`` is None: a position scored on its own)."""
    parts: list[Sentence] = []
    sites = []
    total = 0
    for tiki, points, depth in zip(mission, edition.points, edition.depth, strict=True):
        got = points if tiki in stack[:depth] else 0
        total += got
        told = {"tiki": words.tiki(tiki), "depth": str(depth), "points": str(got)}
        if tiki in stack:
            parts.append(Sentence("{tiki} at {place} (needs top {depth}): {points}",
                                  {**told, "place": str(stack.index(tiki) + 1)}))
        else:
            parts.append(Sentence("{tiki} toasted (needs top {depth}): {points}", told))
        if got and on_table:  # the end-of-game sweep lights the tikis that scored
            sites.append(f"stack:{stack.index(tiki) + 1}")
    first, second, third = parts
    args: dict[str, str | Sentence] = {"first": first, "second": second, "third": third,
                                       "total": str(total)}
    if round_number is None:
        message = Sentence("{first}, {second}, {third} = {total}", args)
    else:
        message = Sentence("round {round}: {first}, {second}, {third} = {total}",
                           {**args, "round": str(round_number)})
    return ScoreLine(message, total, tuple(sites))
