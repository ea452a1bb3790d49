"""The Hanging Gardens' names for people: motifs and score-tile kinds as translatable sentences.

The data file names things by id (``animal_handler``); the pages show them in the reader's
language, as printed in that language's box. Each English name is written out here as a
``Sentence`` so the catalogue check finds it, and ``locale/de.po`` gives the German box's word.
A name the data file adds later still reads, in English, until someone adds it here.
"""

from __future__ import annotations

from games.core.game import Sentence, verbatim

MOTIFS: dict[str, Sentence] = {
    "terrace": Sentence("terrace"),
    "park": Sentence("park"),
    "arcade": Sentence("arcade"),
    "fountain": Sentence("fountain"),
}

TILE_KINDS: dict[str, Sentence] = {
    "queen": Sentence("queen"),
    "king": Sentence("king"),
    "tiger": Sentence("tiger"),
    "garden": Sentence("garden"),
    "statue": Sentence("statue"),
    "chalice": Sentence("chalice"),
    "gate": Sentence("gate"),
    "guard": Sentence("guard"),
    "animal_handler": Sentence("animal handler"),
    "gardener": Sentence("gardener"),
    "sculptor": Sentence("sculptor"),
    "priest": Sentence("priest"),
}


def motif(name: str) -> Sentence:
    """A motif's name (``terrace``) to translate."""
    return MOTIFS.get(name) or verbatim(name)


def tile_kind(name: str) -> Sentence:
    """A score-tile kind's name (``animal_handler`` reads ``animal handler``) to translate."""
    return TILE_KINDS.get(name) or verbatim(name.replace("_", " "))


def columns(count: int) -> Sentence:
    """The score-tile columns a temple's group lets its builder take from: ``column 1`` or
    ``columns 1 to 3``."""
    if count <= 1:
        return Sentence("column 1")
    return Sentence("columns 1 to {last}", {"last": str(count)})
