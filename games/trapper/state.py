"""The Trapper state: an immutable record of the table, serialisable to JSON and back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from games.core.errors import BadState
from games.core.grid import cell_name
from games.core.state_fields import entries, flag, one_of, player_names, whole

from .components import Components
from .display import NONE, Canoe, Display, Sold

EMPTY = -1
PHASES = ("setup", "lay", "deal", "turn", "draw", "over")
"""setup: the chips go into the bank and the trappers onto the centre squares; lay: the
face-down layout, tile by tile in reading order (chance); deal: the starting hands, a card at
a time round the table (chance the table cannot see); turn: a player's turn; draw: the cards
drawn at its end (chance the table cannot see); over: the game has ended."""
CHANCE_PHASES = frozenset({"lay", "deal", "draw"})
T = TypeVar("T")


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
    players = player_names(data["players"])
    n = len(players)
    read = _Reader(components, n)
    grid, face_up = read.grid(data["grid"])
    hands = read.per_seat(data, "hands", read.counts)
    retired = read.per_seat(data, "retired", flag)
    displays = read.per_seat(data, "displays", read.display)
    state = TrapperState(
        players=players,
        choose=one_of(data["placement"], "placement", ("choose", "auto")) == "choose",
        # states written before these options existed were played under revision 1
        values=one_of(data.get("values", "first_guess"), "values", tuple(components.worths)),
        first_reading=one_of(data.get("reading", "revision1"), "reading",
                             ("box", "revision1")) == "revision1",
        phase=one_of(data["phase"], "phase", PHASES),
        grid=grid,
        face_up=face_up,
        supply=tuple(sorted(read.tiles(data["supply"], "supply"))),
        trappers=read.trappers(data["trappers"]),
        hands=hands,
        draw=read.counts(data["draw"], "draw"),
        discard=read.counts(data["discard"], "discard"),
        pad=tuple(read.colour(c, f"pad[{index}]")
                  for index, c in enumerate(entries(data["pad"], "pad"))),
        seat=whole(data["seat"], "seat", 0, n - 1),
        marker=read.owner(data["marker"], "marker"),
        trapper=EMPTY if data["trapper"] is None else read.colour(data["trapper"], "trapper"),
        traded=flag(data["traded"], "traded"),
        draws_left=whole(data["draws_left"], "draws_left", 0, components.draw_per_turn),
        passes=whole(data["passes"], "passes", 0, n),
        retired=retired,
        displays=displays,
        sales=read.per_seat(data, "sales", read.sales),
        bonus=read.owners(data["bonus"], "bonus"),
        species=read.owners(data["species"], "species"),
    )
    _check_conservation(state, components)
    return state


@dataclass(frozen=True, slots=True)
class _Reader:
    """Reads the JSON names of tiles, cells, colours and seats back into the engine's numbers,
    each error naming the field."""

    components: Components
    seats: int

    def per_seat(self, data: Mapping[str, Any], key: str,
                 read: Callable[[Any, str], T]) -> tuple[T, ...]:
        """``data[key]``: one entry per player, each read by ``read``."""
        values = entries(data[key], key)
        if len(values) != self.seats:
            raise BadState(f"{key} needs one entry per player, not {len(values)}")
        return tuple(read(value, f"{key}[{seat}]") for seat, value in enumerate(values))

    def tile(self, name: Any, what: str) -> int:
        numbers = self.components.numbers
        if not isinstance(name, str) or name not in numbers:
            raise BadState(f"{what}: unknown tile {name!r}")
        return numbers[name]

    def tiles(self, names: Any, what: str) -> tuple[int, ...]:
        return tuple(self.tile(name, what) for name in entries(names, what))

    def maybe(self, name: Any, what: str) -> int:
        return NONE if name is None else self.tile(name, what)

    def colour(self, name: Any, what: str) -> int:
        return self.components.colours.index(one_of(name, what, self.components.colours))

    def counts(self, value: Any, what: str) -> tuple[int, ...]:
        """Cards counted per colour."""
        colours = self.components.colours
        if not isinstance(value, Mapping) or set(value) != set(colours):
            raise BadState(f"{what}: card counts must name the colours {', '.join(colours)}")
        return tuple(whole(value[c], f"{what}.{c}") for c in colours)

    def cell(self, text: Any, what: str) -> int:
        size = self.components.size
        row, col = (int(part) for part in str(text).split(":"))
        if not (0 <= row < size and 0 <= col < size):
            raise BadState(f"{what}: no cell {text!r}")
        return row * size + col

    def grid(self, cells: Any) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """The tile on each cell (EMPTY for none) and whether it lies face up."""
        size = self.components.size
        if not isinstance(cells, list) or len(cells) != size * size:
            raise BadState(f"grid must list {size * size} cells")
        grid = tuple(EMPTY if c is None else self.tile(c["tile"], f"grid[{index}]")
                     for index, c in enumerate(cells))
        face_up = tuple(c is not None and flag(c["face_up"], f"grid[{index}].face_up")
                        for index, c in enumerate(cells))
        return grid, face_up

    def trappers(self, cells: Any) -> tuple[int, ...]:
        """The cell of each trapper colour (EMPTY before setup)."""
        return tuple(EMPTY if cells[c] is None else self.cell(cells[c], f"trappers.{c}")
                     for c in self.components.colours)

    def display(self, value: Any, what: str) -> Display:
        canoes = tuple(
            Canoe(self.tile(c["canoe"], what), self.tiles(c["animals"], what),
                  self.maybe(c["herb"], what), self.maybe(c["mushroom"], what))
            for c in entries(value["canoes"], f"{what}.canoes")
        )
        return Display(canoes=canoes, loose=tuple(sorted(self.tiles(value["loose"], what))),
                       sold=self.sales(value["sold"], f"{what}.sold"))

    def sales(self, value: Any, what: str) -> tuple[Sold, ...]:
        return tuple(self.sold(sold, f"{what}[{index}]")
                     for index, sold in enumerate(entries(value, what)))

    def sold(self, value: Any, what: str) -> Sold:
        return Sold(self.tile(value["canoe"], what), self.tiles(value["load"], what),
                    whole(value["amount"], f"{what}.amount"))

    def owner(self, value: Any, what: str) -> int:
        """A chip's or the turn marker's seat, or EMPTY for null."""
        return EMPTY if value is None else whole(value, what, 0, self.seats - 1)

    def owners(self, values: Any, what: str) -> tuple[int, ...]:
        return tuple(self.owner(value, f"{what}[{index}]")
                     for index, value in enumerate(entries(values, what)))


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
