"""Topiary's components, loaded from ``data/topiary.toml`` and validated.

Tiles are small integers (their index in ``Components.tiles``) inside the engine, because
playouts handle them by the thousand; their text forms (``swan 4``, ``topiary:swan:4``) are
computed once here. Tiles are ordered by shape name, then value, so a sorted tuple of tile
numbers lists the tiles in the same order as their sorted text forms.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from games.core.datafile import by_player_count, field, load_toml, whole_numbers, words
from games.core.errors import DataFileError

DATA_FILE = Path(__file__).parent / "data" / "topiary.toml"


@dataclass(frozen=True, slots=True)
class Components:
    name: str
    size: int
    """The grid is size x size tiles."""
    shapes: tuple[str, ...]
    """Sorted by name (the order tiles are numbered in)."""
    assumed_shapes: tuple[str, ...]
    values: tuple[int, ...]
    hand_size: int
    removed_shapes: dict[int, int]
    visitors_per_player: dict[int, int]
    colours: tuple[str, ...]
    tiles: tuple[tuple[str, int], ...]
    """Tile number -> (shape, value)."""
    tile_names: tuple[str, ...]
    """Tile number -> ``swan 4`` (the form used in actions and score lines)."""
    tile_pieces: tuple[str, ...]
    """Tile number -> ``topiary:swan:4`` (the piece id of its tag)."""
    tile_numbers: dict[tuple[str, int], int]
    former_names: dict[str, str]
    """Shape names of earlier data -> today's (still read everywhere, never written)."""

    def current(self, shape: object) -> object:
        """Today's name of ``shape`` (a former name is mapped; anything else is returned)."""
        return self.former_names.get(shape, shape) if isinstance(shape, str) else shape

    def tiles_of(self, shape: str) -> tuple[int, ...]:
        return tuple(self.tile_numbers[shape, value] for value in self.values)


@cache
def load_components(path: Path = DATA_FILE) -> Components:
    """Read and check the data file; every error names the file and the field."""
    where = str(path)
    data = load_toml(path)
    grid = field(data, "grid", dict, where)
    size = field(grid, "size", int, where)
    if size < 3 or size % 2 == 0:
        raise DataFileError(f"{where}: grid.size must be odd and at least 3 (it has a centre)")

    tiles_table = field(data, "tiles", dict, where)
    values = whole_numbers(data, "tiles.values", where, 1, 9)
    if list(values) != sorted(set(values)):
        raise DataFileError(f"{where}: tiles.values must be increasing without repeats")
    shapes = tuple(sorted(words(data, "tiles.shapes", where)))
    assumed = words(data, "tiles.assumed_shapes", where, may_be_empty=True)
    if not set(assumed) <= set(shapes):
        raise DataFileError(f"{where}: assumed_shapes must be among the shapes")

    setup = field(data, "setup", dict, where)
    hand_size = field(setup, "hand_size", int, where)
    former = field(tiles_table, "former_names", dict, where)
    if not all(isinstance(old, str) and new in shapes and old not in shapes
               for old, new in former.items()):
        raise DataFileError(f"{where}: former_names must map old names to today's shapes")
    removed = by_player_count(data, "setup.removed_shapes", where, 0, 1,
                              what="the shapes taken out")

    per_player = by_player_count(data, "visitors.per_player", where, 1, what="visitors")
    colours = words(data, "visitors.colours", where)
    if len(colours) < 4:
        raise DataFileError(f"{where}: visitors.colours must name a colour for each of 4 seats")

    cells = size * size
    for players in (2, 3, 4):
        in_play = (len(shapes) - removed[players]) * len(values)
        if in_play < cells + players * hand_size:
            raise DataFileError(
                f"{where}: {in_play} tiles cannot fill the {size}x{size} grid and deal "
                f"{hand_size} to each of {players} players"
            )

    tiles = tuple((shape, value) for shape in shapes for value in values)
    return Components(
        name=field(data, "name", str, where),
        size=size,
        shapes=shapes,
        assumed_shapes=assumed,
        values=tuple(values),
        hand_size=hand_size,
        removed_shapes=removed,
        visitors_per_player=per_player,
        colours=colours,
        tiles=tiles,
        tile_names=tuple(f"{shape} {value}" for shape, value in tiles),
        tile_pieces=tuple(f"topiary:{shape}:{value}" for shape, value in tiles),
        tile_numbers={tile: number for number, tile in enumerate(tiles)},
        former_names=dict(former),
    )
