"""Trapper's limits: every action that can ever be legal, and provable bounds on a game.

Search and OpenSpiel number actions by their index in ``Limits.actions``, so the list is built
by enumerating the action grammar over the component data (cells, tiles, colours, canoes,
chips), never by watching games. It may hold actions no game reaches, never miss one.

The grammar and what narrows it:

- ``setup``, ``pass``, ``done``, ``retire``: once each.
- ``lay R:C TILE``: every layout cell (the centre squares are never laid) with every tile, since
  the layout is drawn at random from the whole box.
- ``deal COLOUR``, ``draw COLOUR``: every colour (no seat in the text).
- ``COLOUR R:C [joker OTHER]``: every trapper colour, every layout cell (only they ever hold a
  tile; a jump reaches any of them, and any tile may lie there), paid with one card of the
  colour or two of one of the other three.
- ``... onto CANOE``: only with ``placement=choose`` (``auto`` never offers a choice), and then
  with every canoe after every step text: the tile on the cell is unknown in advance, and any
  canoe, even of capacity 1, can hold herb and mushroom and so offer a choice.
- ``trade K``: every species chip.

The player count changes none of these (no action names a seat); it only changes the bounds.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.game import Limits

from .actions import DONE, PASS, RETIRE, SETUP, ActionTexts
from .components import CANOE, Components


def enumerate_actions(texts: ActionTexts, layout: Sequence[int], choose: bool) -> tuple[str, ...]:
    """The sorted action texts of the grammar above, taken from the engine's own text tables
    (so every entry is canonical by construction)."""
    found = {SETUP, PASS, DONE, RETIRE, *texts.deal, *texts.draw, *texts.trade.values()}
    for cell in layout:
        found.update(texts.lay[cell])
        for per_colour in texts.step:
            for base in per_colour[cell]:
                if not base:  # a joker of the trapper's own colour does not exist
                    continue
                found.add(base)
                if choose:
                    found.update(base + suffix for suffix in texts.onto.values())
    return tuple(sorted(found))


def max_steps(components: Components, layout_cells: int, n_players: int,
              first_reading: bool = False) -> int:
    """An upper bound on the steps of a game (player actions and chance outcomes).

    With L layout cells, n players, h cards a hand, d cards drawn a turn, C cards in all,
    K species chips:

    - ``setup`` 1, ``lay`` exactly L, ``deal`` exactly n * h (round the table until the last
      seat holds h);
    - tile steps S <= L: each takes a tile off the grid and none ever comes back;
    - trades <= K: each takes a chip from the bank and no chip returns;
    - retirements <= n;
    - ``done`` ends a turn with at least one step, so dones D <= S <= L;
    - passes, box reading: a pass is allowed only while a card can be drawn, and draws at
      least one card from the draw and discard piles into a hand. Cards enter those piles only
      as the C - n*h left after the deal, as payments (at most 2 a step: <= 2L) and as the
      hands of retiring players (at most C each: <= nC). So P <= C - n*h + 2L + nC.
    - passes, reading revision1: only a step resets the pass count, and the game ends once it
      reaches the players still in (<= n). So at most n - 1 passes lie between two steps
      (S gaps) and at most n after the last: P <= (n - 1) * L + n;
    - draws: at most d after each pass or done, none after a retirement.

    Sum: 1 + L + n*h + L + K + n + (1 + d) * (P + D).
    """
    n, big_l = n_players, layout_cells
    cards = components.per_colour * len(components.colours)
    if first_reading:
        passes = (n - 1) * big_l + n
    else:
        passes = cards - n * components.hand_size + 2 * big_l + n * cards
    return (1 + big_l + n * components.hand_size + big_l + len(components.species_chips) + n
            + (1 + components.draw_per_turn) * (passes + big_l))


def score_range(components: Components, layout_cells: int) -> tuple[int, int]:
    """Provable (lowest, highest) total of one player, running or final.

    Money is the starting money plus: sales (twice the value of the animals, herbs and
    mushrooms in the load; the canoe itself earns nothing), unfinished canoes (their load's
    simple value), loose tiles (minus their value, a canoe its capacity) and chip payouts.
    Every tile a player holds was taken from the L laid tiles and counts in at most one of
    these lines, so:

    - lowest: every tile of the player loose or an empty canoe (a canoe taken when nothing
      else comes its way), at worst the L tiles of highest value;
    - highest: every animal, herb and mushroom sold (at most L of them, twice their value),
      plus the payouts of every chip of both kinds (payout ranks 1..5 of each kind).
    Running totals (sales only) lie between the starting money and the highest.
    """
    tiles = components.tiles
    start = components.start_money
    costs = sorted((tile.value for tile in tiles), reverse=True)[:layout_cells]
    earnings = sorted((2 * tile.value for tile in tiles if tile.kind != CANOE),
                      reverse=True)[:layout_cells]
    payouts = components.payouts
    chips = sum(payouts[: len(components.bonus_chips)]) + sum(
        payouts[: len(components.species_chips)])
    return start - sum(costs), start + sum(earnings) + chips


def trapper_limits(
    components: Components, actions: tuple[str, ...], layout_cells: int, n_players: int,
    first_reading: bool = False,
) -> Limits:
    """The limits for ``n_players`` with the action space already enumerated (``components``
    with the option's value set)."""
    low, high = score_range(components, layout_cells)
    return Limits(
        actions=actions,
        max_steps=max_steps(components, layout_cells, n_players, first_reading),
        min_score=low,
        max_score=high,
    )
