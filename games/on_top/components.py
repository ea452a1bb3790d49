"""On Top's components, loaded from ``data/on_top.toml`` and validated.

Pieces are numbers 0..33 inside the engine (their text form is the two-digit id ``07``);
colours are seat numbers 0..3 (a segment of a colour nobody plays counts for nobody).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from games.core.datafile import field, load_toml, whole_number, whole_numbers, words
from games.core.errors import DataFileError

from .geometry import Geometry, build

DATA_FILE = Path(__file__).parent / "data" / "on_top.toml"


@dataclass(frozen=True, slots=True)
class Components:
    name: str
    sides: tuple[int, int, int]
    geometry: Geometry
    start: tuple[int, ...]
    """Triangle numbers of the start triangles (black from the beginning)."""
    black_triangles: int
    stones_per_player: int
    colours: tuple[str, ...]
    piece_ids: tuple[str, ...]
    """Piece number -> ``07``."""
    segments: tuple[tuple[int, ...], ...]
    """Piece number -> six colour numbers, counterclockwise from half a's sharp corner (a wide
    corner is two segments of one colour)."""
    revision1: tuple[int, tuple[tuple[int, ...], ...]]
    """Stones per player and segments as rules revision 1 had them (option reading)."""

    def as_read(self, reading: str) -> Components:
        """The components the option ``reading`` plays with (``box`` or ``revision1``)."""
        if reading == "box":
            return self
        stones, segments = self.revision1
        return replace(self, stones_per_player=stones, segments=segments)


@cache
def load_components(path: Path = DATA_FILE) -> Components:
    """Read and check the data file; every error names the file and the field."""
    where = str(path)
    data = load_toml(path)
    sides = whole_numbers(data, "board.sides", where, 1, 9, length=3)
    geometry = build(*sides)
    start_names = field(data, "board.start", list, where)
    for name in start_names:
        if name not in geometry.triangle_names:
            raise DataFileError(f"{where}: board.start names no triangle: {name!r}")
    if len(set(start_names)) != len(start_names) or not start_names:
        raise DataFileError(f"{where}: board.start must name one or more different triangles")
    start = tuple(geometry.triangle(name) for name in start_names)

    black = field(data, "supply.black_triangles", int, where)
    if black < len(start):
        raise DataFileError(f"{where}: supply.black_triangles must cover the start triangles")
    stones = whole_number(data, "supply.stones_per_player", where, 1)
    colours = words(data, "supply.colours", where, count=4)

    pieces = field(data, "pieces", dict, where)
    ids = sorted(pieces)
    if not ids or ids != [f"{k:02d}" for k in range(1, len(ids) + 1)]:
        raise DataFileError(f"{where}: pieces must be numbered 01, 02, ... without gaps")
    segments = []
    for piece in ids:
        corners = pieces[piece]
        if (not isinstance(corners, list) or len(corners) != 4
                or sorted(map(str, corners)) != sorted(colours)):
            raise DataFileError(
                f"{where}: pieces.{piece} must name the four corner colours, each of "
                f"{', '.join(colours)} once (every rhombus shows each colour once), not "
                f"{corners!r}"
            )
        sharp_a, wide_1, sharp_b, wide_2 = (colours.index(c) for c in corners)
        segments.append((sharp_a, wide_1, wide_1, sharp_b, wide_2, wide_2))
    old_stones = whole_number(data, "revision1.stones_per_player", where, 1)
    old_pieces = field(data, "revision1.pieces", dict, where)
    if sorted(old_pieces) != ids:
        raise DataFileError(f"{where}: revision1.pieces must list the pieces {ids[0]}..{ids[-1]}")
    old_segments = []
    for piece in ids:
        colouring = old_pieces[piece]
        if (
            not isinstance(colouring, list)
            or len(colouring) != 6
            or any(colour not in colours for colour in colouring)
        ):
            raise DataFileError(f"{where}: revision1.pieces.{piece} must list 6 segment "
                                f"colours among {', '.join(colours)}")
        old_segments.append(tuple(colours.index(colour) for colour in colouring))
    if 2 * len(ids) + len(start) > len(geometry.triangles):
        raise DataFileError(f"{where}: {len(ids)} rhombi do not fit on the board")
    return Components(
        name=field(data, "name", str, where),
        sides=(sides[0], sides[1], sides[2]),
        geometry=geometry,
        start=start,
        black_triangles=black,
        stones_per_player=stones,
        colours=tuple(colours),
        piece_ids=tuple(ids),
        segments=tuple(segments),
        revision1=(old_stones, tuple(old_segments)),
    )
