"""``tabletop score topiary POSITION.json``: score a position written by hand.

POSITION = {"players": [names], "grid": rows of entries null or {"shape", "value",
"face_up"}, "visitors": [{"player", "tile": [R, C], "dir"}], "hands": {name: [{"shape",
"value"}]}, "last_mover": name}. It is scored as at the end of a game (hand tiles count).
Every mistake is a BadPosition that says where it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.errors import BadPosition
from games.core.scoresheet import ScoreSheet
from games.core.whole_numbers import is_whole

from .components import Components
from .scoring import EMPTY, rank_winners, score_table
from .spots import DIRECTIONS, Spot, all_spots, is_spot, spot_index


def score_position(
    position: Mapping[str, Any], components: Components
) -> tuple[ScoreSheet, list[int]]:
    if not isinstance(position, Mapping):
        raise BadPosition("a Topiary position is a JSON object with players, grid, visitors, hands")
    unknown = sorted(set(position) - {"players", "grid", "visitors", "hands", "last_mover"})
    if unknown:
        raise BadPosition(f"unknown field(s) {', '.join(unknown)} in the position")
    reader = _Reader(components)
    players = reader.players(position.get("players"))
    grid, face_up = reader.grid(position.get("grid"))
    visitors = reader.visitors(position.get("visitors", []), players)
    hands = reader.hands(position.get("hands", {}), players)
    last = position.get("last_mover")
    if last is not None and last not in players:
        raise BadPosition(f"last_mover {last!r} is not one of the players {', '.join(players)}")
    result = score_table(players, visitors, grid, face_up, hands, components)
    last_mover = None if last is None else players.index(last)
    return result.sheet, rank_winners(result.sheet.totals, result.hand_points, last_mover)


class _Reader:
    """Reads the parts of a position, remembering where each tile was seen (duplicates)."""

    def __init__(self, components: Components) -> None:
        self.components = components
        self.seen: dict[int, str] = {}

    def players(self, value: Any) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
            raise BadPosition("players must be a list of names")
        if not 2 <= len(value) <= 4 or len(set(value)) != len(value):
            raise BadPosition("players must be 2 to 4 different names")
        return value

    def tile(self, value: Any, where: str) -> int:
        components = self.components
        if not isinstance(value, Mapping):
            raise BadPosition(f"{where}: a tile is an object with shape and value")
        shape, number = components.current(value.get("shape")), value.get("value")
        if shape not in components.shapes:
            raise BadPosition(
                f"{where}: unknown shape {shape!r} (shapes: {', '.join(components.shapes)})"
            )
        if number not in components.values or isinstance(number, bool):
            values = ", ".join(str(v) for v in components.values)
            raise BadPosition(f"{where}: {shape} tiles have values {values}, not {number!r}")
        tile = components.tile_numbers[shape, number]
        if tile in self.seen:
            raise BadPosition(
                f"{where}: {shape} {number} is already at {self.seen[tile]}; each tile exists once"
            )
        self.seen[tile] = where
        return tile

    def grid(self, value: Any) -> tuple[list[int], list[bool]]:
        size = self.components.size
        if (
            not isinstance(value, list)
            or len(value) != size
            or not all(isinstance(row, list) and len(row) == size for row in value)
        ):
            raise BadPosition(f"grid must be {size} rows of {size} entries (null or a tile)")
        grid: list[int] = []
        face_up: list[bool] = []
        for row, entries in enumerate(value):
            for col, entry in enumerate(entries):
                if entry is None:
                    grid.append(EMPTY)
                    face_up.append(False)
                    continue
                where = f"grid {row}:{col}"
                grid.append(self.tile(entry, where))
                up = entry.get("face_up", True)
                if not isinstance(up, bool):
                    raise BadPosition(f"{where}: face_up must be true or false")
                face_up.append(up)
        return grid, face_up

    def visitors(self, value: Any, players: list[str]) -> list[tuple[Spot, int]]:
        size = self.components.size
        if not isinstance(value, list):
            raise BadPosition("visitors must be a list of {player, tile: [R, C], dir}")
        index = spot_index(size)
        spots = all_spots(size)
        taken: dict[str, int] = {}
        result = []
        for number, entry in enumerate(value):
            where = f"visitors[{number}]"
            if not isinstance(entry, Mapping):
                raise BadPosition(f"{where}: a visitor is an object with player, tile and dir")
            player = entry.get("player")
            if player not in players:
                raise BadPosition(f"{where}: {player!r} is not one of the players")
            tile, direction = entry.get("tile"), entry.get("dir")
            if (
                not isinstance(tile, list)
                or len(tile) != 2
                or not all(is_whole(v) for v in tile)
            ):
                raise BadPosition(f"{where}: tile must be [row, column]")
            row, col = tile
            if not isinstance(direction, str) or direction not in DIRECTIONS:
                raise BadPosition(
                    f"{where}: dir must be one of {', '.join(DIRECTIONS)}, not {direction!r}"
                )
            name = f"{row}:{col}:{direction}"
            if not is_spot(row, col, direction, size):
                raise BadPosition(f"{where}: {name} is not a spot; {_spots_at(row, col, size)}")
            if name in taken:
                raise BadPosition(
                    f"{where}: spot {name} is already taken by visitors[{taken[name]}]; "
                    "one visitor per spot"
                )
            taken[name] = number
            result.append((spots[index[name]], players.index(player)))
        seat_counts = [sum(1 for _, seat in result if seat == s) for s in range(len(players))]
        allowed = self.components.visitors_per_player[len(players)]
        for seat, count in enumerate(seat_counts):
            if count > allowed:
                raise BadPosition(
                    f"{players[seat]} has {count} visitors; with {len(players)} players each "
                    f"has {allowed}"
                )
        return result

    def hands(self, value: Any, players: list[str]) -> list[list[int]]:
        if not isinstance(value, Mapping):
            raise BadPosition("hands must map player names to lists of tiles")
        for name in value:
            if name not in players:
                raise BadPosition(f"hands: {name!r} is not one of the players")
        result = []
        for player in players:
            tiles = value.get(player, [])
            if not isinstance(tiles, list):
                raise BadPosition(f"hands of {player} must be a list of tiles")
            result.append(
                [self.tile(tile, f"{player}'s hand[{i}]") for i, tile in enumerate(tiles)]
            )
        return result


def _spots_at(row: int, col: int, size: int) -> str:
    """What a person can do instead: the directions a visitor at that tile may look."""
    if not (0 <= row < size and 0 <= col < size):
        return f"the tiles are 0:0 to {size - 1}:{size - 1}"
    directions = [d for d in DIRECTIONS if is_spot(row, col, d, size)]
    if not directions:
        return f"{row}:{col} is not a border tile"
    return f"a visitor at {row}:{col} looks {', '.join(directions)}"
