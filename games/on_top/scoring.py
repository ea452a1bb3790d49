"""Towers into points: the top stone's owner scores the stones, doubled on the gold ring;
every stone not placed costs 2 at the end. Shared by the engine and ``tabletop score``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.game import Sentence, comma_list
from games.core.scoresheet import ScoreLine, ScoreSheet

UNPLACED_PENALTY = 2


@dataclass(frozen=True, slots=True)
class Tower:
    stones: tuple[int, ...]
    """Seats, bottom to top; the last one is on top."""
    gold: bool
    circle: str = ""
    """The circle's ``R:C`` name (empty for a tower given in a position)."""
    sites: tuple[str, ...] = ()


def tower_points(tower: Tower) -> int:
    return len(tower.stones) * (2 if tower.gold else 1)


def tower_sentence(tower: Tower, colours: Sequence[str | Sentence]) -> Sentence:
    """``tower 1:1 (gold): blue on top of yellow: 2 stones x 2 = 4``; ``colours`` name each
    seat's stones (colour words to translate, or player names as they are)."""
    top = colours[tower.stones[-1]]
    below = [colours[seat] for seat in tower.stones[:-1]]
    what = (Sentence("{top} on top of {below}", {"top": top, "below": comma_list(below)})
            if below else Sentence("{top} alone", {"top": top}))
    count = len(tower.stones)
    stones = (Sentence("1 stone") if count == 1
              else Sentence("{count} stones", {"count": str(count)}))
    label = (Sentence("tower {circle}", {"circle": tower.circle}) if tower.circle
             else Sentence("tower"))
    told: dict[str, str | Sentence] = {"label": label, "what": what, "stones": stones,
                                       "points": str(tower_points(tower))}
    if tower.gold:
        return Sentence("{label} (gold): {what}: {stones} x 2 = {points}", told)
    return Sentence("{label}: {what}: {stones} = {points}", told)


def unplaced_sentence(left: int) -> Sentence:
    """``3 unplaced stones x -2 = -6``."""
    points = str(-UNPLACED_PENALTY * left)
    if left == 1:
        return Sentence("1 unplaced stone x -{penalty} = {points}",
                        {"penalty": str(UNPLACED_PENALTY), "points": points})
    return Sentence("{count} unplaced stones x -{penalty} = {points}",
                    {"count": str(left), "penalty": str(UNPLACED_PENALTY), "points": points})


def score_towers(
    players: Sequence[str],
    colours: Sequence[str | Sentence],
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
            ScoreLine(tower_sentence(tower, colours), tower_points(tower), tower.sites)
        )
    if unplaced is not None:
        for seat, left in enumerate(unplaced):
            if left:
                lines[seat].append(ScoreLine(unplaced_sentence(left), -UNPLACED_PENALTY * left))
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
