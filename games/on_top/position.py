"""Scoring an On Top position given as JSON (``tabletop score``): towers and unplaced stones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.errors import BadPosition
from games.core.scoresheet import ScoreSheet

from .scoring import Tower, best, score_towers


def score_position(
    position: Mapping[str, Any], colours: Sequence[str], stones: Mapping[str, int],
    circles: int, gold_circles: int,
) -> tuple[ScoreSheet, list[int]]:
    """``{"towers": [{"stones": [colour, ... bottom to top], "gold": bool}],
    "unplaced": {colour: int}, "neutral": [colour], "reading": "box"}``; the players are the
    colours named, in seat order, except the neutral ones (2-3 players: their stones score for
    nobody). Every stone of a player is in a tower or unplaced (``stones`` per reading: 20 in
    the box reading, 21 in revision1), and the towers fit on the board's circles."""
    if not isinstance(position, Mapping):
        raise BadPosition('an On Top position is a JSON object with "towers" and "unplaced"')
    unknown = sorted(set(position) - {"towers", "unplaced", "neutral", "reading"})
    if unknown:
        raise BadPosition(f"unknown field(s) {', '.join(unknown)}; the fields are towers, "
                          "unplaced, neutral, reading")
    reading = position.get("reading", "box")
    if not isinstance(reading, str) or reading not in stones:
        raise BadPosition(f"reading must be one of {', '.join(stones)}, not {reading!r}")
    stones_per_player = stones[reading]
    raw_towers = position.get("towers", [])
    raw_unplaced = position.get("unplaced", {})
    if not isinstance(raw_towers, list):
        raise BadPosition("towers must be a list of {stones: [colour, ...], gold: true/false}")
    if not isinstance(raw_unplaced, Mapping):
        raise BadPosition("unplaced must map a colour to its number of unplaced stones")
    known = ", ".join(colours)
    neutral = position.get("neutral", [])
    if (not isinstance(neutral, list) or any(colour not in colours for colour in neutral)
            or len(set(neutral)) != len(neutral)):
        raise BadPosition(f"neutral must list colours nobody plays, each once (colours: {known})")
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
    if len(parsed) > circles:
        raise BadPosition(f"{len(parsed)} towers, but the board has only {circles} circles")
    gold_towers = sum(gold for _, gold in parsed)
    if gold_towers > gold_circles:
        raise BadPosition(f"{gold_towers} gold towers, but only {gold_circles} circles are gold")
    for colour, count in raw_unplaced.items():
        if colour not in colours:
            raise BadPosition(f"unplaced: unknown colour {colour!r} (colours: {known})")
        if colour in neutral:
            raise BadPosition(f"unplaced: {colour} is neutral; only players lose points for "
                              "unplaced stones")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise BadPosition(f"unplaced: {colour} must have a whole number of stones, >= 0")
    named = set(raw_unplaced) | {colour for stones, _ in parsed for colour in stones}
    playing = [colour for colour in colours if colour in named and colour not in neutral]
    if len(playing) < 2:
        raise BadPosition("name at least two players' colours (in towers or unplaced)")
    seat = {colour: number for number, colour in enumerate([*playing, *neutral])}
    towers = [Tower(tuple(seat[c] for c in stones), gold) for stones, gold in parsed]
    unplaced = [raw_unplaced.get(colour, 0) for colour in playing]
    for colour in neutral:
        used = sum(colour in stones for stones, _ in parsed)
        if used > stones_per_player:
            raise BadPosition(f"neutral {colour} has only {stones_per_player} stones, not {used}")
    for colour in playing:
        used = sum(colour in stones for stones, _ in parsed)
        if used + raw_unplaced.get(colour, 0) > stones_per_player:
            raise BadPosition(
                f"{colour} has only {stones_per_player} stones, not {used} in towers plus "
                f"{raw_unplaced.get(colour, 0)} unplaced"
            )
        if used + raw_unplaced.get(colour, 0) < stones_per_player:
            raise BadPosition(
                f"{colour} has {stones_per_player} stones, each in a tower or unplaced: "
                f"{used} in towers plus {raw_unplaced.get(colour, 0)} unplaced leaves "
                f"{stones_per_player - used - raw_unplaced.get(colour, 0)} nowhere"
            )
    sheet = score_towers(playing, [*playing, *neutral], towers, unplaced)
    return sheet, best(sheet.totals, False)
