"""Towers into points: the top stone's owner scores the stones, doubled on the gold ring;
every stone not placed costs 2 at the end. Shared by the engine and ``tabletop score``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.scoresheet import ScoreLine, ScoreSheet

UNPLACED_PENALTY = 2


@dataclass(frozen=True, slots=True)
class Tower:
    stones: tuple[int, ...]
    """Seats, bottom to top; the last one is on top."""
    gold: bool
    label: str = ""
    """``tower 2:3`` (empty for a tower given in a position)."""
    sites: tuple[str, ...] = ()


def tower_points(tower: Tower) -> int:
    return len(tower.stones) * (2 if tower.gold else 1)


def tower_text(tower: Tower, colours: Sequence[str]) -> str:
    top = colours[tower.stones[-1]]
    below = [colours[seat] for seat in tower.stones[:-1]]
    what = f"{top} on top of {', '.join(below)}" if below else f"{top} alone"
    count = len(tower.stones)
    stones = f"{count} stone{'s' if count > 1 else ''}"
    label = tower.label or "tower"
    if tower.gold:
        return f"{label} (gold): {what}: {stones} x 2 = {tower_points(tower)}"
    return f"{label}: {what}: {stones} = {count}"


def score_towers(
    players: Sequence[str],
    colours: Sequence[str],
    towers: Sequence[Tower],
    unplaced: Sequence[int] | None,
) -> ScoreSheet:
    """The sheet: per player their towers, and (at the end) the unplaced stones. Seats from
    len(players) up are neutral colours: their towers score for nobody."""
    lines: list[list[ScoreLine]] = [[] for _ in players]
    for tower in towers:
        if tower.stones[-1] >= len(players):
            continue
        lines[tower.stones[-1]].append(
            ScoreLine(tower_text(tower, colours), tower_points(tower), tower.sites)
        )
    if unplaced is not None:
        for seat, left in enumerate(unplaced):
            if left:
                text = (
                    f"{left} unplaced stone{'s' if left > 1 else ''} x -{UNPLACED_PENALTY} = "
                    f"{-UNPLACED_PENALTY * left}"
                )
                lines[seat].append(ScoreLine(text, -UNPLACED_PENALTY * left))
    totals = tuple(sum(line.points for line in seat_lines) for seat_lines in lines)
    return ScoreSheet(tuple(players), totals, tuple(tuple(seat_lines) for seat_lines in lines))


def best(totals: Sequence[int], partners: bool) -> list[int]:
    """Highest total wins, all tied players win (ASSUMED); partners win or lose together."""
    if partners:
        teams = [totals[seat] + totals[(seat + 2) % len(totals)] for seat in range(len(totals))]
        top = max(teams)
        return [seat for seat, team in enumerate(teams) if team == top]
    top = max(totals)
    return [seat for seat, total in enumerate(totals) if total == top]
