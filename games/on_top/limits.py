"""On Top's limits: provable bounds on the length of a game and on scores."""

from __future__ import annotations

from games.core.game import Limits

from .actions import action_texts
from .components import Components
from .scoring import UNPLACED_PENALTY


def max_steps(components: Components) -> int:
    """An upper bound on the steps of a game, for any player count.

    1 ``start``; then per turn one ``draw`` and one ``place`` (a draw always has a place: the
    game ends before a draw when no rhombus fits). Turns are at most the rhombi in the bag and
    at most the free triangles over 2. A ``fill`` step follows a placement and lays at least
    one black triangle (it is only called for when a hole exists and black ones are left), so
    there are at most (black triangles - start triangles) of them, and at most one per turn.
    A ``tower`` step builds one decided tower; a circle is decided when its last triangle is
    covered, which happens once, so there are at most as many as circles.
    """
    geometry = components.geometry
    free = len(geometry.triangles) - len(components.start)
    turns = min(len(components.piece_ids), free // 2)
    fills = min(components.black_triangles - len(components.start), turns)
    towers = len(geometry.circles)
    return 1 + 2 * turns + fills + towers


def score_range(components: Components, counted: int) -> tuple[int, int]:
    """The lowest and highest total one player can have, running or final.

    Towers only add points, to the player on top, so a total is at least the end penalty of a
    player who placed no stone: -2 x stones per player. A tower holds at most one stone per
    counted colour (the players', and the neutral colours with option neutral=on), and at most
    (wedges at the circle - 1): with stones under it the top has 2 wedges or
    more and every second at least 1. It scores its stones, doubled on the gold ring. Every
    tower a player tops uses one of their stones, so at best they top their stones' worth of
    the most valuable circles, each with the fullest tower; the penalty only lowers that.
    (The partner game adds up two totals for the win, but each player's own total stays here.)
    """
    geometry = components.geometry
    values = sorted(
        (
            min(counted, len(wedges) - 1) * (2 if gold else 1)
            for wedges, gold in zip(geometry.circle_wedges, geometry.gold, strict=True)
        ),
        reverse=True,
    )
    low = -UNPLACED_PENALTY * components.stones_per_player
    high = sum(values[: components.stones_per_player])
    return low, high


def limits_for(components: Components, counted: int) -> Limits:
    """The limits when ``counted`` colours count in circles (players plus neutral colours).
    The sudden win only shortens a game."""
    low, high = score_range(components, counted)
    return Limits(action_texts(components), max_steps(components), low, high)
