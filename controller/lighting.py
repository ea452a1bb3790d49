"""The LED language, the same in every game (docs/service.md, The LED language).

Each lit site gets a role; each role has a colour from the profile and a blink pattern of its
own, so players who cannot tell the colours apart can still tell the roles apart:

| role   | meaning                              | pattern                  |
| ------ | ------------------------------------ | ------------------------ |
| legal  | where the current step may go        | slow blink (1 Hz)        |
| active | the step under way                   | steady                   |
| choice | several readings: press to pick one  | double flash             |
| wrong  | this site is not as it should be     | fast blink (4 Hz)        |
| score  | the scoring element shown right now  | steady, bright           |
| advice | the AI's move, or a hint             | long on, short off       |
| blind  | its hub is down: not seen, not judged | a short flash every 2 s  |
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from games.core.scoresheet import ScoreSheet

from .referee import (
    Choose,
    Decision,
    Discrepancy,
    InProgress,
    NoChange,
    Successors,
    TakeBack,
    changed_sites,
)

Colour = tuple[int, int, int]
ROLES = ("legal", "active", "choice", "wrong", "score", "advice", "blind")

PATTERNS: dict[str, tuple[float, tuple[tuple[float, float], ...]]] = {
    "legal": (1.0, ((0.0, 0.5),)),
    "active": (1.0, ((0.0, 1.0),)),
    "choice": (1.0, ((0.0, 0.12), (0.24, 0.36))),
    "wrong": (0.25, ((0.0, 0.125),)),
    "score": (1.0, ((0.0, 1.0),)),
    "advice": (1.2, ((0.0, 0.9),)),
    "blind": (2.0, ((0.0, 0.15),)),
}
"""Per role: the period in seconds and the parts of it (start, end) during which it is lit."""
COLOUR_OF_ROLE = {"legal": "legal", "active": "active", "choice": "legal", "wrong": "wrong",
                  "score": "score", "advice": "advice", "blind": "blind"}
"""Which profile colour each role uses (choice shares legal's colour, not its pattern)."""


def plan(decision: Decision, successors: Successors,
         legal_sites: Collection[str] | None = None,
         advice_sites: Collection[str] = ()) -> dict[str, str]:
    """Which role each site plays for this decision.

    ``legal_sites``: where the current step may go, as the table may show it (see
    ``Table.legal_sites``); by default every site a legal action changes. ``advice_sites``:
    the sites of the AI's move or a hint, lit over the legal ones while the table is unchanged.
    """
    roles: dict[str, str] = {}
    if isinstance(decision, NoChange):
        if legal_sites is None:
            legal_sites = {site for successor in successors.changing
                           for site in changed_sites(successors.board, successor.board)}
        roles.update(dict.fromkeys(sorted(legal_sites), "legal"))
        roles.update(dict.fromkeys(sorted(advice_sites), "advice"))
    elif isinstance(decision, InProgress):
        roles.update(dict.fromkeys(decision.targets, "legal"))
        roles.update(dict.fromkeys(decision.active, "active"))
    elif isinstance(decision, Choose):
        for successor in decision.successors:
            roles.update(dict.fromkeys(changed_sites(successors.board, successor.board), "choice"))
    elif isinstance(decision, TakeBack):
        roles.update(dict.fromkeys(successors.board, "choice"))
    elif isinstance(decision, Discrepancy):
        roles.update({wrong.site: "wrong" for wrong in decision.wrong})
    return roles


def lit(role: str, now: float) -> bool:
    period, parts = PATTERNS[role]
    phase = now % period
    return any(start <= phase < end for start, end in parts)


def colours_at(roles: Mapping[str, str], palette: Mapping[str, Colour], now: float,
               sites: frozenset[str] | None = None) -> dict[str, Colour]:
    """The colour of each site at time ``now`` (blinking sites are dark half the time).

    ``sites``: the sites that have LEDs; roles for others are dropped.
    """
    return {
        site: palette[COLOUR_OF_ROLE[role]]
        for site, role in roles.items()
        if (sites is None or site in sites) and lit(role, now)
    }


@dataclass(frozen=True, slots=True)
class SweepStep:
    player: str
    text: str
    points: int
    sites: tuple[str, ...]
    line: int
    """Which of the player's score lines this is (its index on the sheet), so a page can
    light the same line the LEDs show."""


def score_sweep(sheet: ScoreSheet) -> tuple[SweepStep, ...]:
    """The end-of-game sweep: every score line that names sites, player by player."""
    return tuple(
        SweepStep(player, line.text, line.points, line.sites, index)
        for player, lines in zip(sheet.players, sheet.lines, strict=True)
        for index, line in enumerate(lines)
        if line.sites
    )
