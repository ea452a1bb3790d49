"""The Hanging Gardens' action texts: every form, and every text that can ever be legal.

The texts are enumerated from the components (cards, garden fields, card anchors, score-tile
slots and kinds), never from played games, so the numbering OpenSpiel and search rely on is
stable and complete. The engine builds its parser from these same forms, so the two cannot
drift apart.
"""

from __future__ import annotations

from .components import CARD_COLS, CARD_ROWS, ORIENTATIONS, Components
from .state import field_name

NO_TEMPLE = "no temple"
TAKE_EXTRA = "take extra"
"""A player's choice: draw the hidden extra tile a group of 6+ fields may earn."""


# -- the text forms --------------------------------------------------------------------------
def draw_text(card: str) -> str:
    """Chance: ``card`` is dealt to the card display."""
    return f"draw {card}"


def discard_text(card: str) -> str:
    """A display card that fits nowhere goes back in the box."""
    return f"discard {card}"


def place_text(card: str, anchor: str, orientation: str) -> str:
    """``card`` laid with its 2x3 area's top-left field on ``anchor``, ``up`` or ``down``."""
    return f"place {card} {anchor} {orientation}"


def temple_text(field: str) -> str:
    return f"temple {field}"


def move_text(to: str, origin: str) -> str:
    """With every temple out: the temple on ``origin`` moves to ``to``."""
    return f"temple {to} from {origin}"


def tile_text(slot: str) -> str:
    return f"tile {slot}"


def reveal_text(kind: str) -> str:
    """Chance: a score tile from the stack fills a display slot."""
    return f"reveal {kind}"


def extra_text(kind: str) -> str:
    """Chance: the hidden extra score tile a group of ``extra_from`` fields earns."""
    return f"extra {kind}"


# -- the grammar's parts ---------------------------------------------------------------------
def anchors(components: Components) -> tuple[int, ...]:
    """The garden fields a card's top-left corner can lie on (the card lies wholly inside)."""
    cols = components.cols
    return tuple(
        r * cols + c
        for r in range(components.rows - CARD_ROWS + 1)
        for c in range(cols - CARD_COLS + 1)
    )


def slot_names(components: Components) -> tuple[str, ...]:
    """Score-tile display slots ``COLUMN:ROW``, column by column (the engine's slot order)."""
    return tuple(
        f"{col + 1}:{row + 1}"
        for col in range(components.tile_columns)
        for row in range(components.tile_rows)
    )


def action_texts(components: Components) -> tuple[str, ...]:
    """Every text that can ever be legal, sorted.

    A draw and a discard per card; a placement per card, orientation and anchor (any field can
    come to be covered, so every one can fit); a temple per field and a move per ordered pair of
    different fields (the target's group holds no temple, so it never is the origin; a
    neighbouring origin of another motif is possible); ``no temple``; ``take extra``; a take
    per display slot;
    a reveal and an extra draw per tile kind. The same for every player count: none of them
    changes the cards, the garden or the tiles.
    """
    c = components
    fields = [field_name(f, c.cols) for f in range(c.fields)]
    corners = [fields[a] for a in anchors(c)]
    actions = [NO_TEMPLE, TAKE_EXTRA]
    for card in c.card_names:
        actions += [draw_text(card), discard_text(card)]
        actions += [place_text(card, a, o) for a in corners for o in ORIENTATIONS]
    actions += [temple_text(f) for f in fields]
    actions += [move_text(to, origin) for to in fields for origin in fields if to != origin]
    actions += [tile_text(slot) for slot in slot_names(c)]
    actions += [text(kind) for kind in c.kinds for text in (reveal_text, extra_text)]
    return tuple(sorted(actions))
