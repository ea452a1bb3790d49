"""A sentence for people, kept apart from its language: an English template with named fields
(also the message id a catalogue translates) and the values that fill them. Engines, the
controller and the pages all speak in these; ``games.core.game`` re-exports them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence for people (the page's headline, the LED legend): who does what, where.

    ``template`` is English with ``{name}`` fields and doubles as the message id a translation
    catalogue looks up; ``args`` fills the fields. Keeping the two apart lets a page show the
    same step in any language without the engine knowing which.
    """

    template: str
    args: Mapping[str, str | Sentence] = field(default_factory=dict)
    """A ``str`` value goes in verbatim (a player's name, a coordinate, a number); a nested
    ``Sentence`` (a piece's or a place's name, "swan 4") is itself a text to translate."""

    def __str__(self) -> str:
        return self.template.format_map({name: str(value) for name, value in self.args.items()})


def listing(items: Sequence[str | Sentence]) -> str | Sentence:
    """Names as a list in the reader's language: ``anna``, ``anna and ben``, ``anna, ben and
    cleo`` (each joint a Sentence, so a catalogue translates the "and")."""
    if not items:
        raise ValueError("a listing needs at least one item")
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return Sentence("{first} and {second}", {"first": items[0], "second": items[1]})
    return Sentence("{first}, {rest}", {"first": items[0], "rest": listing(items[1:])})


def comma_list(items: Sequence[str | Sentence]) -> str | Sentence:
    """Items joined by commas only, ``swan 2, swan 4, whale 5`` (a score line's tiles, the
    stones under a tower), where ``listing``'s "and" would read as prose."""
    if not items:
        raise ValueError("a comma list needs at least one item")
    if len(items) == 1:
        return items[0]
    return Sentence("{first}, {rest}", {"first": items[0], "rest": comma_list(items[1:])})


VERBATIM = "{text}"
"""The template of a text that goes on the page as written, untranslated."""


def verbatim(text: str) -> Sentence:
    """``text`` as a Sentence that every catalogue leaves as it is: a name the data file has
    but no catalogue knows, where a nested name to translate is expected."""
    return Sentence(VERBATIM, {"text": text})
