"""What the hardware says to people, kept apart from its language.

The link's errors reach the status page, which speaks the reader's language, and the command
line, which speaks English. ``hardware/`` may not import ``games/`` (so not
``games.core.sentence.Sentence``), so it says them in this small form of its own: an English
template with ``{named}`` fields, which is also the msgid the controller's catalogue
(``controller/locale``) translates, and the values that fill them. ``str()`` gives the English;
``controller.health.sentence_of`` turns one into a ``Sentence`` to translate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter


@dataclass(frozen=True, slots=True)
class Wording:
    """A message for people: ``msgid`` in English with ``{name}`` fields, ``params`` filling
    them. A ``str`` value goes in as written (a port's URL, a number, the OS's own words about
    a port); a nested ``Wording`` is a text to translate too ("CRC mismatch" inside "dropped a
    frame: ...").

    It is said on error paths, so it never raises: a missing value shows as its ``{name}``, an
    extra one is ignored, and a msgid that is not a plain template shows as written."""

    msgid: str
    params: Mapping[str, str | Wording] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Its own copy: the caller's dict may change after, and the form is handed around in
        # the link's health snapshots. (A plain dict, not a read-only proxy, so that it copies,
        # pickles and goes through dataclasses.asdict like the rest of the health.)
        object.__setattr__(self, "params", dict(self.params))

    def fields(self) -> frozenset[str] | None:
        """The names of the msgid's fields; None when it is not a plain template (a stray
        brace, a positional field, a format spec or conversion) and is shown as written."""
        names: set[str] = set()
        try:
            parsed = list(Formatter().parse(self.msgid))
        except ValueError:
            return None
        for _, name, spec, conversion in parsed:
            if name is None:
                continue
            if not name.isidentifier() or spec or conversion:
                return None
            names.add(name)
        return frozenset(names)

    def __str__(self) -> str:
        """The English, every field filled."""
        names = self.fields()
        if names is None:
            return self.msgid
        return self.msgid.format_map({name: str(self.params.get(name, f"{{{name}}}"))
                                      for name in names})


PORT_CLOSED = Wording("port closed")
"""Why a link went down when the port simply ended, without an error to say."""
