"""Trapper's components, loaded from ``data/trapper.toml`` and validated.

Tiles are small integers inside the engine (playouts handle them by the thousand), numbered in
the order of their sorted names, so a sorted tuple of tile numbers reads in name order. Every
tile is its own piece (``prey:bear:1a``): tiles of equal value differ in their water side.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from games.core.datafile import field, load_toml, whole_number, whole_numbers, words
from games.core.errors import DataFileError

DATA_FILE = Path(__file__).parent / "data" / "trapper.toml"

ANIMAL, CANOE, HERB, MUSHROOM = 0, 1, 2, 3
SIDES = "NESW"
"""Water sides; ``SIDES.index(side)`` is the direction index used in ``STEPS``."""
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
"""(row, column) step towards N, E, S, W; row 0 is north."""


@dataclass(frozen=True, slots=True)
class Tile:
    kind: int
    species: int
    """Index into ``Components.species`` (-1 for herbs and mushrooms)."""
    value: int
    """An animal's value, a herb's or mushroom's worth (in the value set of the components);
    a canoe's capacity."""
    water: int
    """Index into ``SIDES``."""
    name: str
    """``bear-1a``, ``canoe-bear-3``, ``herb-2``: the form in actions and score lines."""
    piece: str
    """``prey:bear:1a``: the piece id of its tag."""


@dataclass(frozen=True, slots=True)
class Components:
    name: str
    size: int
    species: tuple[str, ...]
    animal_values: tuple[int, ...]
    canoe_capacities: tuple[int, ...]
    tiles: tuple[Tile, ...]
    numbers: dict[str, int]
    """Tile name -> number."""
    colours: tuple[str, ...]
    starts: tuple[int, ...]
    """Start cell of each trapper (the centre squares in reading order)."""
    per_colour: int
    hand_size: int
    draw_per_turn: int
    start_money: int
    bonus_chips: tuple[int, ...]
    species_chips: tuple[int, ...]
    payouts: tuple[int, ...]
    assumed: tuple[str, ...]
    """The data fields marked ASSUMED (listed in docs and views)."""
    worths: dict[str, tuple[int, int]]
    """Value set name -> (herb, mushroom) worth; the first is the default (option values)."""
    value_set: str
    """The set the tiles' values are taken from."""

    def with_values(self, name: str) -> Components:
        """The same components with herbs and mushrooms worth what value set ``name`` says."""
        if name == self.value_set:
            return self
        herb, mushroom = self.worths[name]
        worth = {HERB: herb, MUSHROOM: mushroom}
        tiles = tuple(replace(tile, value=worth[tile.kind]) if tile.kind in worth else tile
                      for tile in self.tiles)
        return replace(self, tiles=tiles, value_set=name)


ASSUMED_FIELDS = (
    "species.animal_values",
    "values.printed",
    "water",
    "trappers.colours",
    "cards.per_colour",
    "cards.hand_size",
    "money.start",
    "chips.payouts",
)


def _sides(text: Any, count: int, what: str, where: str) -> list[int]:
    if not isinstance(text, str) or len(text) != count or any(c not in SIDES for c in text):
        raise DataFileError(
            f"{where}: water side of {what} must be {count} letters of N, E, S, W, got {text!r}"
        )
    return [SIDES.index(c) for c in text]


def _copy_names(values: tuple[int, ...]) -> list[str]:
    """``1a``, ``1b``, ``3``, ...: a letter tells apart the copies of one value."""
    seen: dict[int, int] = {}
    names = []
    for value in values:
        seen[value] = seen.get(value, 0) + 1
        copy = "abcdefgh"[seen[value] - 1] if values.count(value) > 1 else ""
        names.append(f"{value}{copy}")
    return names


@cache
def load_components(path: Path = DATA_FILE) -> Components:
    """Read and check the data file; every error names the file and the field."""
    where = str(path)
    data = load_toml(path)
    size = whole_number(data, "grid.size", where, 4)
    if size % 2:
        raise DataFileError(f"{where}: grid.size must be even and at least 4 (it has 4 centres)")
    species = words(data, "species.names", where)
    if {"canoe", "herb", "mushroom"} & set(species):
        raise DataFileError(f"{where}: species.names must differ from canoe, herb, mushroom")
    values = whole_numbers(data, "species.animal_values", where, 1)
    capacities = whole_numbers(data, "species.canoe_capacities", where, 1)
    if len(set(capacities)) != len(capacities):
        raise DataFileError(f"{where}: species.canoe_capacities must not repeat")
    herbs, mushrooms = (whole_number(data, "extras.herbs", where),
                        whole_number(data, "extras.mushrooms", where))
    worths = _worths(data, where)
    herb_value, mushroom_value = next(iter(worths.values()))
    water = field(data, "water", dict, where)
    animal_water = field(water, "animals", dict, where)
    canoe_water = field(water, "canoes", dict, where)

    raw: list[tuple[str, Tile]] = []
    for number, name in enumerate(species):
        sides = _sides(animal_water.get(name), len(values), f"{name} animals", where)
        for value, copy, side in zip(values, _copy_names(values), sides, strict=True):
            raw.append((f"{name}-{copy}", Tile(ANIMAL, number, value, side, f"{name}-{copy}",
                                               f"prey:{name}:{copy}")))
        sides = _sides(canoe_water.get(name), len(capacities), f"{name} canoes", where)
        for capacity, side in zip(capacities, sides, strict=True):
            text = f"canoe-{name}-{capacity}"
            raw.append((text, Tile(CANOE, number, capacity, side, text,
                                   f"prey:canoe:{name}:{capacity}")))
    for kind, label, count, worth in (
        (HERB, "herb", herbs, herb_value), (MUSHROOM, "mushroom", mushrooms, mushroom_value)
    ):
        sides = _sides(field(water, f"{label}s", str, where), count, f"{label}s", where)
        for copy, side in enumerate(sides, start=1):
            raw.append((f"{label}-{copy}", Tile(kind, -1, worth, side, f"{label}-{copy}",
                                                f"prey:{label}:{copy}")))
    raw.sort()
    tiles = tuple(tile for _, tile in raw)
    if len(tiles) != size * size:
        raise DataFileError(
            f"{where}: {len(tiles)} tiles do not fill the {size}x{size} grid exactly "
            "(the four centre tiles go back in the box)"
        )

    colours = words(data, "trappers.colours", where, count=4)
    half = size // 2
    starts = tuple(row * size + col for row in (half - 1, half) for col in (half - 1, half))
    cards = field(data, "cards", dict, where)
    per_colour = field(cards, "per_colour", int, where)
    hand_size = field(cards, "hand_size", int, where)
    draw = field(cards, "draw_per_turn", int, where)
    if per_colour < 2 or hand_size < 1 or draw < 1 or 4 * hand_size > 4 * per_colour:
        raise DataFileError(f"{where}: cards must allow dealing 4 hands of hand_size")
    bonus = whole_numbers(data, "chips.bonus", where, 1)
    species_chips = whole_numbers(data, "chips.species", where, 1)
    payouts = whole_numbers(data, "chips.payouts", where, 1)
    if list(bonus) != sorted(set(bonus)) or list(species_chips) != sorted(set(species_chips)):
        raise DataFileError(f"{where}: chips.bonus and chips.species must increase")
    if list(payouts) != sorted(payouts, reverse=True):
        raise DataFileError(f"{where}: chips.payouts must not increase")
    return Components(
        name=field(data, "name", str, where),
        size=size,
        species=tuple(species),
        animal_values=values,
        canoe_capacities=capacities,
        tiles=tiles,
        numbers={tile.name: number for number, tile in enumerate(tiles)},
        colours=tuple(colours),
        starts=starts,
        per_colour=per_colour,
        hand_size=hand_size,
        draw_per_turn=draw,
        start_money=field(field(data, "money", dict, where), "start", int, where),
        bonus_chips=bonus,
        species_chips=species_chips,
        payouts=payouts,
        assumed=ASSUMED_FIELDS,
        worths=worths,
        value_set=next(iter(worths)),
    )


def _worths(data: dict[str, Any], where: str) -> dict[str, tuple[int, int]]:
    """``values``: set name -> {herb, mushroom} worths, at least one set."""
    table = field(data, "values", dict, where)
    if not table:
        raise DataFileError(f"{where}: values must name at least one value set")
    worths = {}
    for name, entry in table.items():
        if not isinstance(entry, dict) or set(entry) != {"herb", "mushroom"}:
            raise DataFileError(f"{where}: values.{name} must be {{ herb = N, mushroom = N }}, "
                                f"not {entry!r}")
        worths[name] = (whole_number(data, f"values.{name}.herb", where, 1),
                        whole_number(data, f"values.{name}.mushroom", where, 1))
    return worths
