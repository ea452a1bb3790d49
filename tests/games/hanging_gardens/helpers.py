"""Building Hanging Gardens positions by hand: gardens drawn as text, cards by pattern."""

from __future__ import annotations

from games.hanging_gardens import GAME
from games.hanging_gardens.components import FIRST_MOTIF, GROUND, TABLE
from games.hanging_gardens.state import EMPTY, HangingGardensState

BOX = GAME.components
LETTERS = {"_": TABLE, ".": GROUND} | {
    motif[0]: FIRST_MOTIF + index for index, motif in enumerate(BOX.motifs)
}


def garden(*rows: str) -> tuple[int, ...]:
    """A garden from text rows (``_`` table, ``.`` ground, motif initials); missing rows and
    columns are bare table."""
    top = [TABLE] * BOX.fields
    for r, row in enumerate(rows):
        for c, letter in enumerate(row):
            top[r * BOX.cols + c] = LETTERS[letter]
    return tuple(top)


def field(row: int, col: int) -> int:
    return row * BOX.cols + col


def card_like(pattern: str) -> int:
    """The first card of the box printed as ``pattern`` (e.g. ``"tt / .. / .."``)."""
    rows = [r.strip() for r in pattern.split("/")]
    codes = tuple(LETTERS[letter] for letter in "".join(rows))
    return BOX.cards.index(codes)


def playing(
    players: int = 2,
    tops: list[tuple[int, ...]] | None = None,
    display: tuple[int, ...] | None = None,
    seat: int = 0,
    **changes: object,
) -> HangingGardensState:
    """A state on a player's turn: tile display full, the given gardens and card display."""
    names = ["anna", "ben", "cleo", "dan"][:players]
    state = GAME.initial(names)
    slots = (BOX.kinds.index("queen"), BOX.kinds.index("king")) * 3
    stack = list(state.stack)
    for kind in slots:
        stack[kind] -= 1
    n_display = BOX.display_cards[players]
    shown = display if display is not None else tuple(range(n_display))
    shown = tuple(shown) + (EMPTY,) * (n_display - len(shown))
    state = state._replace(
        phase="place",
        seat=seat,
        tile_slots=slots,
        stack=tuple(stack),
        display=shown,
        deck=tuple(c for c in range(len(BOX.cards)) if c not in shown),
        tops=tuple(tops) if tops is not None else state.tops,
    )
    return state._replace(**changes)


def counts(*kinds: str) -> tuple[int, ...]:
    result = [0] * len(BOX.kinds)
    for kind in kinds:
        result[BOX.kinds.index(kind)] += 1
    return tuple(result)
