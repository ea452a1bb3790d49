"""Where visitors stand: 56 spots, named by first tile and direction, and the table sites."""

from __future__ import annotations

import pytest

from games.topiary import GAME
from games.topiary.spots import all_spots, is_spot, spot_index

SIZE = 5
NAMES = {spot.name for spot in all_spots(SIZE)}


def spots_from_sides() -> set[str]:
    """The rule as the notes state it: every outer side of every border tile offers three spots
    (straight across, and diagonally through the tile from either end of the side)."""
    found = set()
    sides = {
        "N": ("S", "SE", "SW"),
        "S": ("N", "NE", "NW"),
        "W": ("E", "SE", "NE"),
        "E": ("W", "SW", "NW"),
    }
    for row in range(SIZE):
        for col in range(SIZE):
            outer = [
                side
                for side, on_edge in (
                    ("N", row == 0),
                    ("S", row == SIZE - 1),
                    ("W", col == 0),
                    ("E", col == SIZE - 1),
                )
                if on_edge
            ]
            for side in outer:
                for direction in sides[side]:
                    found.add(f"{row}:{col}:{direction}")
    return found


def test_there_are_56_spots_and_they_are_the_sides_rule() -> None:
    assert len(all_spots(SIZE)) == 56
    assert spots_from_sides() == NAMES


def test_corner_spots_are_counted_once() -> None:
    # The north side and the west side of tile 0:0 both offer the corner spot looking SE.
    assert sum(1 for spot in all_spots(SIZE) if spot.name == "0:0:SE") == 1
    assert {"0:0:SE", "0:4:SW", "4:0:NE", "4:4:NW"} <= NAMES


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("0:2:S", [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)]),
        ("0:0:SE", [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]),
        ("0:3:SE", [(0, 3), (1, 4)]),
        ("2:4:W", [(2, 4), (2, 3), (2, 2), (2, 1), (2, 0)]),
        ("0:0:SW", [(0, 0)]),
        ("4:4:NE", [(4, 4)]),
        ("4:1:NW", [(4, 1), (3, 0)]),
    ],
)
def test_lines_of_sight(name: str, line: list[tuple[int, int]]) -> None:
    spot = all_spots(SIZE)[spot_index(SIZE)[name]]
    assert spot.line == tuple(row * SIZE + col for row, col in line)


@pytest.mark.parametrize(
    "name", ["2:2:S", "0:2:N", "0:2:E", "1:2:S", "0:0:NW", "0:4:NE", "4:0:SW", "5:0:N"]
)
def test_no_spot_inside_or_looking_out(name: str) -> None:
    row, col, direction = name.split(":")
    assert not is_spot(int(row), int(col), direction, SIZE)
    assert name not in NAMES


def test_sites_are_grid_spots_and_deal_pad_with_distinct_places() -> None:
    sites = GAME.sites(4)
    ids = [site.id for site in sites]
    assert len(ids) == len(set(ids)) == 25 + 56 + 1
    assert "pad:deal" in ids
    assert {f"grid:{r}:{c}" for r in range(SIZE) for c in range(SIZE)} <= set(ids)
    assert {f"spot:{name}" for name in NAMES} <= set(ids)
    assert len({(site.x, site.y) for site in sites}) == len(sites)


def test_drawing_puts_row_0_north_and_column_0_west() -> None:
    place = {site.id: (site.x, site.y) for site in GAME.sites(2)}
    assert place["grid:0:0"][1] < place["grid:4:0"][1]
    assert place["grid:0:0"][0] < place["grid:0:4"][0]
    # A visitor stands outside the grid, behind its first tile.
    assert place["spot:0:2:S"][1] < place["grid:0:2"][1]
    assert place["spot:2:4:W"][0] > place["grid:2:4"][0]
