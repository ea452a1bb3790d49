"""Action text forms: every action is its own canonical text.

Setup: ``setup`` (the chips go into the bank, the trappers onto the centre), ``lay 0:0 bear-1a``
(chance: the next layout tile, face down), ``deal red`` (chance the table cannot see: a card
dealt to the next hand). A turn: ``red 2:3`` (the red trapper takes the tile on 2:3, paid with a
red card), ``red 2:3 joker blue`` (paid with two blue cards), either followed by
``onto canoe-bear-3`` when the tile may go to more than one canoe; ``trade 3`` (loads of three
species for the species chip 3); ``pass`` (nothing played: draw), ``done`` (end the turn: draw),
``retire`` (end the game for oneself); ``draw red`` (chance the table cannot see). Every text is
built once, so ``apply`` looks actions up instead of parsing them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.action_text import look_up
from games.core.grid import cell_name

from .components import CANOE, Components

FORMS = (
    "setup, lay R:C TILE, deal COLOUR, COLOUR R:C [joker COLOUR] [onto CANOE], trade K, pass, "
    "done, retire, draw COLOUR"
)
SETUP, PASS, DONE, RETIRE = "setup", "pass", "done", "retire"


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    colour: int = -1
    cell: int = -1
    joker: int = -1
    """The colour of the two cards paid instead of one of the trapper's colour (-1: none)."""
    onto: int = -1
    """The canoe tile a taken tile is laid at (-1: the only place, or loose)."""
    tile: int = -1
    k: int = 0


@dataclass(frozen=True, slots=True)
class ActionTexts:
    step: tuple[tuple[tuple[str, ...], ...], ...]
    """[colour][cell][payment]: payment 0 is one card of the colour, 1 + d two cards of d."""
    onto: dict[int, str]
    """Canoe tile -> `` onto canoe-bear-3``."""
    lay: tuple[tuple[str, ...], ...]
    """[cell][tile]"""
    deal: tuple[str, ...]
    draw: tuple[str, ...]
    trade: dict[int, str]
    parsed: dict[str, Action]


def action_texts(components: Components) -> ActionTexts:
    size = components.size
    cells = range(size * size)
    colours = components.colours
    names = [tile.name for tile in components.tiles]
    parsed: dict[str, Action] = {
        SETUP: Action("setup"), PASS: Action("pass"), DONE: Action("done"),
        RETIRE: Action("retire"),
    }
    canoes = [n for n, tile in enumerate(components.tiles) if tile.kind == CANOE]
    onto = {canoe: f" onto {names[canoe]}" for canoe in canoes}
    step = []
    for c, colour in enumerate(colours):
        per_cell = []
        for cell in cells:
            base = f"{colour} {cell_name(cell, size)}"
            payments = [base] + [
                f"{base} joker {other}" if d != c else "" for d, other in enumerate(colours)
            ]
            per_cell.append(tuple(payments))
            for pay, text in enumerate(payments):
                if not text:
                    continue
                joker = pay - 1
                parsed[text] = Action("step", colour=c, cell=cell, joker=joker)
                for canoe, suffix in onto.items():
                    parsed[text + suffix] = Action("step", colour=c, cell=cell, joker=joker,
                                                   onto=canoe)
        step.append(tuple(per_cell))
    lay = tuple(tuple(f"lay {cell_name(cell, size)} {name}" for name in names) for cell in cells)
    for cell in cells:
        for tile, text in enumerate(lay[cell]):
            parsed[text] = Action("lay", cell=cell, tile=tile)
    deal = tuple(f"deal {colour}" for colour in colours)
    draw = tuple(f"draw {colour}" for colour in colours)
    for c in range(len(colours)):
        parsed[deal[c]] = Action("deal", colour=c)
        parsed[draw[c]] = Action("draw", colour=c)
    trade = {k: f"trade {k}" for k in components.species_chips}
    for k, text in trade.items():
        parsed[text] = Action("trade", k=k)
    return ActionTexts(tuple(step), onto, lay, deal, draw, trade, parsed)


def parse(text: str, texts: ActionTexts) -> tuple[str, Action]:
    """The canonical text and its parsed action; raises BadActionText."""
    return look_up(text, texts.parsed, "Trapper", FORMS)
