"""Translation catalogues: the English texts of ``Sentence`` templates looked up in gettext files.

The English template is the message id, so English needs no file, and a text nobody translated
yet still reads (in English) instead of failing. Catalogues are plain gettext ``.po`` files read
with Babel: ``games/core/locale/de.po`` (the words every game and both pages share),
``games/<game>/locale/de.po`` (the game's names as printed in its box),
``controller/locale/de.po`` and ``simulator/locale/de.po`` (the service's and the pages'
texts). Which language a person gets is decided here too (``choose_language``), because the
controller and the simulator both need it and the simulator may not import the controller.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from string import Formatter

from babel.messages.pofile import PoFileError, read_po

from .game import Sentence

LANGUAGES: tuple[str, ...] = ("en", "de")
"""The languages the pages offer; the first is the fallback (and the language of every msgid)."""

CORE_LOCALE = Path(__file__).resolve().parent / "locale"
"""Words every game shares (players, colours, "face-down")."""


def _(msgid: str) -> str:
    """Marks an English text as a msgid (the catalogue test extracts it) where it is not yet
    shown: it is returned unchanged and translated where a reader's catalogue renders it."""
    return msgid


class CatalogueError(ValueError):
    """A ``.po`` file that cannot be read, or whose translation would break a sentence."""


def _fields(text: str) -> set[str]:
    """The ``{name}`` fields of a template (a malformed brace raises ``ValueError``)."""
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


class Catalogue:
    """One language's translations, merged from several ``.po`` files."""

    def __init__(self, language: str, messages: Mapping[str, str]) -> None:
        self.language = language
        self._messages = dict(messages)

    @classmethod
    def load(cls, language: str, folders: Iterable[Path]) -> Catalogue:
        """Read ``<folder>/<language>.po`` of each folder; a folder without one adds nothing.

        A later folder's translation of a msgid replaces an earlier one (the controller's own
        wording may refine a game's). Fuzzy and empty entries are left out, so the English
        shows until someone translates them. A translation whose ``{fields}`` differ from its
        msgid's would fail (or silently drop a name) when filled, so it is refused here, where
        the message can still name the file.
        """
        messages: dict[str, str] = {}
        for folder in folders:
            path = Path(folder) / f"{language}.po"
            if not path.is_file():
                continue
            messages.update(_read(path, language))
        return cls(language, messages)

    def gettext(self, msgid: str) -> str:
        """The translation of ``msgid``, or ``msgid`` itself when there is none."""
        return self._messages.get(msgid, msgid)

    def text(self, message: Sentence | str) -> str:
        """A sentence (or a bare msgid) in this language, its fields filled.

        String arguments go in as they are (names, coordinates, numbers); nested sentences are
        translated first, so "swan 4" reads "Schwan 4" inside a German sentence.
        """
        if isinstance(message, str):
            return self.gettext(message)
        args = {name: self.text(value) if isinstance(value, Sentence) else value
                for name, value in message.args.items()}
        return self.gettext(message.template).format_map(args)

    def messages(self) -> dict[str, str]:
        """Every msgid and its translation (the dictionary a page's ``t()`` looks up)."""
        return dict(self._messages)


def _read(path: Path, language: str) -> dict[str, str]:
    """The usable translations of one ``.po`` file, checked."""
    try:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=None, abort_invalid=True)
    except (PoFileError, UnicodeDecodeError, ValueError) as error:
        raise CatalogueError(f"{path}: not a readable gettext catalogue: {error}") from error
    messages: dict[str, str] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if not isinstance(message.id, str) or not isinstance(message.string, str):
            raise CatalogueError(f"{path}:{message.lineno}: plural entries are not used here "
                                 f"({message.id!r})")
        if not message.string:
            continue
        try:
            wanted, given = _fields(message.id), _fields(message.string)
        except ValueError as error:
            raise CatalogueError(f"{path}:{message.lineno}: a stray brace in "
                                 f"{message.id!r} or its translation: {error}") from error
        if wanted != given:
            raise CatalogueError(
                f"{path}:{message.lineno}: the {language} text of {message.id!r} has the "
                f"fields {sorted(given)}, the English has {sorted(wanted)}")
        messages[message.id] = message.string
    return messages


def package_locale(module_name: str) -> Path:
    """The ``locale`` folder beside the package of ``module_name`` (an engine's module)."""
    module = sys.modules[module_name]
    file = getattr(module, "__file__", None)
    if file is None:
        raise CatalogueError(f"{module_name} has no file, so no locale folder")
    return Path(file).resolve().parent / "locale"


@lru_cache(maxsize=64)
def cached_catalogue(language: str, folders: tuple[Path, ...]) -> Catalogue:
    """``Catalogue.load`` read once per language and set of folders (the files ship read-only)."""
    return Catalogue.load(language, folders)


def supported(language: str | None) -> str | None:
    """``language`` reduced to one of ``LANGUAGES`` ("de-AT" and "de_DE" are "de"), or None."""
    if not language:
        return None
    primary = language.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in LANGUAGES else None


def accepted_languages(header: str | None) -> list[str]:
    """The tags of an HTTP Accept-Language header, most wanted first (``q=0`` left out)."""
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "").split(",")):
        tag, *params = (piece.strip() for piece in part.split(";"))
        if not tag:
            continue
        weight = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if weight > 0:
            ranked.append((-weight, position, tag))
    return [tag for _, _, tag in sorted(ranked)]


def choose_language(query: str | None = None, cookie: str | None = None,
                    accept_language: str | None = None, default: str | None = None) -> str:
    """The language for one request: ``?lang=``, then the ``lang`` cookie, then the browser's
    Accept-Language, then the table's default; a value we do not offer is passed over."""
    for candidate in (query, cookie, *accepted_languages(accept_language), default):
        found = supported(candidate)
        if found:
            return found
    return LANGUAGES[0]
