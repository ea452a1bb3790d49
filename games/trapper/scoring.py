"""Money as the score: canoe sales during play, then the final scoring.

Pure functions over plain data, shared by the engine's running score and ``score_position``.
Final scoring (the sheet): unfinished canoes with at least one tile pay their simple value,
empty canoes cost their capacity and loose tiles their value, and per kind of chip the five
highest chips taken pay 12, 8, 5, 3, 2 (ASSUMED amounts) to their owners.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.game import Sentence
from games.core.scoresheet import ScoreLine, ScoreSheet

from . import words
from .components import CANOE, Components
from .display import Display, Sold, load_value


def sale_text(sold: Sold, components: Components) -> Sentence:
    names = components.tiles
    return Sentence("sold {canoe} ({load}): 2 x {value} = {amount}", {
        "canoe": words.tile(names[sold.canoe], components.species),
        "load": words.tiles([names[t] for t in sold.load], components.species),
        "value": str(load_value(sold.load, components)), "amount": str(sold.amount)})


def chip_payouts(
    owners: Sequence[int], values: Sequence[int], payouts: Sequence[int]
) -> list[tuple[int, int, int, int]]:
    """(owner, chip value, rank from 1, payout) for every chip taken, highest first."""
    taken = sorted(((values[i], owners[i]) for i in range(len(values)) if owners[i] >= 0),
                   reverse=True)
    return [
        (owner, value, rank, payouts[rank - 1] if rank <= len(payouts) else 0)
        for rank, (value, owner) in enumerate(taken, start=1)
    ]


def score_table(
    players: Sequence[str],
    start_money: int,
    sales: Sequence[Sequence[Sold]],
    displays: Sequence[Display],
    bonus_owners: Sequence[int],
    species_owners: Sequence[int],
    final: bool,
    components: Components,
) -> ScoreSheet:
    """Money per player with its lines; ``final`` adds the end-of-game scoring."""
    tiles = components.tiles
    kinds = components.species
    lines: list[list[ScoreLine]] = [[] for _ in players]
    for seat in range(len(players)):
        if start_money:
            lines[seat].append(ScoreLine(Sentence("starting money: {money}",
                                                  {"money": str(start_money)}), start_money))
        for sold in sales[seat]:
            lines[seat].append(ScoreLine(sale_text(sold, components), sold.amount))
    if final:
        for seat, display in enumerate(displays):
            for canoe in display.canoes:
                load = canoe.tiles()
                info = tiles[canoe.canoe]
                if not load:
                    lines[seat].append(ScoreLine(
                        Sentence("empty {canoe}: -{capacity} (capacity)",
                                 {"canoe": words.tile(info, kinds), "capacity": str(info.value)}),
                        -info.value))
                    continue
                value = load_value(load, components)
                lines[seat].append(ScoreLine(
                    Sentence("unfinished {canoe} ({load}): +{value}",
                             {"canoe": words.tile(info, kinds),
                              "load": words.tiles([tiles[t] for t in load], kinds),
                              "value": str(value)}),
                    value))
            for tile in display.loose:
                info = tiles[tile]
                named = {"tile": words.tile(info, kinds), "value": str(info.value)}
                lines[seat].append(ScoreLine(
                    Sentence("loose {tile}: -{value} (capacity)", named) if info.kind == CANOE
                    else Sentence("loose {tile}: -{value} (value)", named),
                    -info.value))
        for kind, owners, values in (
            ("bonus", bonus_owners, components.bonus_chips),
            ("species", species_owners, components.species_chips),
        ):
            for owner, value, rank, pay in chip_payouts(owners, values, components.payouts):
                chip = {"chip": str(value), "pay": str(pay),
                        "place": words.ordinal_place(rank) if pay
                        else Sentence("not among the highest")}
                lines[owner].append(ScoreLine(
                    Sentence("bonus chip {chip}: {place}, +{pay}", chip) if kind == "bonus"
                    else Sentence("species chip {chip}: {place}, +{pay}", chip),
                    pay))
    return ScoreSheet(
        players=tuple(players),
        totals=tuple(sum(line.points for line in seat_lines) for seat_lines in lines),
        lines=tuple(tuple(seat_lines) for seat_lines in lines),
    )


def rank_winners(totals: Sequence[int]) -> list[int]:
    """Most money wins; the sheet has no tie-break, so all tied players win (ASSUMED)."""
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
