"""Scoring a Tiki Topple position given as JSON: a stack and each player's mission."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.errors import BadPosition
from games.core.scoresheet import ScoreSheet

from .actions import TIKIS
from .components import load_edition
from .scoring import mission_line


def score_position(position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
    """A stack and the missions held (``tabletop score``); raises BadPosition."""
    edition = load_edition("schmidt")
    if not isinstance(position, Mapping):
        raise BadPosition("a Tiki Topple position is a JSON object with stack and missions")
    unknown = set(position) - {"stack", "missions"}
    if unknown:
        raise BadPosition(f"unknown keys {sorted(unknown)}; expected stack and missions")
    stack = _tikis(position.get("stack"), "stack")
    if not 3 <= len(stack) <= 9:
        raise BadPosition(f"the stack holds 3 to 9 tikis, not {len(stack)}")
    missions = position.get("missions")
    if not isinstance(missions, Mapping) or not missions:
        raise BadPosition('missions must map player names to 3 tikis, e.g. {"anna": [...]}')
    names = tuple(missions)
    if not all(isinstance(name, str) and name.strip() for name in names):
        raise BadPosition("player names must be non-empty strings")
    if not 2 <= len(names) <= 4:
        raise BadPosition(f"Tiki Topple is for 2 to 4 players, not {len(names)}")
    group_of = {tiki: number for number, group in enumerate(edition.groups) for tiki in group}
    holder: dict[frozenset[str], str] = {}
    totals = []
    lines = []
    for name in names:
        card = _tikis(missions[name], f"{name}'s mission")
        if len(card) != 3:
            raise BadPosition(f"{name}'s mission names 3 tikis, not {len(card)}")
        if len({group_of[tiki] for tiki in card}) != 3:
            raise BadPosition(f"{name}'s mission {', '.join(card)}: every mission card names "
                              "one tiki of each back symbol")
        other = holder.setdefault(frozenset(card), name)
        if other != name:
            raise BadPosition(f"{name} and {other} hold the same mission card; the deck has "
                              "each card once")
        line = mission_line(edition, stack, card, None)
        totals.append(line.points)
        lines.append((line,))
    sheet = ScoreSheet(names, tuple(totals), tuple(lines))
    best = max(totals)
    return sheet, [seat for seat, total in enumerate(totals) if total == best]


def _tikis(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise BadPosition(f"{what} must be a list of tiki names")
    names = tuple(t.lower() for t in value)
    for name in names:
        if name not in TIKIS:
            raise BadPosition(f"{what}: unknown tiki {name!r}; tikis are {', '.join(TIKIS)}")
    if len(set(names)) != len(names):
        raise BadPosition(f"{what} names a tiki twice")
    return names
