"""Pieces as pictures: each game's ``data/art.toml``, loaded and checked.

A page draws a piece from a few facts (a shape out of a small vocabulary, two colours, an
optional short glyph and symbol) and names it with a ``Sentence``, so the same data gives the
status page, the simulator page and the step sentences one picture and one translated name per
piece. Rules match piece ids by pattern (``topiary:swan:{value}``) rather than listing all 136
tags of a box, and a second list of rules places the table's sites for drawing (a nudge, a
size, an arrow) where the game's own coordinates would crowd them.

The file format is described in games/README.md, "Pieces as pictures".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

from .datafile import load_toml
from .errors import DataFileError
from .game import FACE_DOWN, PILE_JOIN, Game, Sentence, Site

SHAPES: tuple[str, ...] = (
    "disc", "tile", "card", "rhombus", "figure", "token", "hexagon", "triangle", "canoe",
    "cube", "stone", "marker",
)
"""The shapes ``controller/static/board.js`` knows how to draw."""

ART_FILE = "art.toml"
HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
FIELD = re.compile(r"^([^{}:]*)\{([a-z_][a-z0-9_]*)(?:=([^{}:]+))?\}$")
"""A field part of a pattern: ``{value}`` matches any one part, ``{number=07}`` only ``07`` (and
still names it, so one name template serves many rules), ``c{number}`` a part starting with
``c`` (the field is the rest)."""
MAX_GLYPH = 3
"""A glyph is a value or an initial: it must stay readable on a piece a phone draws 20 px wide."""

PIECE_KEYS = frozenset({"match", "shape", "fill", "stroke", "glyph", "symbol", "name", "text",
                        "corners", "kind"})
SITE_KEYS = frozenset({"match", "offset", "size", "arrow", "label", "ruler", "round"})
TOP_KEYS = frozenset({"colours", "words", "piece", "site"})

DEFAULT_KIND = "pieces"
"""The box heading of pieces whose rule names no ``kind``."""
FACE_DOWN_NAME = "face-down piece"
"""The name of what the public table shows where a piece lies face down."""


@dataclass(frozen=True, slots=True)
class PieceArt:
    """One piece's picture and name, resolved from the rule that matched it."""

    piece: str
    shape: str
    fill: str
    stroke: str
    glyph: str
    symbol: str
    text: str
    """The glyph's colour: dark on light fills, light on dark ones."""
    name: Sentence
    corners: tuple[str, ...] = ()
    """A rhombus's four corner colours: sharp, wide, sharp, wide, counterclockwise."""
    kind: Sentence = field(default_factory=lambda: Sentence("pieces"))  # DEFAULT_KIND
    """The heading the piece is listed under in the simulator's box ("tiles", "visitors")."""

    def to_json(self, name: str, kind: str) -> dict[str, Any]:
        """For a page, with ``name`` and ``kind`` already in the reader's language."""
        return {"shape": self.shape, "fill": self.fill, "stroke": self.stroke,
                "glyph": self.glyph, "symbol": self.symbol, "text": self.text, "name": name,
                "corners": list(self.corners), "kind": kind}


@dataclass(frozen=True, slots=True)
class SiteArt:
    """How one site is drawn: moved by ``offset`` (game units), at most ``size`` wide, with an
    arrow pointing ``arrow`` degrees (0 = east, 90 = south: y runs down), its label shown or
    not, whether it joins the grid whose rows and columns get a ruler, and whether its cell is
    round (a circle on the board, where a tower stands)."""

    offset: tuple[float, float] = (0.0, 0.0)
    size: float | None = None
    arrow: float | None = None
    label: bool = False
    ruler: bool = False
    round: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"dx": self.offset[0], "dy": self.offset[1], "size": self.size,
                "arrow": self.arrow, "label": self.label, "ruler": self.ruler,
                "round": self.round}


@dataclass(frozen=True, slots=True)
class Pattern:
    """A piece or site id pattern: ``:``-separated parts, each a literal or a ``{field}``."""

    text: str
    parts: tuple[tuple[str, bool, str | None, str], ...]
    """(literal text, False, None, "") or (field name, True, the one value it takes or None,
    the literal prefix before it)."""

    @classmethod
    def parse(cls, text: str, where: str) -> Pattern:
        parts = []
        for part in text.split(":"):
            found = FIELD.match(part)
            if found:
                parts.append((found.group(2), True, found.group(3), found.group(1)))
            elif not part or "{" in part or "}" in part:
                raise DataFileError(f"{where}: match {text!r} has a bad part {part!r} (a part "
                                    "is a word, or a field such as {value} or {number=07})")
            else:
                parts.append((part, False, None, ""))
        names = [name for name, is_field, _, _ in parts if is_field]
        if len(set(names)) != len(names):
            raise DataFileError(f"{where}: match {text!r} names a field twice")
        return cls(text, tuple(parts))

    @property
    def fields(self) -> frozenset[str]:
        return frozenset(name for name, is_field, _, _ in self.parts if is_field)

    def match(self, ident: str) -> dict[str, str] | None:
        """The field values if ``ident`` matches, else None."""
        pieces = ident.split(":")
        if len(pieces) != len(self.parts):
            return None
        values = {}
        for piece, (name, is_field, only, prefix) in zip(pieces, self.parts, strict=True):
            value = piece[len(prefix):]
            if is_field and piece.startswith(prefix) and value and only in (None, value):
                values[name] = value
            elif not is_field and piece == name:
                continue
            else:
                return None
        return values


@dataclass(frozen=True, slots=True)
class _PieceRule:
    pattern: Pattern
    shape: str
    fill: str
    stroke: str
    glyph: str
    symbol: str
    text: str
    name: str
    corners: tuple[str, ...] = ()
    kind: str = DEFAULT_KIND


@dataclass(frozen=True, slots=True)
class _SiteRule:
    pattern: Pattern
    art: SiteArt


@dataclass(frozen=True)
class Art:
    """A game's art file: piece rules (first match wins), site rules (later ones add to
    earlier ones), named colours and translatable words for field values."""

    path: Path
    colours: Mapping[str, str]
    words: Mapping[str, str]
    piece_rules: tuple[_PieceRule, ...]
    site_rules: tuple[_SiteRule, ...]
    _cache: dict[str, PieceArt | None] = field(default_factory=dict, compare=False, repr=False)

    def piece(self, piece: str) -> PieceArt | None:
        """The picture of one piece id (never a pile: split those first), or None."""
        if piece in self._cache:
            return self._cache[piece]
        found = None
        if piece == FACE_DOWN:
            found = PieceArt(FACE_DOWN, "tile", "#6d6455", "#3b352b", "?", "", "#f4f1ea",
                             Sentence(FACE_DOWN_NAME))
            self._cache[piece] = found
            return found
        for rule in self.piece_rules:  # the first matching rule draws it
            values = rule.pattern.match(piece)
            if values is not None:
                found = self._resolve(piece, rule, values)
                break
        self._cache[piece] = found
        return found

    def missing(self, pieces: Iterable[str]) -> list[str]:
        """The pieces (piles split into theirs) no rule draws."""
        wanted = {one for value in pieces for one in value.split(PILE_JOIN)}
        return sorted(one for one in wanted if self.piece(one) is None)

    def site(self, site: str) -> SiteArt:
        """How a site is drawn: the matching rules' settings, later rules winning."""
        offset, size, arrow, label, ruler, round_ = (0.0, 0.0), None, None, False, False, False
        for rule in self.site_rules:
            if rule.pattern.match(site) is None:
                continue
            art = rule.art
            offset = (offset[0] + art.offset[0], offset[1] + art.offset[1])
            size = art.size if art.size is not None else size
            arrow = art.arrow if art.arrow is not None else arrow
            label = label or art.label
            ruler = ruler or art.ruler
            round_ = round_ or art.round
        return SiteArt(offset, size, arrow, label, ruler, round_)

    def _resolve(self, piece: str, rule: _PieceRule, values: dict[str, str]) -> PieceArt:
        def fill_in(template: str) -> str:
            return template.format_map(values)

        def colour(template: str) -> str:
            text = fill_in(template)
            resolved = self.colours.get(text, text)
            if not HEX.match(resolved):
                raise DataFileError(f"{self.path}: piece {piece!r} ({rule.pattern.text}): "
                                    f"colour {text!r} is neither #rrggbb nor in [colours]")
            return resolved

        args: dict[str, str | Sentence] = {
            name: Sentence(self.words[value]) if value in self.words else value
            for name, value in values.items()}
        return PieceArt(piece, rule.shape, colour(rule.fill), colour(rule.stroke),
                        fill_in(rule.glyph), rule.symbol, colour(rule.text),
                        Sentence(rule.name, args), tuple(colour(c) for c in rule.corners),
                        Sentence(rule.kind))

    def names(self) -> list[str]:
        """Every English text of this file a catalogue must translate (name templates and
        words), for the check that each has a German text."""
        return sorted({rule.name for rule in self.piece_rules} | set(self.words.values())
                      | {rule.kind for rule in self.piece_rules} | {FACE_DOWN_NAME})

    def to_json(self, game: Game[Any], sites: Sequence[Site],
                name: Callable[[Sentence], str] = str) -> dict[str, Any]:
        """What a page needs: every piece of the box (and face-down) drawn, every site placed
        (with its label in words when the site shows it). ``name`` turns a Sentence into the
        reader's language (default: English)."""
        pieces = {}
        for piece in (*game.pieces(), FACE_DOWN):
            art = self.piece(piece)
            if art is not None:
                pieces[piece] = art.to_json(name(art.name), name(art.kind))
        placed = {}
        for site in sites:
            how, words = self.site(site.id), name(site_label(site.label))
            placed[site.id] = {**how.to_json(), "name": words,
                               "label": words if how.label else ""}
        return {"game": game.id, "pieces": pieces, "sites": placed}

    @staticmethod
    def label_names(game: Game[Any]) -> list[str]:
        """The templates of the sites' names (msgids, like ``names``): a page names places
        in the reader's words (a cell's tooltip, "Legal now")."""
        return sorted({site_label(site.label).template for site in all_sites(game)})


def _template_fields(text: str, where: str) -> set[str]:
    try:
        return {name for _, name, _, _ in Formatter().parse(text) if name is not None}
    except ValueError as error:
        raise DataFileError(f"{where}: a stray brace in {text!r}: {error}") from None


def _string(table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    if key not in table:
        if default is None:
            raise DataFileError(f"{where}: missing field {key!r}")
        return default
    value = table[key]
    if not isinstance(value, str):
        raise DataFileError(f"{where}: field {key!r} must be a string, not "
                            f"{type(value).__name__}")
    return value


def _number(value: Any, where: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DataFileError(f"{where}: field {key!r} must be a number, not "
                            f"{type(value).__name__}")
    return float(value)


def _unknown_keys(table: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    extra = sorted(set(table) - allowed)
    if extra:
        raise DataFileError(f"{where}: unknown field(s) {', '.join(map(repr, extra))} "
                            f"(allowed: {', '.join(sorted(allowed))})")


def _piece_rule(table: Any, where: str, colours: Mapping[str, str]) -> _PieceRule:
    if not isinstance(table, dict):
        raise DataFileError(f"{where}: must be a table")
    _unknown_keys(table, PIECE_KEYS, where)
    pattern = Pattern.parse(_string(table, "match", where), where)
    where = f"{where} ({pattern.text})"
    shape = _string(table, "shape", where)
    if shape not in SHAPES:
        raise DataFileError(f"{where}: field 'shape' must be one of {', '.join(SHAPES)}, "
                            f"not {shape!r}")
    texts = {key: _string(table, key, where, default)
             for key, default in (("fill", None), ("stroke", "#333333"), ("glyph", ""),
                                  ("symbol", ""), ("text", "#1b1b1b"), ("name", None))}
    for key, text in texts.items():
        unknown = _template_fields(text, where) - pattern.fields
        if unknown:
            raise DataFileError(f"{where}: field {key!r} uses {sorted(unknown)}, which the "
                                f"match {pattern.text!r} does not name")
        if key in ("fill", "stroke", "text") and not _template_fields(text, where) and not (
                HEX.match(text) or text in colours):
            raise DataFileError(f"{where}: field {key!r} must be #rrggbb or a name from "
                                f"[colours], not {text!r}")
    if not texts["name"].strip():
        raise DataFileError(f"{where}: field 'name' must not be empty")
    if not _template_fields(texts["glyph"], where) and len(texts["glyph"]) > MAX_GLYPH:
        raise DataFileError(f"{where}: field 'glyph' is {texts['glyph']!r}: at most "
                            f"{MAX_GLYPH} characters stay readable")
    if len(texts["symbol"]) > 1:
        raise DataFileError(f"{where}: field 'symbol' must be one character, not "
                            f"{texts['symbol']!r}")
    corners = table.get("corners", [])
    if not isinstance(corners, list) or (corners and (
            len(corners) != 4 or shape != "rhombus"
            or not all(isinstance(c, str) and (HEX.match(c) or c in colours) for c in corners))):
        raise DataFileError(f"{where}: field 'corners' is for a rhombus: four colours, each "
                            "#rrggbb or a name from [colours]")
    kind = _string(table, "kind", where, DEFAULT_KIND)
    if not kind.strip() or _template_fields(kind, where):
        raise DataFileError(f"{where}: field 'kind' must be a plain heading (no fields), not "
                            f"{kind!r}")
    return _PieceRule(pattern, shape, **texts, corners=tuple(corners), kind=kind)


def _site_rule(table: Any, where: str) -> _SiteRule:
    if not isinstance(table, dict):
        raise DataFileError(f"{where}: must be a table")
    _unknown_keys(table, SITE_KEYS, where)
    pattern = Pattern.parse(_string(table, "match", where), where)
    where = f"{where} ({pattern.text})"
    offset = table.get("offset", [0, 0])
    if not isinstance(offset, list) or len(offset) != 2:
        raise DataFileError(f"{where}: field 'offset' must be [dx, dy]")
    dx, dy = (_number(value, where, "offset") for value in offset)
    size = _number(table["size"], where, "size") if "size" in table else None
    if size is not None and size <= 0:
        raise DataFileError(f"{where}: field 'size' must be positive, not {size}")
    arrow = _number(table["arrow"], where, "arrow") if "arrow" in table else None
    flags = {}
    for key in ("label", "ruler", "round"):
        value = table.get(key, False)
        if not isinstance(value, bool):
            raise DataFileError(f"{where}: field {key!r} must be true or false")
        flags[key] = value
    return _SiteRule(pattern, SiteArt((dx, dy), size, arrow, **flags))


def _string_table(data: Mapping[str, Any], key: str, where: str) -> dict[str, str]:
    table = data.get(key, {})
    if not isinstance(table, dict):
        raise DataFileError(f"{where}: [{key}] must be a table")
    for name, value in table.items():
        if not isinstance(value, str) or not value.strip():
            raise DataFileError(f"{where}: {key}.{name} must be a non-empty string")
    return dict(table)


def load_art(path: Path) -> Art:
    """Read and check one art file; errors name the file, the entry and what is wrong."""
    data = load_toml(path)
    where = str(path)
    _unknown_keys(data, TOP_KEYS, where)
    colours = _string_table(data, "colours", where)
    for name, value in colours.items():
        if not HEX.match(value):
            raise DataFileError(f"{where}: colours.{name} must be #rrggbb, not {value!r}")
    words = _string_table(data, "words", where)
    pieces = data.get("piece", [])
    sites = data.get("site", [])
    for key, value in (("piece", pieces), ("site", sites)):
        if not isinstance(value, list):
            raise DataFileError(f"{where}: {key} must be a list of tables ([[{key}]])")
    if not pieces:
        raise DataFileError(f"{where}: no [[piece]] rules: every piece needs a picture")
    piece_rules = tuple(_piece_rule(table, f"{where}: piece {n + 1}", colours)
                        for n, table in enumerate(pieces))
    site_rules = tuple(_site_rule(table, f"{where}: site {n + 1}")
                       for n, table in enumerate(sites))
    return Art(path, colours, words, piece_rules, site_rules)


def art_path(game: Game[Any]) -> Path:
    """``data/art.toml`` in the folder of the game's package."""
    import sys

    module = sys.modules[type(game).__module__]
    return Path(module.__file__ or "").resolve().parent / "data" / ART_FILE


@cache
def art_of(game: Game[Any]) -> Art:
    """The game's art, loaded and checked once; every colour of every piece is resolved here
    too, so a bad colour surfaces on load rather than when that piece is first drawn."""
    art = load_art(art_path(game))
    for piece in game.pieces():
        art.piece(piece)
    return art


def all_sites(game: Game[Any]) -> list[Site]:
    """Every site of every player count, once each."""
    found: dict[str, Site] = {}
    for count in range(game.min_players, game.max_players + 1):
        for site in game.sites(count):
            found.setdefault(site.id, site)
    return list(found.values())


def site_label(label: str) -> Sentence:
    """The words a cell shows for its site: the label up to its first ": " ("reveal pad: ..."
    is "reveal pad"), numbers as fields, so "play pad 2" is the msgid "play pad {n1}"."""
    short = label.split(": ")[0].strip()
    numbers = re.findall(r"\d+", short)
    template = short
    for index, number in enumerate(numbers, start=1):
        template = re.sub(rf"(?<!\{{)\b{number}\b", f"{{n{index}}}", template, count=1)
    return Sentence(template, {f"n{index}": number for index, number in enumerate(numbers, 1)})


def art_json(game: Game[Any], name: Callable[[Sentence], str] = str) -> dict[str, Any]:
    """The game's art for a page (``Art.to_json``) with every site of every player count
    placed; ``name`` renders a piece's Sentence in the reader's language."""
    return art_of(game).to_json(game, all_sites(game), name)
