"""Which language a request gets, and the catalogue the controller translates with.

The controller speaks for the game it referees, so its catalogue for a language is the shared
words (``games/core/locale``), the game's own names (``games/<game>/locale``) and the service's
texts (``controller/locale``), in that order: a later file's wording wins.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from starlette.requests import Request

from games.core.art import all_sites, art_of, site_label
from games.core.errors import DataFileError
from games.core.game import FACE_DOWN, PILE_JOIN, Sentence
from games.core.translation import (
    CORE_LOCALE,
    LANGUAGES,
    Catalogue,
    cached_catalogue,
    choose_language,
    package_locale,
)

from .referee import named

CONTROLLER_LOCALE = Path(__file__).resolve().parent / "locale"
COOKIE = "lang"
"""The cookie the pages' language switch sets."""
ENGLISH = Catalogue(LANGUAGES[0], {})
"""The texts as written: English needs no file."""


def folders(game: Any) -> tuple[Path, ...]:
    """The catalogue folders for ``game``: core, the game's package, the controller."""
    return CORE_LOCALE, package_locale(type(game).__module__), CONTROLLER_LOCALE


def catalogue(language: str, game: Any) -> Catalogue:
    """``language``'s catalogue for the service of ``game`` (read once, then shared)."""
    if language == LANGUAGES[0]:
        return ENGLISH
    return cached_catalogue(language, folders(game))


@cache
def piece_namer(game: Any) -> Callable[[str | None], Sentence]:
    """How the service names ``game``'s pieces to people: by the name its art gives each
    ("swan 4", "nani"; a msgid its catalogue translates), else by the id (``named``)."""
    try:
        art = art_of(game)
    except (DataFileError, OSError):  # a game without pictures (a test's toy game)
        return named

    def name(piece: str | None) -> Sentence:
        if piece is None or piece == FACE_DOWN:
            return named(piece)
        if PILE_JOIN in piece:
            below, _, above = piece.partition(PILE_JOIN)
            return Sentence("{below} / {above}", {"below": name(below), "above": name(above)})
        found = art.piece(piece)
        return found.name if found is not None else named(piece)

    return name


@cache
def site_namer(game: Any) -> Callable[[str | None], Sentence]:
    """How the service names ``game``'s sites to people: by their label as words ("place 3",
    "tile 2:3", "reveal pad"; the msgid ``games.core.art.site_label`` makes of it), else by
    the id (``named``)."""
    labels = {site.id: site_label(site.label) for site in all_sites(game) if site.label}

    def name(site: str | None) -> Sentence:
        return labels.get(site or "") or named(site)

    return name


def request_language(request: Request, default: str | None) -> str:
    """The language for ``request``: ``?lang=``, the ``lang`` cookie, Accept-Language, then
    ``default`` (the profile's)."""
    return choose_language(request.query_params.get("lang"), request.cookies.get(COOKIE),
                           request.headers.get("accept-language"), default)
