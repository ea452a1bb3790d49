"""Topiary's limits: every action text that can ever be legal, the longest game, the score range.

Search and the OpenSpiel bridge number actions by their index in ``Limits.actions``, so the
list is built by walking the action grammar over the component data (tiles, cells, spots), not
by watching games. Chance decides which shape leaves the box and which tile goes where, so every
tile can turn up in every tile-naming action; what this module prunes is only what the rules
exclude for the player count and options (see ``action_texts_for``).
"""

from __future__ import annotations

from games.core.game import Limits

from .actions import BOX, NO_TAKE, PICK, ActionTexts
from .components import Components
from .spots import all_spots, centre_cell


def leftover_tiles(components: Components, n_players: int) -> int:
    """Tiles still in the box after the layout and the deal: what the draft passes round."""
    shapes_in_play = len(components.shapes) - components.removed_shapes[n_players]
    in_play = shapes_in_play * len(components.values)
    return in_play - components.size**2 - n_players * components.hand_size


def action_texts_for(
    components: Components, texts: ActionTexts, n_players: int, draft: bool,
    optional_take: bool = False,
) -> tuple[str, ...]:
    """Every action of the grammar that the rules allow for this setup, sorted and unique.

    - ``remove SHAPE``: every shape, only when the data removes a shape for this player count.
    - ``lay R:C TILE`` and ``deal TILE``: every cell and every tile (any tile can be drawn).
    - ``pick``: always (the deal).
    - ``pass TILE`` and ``box``: only in the draft, and only if tiles are left to draft.
    - ``visitor SPOT``: every spot; ``no take`` only with the option take=may.
    - ``take R:C`` and ``place R:C TILE``: cells on some visitor's line, except the centre,
      which is laid face up and never turns face down, so it is never taken nor a gap.
    """
    centre = centre_cell(components.size)
    takeable = sorted({cell for spot in all_spots(components.size) for cell in spot.line})
    takeable.remove(centre)
    actions: list[str] = [PICK]
    if components.removed_shapes[n_players]:
        actions += texts.remove
    for row in texts.lay:
        actions += row
    actions += texts.deal
    if draft and leftover_tiles(components, n_players) > 0:
        actions += texts.passing
        actions.append(BOX)
    actions += texts.visitor
    if optional_take:
        actions.append(NO_TAKE)
    for cell in takeable:
        actions.append(texts.take[cell])
        actions += texts.place[cell]
    return tuple(sorted(set(actions)))


def max_steps(components: Components, n_players: int, draft: bool,
              optional_take: bool = False) -> int:
    """The longest game, step by step (every count comes from the data file):

    - remove: ``removed_shapes[n]`` steps (0 or 1);
    - lay: one step per cell, ``size**2``;
    - deal: ``n * hand_size`` deals, each followed by a pick;
    - draft: each of the n players passes the L leftover tiles one at a time (the last player
      dealt to starts with ``hand_size + L`` and everybody keeps ``hand_size``), each pass
      followed by a pick or, for the start player, a box: ``2 * n * L``;
    - turns: ``V = n * visitors_per_player[n]`` visitors; a turn adds a take and a place only
      while a face-down tile is left, and each take-and-place turns one face up for good, so
      at most ``m = min(V, size**2 - 1)`` turns have three steps (the centre starts face up):
      V + 2m. With take=may a turn may instead be a visitor and ``no take`` (two steps): at
      most V + m + V.
    """
    cells = components.size**2
    visitors = n_players * components.visitors_per_player[n_players]
    steps = components.removed_shapes[n_players] + cells + 2 * n_players * components.hand_size
    if draft:
        steps += 2 * n_players * max(0, leftover_tiles(components, n_players))
    most = min(visitors, cells - 1)
    return steps + visitors + (visitors + most if optional_take else 2 * most)


def score_range(components: Components, n_players: int) -> tuple[int, int]:
    """The lowest and highest total a player can ever have.

    Every score line is a sum of tile values (at least 1) and set bonuses (positive), so no
    total is below 0. Above: a visitor's scored tiles have strictly rising values, so at most
    ``k = min(size, number of values)`` of them, worth at most the k highest values; the set
    bonus adds at most 1 per scored tile (k). A hand tile scores only below a scored tile of its
    shape, so at most the second-highest value, and a hand holds ``hand_size`` tiles at the end.
    Hence ``visitors_per_player[n] * (top k values + k) + hand_size * second value``; the
    running score (visitors only) stays below the same bound.
    """
    values = sorted(components.values)
    k = min(components.size, len(values))
    per_visitor = sum(values[-k:]) + k
    per_hand_tile = values[-2] if len(values) > 1 else 0
    high = components.visitors_per_player[n_players] * per_visitor
    return 0, high + components.hand_size * per_hand_tile


def build_limits(components: Components, texts: ActionTexts, n_players: int, draft: bool,
                 optional_take: bool = False) -> Limits:
    low, high = score_range(components, n_players)
    return Limits(
        actions=action_texts_for(components, texts, n_players, draft, optional_take),
        max_steps=max_steps(components, n_players, draft, optional_take),
        min_score=low,
        max_score=high,
    )
