"""The On Top state: an immutable record of the table, serialisable to JSON and back."""

from __future__ import annotations

from typing import NamedTuple

PHASES = ("setup", "draw", "place", "fill", "tower", "over")
"""setup: the black triangles go on the start triangles; draw: the next rhombus comes out of
the bag onto the draw pad (chance); place: the player lays it; fill: black triangles go into
the holes no rhombus can fill; tower: stones go onto a closed circle (one step per circle, in
the order they were closed); over: the game has ended."""

EMPTY = -1
BLACK = -2
NEUTRAL = -1
"""A wedge no colour counts in: an empty or black triangle, or (option neutral=off) a colour
nobody plays."""


class OnTopState(NamedTuple):
    """Immutable: a named tuple of tuples, because playouts build hundreds of thousands.

    Triangles, circles and pieces are numbers (see ``geometry`` and ``components``).
    """

    players: tuple[str, ...]
    partners: bool
    first_reading: bool
    """Option reading=revision1: the first piece data and 21 stones (rules revision 1)."""
    neutral: bool
    """Option neutral=on with 2-3 players: the colours nobody plays count in circles and place
    neutral stones (seat numbers from len(players) up are those colours)."""
    sudden_win: bool
    """Option sudden_win=last_stone: the first to place their last stone wins at once."""
    phase: str
    seat: int
    """The seat whose turn it is (also during the chance draw for that seat)."""
    bag: tuple[int, ...]
    """Sorted: the rhombi still in the bag."""
    drawn: int
    """The rhombus on the draw pad, or EMPTY."""
    cells: tuple[int, ...]
    """Per triangle: EMPTY, BLACK, or piece * 2 + half (0: half a, 1: half b)."""
    wedges: tuple[int, ...]
    """Per triangle corner (triangle * 3 + corner): the seat whose colour lies there, or
    NEUTRAL. Derived from ``cells`` and kept for speed."""
    black_left: int
    towers: tuple[tuple[int, tuple[int, ...]], ...]
    """(circle, seats bottom to top) for every circle that got stones, in closing order."""
    built: int
    """How many of ``towers`` stand on the table; the rest are still to be built."""
    stones_left: tuple[int, ...]
    """Per counted colour: the players' seats first, then the neutral colours (if any)."""
