"""Where visitors stand: the spots around the grid, their lines of sight, and the table sites.

A spot is named by the first tile its visitor looks at and the direction it looks in:
``0:2:S`` stands north of tile row 0, column 2 and looks south down column 2. Every outer side
of every border tile offers three spots (straight across, and diagonally through the tile from
either end of the side). Naming a spot by (first tile, direction) makes the two spots that meet
at a grid corner one and the same, which leaves 56 spots on a 5x5 grid. A spot is exactly a
pair whose first tile is on the grid while the square one step behind the visitor is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.core.game import Site

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (-1, 0),
    "NE": (-1, 1),
    "E": (0, 1),
    "SE": (1, 1),
    "S": (1, 0),
    "SW": (1, -1),
    "W": (0, -1),
    "NW": (-1, -1),
}
"""Direction name -> (row step, column step); row 0 is north, column 0 is west."""

PAD_SITE = "pad:deal"
"""A reader beside the grid: hand tiles are dealt (and passed in the draft) across it, face
down, so the table knows who holds what."""

PITCH = 100.0
"""Drawing distance between tile centres (site coordinates are in these units, y down)."""


@dataclass(frozen=True, slots=True)
class Spot:
    row: int
    col: int
    direction: str
    line: tuple[int, ...]
    """The cells (row * size + col) the visitor looks along, nearest first."""

    @property
    def name(self) -> str:
        return f"{self.row}:{self.col}:{self.direction}"

    @property
    def site(self) -> str:
        return f"spot:{self.name}"


def on_grid(row: int, col: int, size: int) -> bool:
    return 0 <= row < size and 0 <= col < size


def centre_cell(size: int) -> int:
    """The centre of the (odd-sized) grid: its tile is laid face up and stays so."""
    return (size * size) // 2


def cell_site(cell: int, size: int) -> str:
    return f"grid:{cell // size}:{cell % size}"


def is_spot(row: int, col: int, direction: str, size: int) -> bool:
    """A visitor can stand there: the first tile is on the grid, the square behind it is not."""
    if direction not in DIRECTIONS or not on_grid(row, col, size):
        return False
    step_row, step_col = DIRECTIONS[direction]
    return not on_grid(row - step_row, col - step_col, size)


@cache
def all_spots(size: int) -> tuple[Spot, ...]:
    """Every spot, sorted by name (the order of the ``visitor`` actions)."""
    spots = []
    for row in range(size):
        for col in range(size):
            for direction, (step_row, step_col) in DIRECTIONS.items():
                if not is_spot(row, col, direction, size):
                    continue
                line = []
                r, c = row, col
                while on_grid(r, c, size):
                    line.append(r * size + c)
                    r, c = r + step_row, c + step_col
                spots.append(Spot(row, col, direction, tuple(line)))
    return tuple(sorted(spots, key=lambda spot: spot.name))


@cache
def spot_index(size: int) -> dict[str, int]:
    """Spot name (``0:2:S``) -> its index in ``all_spots``."""
    return {spot.name: index for index, spot in enumerate(all_spots(size))}


def _tile_centre(row: int, col: int) -> tuple[float, float]:
    return (PITCH * (col + 1.5), PITCH * (row + 1.5))


@cache
def table_sites(size: int) -> tuple[Site, ...]:
    """Grid sites, spot sites, the deal pad; a spot is drawn just behind its first tile."""
    sites = []
    for row in range(size):
        for col in range(size):
            x, y = _tile_centre(row, col)
            sites.append(Site(f"grid:{row}:{col}", x, y, f"tile {row}:{col}"))
    for spot in all_spots(size):
        x, y = _tile_centre(spot.row, spot.col)
        step_row, step_col = DIRECTIONS[spot.direction]
        back = 0.85 if step_row == 0 or step_col == 0 else 0.75
        sites.append(
            Site(
                spot.site,
                round(x - back * PITCH * step_col, 1),
                round(y - back * PITCH * step_row, 1),
                f"visitor at {spot.row}:{spot.col} looking {spot.direction}",
            )
        )
    sites.append(Site(PAD_SITE, PITCH * (size + 3), PITCH * (size / 2 + 1), "deal pad"))
    return tuple(sites)
