"""The Hanging Gardens' limits: provable bounds on the length of a game and on scores."""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

from games.core.game import Limits

from .actions import action_texts
from .components import Components
from .scoring import score_lines


def rounds(components: Components, n_players: int) -> int:
    """Rounds at most: each deals the display full (only the last may get fewer cards) and a
    new one starts only while the deck holds cards."""
    return math.ceil(len(components.cards) / components.display_cards[n_players])


def tiles_per_temple(components: Components) -> int:
    """Score tiles (or missing tiles) one temple earns at most: an extra hidden tile when its
    group can reach ``extra_from`` fields, then one open tile."""
    return 2 if components.extra_from <= components.fields else 1


def max_steps(components: Components, n_players: int) -> int:
    """An upper bound on the steps of a game (actions and chance outcomes together).

    Each ``draw`` takes a card from the deck: at most C (the cards). Each ``place`` or
    ``discard`` takes a drawn card off the display: at most C. A temple step (a temple, a move
    or ``no temple``) follows a placement only: at most C. Every ``reveal`` and ``extra`` takes
    a tile from the stack: at most T (the tiles in the box). A ``tile`` take follows a temple,
    and a player builds at most one temple a round, only in a round they place a card: at most
    rounds x min(players, display cards); it also takes a tile that was revealed: at most T.
    A ``take extra`` is followed by an ``extra`` draw from the stack and comes once a temple at
    most: at most min(temples, T) again.
    """
    c = components
    cards, tiles = len(c.cards), sum(c.kind_counts)
    temples = rounds(c, n_players) * min(n_players, c.display_cards[n_players])
    return 3 * cards + tiles + 2 * min(temples, tiles)


class Extreme(NamedTuple):
    """A total one player can reach, and a collection that scores it (the witness)."""

    total: int
    counts: tuple[int, ...]
    """Score tiles per kind, in ``components.kinds`` order."""
    missing: int


def _groups(components: Components) -> list[list[int]]:
    """The kinds whose points depend on each other: a series with its persons (and the guard
    for the gate series). The total is the sum over these groups plus the missing tiles."""
    kinds = components.kinds
    groups = []
    for name in sorted(components.series):
        members = [name, *(p for p, person in components.persons.items() if person.series == name)]
        if name == components.gate_series:
            members.append(components.guard)
        groups.append(sorted(kinds.index(kind) for kind in members))
    covered = sorted(k for group in groups for k in group)
    if covered != list(range(len(kinds))):
        raise AssertionError("every score-tile kind belongs to exactly one group")
    return groups


def score_extremes(components: Components, n_players: int,
                   gate_series: bool = False) -> tuple[Extreme, Extreme]:
    """The lowest and highest total one player can have, running or final, with witnesses.

    A player builds at most one temple a round, so at most R temples (R the rounds), each
    earning at most E tiles (``tiles_per_temple``); a tile that cannot be had is missing
    instead, which ends the game with that round, so missing tiles come from one temple: at
    most E. Hence tiles + missing <= E x R, missing <= E, and per kind at most the box's count.
    The running score counts a part of the tiles, which obeys the same limits. Points add up
    over the kind groups of ``_groups``, so the extremes are exact over those limits: each
    group's totals per tile count come from the real scoring code, then combine like a
    knapsack.
    """
    c = components
    n_kinds = len(c.kinds)
    zero = (0,) * n_kinds
    # best[j] = (low, low counts, high, high counts) over collections of exactly j tiles
    best: dict[int, tuple[int, tuple[int, ...], int, tuple[int, ...]]] = {0: (0, zero, 0, zero)}
    for group in _groups(c):
        options: dict[int, tuple[int, tuple[int, ...], int, tuple[int, ...]]] = {}
        for picked in itertools.product(*(range(c.kind_counts[k] + 1) for k in group)):
            counts = [0] * n_kinds
            for k, count in zip(group, picked, strict=True):
                counts[k] = count
            points = sum(line.points for line in score_lines(counts, 0, c, gate_series))
            _keep(options, sum(picked), points, tuple(counts))
        merged: dict[int, tuple[int, tuple[int, ...], int, tuple[int, ...]]] = {}
        for (j, (lo, lo_c, hi, hi_c)), (g, (glo, glo_c, ghi, ghi_c)) in itertools.product(
            best.items(), options.items()
        ):
            _keep(merged, j + g, lo + glo, _plus(lo_c, glo_c))
            _keep(merged, j + g, hi + ghi, _plus(hi_c, ghi_c))
        best = merged
    per_temple = tiles_per_temple(c)
    cap = per_temple * rounds(c, n_players)
    low = high = None
    for missing in range(per_temple + 1):
        extra = missing * c.missing_points
        for j, (lo, lo_c, hi, hi_c) in best.items():
            if j + missing > cap:
                continue
            if low is None or lo + extra < low.total:
                low = Extreme(lo + extra, lo_c, missing)
            if high is None or hi + extra > high.total:
                high = Extreme(hi + extra, hi_c, missing)
    assert low is not None and high is not None  # j = 0, missing = 0 always fits
    return low, high


def _keep(
    table: dict[int, tuple[int, tuple[int, ...], int, tuple[int, ...]]],
    tiles: int,
    points: int,
    counts: tuple[int, ...],
) -> None:
    """Record ``points`` for ``tiles`` tiles if it is a new lowest or highest."""
    old = table.get(tiles)
    if old is None:
        table[tiles] = (points, counts, points, counts)
        return
    lo, lo_c, hi, hi_c = old
    if points < lo:
        lo, lo_c = points, counts
    if points > hi:
        hi, hi_c = points, counts
    table[tiles] = (lo, lo_c, hi, hi_c)


def _plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def limits_for(components: Components, n_players: int, gate_series: bool = False) -> Limits:
    """The limits for this many players and the gates option (``reading`` changes none)."""
    low, high = score_extremes(components, n_players, gate_series)
    return Limits(action_texts(components), max_steps(components, n_players), low.total, high.total)
