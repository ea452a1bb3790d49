"""Topiary's words for people: shapes, tiles, squares, lines and visitor spots, translatable.

The data file and the action texts name things by id (``trex 5``, ``0:3:SE``); the pages show
them in the reader's language, with the names of that language's box. Each English name is
written out here as a ``Sentence`` so the catalogue check finds it, and ``locale/de.po`` gives
the German. The English renders exactly as the ids read, so score lines and logs stay as they
were; the step, event and score sentences of ``engine.py`` and ``scoring.py`` nest these.
"""

from __future__ import annotations

from games.core.game import Sentence, verbatim
from games.core.grid import cell_name

from .spots import Spot

SHAPES: dict[str, Sentence] = {
    "whale": Sentence("whale"),
    "elephant": Sentence("elephant"),
    "swan": Sentence("swan"),
    "trex": Sentence("trex"),
    "pyramid": Sentence("pyramid"),
    "icosahedron": Sentence("icosahedron"),
    "spiral": Sentence("spiral"),
    "cube": Sentence("cube"),
}
"""The eight shapes (Motiv-Sets) by their ids; ``cube`` is our name for the one no source
names (see data/topiary.toml)."""

DIRECTIONS: dict[str, Sentence] = {
    "N": Sentence("north"),
    "NE": Sentence("north-east"),
    "E": Sentence("east"),
    "SE": Sentence("south-east"),
    "S": Sentence("south"),
    "SW": Sentence("south-west"),
    "W": Sentence("west"),
    "NW": Sentence("north-west"),
}
"""Where a visitor looks, in words."""

SHORT_DIRECTIONS: dict[str, Sentence] = {
    "N": Sentence("N"),
    "NE": Sentence("NE"),
    "E": Sentence("E"),
    "SE": Sentence("SE"),
    "S": Sentence("S"),
    "SW": Sentence("SW"),
    "W": Sentence("W"),
    "NW": Sentence("NW"),
}
"""The compass letters of a spot's short name (``0:3:SE``); German writes O for east."""


def shape(name: str) -> Sentence:
    """A shape's name in the reader's box (``trex`` reads "T-Rex" in German)."""
    return SHAPES.get(name) or verbatim(name)


def tile(shape_name: str, value: int) -> Sentence:
    """A tile, ``swan 4``, with its shape translated."""
    return Sentence("{shape} {value}", {"shape": shape(shape_name), "value": str(value)})


def square(cell: int, size: int) -> Sentence:
    """A square of the garden, ``square 2:3`` (row and column from 0, as the sites)."""
    return Sentence("square {cell}", {"cell": cell_name(cell, size)})


def spot_short(spot: Spot) -> Sentence:
    """A spot's short name, ``0:3:SE`` (as in score lines), with its compass letters."""
    return Sentence("{row}:{col}:{direction}", {
        "row": str(spot.row), "col": str(spot.col),
        "direction": SHORT_DIRECTIONS.get(spot.direction) or verbatim(spot.direction)})


def looking(spot: Spot, size: int) -> Sentence:
    """Where a visitor stands, in words: ``square 0:3, looking south-east``."""
    return Sentence("{square}, looking {direction}", {
        "square": square(spot.row * size + spot.col, size),
        "direction": DIRECTIONS.get(spot.direction) or verbatim(spot.direction)})


def line(spot: Spot, size: int) -> Sentence:
    """The line a visitor looks along: a row, a column or a diagonal (the sheet's three)."""
    if spot.direction in ("E", "W"):
        return Sentence("row {row}", {"row": str(spot.row)})
    if spot.direction in ("N", "S"):
        return Sentence("column {col}", {"col": str(spot.col)})
    return Sentence("the diagonal from {square} towards the {direction}", {
        "square": square(spot.row * size + spot.col, size),
        "direction": DIRECTIONS.get(spot.direction) or verbatim(spot.direction)})
