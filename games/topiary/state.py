"""The Topiary state: an immutable record of the table, serialisable to JSON and back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from games.core.errors import BadState
from games.core.grid import cell_name
from games.core.state_fields import entries, flag, one_of, player_names, whole

from .components import Components
from .scoring import EMPTY
from .spots import all_spots, spot_index

PHASES = (
    "remove",
    "lay",
    "deal",
    "collect",
    "draft",
    "receive",
    "return",
    "visitor",
    "take",
    "place",
    "over",
)
"""remove: the players put one shape of their choice back in the box (2-3 players); lay: the
face-down grid is laid tile by tile in reading order (chance); deal: the next hand tile is laid
on the deal pad (chance); collect: its receiver takes it into hand. Draft variant: draft: a
player lays a tile to pass on the pad; receive: the player on the right takes it; return: the
start player puts it back in the box. visitor, take, place: the three steps of a turn; over:
the game has ended."""

CHANCE_PHASES = frozenset({"lay", "deal"})


class TopiaryState(NamedTuple):
    """Immutable: a named tuple of tuples, because playouts build hundreds of thousands.

    Tiles are numbers (see ``components``); cells are ``row * size + col``.
    """

    players: tuple[str, ...]
    draft: bool
    optional_take: bool
    """Option take=may: a player may leave the line's face-down tiles (``no take``)."""
    phase: str
    removed: str
    """The shape taken out of the game, or "" (4 players, or not yet removed)."""
    grid: tuple[int, ...]
    """Tile per cell, or EMPTY."""
    face_up: tuple[bool, ...]
    supply: tuple[int, ...]
    """Sorted: tiles in play on neither the grid nor a hand: the pile being dealt from during
    setup, the box afterwards."""
    hands: tuple[tuple[int, ...], ...]
    """Sorted tile numbers per seat."""
    visitors: tuple[tuple[int, int], ...]
    """(spot index, seat) in the order the visitors were placed."""
    seat: int
    """The seat to act (to be dealt to, while dealing)."""
    gap: int
    """During ``place``: the cell the taken tile left empty; otherwise EMPTY."""
    pad: int
    """The tile lying face down on the deal pad, or EMPTY."""


def state_to_json(state: TopiaryState, components: Components) -> dict[str, Any]:
    names = components.tile_names
    size = components.size
    spots = all_spots(size)
    return {
        "players": list(state.players),
        "draft": state.draft,
        "take": "may" if state.optional_take else "must",
        "phase": state.phase,
        "removed": state.removed,
        "grid": [
            None if tile == EMPTY else {"tile": names[tile], "face_up": up}
            for tile, up in zip(state.grid, state.face_up, strict=True)
        ],
        "supply": [names[tile] for tile in state.supply],
        "hands": [[names[tile] for tile in hand] for hand in state.hands],
        "visitors": [{"spot": spots[spot].name, "seat": seat} for spot, seat in state.visitors],
        "seat": state.seat,
        "gap": None if state.gap == EMPTY else cell_name(state.gap, size),
        "pad": None if state.pad == EMPTY else names[state.pad],
    }


def state_from_json(data: Mapping[str, Any], components: Components) -> TopiaryState:
    """Rebuild a state, checking types and that every tile is in exactly one place."""
    if not isinstance(data, Mapping):
        raise BadState("a Topiary state is a JSON object")
    try:
        return _from_json(data, components)
    except (TypeError, KeyError, ValueError, AttributeError) as error:
        raise BadState(f"malformed Topiary state: {error}") from None


def _from_json(data: Mapping[str, Any], components: Components) -> TopiaryState:
    size = components.size
    numbers = {name: number for number, name in enumerate(components.tile_names)}

    def tile(name: Any) -> int:
        if isinstance(name, str) and " " in name:  # a former shape name reads as today's
            shape, _, value = name.partition(" ")
            name = f"{components.current(shape)} {value}"
        if name not in numbers:
            raise ValueError(f"unknown tile {name!r}")
        return numbers[name]

    players = player_names(data["players"])
    n = len(players)
    phase = one_of(data["phase"], "phase", PHASES)
    removed = components.current(data["removed"])
    if removed not in ("", *components.shapes):
        raise ValueError(f"unknown removed shape {removed!r}")
    cells = data["grid"]
    if not isinstance(cells, list) or len(cells) != size * size:
        raise ValueError(f"grid must list {size * size} cells")
    grid = tuple(EMPTY if cell is None else tile(cell["tile"]) for cell in cells)
    face_up = tuple(cell is not None and cell["face_up"] is True for cell in cells)
    hands = tuple(tuple(sorted(tile(name) for name in hand)) for hand in data["hands"])
    supply = tuple(sorted(tile(name) for name in data["supply"]))
    spots = spot_index(size)
    visitors = tuple((spots[v["spot"]], whole(v["seat"], f"visitors[{number}].seat", 0, n - 1))
                     for number, v in enumerate(entries(data["visitors"], "visitors")))
    seat = whole(data["seat"], "seat", 0, n - 1)
    gap = EMPTY if data["gap"] is None else _cell(data["gap"], size)
    pad = EMPTY if data["pad"] is None else tile(data["pad"])
    draft = flag(data["draft"], "draft")
    if len(hands) != n:
        raise ValueError("hands must belong to the players' seats")
    if len({spot for spot, _ in visitors}) != len(visitors):
        raise ValueError("two visitors on one spot")
    placed = [t for t in (*grid, *supply, pad, *sum(hands, ())) if t != EMPTY]
    out = set(components.tiles_of(removed)) if removed else set()
    if len(set(placed)) != len(placed) or set(placed) & out:
        raise ValueError("a tile is in two places, or a removed shape is in play")
    if len(placed) + len(out) != len(components.tiles):
        raise ValueError("tiles are missing")
    take = one_of(data.get("take", "must"), "take", ("must", "may"))
    return TopiaryState(players, draft, take == "may", phase, removed, grid, face_up, supply,
                        hands, visitors, seat, gap, pad)


def _cell(text: Any, size: int) -> int:
    row, col = (int(part) for part in str(text).split(":"))
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"no cell {text!r}")
    return row * size + col
