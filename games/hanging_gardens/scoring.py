"""Scoring collected score tiles: series, persons, the guard with its gates, missing tiles.

Works on counts per tile kind, so the engine, ``tabletop score`` and the tests share it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.game import Sentence, listing
from games.core.scoresheet import ScoreLine, ScoreSheet

from .components import Components
from .words import tile_kind


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
    guard = tile_kind(components.guard)
    lines: list[ScoreLine] = []
    for name, kind in sorted(components.series.items()):
        count = have[name]
        if not count:
            continue
        named = {"kind": tile_kind(name), "count": str(count)}
        if name == components.gate_series and not gate_series:
            if not have[components.guard]:
                lines.append(ScoreLine(Sentence("{kind} x{count} without the {guard} = 0",
                                                {**named, "guard": guard}), 0))
            continue
        points, full, rest = series_points(kind.points, count)
        parts: list[str | Sentence] = []
        if full:
            size = str(len(kind.points))
            parts.append(Sentence("1 full series of {size}", {"size": size}) if full == 1 else
                         Sentence("{full} full series of {size}", {"full": str(full),
                                                                    "size": size}))
        if rest:
            parts.append(Sentence("a series of {rest}", {"rest": str(rest)}))
        lines.append(ScoreLine(Sentence("{kind} x{count}: {series} = {points}",
                                        {**named, "series": listing(parts),
                                         "points": str(points)}), points))
    for name, person in sorted(components.persons.items()):
        if not have[name]:
            continue
        full = have[person.series] >= len(components.series[person.series].points)
        if full:
            lines.append(ScoreLine(
                Sentence("{person} with a full {series} series = {points}",
                         {"person": tile_kind(name), "series": tile_kind(person.series),
                          "points": str(person.with_series)}),
                person.with_series))
        else:
            lines.append(ScoreLine(
                Sentence("{person} alone = {points}",
                         {"person": tile_kind(name), "points": str(person.alone)}),
                person.alone))
    if have[components.guard]:
        gates = have[components.gate_series]
        bonus = gates * components.guard_per_gate
        told = {"guard": guard, "gate": tile_kind(components.gate_series),
                "gates": str(gates), "each": str(components.guard_per_gate), "bonus": str(bonus)}
        lines.append(ScoreLine(
            Sentence("{guard} with 1 {gate} tile: 1 x {each} = {bonus}", told) if gates == 1
            else Sentence("{guard} with {gates} {gate} tiles: {gates} x {each} = {bonus}", told),
            bonus))
    if missing:
        points = missing * components.missing_points
        told = {"missing": str(missing), "each": str(components.missing_points),
                "points": str(points)}
        lines.append(ScoreLine(
            Sentence("1 missing score tile x {each} = {points}", told) if missing == 1
            else Sentence("{missing} missing score tiles x {each} = {points}", told),
            points))
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
