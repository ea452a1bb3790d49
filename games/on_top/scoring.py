"""Towers into points: the top stone's owner scores the stones, doubled on the gold ring;
every stone not placed costs 2 at the end. Shared by the engine and ``tabletop score``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.errors import BadPosition
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
    """The sheet: per player their towers, and (at the end) the unplaced stones."""
    lines: list[list[ScoreLine]] = [[] for _ in players]
    for tower in towers:
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


def score_position(
    position: Mapping[str, Any], colours: Sequence[str], stones_per_player: int
) -> tuple[ScoreSheet, list[int]]:
    """``{"towers": [{"stones": [colour, ... bottom to top], "gold": bool}],
    "unplaced": {colour: int}}``; the players are the colours named, in seat order."""
    if not isinstance(position, Mapping):
        raise BadPosition('an On Top position is a JSON object with "towers" and "unplaced"')
    unknown = sorted(set(position) - {"towers", "unplaced"})
    if unknown:
        raise BadPosition(f"unknown field(s) {', '.join(unknown)}; the fields are towers, unplaced")
    raw_towers = position.get("towers", [])
    raw_unplaced = position.get("unplaced", {})
    if not isinstance(raw_towers, list):
        raise BadPosition("towers must be a list of {stones: [colour, ...], gold: true/false}")
    if not isinstance(raw_unplaced, Mapping):
        raise BadPosition("unplaced must map a colour to its number of unplaced stones")
    known = ", ".join(colours)
    parsed: list[tuple[list[str], bool]] = []
    for number, entry in enumerate(raw_towers):
        where = f"towers[{number}]"
        if not isinstance(entry, Mapping) or set(entry) - {"stones", "gold"}:
            raise BadPosition(f"{where}: a tower is an object with stones and gold")
        stones, gold = entry.get("stones"), entry.get("gold", False)
        if not isinstance(stones, list) or not stones:
            raise BadPosition(f"{where}: stones must list the colours bottom to top")
        if not isinstance(gold, bool):
            raise BadPosition(f"{where}: gold must be true or false")
        for colour in stones:
            if colour not in colours:
                raise BadPosition(f"{where}: unknown colour {colour!r} (colours: {known})")
        if len(set(stones)) != len(stones):
            raise BadPosition(f"{where}: each player puts at most one stone on a circle")
        parsed.append((stones, gold))
    for colour, count in raw_unplaced.items():
        if colour not in colours:
            raise BadPosition(f"unplaced: unknown colour {colour!r} (colours: {known})")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise BadPosition(f"unplaced: {colour} must have a whole number of stones, >= 0")
    named = set(raw_unplaced) | {colour for stones, _ in parsed for colour in stones}
    playing = [colour for colour in colours if colour in named]
    if len(playing) < 2:
        raise BadPosition("name at least two colours (in towers or unplaced)")
    seat = {colour: number for number, colour in enumerate(playing)}
    towers = [Tower(tuple(seat[c] for c in stones), gold) for stones, gold in parsed]
    unplaced = [raw_unplaced.get(colour, 0) for colour in playing]
    for colour in playing:
        used = sum(colour in stones for stones, _ in parsed)
        if used + raw_unplaced.get(colour, 0) > stones_per_player:
            raise BadPosition(
                f"{colour} has only {stones_per_player} stones, not {used} in towers plus "
                f"{raw_unplaced.get(colour, 0)} unplaced"
            )
    sheet = score_towers(playing, playing, towers, unplaced)
    return sheet, best(sheet.totals, False)
