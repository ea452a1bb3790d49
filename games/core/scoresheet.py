"""Score sheets: totals together with the lines a player can check at the table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .sentence import Sentence, verbatim


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One checkable entry, e.g. ``round 1: lokahi on top, 9``.

    ``message`` is a ``Sentence`` when the line is meant to be read in the players' language
    (the game-over screen, the LED sweep's legend); a plain ``str`` still works and stays as
    written. ``text`` is always the English, so logs, playthroughs and tests read as before.
    """

    message: Sentence | str
    points: int
    sites: tuple[str, ...] = ()
    """Sites on the table this line scores (lit in turn by the end-of-game sweep)."""

    @property
    def text(self) -> str:
        """The line in English."""
        return str(self.message)

    @property
    def sentence(self) -> Sentence:
        """The line as a Sentence for a translation catalogue (plain text passes verbatim)."""
        if isinstance(self.message, Sentence):
            return self.message
        return verbatim(self.message)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Per player a total and the lines it is made of (in seat order).

    Totals are kept next to the lines on purpose: the conformance check verifies that an
    engine's lines really add up to the totals it computed.
    """

    players: tuple[str, ...]
    totals: tuple[int, ...]
    lines: tuple[tuple[ScoreLine, ...], ...]

    def to_json(self, translate: Callable[[Sentence], str] = str) -> dict[str, Any]:
        """The sheet JSON-ready; ``translate`` renders each line (a catalogue's ``text``),
        English by default."""
        return {
            "scores": dict(zip(self.players, self.totals, strict=True)),
            "lines": {
                name: [translate(line.sentence) for line in lines]
                for name, lines in zip(self.players, self.lines, strict=True)
            },
        }
