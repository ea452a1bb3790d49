"""On Top's words for people: colours, rhombi, triangles, circles and stones, translatable.

The data file and the action texts name things by id (``blue``, ``07``, ``3:4``); the pages
show them in the reader's language, in the words of that language's box (Raute, schwarzes
Dreieck, Kreis, Turm). Each English word is written out here as a ``Sentence`` so the catalogue
check finds it, and ``locale/de.po`` gives the German. The English renders as the ids read, so
score lines stay as they were.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.game import Sentence, listing, verbatim

COLOURS: dict[str, Sentence] = {
    "blue": Sentence("blue"),
    "yellow": Sentence("yellow"),
    "red": Sentence("red"),
    "white": Sentence("white"),
}
"""The four stone colours (each player's colour, and the segments on the rhombi)."""


def colour(name: str) -> Sentence:
    """A colour's name to translate (an unknown one reads as itself)."""
    return COLOURS.get(name) or verbatim(name)


def rhombus(piece_id: str) -> Sentence:
    """A rhombus by the number on its tag: ``rhombus 07``."""
    return Sentence("rhombus {number}", {"number": piece_id})


def triangles(names: Sequence[str]) -> str | Sentence:
    """Triangles of the board by their ``R:C`` names, as a list: ``2:4 and 3:10``."""
    return listing(list(names))


def circle(name: str, gold: bool) -> Sentence:
    """A circle by its ``R:C`` name, saying when it lies on the gold edge (towers count
    double there)."""
    if gold:
        return Sentence("circle {name} on the gold edge", {"name": name})
    return Sentence("circle {name}", {"name": name})


def stone(colour_name: str, owner: str | None) -> Sentence:
    """One stone of a tower: its colour and its owner, or neutral (nobody's)."""
    if owner is None:
        return Sentence("{colour} (neutral)", {"colour": colour(colour_name)})
    return Sentence("{colour} ({player})", {"colour": colour(colour_name), "player": owner})


def then_list(items: Sequence[str | Sentence]) -> str | Sentence:
    """Stones in building order: ``yellow (ben), then blue (anna)``."""
    if len(items) == 1:
        return items[0]
    return Sentence("{first}, then {rest}", {"first": items[0], "rest": then_list(items[1:])})
