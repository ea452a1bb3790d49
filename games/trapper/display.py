"""A player's display: canoes with what lies at them, loose tiles, sold loads.

Pure functions over immutable tuples, shared by the engine and by ``score_position``:
where a tile may go (its attachment limits), attaching it, and selling a full canoe.
"""

from __future__ import annotations

from typing import NamedTuple

from .components import ANIMAL, CANOE, HERB, MUSHROOM, Components

NONE = -1


class Canoe(NamedTuple):
    """An unsold canoe and what lies at it (tile numbers; NONE for no herb or mushroom)."""

    canoe: int
    animals: tuple[int, ...]
    herb: int = NONE
    mushroom: int = NONE

    def tiles(self) -> tuple[int, ...]:
        extras = tuple(t for t in (self.herb, self.mushroom) if t != NONE)
        return (*self.animals, *extras)


class Sold(NamedTuple):
    """A sold canoe: its load still lies under it until it is traded for a species chip."""

    canoe: int
    load: tuple[int, ...]
    amount: int


class Display(NamedTuple):
    canoes: tuple[Canoe, ...] = ()
    """Unsold canoes, empty ones included: each takes the matching tiles taken after it."""
    loose: tuple[int, ...] = ()
    """Sorted tile numbers: animals, herbs and mushrooms no canoe could take (in the first
    reading, also canoes laid with nothing at them)."""
    sold: tuple[Sold, ...] = ()


def load_value(tiles: tuple[int, ...], components: Components) -> int:
    return sum(components.tiles[tile].value for tile in tiles)


def _room(display: Display, tile: int, components: Components) -> list[tuple[int, int]]:
    """(free animal places, canoe) for every canoe the tile may be laid at: a canoe of its
    species with room for an animal, or one without a herb (a mushroom) for a herb (a
    mushroom). Canoes themselves go onto no canoe."""
    tiles = components.tiles
    info = tiles[tile]
    kind = info.kind
    canoes = display.canoes
    if kind == ANIMAL:
        return [(tiles[c.canoe].value - len(c.animals), c.canoe) for c in canoes
                if tiles[c.canoe].species == info.species
                and len(c.animals) < tiles[c.canoe].value]
    if kind == HERB:
        return [(tiles[c.canoe].value - len(c.animals), c.canoe) for c in canoes
                if c.herb == NONE]
    if kind == MUSHROOM:
        return [(tiles[c.canoe].value - len(c.animals), c.canoe) for c in canoes
                if c.mushroom == NONE]
    return []


def targets(display: Display, tile: int, components: Components) -> tuple[int, ...]:
    """The canoes (by tile) a taken animal, herb or mushroom may be laid at; () if none:
    then it lies loose. A canoe never has a choice (see ``attach``)."""
    return tuple(canoe for _, canoe in _room(display, tile, components))


def auto_target(display: Display, tile: int, components: Components) -> int:
    """Where the table lays a tile that could go to several canoes (placement "auto"): the
    canoe with the fewest free animal places (it sells soonest, and a sold load counts
    double), ties by canoe name. NONE: it lies loose (or is a canoe)."""
    found = _room(display, tile, components)
    return min(found)[1] if found else NONE


def attach(
    display: Display, tile: int, onto: int, components: Components, first_reading: bool = False
) -> tuple[Display, Sold | None]:
    """Lay ``tile`` in the display (at canoe ``onto``, or loose if NONE); a canoe that is now
    full is sold at once. A new canoe gathers what fits of the loose tiles: its species'
    animals, highest first, up to its capacity, and one herb and one mushroom; with nothing to
    gather it waits, empty, for what comes later (``first_reading``: it lies loose for good,
    as rules revision 1 had it)."""
    tiles = components.tiles
    info = tiles[tile]
    if info.kind == CANOE:
        loose = list(display.loose)
        animals = sorted(
            (t for t in loose if tiles[t].kind == ANIMAL and tiles[t].species == info.species),
            key=lambda t: (-tiles[t].value, t),
        )[: info.value]
        herb = next((t for t in loose if tiles[t].kind == HERB), NONE)
        mushroom = next((t for t in loose if tiles[t].kind == MUSHROOM), NONE)
        gathered = [*animals, *(t for t in (herb, mushroom) if t != NONE)]
        if not gathered and first_reading:
            return display._replace(loose=tuple(sorted((*loose, tile)))), None
        for t in gathered:
            loose.remove(t)
        canoe = Canoe(tile, tuple(sorted(animals)), herb, mushroom)
        return _settle(display._replace(loose=tuple(loose)), canoe, len(display.canoes), components)
    if onto == NONE:
        return display._replace(loose=tuple(sorted((*display.loose, tile)))), None
    index = next(i for i, c in enumerate(display.canoes) if c.canoe == onto)
    canoe = display.canoes[index]
    if info.kind == ANIMAL:
        canoe = canoe._replace(animals=tuple(sorted((*canoe.animals, tile))))
    elif info.kind == HERB:
        canoe = canoe._replace(herb=tile)
    else:
        canoe = canoe._replace(mushroom=tile)
    canoes = display.canoes[:index] + display.canoes[index + 1 :]
    return _settle(display._replace(canoes=canoes), canoe, index, components)


def _settle(
    display: Display, canoe: Canoe, index: int, components: Components
) -> tuple[Display, Sold | None]:
    """Put ``canoe`` back at ``index``, or sell it at once if its animals fill it: the sum
    of its whole load doubled."""
    if len(canoe.animals) < components.tiles[canoe.canoe].value:
        canoes = (*display.canoes[:index], canoe, *display.canoes[index:])
        return display._replace(canoes=canoes), None
    load = canoe.tiles()
    sold = Sold(canoe.canoe, load, 2 * load_value(load, components))
    return display._replace(sold=(*display.sold, sold)), sold


def bonus_chip(amount: int, owners: tuple[int, ...], values: tuple[int, ...]) -> int:
    """The index of the bonus chip a sale of ``amount`` takes: the chip of that value or the
    next lower one still in the bank (-1: none)."""
    for index in range(len(values) - 1, -1, -1):
        if values[index] <= amount and owners[index] < 0:
            return index
    return -1


def species_of_sold(display: Display, components: Components) -> dict[int, int]:
    """Sold loads still held, counted per species."""
    counts: dict[int, int] = {}
    for sold in display.sold:
        species = components.tiles[sold.canoe].species
        counts[species] = counts.get(species, 0) + 1
    return counts


def trade_loads(display: Display, k: int, components: Components) -> Display:
    """Hand in ``k`` whole loads of ``k`` different species: of each of the k species with the
    most loads held (ties: species order) the oldest load. That keeps the most different
    species for a later trade, so no other choice is ever better."""
    counts = species_of_sold(display, components)
    chosen = sorted(counts, key=lambda s: (-counts[s], s))[:k]
    sold = list(display.sold)
    for species in chosen:
        index = next(i for i, s in enumerate(sold) if components.tiles[s.canoe].species == species)
        del sold[index]
    return display._replace(sold=tuple(sold))
