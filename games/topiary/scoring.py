"""Scoring: each visitor's line of sight, the set bonus, hand tiles, and the tie-breaks.

Pure functions over plain data (a grid of tile numbers with face-up flags, visitors as
(spot, seat) pairs), shared by the engine's running score and by ``score_position``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.game import Sentence, comma_list
from games.core.scoresheet import ScoreLine, ScoreSheet

from . import words
from .components import Components
from .spots import Spot

EMPTY = -1
"""A grid cell without a tile (the gap while a player holds the tile just taken)."""


@dataclass(frozen=True, slots=True)
class LineScore:
    """What one visitor scores: the tiles that count, nearest first, and the set bonuses."""

    spot: Spot
    scored: tuple[int, ...]
    base: int
    bonuses: tuple[tuple[str, int], ...]
    """(shape, extra points) for every shape with two or more scored tiles, by shape name."""

    @property
    def total(self) -> int:
        return self.base + sum(points for _, points in self.bonuses)

    def text(self, components: Components) -> str:
        """The line in English: ``spot 0:0:SE: swan 2, swan 4 = 6, set bonus swan +2 = 8``."""
        return str(self.sentence(components))

    def sentence(self, components: Components) -> Sentence:
        """The line as a Sentence, its tiles, shapes and compass letters translatable."""
        spot = words.spot_short(self.spot)
        if not self.scored:
            return Sentence("spot {spot}: no face-up tile = 0", {"spot": spot})
        tiles = comma_list([words.tile(*components.tiles[tile]) for tile in self.scored])
        told: dict[str, str | Sentence] = {"spot": spot, "tiles": tiles, "base": str(self.base)}
        if not self.bonuses:
            return Sentence("spot {spot}: {tiles} = {base}", told)
        bonus = comma_list([
            Sentence("{shape} +{points}", {"shape": words.shape(shape), "points": str(points)})
            for shape, points in self.bonuses])
        return Sentence("spot {spot}: {tiles} = {base}, set bonus {bonus} = {total}",
                        {**told, "bonus": bonus, "total": str(self.total)})


def score_line(
    spot: Spot, grid: Sequence[int], face_up: Sequence[bool], components: Components
) -> LineScore:
    """Walk away from the visitor: face-down tiles and gaps are skipped, the first face-up tile
    scores, and every later one scores only if it beats the last scored value."""
    scored: list[int] = []
    last = 0
    for cell in spot.line:
        tile = grid[cell]
        if tile == EMPTY or not face_up[cell]:
            continue
        value = components.tiles[tile][1]
        if value > last:
            scored.append(tile)
            last = value
    counts: dict[str, int] = {}
    for tile in scored:
        shape = components.tiles[tile][0]
        counts[shape] = counts.get(shape, 0) + 1
    bonuses = tuple((shape, count) for shape, count in sorted(counts.items()) if count >= 2)
    base = sum(components.tiles[tile][1] for tile in scored)
    return LineScore(spot, tuple(scored), base, bonuses)


def hand_tile_line(tile: int, lines: Sequence[LineScore], components: Components) -> ScoreLine:
    """A hand tile scores its value if one of its owner's visitors scores a higher tile of the
    same shape; each hand tile counts once, however many visitors would qualify it."""
    shape, value = components.tiles[tile]
    name = words.tile(shape, value)
    for line in lines:
        for scored in line.scored:
            if components.tiles[scored][0] == shape and components.tiles[scored][1] > value:
                return ScoreLine(Sentence(
                    "hand {tile}: {value} (spot {spot} scores {scored})",
                    {"tile": name, "value": str(value), "spot": words.spot_short(line.spot),
                     "scored": words.tile(*components.tiles[scored])}), value)
    return ScoreLine(Sentence("hand {tile}: 0 (no visitor of yours scores a higher {shape})",
                              {"tile": name, "shape": words.shape(shape)}), 0)


@dataclass(frozen=True, slots=True)
class Scoring:
    """A score sheet plus the hand-tile points per seat (the first tie-break)."""

    sheet: ScoreSheet
    hand_points: tuple[int, ...]


def score_table(
    players: Sequence[str],
    visitors: Sequence[tuple[Spot, int]],
    grid: Sequence[int],
    face_up: Sequence[bool],
    hands: Sequence[Sequence[int]] | None,
    components: Components,
) -> Scoring:
    """Every visitor's line (in the order they were placed), then, if ``hands`` is given (the
    final scoring, when hands are shown), every hand tile."""
    lines: list[list[LineScore]] = [[] for _ in players]
    for spot, seat in visitors:
        lines[seat].append(score_line(spot, grid, face_up, components))
    sheet_lines: list[tuple[ScoreLine, ...]] = []
    hand_points = []
    for seat in range(len(players)):
        entries = [ScoreLine(line.sentence(components), line.total) for line in lines[seat]]
        hand_lines = (
            [hand_tile_line(tile, lines[seat], components) for tile in hands[seat]]
            if hands is not None
            else []
        )
        hand_points.append(sum(line.points for line in hand_lines))
        sheet_lines.append(tuple(entries + hand_lines))
    sheet = ScoreSheet(
        players=tuple(players),
        totals=tuple(sum(line.points for line in lines) for lines in sheet_lines),
        lines=tuple(sheet_lines),
    )
    return Scoring(sheet, tuple(hand_points))


def rank_winners(
    totals: Sequence[int], hand_points: Sequence[int], last_mover: int | None
) -> list[int]:
    """Highest total; among the tied, more hand-tile points; then the tied player who moved
    last (turns go by seat, so the seat fewest steps before ``last_mover`` moved most recently).
    Without a last mover (nobody has moved) the remaining tie stands."""
    best = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    best_hand = max(hand_points[seat] for seat in tied)
    tied = [seat for seat in tied if hand_points[seat] == best_hand]
    if len(tied) == 1 or last_mover is None:
        return tied
    n = len(totals)
    return [min(tied, key=lambda seat: (last_mover - seat) % n)]
