"""Trapper's names for people: species, tiles, trappers and cards as translatable sentences.

The data file names things by id (``bear``, ``canoe-bear-3``); the pages show them in the
reader's language, as printed in that language's box. Every English name is written out here as
a ``Sentence`` so the catalogue check finds it, and ``locale/de.po`` gives the German box's
word. German adjectives change with the case, so each colour comes as the few noun phrases the
sentences use (the trapper always as an object: "den roten Trapper"). A name the data file adds
later still reads, in English, until someone adds it here.
"""

from __future__ import annotations

from games.core.game import Sentence, verbatim

from .components import ANIMAL, CANOE, HERB, Tile

SPECIES: dict[str, Sentence] = {
    "salmon": Sentence("salmon"),
    "bear": Sentence("bear"),
    "lynx": Sentence("lynx"),
    "wolf": Sentence("wolf"),
    "mink": Sentence("mink"),
    "moose": Sentence("moose"),
}

COLOURS: dict[str, Sentence] = {
    "red": Sentence("red"),
    "blue": Sentence("blue"),
    "yellow": Sentence("yellow"),
    "green": Sentence("green"),
}
"""A colour's name on its own ("a card of the colour red")."""

TRAPPERS: dict[str, Sentence] = {
    "red": Sentence("the red trapper"),
    "blue": Sentence("the blue trapper"),
    "yellow": Sentence("the yellow trapper"),
    "green": Sentence("the green trapper"),
}
"""The trapper of a colour, as the object of a sentence ("move the red trapper")."""

ONE_CARD: dict[str, Sentence] = {
    "red": Sentence("a red card"),
    "blue": Sentence("a blue card"),
    "yellow": Sentence("a yellow card"),
    "green": Sentence("a green card"),
}

TWO_CARDS: dict[str, Sentence] = {
    "red": Sentence("two red cards"),
    "blue": Sentence("two blue cards"),
    "yellow": Sentence("two yellow cards"),
    "green": Sentence("two green cards"),
}


def species(name: str) -> Sentence:
    return SPECIES.get(name) or verbatim(name)


def colour(name: str) -> Sentence:
    return COLOURS.get(name) or verbatim(name)


def trapper(colour: str) -> Sentence:
    return TRAPPERS.get(colour) or Sentence("the {colour} trapper", {"colour": colour})


def cards(colour: str, count: int) -> Sentence:
    """One card of ``colour`` or two (a joker payment)."""
    if count == 1:
        return ONE_CARD.get(colour) or Sentence("a {colour} card", {"colour": colour})
    return TWO_CARDS.get(colour) or Sentence("two {colour} cards", {"colour": colour})


def tile(info: Tile, species_names: tuple[str, ...]) -> Sentence:
    """A tile by its name (``bear-1a``, ``canoe-bear-3``, ``herb-2``) with the species and the
    kind translated; in English it reads exactly as the name."""
    suffix = info.name.rsplit("-", 1)[1]
    if info.kind == ANIMAL:
        return Sentence("{species}-{copy}", {"species": species(species_names[info.species]),
                                             "copy": suffix})
    if info.kind == CANOE:
        return Sentence("canoe-{species}-{capacity}",
                        {"species": species(species_names[info.species]), "capacity": suffix})
    if info.kind == HERB:
        return Sentence("herb-{number}", {"number": suffix})
    return Sentence("mushroom-{number}", {"number": suffix})


def tiles(infos: list[Tile], species_names: tuple[str, ...]) -> str | Sentence:
    """Tiles as a comma-separated list (``wolf-3, wolf-4, mushroom-3``)."""
    if not infos:
        return ""
    first = tile(infos[0], species_names)
    if len(infos) == 1:
        return first
    return Sentence("{first}, {rest}", {"first": first, "rest": tiles(infos[1:], species_names)})


def ordinal_place(rank: int) -> Sentence:
    """A chip's rank among the highest taken: ``1st highest``."""
    if rank == 1:
        return Sentence("1st highest")
    if rank == 2:
        return Sentence("2nd highest")
    if rank == 3:
        return Sentence("3rd highest")
    return Sentence("{rank}th highest", {"rank": str(rank)})
