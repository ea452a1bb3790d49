"""The triangular board of On Top: triangles, grid points, circles and how they touch.

The board is a hexagon cut from a big triangle of the triangular grid (sides a, b, c, a, b, c
cut from a triangle of side a + b + c by removing corner triangles of sides a, c and b). Grid
points are lattice points (i, j); point row i is drawn i rows down, so rows of points and strips
of triangles run horizontally. A triangle is named ``R:C``: strip R (0 at the top) and its
place C in the strip from the left; a circle is named by its grid point, ``R:C`` (point row R,
place C in the row from the left). Everything here is computed once per board size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from games.core.game import Site

PITCH = 1.6
"""Drawing length of a triangle side (y down). The pages draw each site as a square of about
0.8 units, so neighbouring sites (a triangle's centroid and the next, or a circle's point, are
PITCH / sqrt(3) = 0.92 apart) stay clear of each other."""
MARGIN = 0.0
PAD_SITE = "pad:draw"
"""A reader beside the board: the drawn rhombus is laid there, a-half over the reader."""

Point = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Geometry:
    triangles: tuple[tuple[Point, Point, Point], ...]
    """Per triangle its three corner points, in a fixed order."""
    triangle_names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    """Triangles sharing a side with each triangle."""
    points: tuple[Point, ...]
    point_names: tuple[str, ...]
    circles: tuple[int, ...]
    """Point indices of the circles (interior grid points), in name order."""
    circle_names: tuple[str, ...]
    circle_wedges: tuple[tuple[tuple[int, int], ...], ...]
    """Per circle its six (triangle, corner) wedges."""
    circles_of_triangle: tuple[tuple[int, ...], ...]
    """Per triangle the circles (indices into ``circles``) it is part of."""
    gold: tuple[bool, ...]
    """Per circle: on the gold ring (next to the border)."""

    def triangle(self, name: str) -> int:
        return self.triangle_names.index(name)


def _xy(point: Point) -> tuple[float, float]:
    """Drawing position (y down) of a grid point."""
    i, j = point
    return (j + i / 2) * PITCH, i * PITCH * math.sqrt(3) / 2


@cache
def build(a: int, b: int, c: int) -> Geometry:
    """The hexagon with sides a, b, c, a, b, c: a and b slanted, c the top and bottom side
    (the strips of triangles run parallel to c)."""
    raw = _triangles(a, b, c)
    names = _names_in_rows([min(p[0] for p in corners) for corners in raw])
    points = sorted({p for t in raw for p in t}, key=lambda p: (p[0], p[1]))
    point_names = _names_in_rows([i for i, _j in points])
    wedges_at: dict[Point, list[tuple[int, int]]] = {}
    for number, corners in enumerate(raw):
        for k, p in enumerate(corners):
            wedges_at.setdefault(p, []).append((number, k))
    interior = [n for n, p in enumerate(points) if len(wedges_at[p]) == 6]
    interior_set = {points[n] for n in interior}
    circles_of: list[list[int]] = [[] for _ in raw]
    circle_wedges = []
    for index, n in enumerate(interior):
        p = points[n]
        circle_wedges.append(tuple(sorted(wedges_at[p])))
        for triangle, _k in wedges_at[p]:
            circles_of[triangle].append(index)
    return Geometry(
        triangles=tuple(raw),
        triangle_names=tuple(names),
        neighbours=_neighbours(raw),
        points=tuple(points),
        point_names=tuple(point_names),
        circles=tuple(interior),
        circle_names=tuple(point_names[n] for n in interior),
        circle_wedges=tuple(circle_wedges),
        circles_of_triangle=tuple(tuple(sorted(c)) for c in circles_of),
        gold=tuple(_on_gold_ring(points[n], interior_set) for n in interior),
    )


def _triangles(a: int, b: int, c: int) -> list[tuple[Point, Point, Point]]:
    """The board's triangles (corner points), strip by strip from the top, left to right."""
    size = a + b + c
    cut_origin, cut_i, cut_j = a, c, b

    def inside(point: Point) -> bool:
        i, j = point
        return (
            i >= 0
            and j >= 0
            and i + j <= size
            and i + j >= cut_origin
            and i <= size - cut_i
            and j <= size - cut_j
        )

    raw: list[tuple[Point, Point, Point]] = []
    for i in range(size + 1):
        for j in range(size + 1):
            for corners in (
                ((i, j), (i + 1, j), (i, j + 1)),
                ((i + 1, j), (i, j + 1), (i + 1, j + 1)),
            ):
                if all(inside(p) for p in corners):
                    raw.append(corners)

    def centroid(corners: tuple[Point, Point, Point]) -> tuple[float, float]:
        xs, ys = zip(*(_xy(p) for p in corners), strict=True)
        return sum(xs) / 3, sum(ys) / 3

    raw.sort(key=lambda t: (min(p[0] for p in t), centroid(t)[0]))
    return raw


def _names_in_rows(rows: list[int]) -> list[str]:
    """``R:C`` for things listed row by row, left to right: C counts within row R."""
    names = []
    counter: dict[int, int] = {}
    for row in rows:
        names.append(f"{row}:{counter.get(row, 0)}")
        counter[row] = counter.get(row, 0) + 1
    return names


def _neighbours(raw: list[tuple[Point, Point, Point]]) -> tuple[tuple[int, ...], ...]:
    """Per triangle the triangles sharing a side with it, sorted."""
    index_of_edge: dict[frozenset[Point], list[int]] = {}
    for number, corners in enumerate(raw):
        for k in range(3):
            edge = frozenset((corners[k], corners[(k + 1) % 3]))
            index_of_edge.setdefault(edge, []).append(number)
    neighbours: list[list[int]] = [[] for _ in raw]
    for owners in index_of_edge.values():
        if len(owners) == 2:
            first, second = owners
            neighbours[first].append(second)
            neighbours[second].append(first)
    return tuple(tuple(sorted(n)) for n in neighbours)


def _on_gold_ring(point: Point, interior: set[Point]) -> bool:
    """A circle is gold when a grid point next to it is on the border (not a circle)."""
    i, j = point
    around = [(i, j + 1), (i, j - 1), (i + 1, j), (i - 1, j), (i + 1, j - 1), (i - 1, j + 1)]
    return any(q not in interior for q in around)


def triangle_site(name: str) -> str:
    return f"tri:{name}"


def circle_site(name: str) -> str:
    return f"circle:{name}"


@cache
def table_sites(a: int, b: int, c: int) -> tuple[Site, ...]:
    """A site per triangle at its centroid, a site per circle at its grid point, the pad."""
    geometry = build(a, b, c)
    xs = [_xy(p)[0] for p in geometry.points]
    left = min(xs) - MARGIN
    sites = []
    for name, corners in zip(geometry.triangle_names, geometry.triangles, strict=True):
        x = sum(_xy(p)[0] for p in corners) / 3 - left
        y = sum(_xy(p)[1] for p in corners) / 3 + MARGIN
        sites.append(Site(triangle_site(name), round(x, 3), round(y, 3), f"triangle {name}"))
    for number, name in zip(geometry.circles, geometry.circle_names, strict=True):
        x, y = _xy(geometry.points[number])
        gold = geometry.gold[geometry.circle_names.index(name)]
        label = f"circle {name}{' (gold)' if gold else ''}"
        sites.append(Site(circle_site(name), round(x - left, 3), round(y + MARGIN, 3), label,
                          stacks=True, pile=True))  # a tower: its stones in order
    width = max(xs) - left + MARGIN
    height = max(_xy(p)[1] for p in geometry.points) + MARGIN
    sites.append(Site(PAD_SITE, round(width + PITCH, 3), round(height / 2, 3), "draw pad"))
    return tuple(sites)
