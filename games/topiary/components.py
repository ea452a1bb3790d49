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

from games.core.datafile import field, load_toml
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


def _player_counts(table: dict[str, object], key: str, where: str) -> dict[int, int]:
    raw = field(table, key, dict, where)
    try:
        counts = {int(k): v for k, v in raw.items()}
    except ValueError:
        raise DataFileError(f"{where}: {key} keys must be player counts 2, 3, 4") from None
    if sorted(counts) != [2, 3, 4] or any(
        not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in counts.values()
    ):
        raise DataFileError(f"{where}: {key} must give a whole number for 2, 3 and 4 players")
    return counts


def _words(values: list[object], what: str, where: str) -> tuple[str, ...]:
    if not all(isinstance(v, str) and v.isalpha() and v.islower() for v in values):
        raise DataFileError(f"{where}: {what} must be lower-case words, got {values}")
    if len(set(values)) != len(values):
        raise DataFileError(f"{where}: {what} must not repeat, got {values}")
    return tuple(values)  # type: ignore[arg-type]


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
    values = field(tiles_table, "values", list, where)
    if not values or not all(isinstance(v, int) and 1 <= v <= 9 for v in values):
        raise DataFileError(f"{where}: tiles.values must be numbers 1 to 9")
    if values != sorted(set(values)):
        raise DataFileError(f"{where}: tiles.values must be increasing without repeats")
    shapes = tuple(sorted(_words(field(tiles_table, "shapes", list, where), "shapes", where)))
    assumed = _words(field(tiles_table, "assumed_shapes", list, where), "assumed_shapes", where)
    if not set(assumed) <= set(shapes):
        raise DataFileError(f"{where}: assumed_shapes must be among the shapes")

    setup = field(data, "setup", dict, where)
    hand_size = field(setup, "hand_size", int, where)
    former = field(tiles_table, "former_names", dict, where)
    if not all(isinstance(old, str) and new in shapes and old not in shapes
               for old, new in former.items()):
        raise DataFileError(f"{where}: former_names must map old names to today's shapes")
    removed = _player_counts(setup, "removed_shapes", where)
    if any(v > 1 for v in removed.values()):
        raise DataFileError(f"{where}: setup.removed_shapes may be 0 or 1 per player count")

    visitors = field(data, "visitors", dict, where)
    per_player = _player_counts(visitors, "per_player", where)
    if any(v < 1 for v in per_player.values()):
        raise DataFileError(f"{where}: visitors.per_player must be at least 1")
    colours = _words(field(visitors, "colours", list, where), "visitors.colours", where)
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
