"""Building Trapper positions by hand: a turn with chosen tiles, trappers and hands."""

from __future__ import annotations

from games.trapper import GAME
from games.trapper.display import Canoe, Display
from games.trapper.state import EMPTY, TrapperState

C = GAME.components
SIZE = C.size
RED, BLUE, YELLOW, GREEN = range(4)


def cell(text: str) -> int:
    row, col = (int(part) for part in text.split(":"))
    return row * SIZE + col


def tile(name: str) -> int:
    return C.numbers[name]


def turn_state(
    tiles: dict[str, str],
    trappers: dict[int, str] | None = None,
    hands: tuple[tuple[int, ...], ...] = ((4, 4, 4, 4), (4, 4, 4, 4)),
    face_down: tuple[str, ...] = (),
    displays: tuple[Display, ...] | None = None,
    choose: bool = False,
    options: dict[str, str] | None = None,
) -> TrapperState:
    """Anna's turn: only the given tiles on the grid (face up unless listed in face_down), the
    trappers where given (by default on their start squares); ``options`` beside placement."""
    n = len(hands)
    grid = [EMPTY] * (SIZE * SIZE)
    up = [False] * (SIZE * SIZE)
    for where, name in tiles.items():
        grid[cell(where)] = tile(name)
        up[cell(where)] = where not in face_down
    placed = set(grid) - {EMPTY}
    start = {colour: C.starts[colour] for colour in range(4)}
    for colour, where in (trappers or {}).items():
        start[colour] = cell(where)
    draw = tuple(C.per_colour - sum(hand[c] for hand in hands) for c in range(4))
    return GAME.initial([f"p{i + 1}" for i in range(n)],
                        {"placement": "choose" if choose else "auto", **(options or {})})._replace(
        phase="turn",
        grid=tuple(grid),
        face_up=tuple(up),
        supply=tuple(t for t in range(len(C.tiles)) if t not in placed),
        trappers=tuple(start[c] for c in range(4)),
        hands=hands,
        draw=draw,
        marker=0,
        displays=displays or (Display(),) * n,
    )


def canoe(name: str, *animals: str, herb: str = "", mushroom: str = "") -> Canoe:
    return Canoe(tile(name), tuple(sorted(tile(a) for a in animals)),
                 tile(herb) if herb else -1, tile(mushroom) if mushroom else -1)
