"""The Hanging Gardens' components, loaded from ``data/hanging_gardens.toml`` and validated.

Cards, score-tile kinds and garden fields are small integers inside the engine (playouts handle
them by the thousand); their text forms are computed once here. Every card is described by the
motif of each of its six fields in both orientations, so placing one is a table lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from games.core.datafile import (
    by_player_count,
    field,
    load_toml,
    whole_number,
    whole_numbers,
    words,
)
from games.core.errors import DataFileError

DATA_FILE = Path(__file__).parent / "data" / "hanging_gardens.toml"

TABLE = 0
"""A garden field with no card on it."""
GROUND = 1
"""Blank building ground (no motif)."""
FIRST_MOTIF = 2
"""Motif codes are FIRST_MOTIF + index in ``Components.motifs``."""
CARD_ROWS = 3
CARD_COLS = 2
ORIENTATIONS = ("down", "up")
"""``up``: as printed; ``down``: turned by 180 degrees (sorted, so index 1 is ``up``)."""


@dataclass(frozen=True, slots=True)
class SeriesKind:
    name: str
    count: int
    points: tuple[int, ...]
    """Points of a series of 1, 2, ... tiles; its length is the size of a full series."""
    assumed: bool


@dataclass(frozen=True, slots=True)
class PersonKind:
    name: str
    series: str
    alone: int
    with_series: int
    assumed: bool


@dataclass(frozen=True, slots=True)
class Components:
    name: str
    rows: int
    cols: int
    start: tuple[int, int]
    display_cards: dict[int, int]
    temples_per_player: int
    colours: tuple[str, ...]
    motifs: tuple[str, ...]
    """Motif names; motif code = FIRST_MOTIF + index."""
    cards: tuple[tuple[int, ...], ...]
    """Card number -> six field codes, row by row as printed (GROUND or a motif code)."""
    card_names: tuple[str, ...]
    """``c01`` ... (zero-padded so that string order is number order)."""
    tile_columns: int
    tile_rows: int
    extra_from: int
    missing_points: int
    kinds: tuple[str, ...]
    """Every score-tile kind, sorted by name; a kind's number is its index."""
    kind_counts: tuple[int, ...]
    series: dict[str, SeriesKind]
    persons: dict[str, PersonKind]
    guard: str
    guard_per_gate: int
    gate_series: str

    @property
    def fields(self) -> int:
        return self.rows * self.cols

    def card_pieces(self, card: int) -> tuple[str, str]:
        """The piece ids of a card's two tags: under its top-left and bottom-right fields."""
        name = self.card_names[card]
        return (f"hg:{name}:a", f"hg:{name}:b")


def _card(text: object, letters: dict[str, int], where: str) -> tuple[int, ...]:
    if not isinstance(text, str):
        raise DataFileError(f"{where}: a card is a text like 't. / .. / ..', not {text!r}")
    rows = [row.strip() for row in text.split("/")]
    if len(rows) != CARD_ROWS or any(len(row) != CARD_COLS for row in rows):
        raise DataFileError(f"{where}: card {text!r} must be 3 rows of 2 fields")
    codes = []
    for letter in "".join(rows):
        if letter == ".":
            codes.append(GROUND)
        elif letter in letters:
            codes.append(letters[letter])
        else:
            raise DataFileError(f"{where}: card {text!r} has an unknown field {letter!r}")
    motif_fields = sum(code != GROUND for code in codes)
    if not 1 <= motif_fields <= 4:
        raise DataFileError(f"{where}: card {text!r} must show 1 to 4 motif fields")
    return tuple(codes)


@cache
def load_components(path: Path = DATA_FILE) -> Components:
    """Read and check the data file; every error names the file and the field."""
    where = str(path)
    data = load_toml(path)
    rows = whole_number(data, "garden.rows", where, 1)
    cols = whole_number(data, "garden.cols", where, 1)
    start = whole_numbers(data, "garden.start", where, length=2)
    if not (start[0] <= rows - CARD_ROWS and start[1] <= cols - CARD_COLS):
        raise DataFileError(f"{where}: garden.start must be [row, col] of a card inside the "
                            f"garden, not {list(start)}")
    display_cards = by_player_count(data, "display.cards", where, 1, 4, what="cards")
    per_player = whole_number(data, "temples.per_player", where, 1)
    colours = words(data, "temples.colours", where)
    if len(colours) < 4:
        raise DataFileError(f"{where}: temples.colours must name 4 different lower-case colours")

    cards_table = field(data, "cards", dict, where)
    motif_table = field(cards_table, "motifs", dict, where)
    if not motif_table or not all(
        len(k) == 1 and k.isalpha() and k != "." and isinstance(v, str) and v.isalpha()
        for k, v in motif_table.items()
    ):
        raise DataFileError(f"{where}: cards.motifs maps one letter to a motif name")
    letters = sorted(motif_table, key=lambda letter: motif_table[letter])
    motifs = tuple(motif_table[letter] for letter in letters)
    codes = {letter: FIRST_MOTIF + index for index, letter in enumerate(letters)}
    card_list = field(cards_table, "list", list, where)
    if not card_list or len(card_list) > 99:
        raise DataFileError(f"{where}: cards.list must hold 1 to 99 cards")
    cards = tuple(_card(text, codes, where) for text in card_list)

    tiles = field(data, "tiles", dict, where)
    series_table = field(tiles, "series", dict, where)
    series: dict[str, SeriesKind] = {}
    for name, entry in series_table.items():
        spot = f"{where} [tiles.series.{name}]"
        series[name] = SeriesKind(
            name,
            whole_number(entry, "count", spot, 1),
            whole_numbers(entry, "points", spot),
            field(entry, "assumed", bool, spot),
        )
    persons: dict[str, PersonKind] = {}
    for name, entry in field(tiles, "persons", dict, where).items():
        spot = f"{where} [tiles.persons.{name}]"
        kind = field(entry, "series", str, spot)
        if kind not in series:
            raise DataFileError(f"{spot}: series {kind!r} is not a series kind")
        persons[name] = PersonKind(
            name,
            kind,
            field(entry, "alone", int, spot),
            field(entry, "with_series", int, spot),
            field(entry, "assumed", bool, spot),
        )
    guard_table = field(tiles, "guard", dict, where)
    gate_series = field(guard_table, "gate_series", str, where)
    if gate_series not in series:
        raise DataFileError(f"{where}: tiles.guard.gate_series must be a series kind")
    kinds = tuple(sorted([*series, *persons, "guard"]))
    if len(set(kinds)) != len(kinds):
        raise DataFileError(f"{where}: score-tile kinds must have different names")
    counts = tuple(series[k].count if k in series else 1 for k in kinds)
    tile_columns = whole_number(data, "tiles.columns", where, 1)
    tile_rows = whole_number(data, "tiles.rows", where, 1)
    if sum(counts) < tile_columns * tile_rows:
        raise DataFileError(f"{where}: too few score tiles to fill the display")
    return Components(
        name=field(data, "name", str, where),
        rows=rows,
        cols=cols,
        start=(start[0], start[1]),
        display_cards=display_cards,
        temples_per_player=per_player,
        colours=colours,
        motifs=motifs,
        cards=cards,
        card_names=tuple(f"c{number + 1:02d}" for number in range(len(cards))),
        tile_columns=tile_columns,
        tile_rows=tile_rows,
        extra_from=whole_number(data, "tiles.extra_from", where, 1),
        missing_points=field(tiles, "missing_points", int, where),
        kinds=kinds,
        kind_counts=counts,
        series=series,
        persons=persons,
        guard="guard",
        guard_per_gate=field(guard_table, "per_gate", int, where),
        gate_series=gate_series,
    )
