"""Scores: each shell its value; at the end, the lucky token's bonus per shell of its kind."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.core import ScoreLine, ScoreSheet, Sentence, verbatim

from .state import Box

SHELLS: dict[str, Sentence] = {
    "pearl": Sentence("pearl"),
    "coral": Sentence("coral"),
    "sponge": Sentence("sponge"),
    "urchin": Sentence("urchin"),
}
"""The shells' names to translate (the data file's kinds); ``locale/de.po`` has the German."""


def shell_name(kind: str) -> Sentence:
    """A kind of shell by name; a kind the data file adds later reads in English."""
    return SHELLS.get(kind) or verbatim(kind)


def score_sheet(box: Box, players: Sequence[str], taken: Sequence[Sequence[str]],
                lucky: Sequence[str] | None) -> ScoreSheet:
    """``lucky`` is None until the end: the tokens are secret and the public score must not
    depend on them."""
    totals, sheets = [], []
    for seat in range(len(players)):
        counts = Counter(shell.split(":")[0] for shell in taken[seat])
        lines = [ScoreLine(Sentence("{count} {shell} × {value} = {points}",
                                    {"count": str(n), "shell": shell_name(kind.name),
                                     "value": str(kind.value), "points": str(n * kind.value)}),
                           n * kind.value)
                 for kind in box.kinds if (n := counts[kind.name])]
        if lucky is not None:
            n = counts[lucky[seat]]
            bonus = n * box.lucky_bonus
            lines.append(ScoreLine(Sentence("lucky {shell}: {count} × {bonus} = {points}",
                                            {"shell": shell_name(lucky[seat]), "count": str(n),
                                             "bonus": str(box.lucky_bonus),
                                             "points": str(bonus)}),
                                   bonus))
        totals.append(sum(line.points for line in lines))
        sheets.append(tuple(lines))
    return ScoreSheet(tuple(players), tuple(totals), tuple(sheets))
