"""The ASSUMED hexagon: 78 triangles in six strips, 29 circles (16 on the gold ring), and
rhombus placements whose six segments land on the right corners."""

from __future__ import annotations

from collections import Counter

from games.on_top import GAME
from games.on_top.geometry import build

GEOMETRY = GAME.geometry


def test_the_hexagon_has_78_triangles_in_six_strips() -> None:
    assert len(GEOMETRY.triangles) == 78 == 34 * 2 + 10
    strips = Counter(name.split(":")[0] for name in GEOMETRY.triangle_names)
    assert [strips[str(r)] for r in range(6)] == [11, 13, 15, 15, 13, 11]


def test_other_sides_give_the_formula_count() -> None:
    for a, b, c in [(1, 1, 1), (2, 3, 4), (3, 3, 3)]:
        assert len(build(a, b, c).triangles) == 2 * (a * b + b * c + c * a)


def test_neighbours_share_a_side_both_ways() -> None:
    for t, neighbours in enumerate(GEOMETRY.neighbours):
        assert 1 <= len(neighbours) <= 3
        for u in neighbours:
            assert t in GEOMETRY.neighbours[u]
            shared = set(GEOMETRY.triangles[t]) & set(GEOMETRY.triangles[u])
            assert len(shared) == 2


def test_circles_are_the_inner_grid_points_with_a_gold_ring() -> None:
    assert len(GEOMETRY.circles) == 29
    assert sum(GEOMETRY.gold) == 16
    inner = [name for name, gold in zip(GEOMETRY.circle_names, GEOMETRY.gold, strict=True)
             if not gold]
    assert inner == ["2:2", "2:3", "2:4", "2:5", "3:2", "3:3", "3:4", "3:5", "3:6",
                     "4:2", "4:3", "4:4", "4:5"]
    for wedges in GEOMETRY.circle_wedges:
        assert len({t for t, _ in wedges}) == 6


def test_sites_one_per_triangle_circle_and_the_pad() -> None:
    sites = GAME.sites(4)
    names = [site.id for site in sites]
    assert len(names) == len(set(names)) == 78 + 29 + 1
    assert "pad:draw" in names
    by_name = {site.id: site for site in sites}
    # a strip is drawn left to right at one height per pointing direction
    assert by_name["tri:0:0"].x < by_name["tri:0:1"].x < by_name["tri:0:2"].x
    assert by_name["tri:0:0"].y < by_name["tri:1:0"].y
    # a circle is drawn at the point its six triangles share
    circle = by_name["circle:3:4"]
    around = [by_name[f"tri:{GEOMETRY.triangle_names[t]}"] for t, _ in
              GEOMETRY.circle_wedges[GEOMETRY.circle_names.index("3:4")]]
    assert abs(sum(s.x for s in around) / 6 - circle.x) < 1
    assert abs(sum(s.y for s in around) / 6 - circle.y) < 1


def test_each_placement_covers_the_six_corners_of_its_two_triangles() -> None:
    for _text, a, b, _touching, slots in GAME.placements:
        corners = [a * 3 + k for k in range(3)] + [b * 3 + k for k in range(3)]
        assert sorted(slots) == sorted(corners)
        point = [GEOMETRY.triangles[s // 3][s % 3] for s in slots]
        assert point[1] == point[2] and point[4] == point[5]  # the two wide corners
        assert point[0] not in GEOMETRY.triangles[b] and point[3] not in GEOMETRY.triangles[a]


def test_turning_a_rhombus_round_turns_its_segments_by_half() -> None:
    slots = {(a, b): s for _text, a, b, _touching, s in GAME.placements}
    for (a, b), forward in slots.items():
        assert slots[b, a] == forward[3:] + forward[:3]
