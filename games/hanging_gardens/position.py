"""``tabletop score hanging_gardens POSITION.json``: score collected tiles written by hand.

POSITION = {"players": {name: {"tiles": [kind names], "missing": int}}, "gates": "guard"};
tile kinds are ``queen king tiger garden statue chalice gate animal_handler gardener sculptor
priest guard``; "gates" is the option of that name (default guard: gates score only with the
guard; series: also as a series, rules revision 1).
Every mistake is a BadPosition that says where it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.errors import BadPosition
from games.core.scoresheet import ScoreSheet
from games.core.whole_numbers import is_whole

from .components import Components
from .scoring import rank_winners, score_sheet


def score_position(
    position: Mapping[str, Any], components: Components
) -> tuple[ScoreSheet, list[int]]:
    if not isinstance(position, Mapping) or not isinstance(position.get("players"), Mapping):
        raise BadPosition(
            'a Hanging Gardens position is {"players": {NAME: {"tiles": [KIND, ...], '
            '"missing": N}}}'
        )
    unknown = sorted(set(position) - {"players", "gates"})
    if unknown:
        raise BadPosition(f"unknown field(s) {', '.join(unknown)} in the position")
    gates = position.get("gates", "guard")
    if gates not in ("guard", "series"):
        raise BadPosition(f"gates must be guard or series, not {gates!r}")
    players = position["players"]
    if not 2 <= len(players) <= 4:
        raise BadPosition(f"The Hanging Gardens is for 2 to 4 players, not {len(players)}")
    kinds = components.kinds
    index = {kind: number for number, kind in enumerate(kinds)}
    in_box = dict(zip(kinds, components.kind_counts, strict=True))
    used = dict.fromkeys(kinds, 0)
    names, collections, missing = [], [], []
    for name, entry in players.items():
        if not isinstance(name, str) or not name.strip():
            raise BadPosition("player names must be non-empty")
        if not isinstance(entry, Mapping):
            raise BadPosition(f"{name}: give an object with tiles and missing")
        extra = sorted(set(entry) - {"tiles", "missing"})
        if extra:
            raise BadPosition(f"{name}: unknown field(s) {', '.join(extra)}")
        tiles = entry.get("tiles", [])
        if not isinstance(tiles, list):
            raise BadPosition(f"{name}: tiles must be a list of tile kinds")
        counts = [0] * len(kinds)
        for tile in tiles:
            if not isinstance(tile, str) or tile not in index:
                raise BadPosition(
                    f"{name}: {tile!r} is not a score tile; the kinds are {' '.join(kinds)}"
                )
            counts[index[tile]] += 1
            used[tile] += 1
        lost = entry.get("missing", 0)
        if not is_whole(lost) or lost < 0:
            raise BadPosition(f"{name}: missing must be a whole number 0 or more")
        names.append(name)
        collections.append(tuple(counts))
        missing.append(lost)
    for kind, count in used.items():
        if count > in_box[kind]:
            raise BadPosition(f"the box holds {in_box[kind]} {kind} tile(s), the position {count}")
    sheet = score_sheet(names, collections, missing, components, gates == "series")
    return sheet, rank_winners(sheet.totals, [sum(c) for c in collections])
