"""Score sheets: totals together with the lines a player can check at the table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One checkable entry, e.g. ``round 1: lokahi on top, 9``."""

    text: str
    points: int
    sites: tuple[str, ...] = ()
    """Sites on the table this line scores (lit in turn by the end-of-game sweep)."""


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Per player a total and the lines it is made of (in seat order).

    Totals are kept next to the lines on purpose: the conformance check verifies that an
    engine's lines really add up to the totals it computed.
    """

    players: tuple[str, ...]
    totals: tuple[int, ...]
    lines: tuple[tuple[ScoreLine, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": dict(zip(self.players, self.totals, strict=True)),
            "lines": {
                name: [line.text for line in lines]
                for name, lines in zip(self.players, self.lines, strict=True)
            },
        }
