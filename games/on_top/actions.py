"""On Top's action texts: every form, and every text that can ever be legal.

Enumerated from the components (rhombi, board triangles and circles, start triangles), never
from played games, so the numbering OpenSpiel and search rely on is stable and complete.
"""

from __future__ import annotations

from .components import Components

FILL = "fill"
START = "start"


def draw_text(piece_id: str) -> str:
    """Chance: rhombus ``07`` came out of the bag."""
    return f"draw {piece_id}"


def place_text(a: str, b: str) -> str:
    """Half a on triangle ``a``, half b on its neighbour ``b``."""
    return f"place {a} {b}"


def tower_text(circle: str) -> str:
    """The decided stones are stacked on circle ``circle``."""
    return f"tower {circle}"


def action_texts(components: Components) -> tuple[str, ...]:
    """Every text that can ever be legal, sorted: ``start``, ``fill``, a draw per rhombus, a
    tower per circle and a placement per ordered pair of neighbouring triangles, leaving out
    the pairs touching a start triangle (it is black from the ``start`` step on, before any
    placement). The same for every player count and option: none of them changes the pieces,
    the board or the grammar."""
    geometry = components.geometry
    names = geometry.triangle_names
    start = set(components.start)
    actions = {START, FILL}
    actions.update(draw_text(piece) for piece in components.piece_ids)
    actions.update(tower_text(circle) for circle in geometry.circle_names)
    actions.update(
        place_text(names[a], names[b])
        for a, neighbours in enumerate(geometry.neighbours)
        for b in neighbours
        if a not in start and b not in start
    )
    return tuple(sorted(actions))
