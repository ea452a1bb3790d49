"""Scoring collected score tiles: series, persons, the guard with its gates, missing tiles.

Works on counts per tile kind, so the engine, ``tabletop score`` and the tests share it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.scoresheet import ScoreLine, ScoreSheet

from .components import Components


def series_points(size_points: Sequence[int], count: int) -> tuple[int, int, int]:
    """(points, full series, tiles in the open series) of ``count`` tiles of one kind."""
    size = len(size_points)
    full, rest = divmod(count, size)
    points = full * size_points[-1] + (size_points[rest - 1] if rest else 0)
    return points, full, rest


def score_lines(counts: Sequence[int], missing: int, components: Components,
                gate_series: bool = False) -> list[ScoreLine]:
    """The lines of one player's score; ``counts`` per kind in ``components.kinds`` order.

    Gate tiles are worth nothing alone and the guard's bonus with it (the sheet);
    ``gate_series`` (option gates=series, rules revision 1) also scores them as a series."""
    have = dict(zip(components.kinds, counts, strict=True))
    lines: list[ScoreLine] = []
    for name, kind in sorted(components.series.items()):
        count = have[name]
        if not count:
            continue
        if name == components.gate_series and not gate_series:
            if not have[components.guard]:
                lines.append(ScoreLine(f"{name} x{count} without the guard = 0", 0))
            continue
        points, full, rest = series_points(kind.points, count)
        parts = [f"{full} full series of {len(kind.points)}"] if full else []
        if rest:
            parts.append(f"a series of {rest}")
        lines.append(ScoreLine(f"{name} x{count}: {' and '.join(parts)} = {points}", points))
    for name, person in sorted(components.persons.items()):
        if not have[name]:
            continue
        full = have[person.series] >= len(components.series[person.series].points)
        if full:
            text = f"{name.replace('_', ' ')} with a full {person.series} series"
            lines.append(ScoreLine(f"{text} = {person.with_series}", person.with_series))
        else:
            lines.append(
                ScoreLine(f"{name.replace('_', ' ')} alone = {person.alone}", person.alone)
            )
    if have[components.guard]:
        gates = have[components.gate_series]
        bonus = gates * components.guard_per_gate
        lines.append(
            ScoreLine(
                f"guard with {gates} {components.gate_series} tile{'s' if gates != 1 else ''}: "
                f"{gates} x {components.guard_per_gate} = {bonus}",
                bonus,
            )
        )
    if missing:
        points = missing * components.missing_points
        lines.append(
            ScoreLine(
                f"{missing} missing score tile{'s' if missing != 1 else ''} x "
                f"{components.missing_points} = {points}",
                points,
            )
        )
    return lines


def score_sheet(
    players: Sequence[str],
    collections: Sequence[Sequence[int]],
    missing: Sequence[int],
    components: Components,
    gate_series: bool = False,
) -> ScoreSheet:
    lines = tuple(
        tuple(score_lines(counts, lost, components, gate_series))
        for counts, lost in zip(collections, missing, strict=True)
    )
    return ScoreSheet(
        players=tuple(players),
        totals=tuple(sum(line.points for line in player) for player in lines),
        lines=lines,
    )


def rank_winners(totals: Sequence[int], tiles_held: Sequence[int]) -> list[int]:
    """Most points; a tie goes to the tied player with more score tiles; then all tied win."""
    best = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    most = max(tiles_held[seat] for seat in tied)
    return [seat for seat in tied if tiles_held[seat] == most]
