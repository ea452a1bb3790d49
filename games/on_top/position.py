"""Scoring an On Top position given as JSON (``tabletop score``): towers and unplaced stones."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.errors import BadPosition
from games.core.scoresheet import ScoreSheet
from games.core.whole_numbers import is_whole

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
    neutral = _neutral(position.get("neutral", []), colours)
    parsed = [_tower(entry, f"towers[{number}]", colours)
              for number, entry in enumerate(raw_towers)]
    _check_board_room(parsed, circles, gold_circles)
    _check_unplaced(raw_unplaced, colours, neutral)
    named = set(raw_unplaced) | {colour for stones, _ in parsed for colour in stones}
    playing = [colour for colour in colours if colour in named and colour not in neutral]
    if len(playing) < 2:
        raise BadPosition("name at least two players' colours (in towers or unplaced)")
    _check_every_stone(parsed, raw_unplaced, playing, neutral, stones_per_player)
    seat = {colour: number for number, colour in enumerate([*playing, *neutral])}
    towers = [Tower(tuple(seat[c] for c in stones), gold) for stones, gold in parsed]
    unplaced = [raw_unplaced.get(colour, 0) for colour in playing]
    sheet = score_towers(playing, [*playing, *neutral], towers, unplaced)
    return sheet, best(sheet.totals, False)


def _known(colours: Sequence[str]) -> str:
    return ", ".join(colours)


def _neutral(neutral: Any, colours: Sequence[str]) -> list[str]:
    """The colours nobody plays whose stones stand in towers (2-3 players)."""
    if (not isinstance(neutral, list) or any(colour not in colours for colour in neutral)
            or len(set(neutral)) != len(neutral)):
        raise BadPosition("neutral must list colours nobody plays, each once (colours: "
                          f"{_known(colours)})")
    return neutral


def _tower(entry: Any, where: str, colours: Sequence[str]) -> tuple[list[str], bool]:
    """One tower: its stones' colours bottom to top, and whether it stands on a gold circle."""
    if not isinstance(entry, Mapping) or set(entry) - {"stones", "gold"}:
        raise BadPosition(f"{where}: a tower is an object with stones and gold")
    stones, gold = entry.get("stones"), entry.get("gold", False)
    if not isinstance(stones, list) or not stones:
        raise BadPosition(f"{where}: stones must list the colours bottom to top")
    if not isinstance(gold, bool):
        raise BadPosition(f"{where}: gold must be true or false")
    for colour in stones:
        if colour not in colours:
            raise BadPosition(f"{where}: unknown colour {colour!r} (colours: {_known(colours)})")
    if len(set(stones)) != len(stones):
        raise BadPosition(f"{where}: each player puts at most one stone on a circle")
    return stones, gold


def _check_board_room(towers: list[tuple[list[str], bool]], circles: int,
                      gold_circles: int) -> None:
    """The towers fit on the board's circles, the gold ones on its gold circles."""
    if len(towers) > circles:
        raise BadPosition(f"{len(towers)} towers, but the board has only {circles} circles")
    gold_towers = sum(gold for _, gold in towers)
    if gold_towers > gold_circles:
        raise BadPosition(f"{gold_towers} gold towers, but only {gold_circles} circles are gold")


def _check_unplaced(unplaced: Mapping[Any, Any], colours: Sequence[str],
                    neutral: list[str]) -> None:
    """Unplaced stones are counted for players' colours only."""
    for colour, count in unplaced.items():
        if colour not in colours:
            raise BadPosition(f"unplaced: unknown colour {colour!r} (colours: {_known(colours)})")
        if colour in neutral:
            raise BadPosition(f"unplaced: {colour} is neutral; only players lose points for "
                              "unplaced stones")
        if not is_whole(count) or count < 0:
            raise BadPosition(f"unplaced: {colour} must have a whole number of stones, >= 0")


def _check_every_stone(towers: list[tuple[list[str], bool]], unplaced: Mapping[str, int],
                       playing: list[str], neutral: list[str], stones_per_player: int) -> None:
    """No colour has more stones than the box gives it, and each player's are all somewhere."""
    for colour in neutral:
        used = sum(colour in stones for stones, _ in towers)
        if used > stones_per_player:
            raise BadPosition(f"neutral {colour} has only {stones_per_player} stones, not {used}")
    for colour in playing:
        used = sum(colour in stones for stones, _ in towers)
        left = unplaced.get(colour, 0)
        if used + left > stones_per_player:
            raise BadPosition(
                f"{colour} has only {stones_per_player} stones, not {used} in towers plus "
                f"{left} unplaced"
            )
        if used + left < stones_per_player:
            raise BadPosition(
                f"{colour} has {stones_per_player} stones, each in a tower or unplaced: "
                f"{used} in towers plus {left} unplaced leaves "
                f"{stones_per_player - used - left} nowhere"
            )
