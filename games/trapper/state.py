"""The Trapper state: an immutable record of the table, serialisable to JSON and back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from games.core.errors import BadState
from games.core.grid import cell_name

from .components import Components
from .display import NONE, Canoe, Display, Sold

EMPTY = -1
PHASES = ("setup", "lay", "deal", "turn", "draw", "over")
"""setup: the chips go into the bank and the trappers onto the centre squares; lay: the
face-down layout, tile by tile in reading order (chance); deal: the starting hands, a card at
a time round the table (chance the table cannot see); turn: a player's turn; draw: the cards
drawn at its end (chance the table cannot see); over: the game has ended."""
CHANCE_PHASES = frozenset({"lay", "deal", "draw"})


class TrapperState(NamedTuple):
    """Immutable: a named tuple of tuples, because playouts build hundreds of thousands.

    Tiles are numbers (see ``components``); cells are ``row * size + col``; cards are counted
    per colour (a hand is a tuple of four counts).
    """

    players: tuple[str, ...]
    choose: bool
    """Option placement=choose: the player says which canoe a tile goes onto (else auto)."""
    values: str
    """Option values: the value set herbs and mushrooms are worth (``Components.worths``)."""
    first_reading: bool
    """Option reading=revision1: rules revision 1 (a canoe laid alone stays loose for good;
    the game ends when everyone still in has passed in a row)."""
    phase: str
    grid: tuple[int, ...]
    """Tile per cell, or EMPTY (never laid, taken, or a trapper stands there)."""
    face_up: tuple[bool, ...]
    supply: tuple[int, ...]
    """Sorted tiles on neither the grid nor a display: not yet laid, later the box."""
    trappers: tuple[int, ...]
    """The cell of each trapper colour (EMPTY before setup)."""
    hands: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    pad: tuple[int, ...]
    """Colours of the cards on the play pad: the last payment of this turn (the pad is cleared
    onto the discard pile when the turn ends)."""
    seat: int
    marker: int
    """The seat whose reader holds the turn marker (EMPTY before setup and once it is over)."""
    trapper: int
    """The colour of the trapper moved this turn (only it may move again), or EMPTY."""
    traded: bool
    """A species chip was traded this turn (one a turn)."""
    draws_left: int
    passes: int
    """Reading revision1 only: passes in a row since the last step (when every player still
    in has passed, the game ends). Always 0 in the box reading."""
    retired: tuple[bool, ...]
    displays: tuple[Display, ...]
    sales: tuple[tuple[Sold, ...], ...]
    """Every canoe each player sold (traded loads included): the lines of their money."""
    bonus: tuple[int, ...]
    """Owner seat of each bonus chip, or EMPTY (in the bank)."""
    species: tuple[int, ...]
    """Owner seat of each species chip, or EMPTY."""


def _colour_counts(counts: tuple[int, ...], components: Components) -> dict[str, int]:
    return dict(zip(components.colours, counts, strict=True))


def display_to_json(display: Display, components: Components) -> dict[str, Any]:
    names = [tile.name for tile in components.tiles]
    return {
        "canoes": [
            {
                "canoe": names[c.canoe],
                "animals": [names[t] for t in c.animals],
                "herb": None if c.herb == NONE else names[c.herb],
                "mushroom": None if c.mushroom == NONE else names[c.mushroom],
            }
            for c in display.canoes
        ],
        "loose": [names[t] for t in display.loose],
        "sold": [sold_to_json(s, components) for s in display.sold],
    }


def sold_to_json(sold: Sold, components: Components) -> dict[str, Any]:
    names = [tile.name for tile in components.tiles]
    return {"canoe": names[sold.canoe], "load": [names[t] for t in sold.load],
            "amount": sold.amount}


def state_to_json(state: TrapperState, components: Components) -> dict[str, Any]:
    names = [tile.name for tile in components.tiles]
    size = components.size
    return {
        "players": list(state.players),
        "placement": "choose" if state.choose else "auto",
        "values": state.values,
        "reading": "revision1" if state.first_reading else "box",
        "phase": state.phase,
        "grid": [
            None if tile == EMPTY else {"tile": names[tile], "face_up": up}
            for tile, up in zip(state.grid, state.face_up, strict=True)
        ],
        "supply": [names[t] for t in state.supply],
        "trappers": {
            colour: None if cell == EMPTY else cell_name(cell, size)
            for colour, cell in zip(components.colours, state.trappers, strict=True)
        },
        "hands": [_colour_counts(hand, components) for hand in state.hands],
        "draw": _colour_counts(state.draw, components),
        "discard": _colour_counts(state.discard, components),
        "pad": [components.colours[c] for c in state.pad],
        "seat": state.seat,
        "marker": None if state.marker == EMPTY else state.marker,
        "trapper": None if state.trapper == EMPTY else components.colours[state.trapper],
        "traded": state.traded,
        "draws_left": state.draws_left,
        "passes": state.passes,
        "retired": list(state.retired),
        "displays": [display_to_json(d, components) for d in state.displays],
        "sales": [[sold_to_json(s, components) for s in sales] for sales in state.sales],
        "bonus": [None if o == EMPTY else o for o in state.bonus],
        "species": [None if o == EMPTY else o for o in state.species],
    }


def state_from_json(data: Mapping[str, Any], components: Components) -> TrapperState:
    if not isinstance(data, Mapping):
        raise BadState("a Trapper state is a JSON object")
    try:
        return _from_json(data, components)
    except (TypeError, KeyError, ValueError, AttributeError, IndexError) as error:
        raise BadState(f"malformed Trapper state: {error}") from None


def _from_json(data: Mapping[str, Any], components: Components) -> TrapperState:
    size = components.size
    numbers = components.numbers
    colours = components.colours

    def tile(name: Any) -> int:
        if name not in numbers:
            raise ValueError(f"unknown tile {name!r}")
        return numbers[name]

    def maybe(name: Any) -> int:
        return NONE if name is None else tile(name)

    def counts(value: Any) -> tuple[int, ...]:
        if set(value) != set(colours):
            raise ValueError(f"card counts must name the colours {', '.join(colours)}")
        result = tuple(int(value[c]) for c in colours)
        if any(v < 0 for v in result):
            raise ValueError("card counts cannot be negative")
        return result

    def cell(text: Any) -> int:
        row, col = (int(part) for part in str(text).split(":"))
        if not (0 <= row < size and 0 <= col < size):
            raise ValueError(f"no cell {text!r}")
        return row * size + col

    def sold(value: Any) -> Sold:
        return Sold(tile(value["canoe"]), tuple(tile(t) for t in value["load"]),
                    int(value["amount"]))

    def owner(value: Any, n: int) -> int:
        if value is None:
            return EMPTY
        if not isinstance(value, int) or not 0 <= value < n:
            raise ValueError("a chip owner is a seat number or null")
        return value

    values = data.get("values", "first_guess")
    if not isinstance(values, str) or values not in components.worths:
        raise ValueError(f"values must be one of {', '.join(components.worths)}, not {values!r}")
    players = tuple(data["players"])
    if not 2 <= len(players) <= 4 or not all(isinstance(p, str) for p in players):
        raise ValueError("players must be 2 to 4 names")
    n = len(players)
    phase = data["phase"]
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    cells = data["grid"]
    if not isinstance(cells, list) or len(cells) != size * size:
        raise ValueError(f"grid must list {size * size} cells")
    grid = tuple(EMPTY if c is None else tile(c["tile"]) for c in cells)
    face_up = tuple(c is not None and c["face_up"] is True for c in cells)
    displays = tuple(
        Display(
            canoes=tuple(
                Canoe(tile(c["canoe"]), tuple(tile(t) for t in c["animals"]),
                      maybe(c["herb"]), maybe(c["mushroom"]))
                for c in d["canoes"]
            ),
            loose=tuple(sorted(tile(t) for t in d["loose"])),
            sold=tuple(sold(s) for s in d["sold"]),
        )
        for d in data["displays"]
    )
    trappers = tuple(
        EMPTY if data["trappers"][c] is None else cell(data["trappers"][c]) for c in colours
    )
    trapper = data["trapper"]
    seat, draws_left, passes = data["seat"], data["draws_left"], data["passes"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (seat, draws_left, passes)):
        raise ValueError("seat, draws_left and passes are whole numbers")
    if not 0 <= draws_left <= components.draw_per_turn:
        raise ValueError(f"draws_left is 0 to {components.draw_per_turn}, not {draws_left}")
    if not 0 <= passes <= len(data["players"]):
        raise ValueError(f"passes is 0 to the number of players, not {passes}")
    if not 0 <= seat < n or len(displays) != n or len(data["hands"]) != n:
        raise ValueError("seat, hands and displays must fit the players")
    retired = tuple(bool(r) for r in data["retired"])
    if len(retired) != n or not isinstance(data["traded"], bool):
        raise ValueError("retired needs one entry per player; traded is true/false")
    state = TrapperState(
        players=players,
        choose={"choose": True, "auto": False}[data["placement"]],
        # states written before these options existed were played under revision 1
        values=values,
        first_reading={"revision1": True, "box": False}[data.get("reading", "revision1")],
        phase=phase,
        grid=grid,
        face_up=face_up,
        supply=tuple(sorted(tile(t) for t in data["supply"])),
        trappers=trappers,
        hands=tuple(counts(h) for h in data["hands"]),
        draw=counts(data["draw"]),
        discard=counts(data["discard"]),
        pad=tuple(colours.index(c) for c in data["pad"]),
        seat=seat,
        marker=owner(data["marker"], n),
        trapper=EMPTY if trapper is None else colours.index(trapper),
        traded=data["traded"],
        draws_left=draws_left,
        passes=passes,
        retired=retired,
        displays=displays,
        sales=tuple(tuple(sold(s) for s in sales) for sales in data["sales"]),
        bonus=tuple(owner(o, n) for o in data["bonus"]),
        species=tuple(owner(o, n) for o in data["species"]),
    )
    _check_conservation(state, components)
    return state


def _check_conservation(state: TrapperState, components: Components) -> None:
    """Every tile in exactly one place, every card counted once."""
    placed = [t for t in state.grid if t != EMPTY] + list(state.supply)
    for display in state.displays:
        placed += list(display.loose)
        for canoe in display.canoes:
            placed += [canoe.canoe, *canoe.tiles()]
        for sold in display.sold:
            placed += [sold.canoe, *sold.load]
    held = {s for d in state.displays for s in d.sold}
    traded = [t for sales in state.sales for s in sales if s not in held
              for t in (s.canoe, *s.load)]
    everything = placed + traded
    if len(set(everything)) != len(everything) or len(everything) != len(components.tiles):
        raise ValueError("every tile must be in exactly one place")
    cards = sum(state.draw) + sum(state.discard) + len(state.pad) + sum(map(sum, state.hands))
    if cards != components.per_colour * len(components.colours):
        raise ValueError("cards are missing or doubled")
    if len(state.bonus) != len(components.bonus_chips) or len(state.species) != len(
        components.species_chips
    ):
        raise ValueError("one owner entry per chip")
