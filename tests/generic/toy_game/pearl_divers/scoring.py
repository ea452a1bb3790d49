"""Scores: each shell its value; at the end, the lucky token's bonus per shell of its kind."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.core import ScoreLine, ScoreSheet

from .state import Box


def score_sheet(box: Box, players: Sequence[str], taken: Sequence[Sequence[str]],
                lucky: Sequence[str] | None) -> ScoreSheet:
    """``lucky`` is None until the end: the tokens are secret and the public score must not
    depend on them."""
    totals, sheets = [], []
    for seat in range(len(players)):
        counts = Counter(shell.split(":")[0] for shell in taken[seat])
        lines = [ScoreLine(f"{n} {kind.name} × {kind.value} = {n * kind.value}", n * kind.value)
                 for kind in box.kinds if (n := counts[kind.name])]
        if lucky is not None:
            n = counts[lucky[seat]]
            bonus = n * box.lucky_bonus
            lines.append(ScoreLine(f"lucky {lucky[seat]}: {n} × {box.lucky_bonus} = {bonus}",
                                   bonus))
        totals.append(sum(line.points for line in lines))
        sheets.append(tuple(lines))
    return ScoreSheet(tuple(players), tuple(totals), tuple(sheets))
