"""Action text forms: every action is its own canonical text.

Setup: ``remove swan`` (chance: the shape left out with 2 or 3 players), ``lay 0:0 swan 4``
(chance: the next layout tile), ``deal swan 4`` (chance: the next hand tile, laid on the deal
pad), ``pick`` (the player takes the tile on the pad into their hand). Draft variant:
``pass swan 4`` (lay a hand tile on the pad for the player on the right), ``pick``, and ``box``
(the start player puts a passed tile back in the box). A turn: ``visitor 0:2:S``, ``take 1:2``,
``place 1:2 swan 4``. Every text is built once, so ``apply`` looks actions up instead of
parsing them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.action_text import look_up, normalised
from games.core.grid import cell_name

from .components import Components
from .spots import all_spots

FORMS = (
    "remove SHAPE, lay R:C SHAPE VALUE, deal SHAPE VALUE, pick, pass SHAPE VALUE, box, "
    "visitor R:C:DIR, take R:C, no take, place R:C SHAPE VALUE"
)


@dataclass(frozen=True, slots=True)
class Action:
    """A parsed action: its kind and arguments (a cell, a spot index, a tile, a shape)."""

    kind: str
    cell: int = -1
    spot: int = -1
    tile: int = -1
    shape: str = ""


@dataclass(frozen=True, slots=True)
class ActionTexts:
    """The canonical texts, indexed by what they name, and the lookup back."""

    remove: tuple[str, ...]
    lay: tuple[tuple[str, ...], ...]
    """[cell][tile]"""
    deal: tuple[str, ...]
    """[tile]"""
    passing: tuple[str, ...]
    """[tile]"""
    visitor: tuple[str, ...]
    """[spot index]"""
    take: tuple[str, ...]
    """[cell]"""
    place: tuple[tuple[str, ...], ...]
    """[cell][tile]"""
    parsed: dict[str, Action]
    former: dict[str, str]
    """Former shape names -> today's: typed and recorded texts with them still parse."""


PICK = "pick"
BOX = "box"
NO_TAKE = "no take"
"""Option take=may: the player leaves the face-down tiles of the line where they are."""


def action_texts(components: Components) -> ActionTexts:
    """Build every text once (the engine keeps the result)."""
    size = components.size
    cells = range(size * size)
    names = components.tile_names
    texts = ActionTexts(
        remove=tuple(f"remove {shape}" for shape in components.shapes),
        lay=tuple(tuple(f"lay {cell_name(c, size)} {name}" for name in names) for c in cells),
        deal=tuple(f"deal {name}" for name in names),
        passing=tuple(f"pass {name}" for name in names),
        visitor=tuple(f"visitor {spot.name}" for spot in all_spots(size)),
        take=tuple(f"take {cell_name(c, size)}" for c in cells),
        place=tuple(tuple(f"place {cell_name(c, size)} {name}" for name in names) for c in cells),
        parsed={PICK: Action("pick"), BOX: Action("box"), NO_TAKE: Action("no_take")},
        former=dict(components.former_names),
    )
    parsed = texts.parsed
    for shape, text in zip(components.shapes, texts.remove, strict=True):
        parsed[text] = Action("remove", shape=shape)
    for tile in range(len(names)):
        parsed[texts.deal[tile]] = Action("deal", tile=tile)
        parsed[texts.passing[tile]] = Action("pass", tile=tile)
    for spot, text in enumerate(texts.visitor):
        parsed[text] = Action("visitor", spot=spot)
    for cell in cells:
        parsed[texts.take[cell]] = Action("take", cell=cell)
        for tile in range(len(names)):
            parsed[texts.lay[cell][tile]] = Action("lay", cell=cell, tile=tile)
            parsed[texts.place[cell][tile]] = Action("place", cell=cell, tile=tile)
    return texts


def normalise(text: str) -> str:
    """Lower case, single spaces, the direction of a spot in capitals."""
    words = normalised(text)
    if words.startswith("visitor "):
        head, _, direction = words.rpartition(":")
        words = f"{head}:{direction.upper()}"
    return words


def parse(text: str, texts: ActionTexts) -> tuple[str, Action]:
    """The canonical text and its parsed action; raises BadActionText. A former shape name
    (``dinosaur 5``) reads as today's (``trex 5``)."""

    def renamed(words: str) -> str:
        words = normalise(words)
        return " ".join(texts.former.get(word, word) for word in words.split(" "))

    return look_up(text, texts.parsed, "Topiary", FORMS, renamed)
