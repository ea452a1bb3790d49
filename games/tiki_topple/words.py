"""Tiki Topple's words for people: the tikis, the cards and the places, as translatable names.

The data files and action texts name things by id (``up2``, ``lokahi``, ``stack:3``); the
pages show them in the reader's language, as printed in that language's box. Each English name
is written out here as a ``Sentence`` so the catalogue check finds it, and ``locale/de.po``
gives the Schmidt box's word. The step, event and score sentences of ``engine.py`` and
``scoring.py`` nest these names.
"""

from __future__ import annotations

from games.core.game import Sentence, listing, verbatim

TIKIS: dict[str, Sentence] = {
    "nani": Sentence("nani"),
    "wikiwiki": Sentence("wikiwiki"),
    "huhu": Sentence("huhu"),
    "nui": Sentence("nui"),
    "lokahi": Sentence("lokahi"),
    "akamai": Sentence("akamai"),
    "eepo": Sentence("eepo"),
    "hookipa": Sentence("hookipa"),
    "kapu": Sentence("kapu"),
}
"""The nine tikis, named as the action texts name them (the box prints them in capitals)."""

CARDS: dict[str, Sentence] = {
    "up1": Sentence("Tiki Up 1"),
    "up2": Sentence("Tiki Up 2"),
    "up3": Sentence("Tiki Up 3"),
    "puh": Sentence("Tiki Puh"),
    "topple": Sentence("Tiki Topple"),
    "wiki": Sentence("Tiki Wiki"),
    "toast": Sentence("Tiki Toast"),
}
"""The action cards by kind, with the names printed on them."""


def tiki(name: str) -> Sentence:
    """A tiki's name to translate (an unknown id reads as itself)."""
    return TIKIS.get(name) or verbatim(name)


def card(kind: str) -> Sentence:
    """An action card's printed name (``up2`` is "Tiki Up 2")."""
    return CARDS.get(kind) or verbatim(kind)


def tikis(names: tuple[str, ...] | list[str]) -> str | Sentence:
    """Several tikis as one list, "nani, kapu and huhu", in the reader's language."""
    return listing([tiki(name) for name in names])
