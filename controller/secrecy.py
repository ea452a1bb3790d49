"""What the table may show everyone while a player's hand is secret.

The legal moves often depend on a hand nobody else may see. Lighting exactly those sites, or
listing exactly those moves, would show the hand; so when they depend on it, the table shows the
union over positions it cannot tell apart (redrawn with the game's own ``resample``) and lists
nothing. Checked generically, for any game that declares its secrets by overriding ``resample``.
"""

from __future__ import annotations

import random
from typing import Any

from games.core.game import Game

from .referee import Successors, changed_sites

SAME_LEGAL_SAMPLES = 4
"""Redraws that must all leave the legal moves unchanged for them to count as public."""
PUBLIC_LED_SAMPLES = 8
"""Redrawn hands whose legal sites are lit too, when the real hand is secret."""


def public_legal_actions(game: Game[Any], state: Any, successors: Successors, seed: int
                         ) -> list[str] | None:
    """The legal actions, unless they depend on hidden information (a hand): then None."""
    if successors.chance or game.is_terminal(state):
        return []
    legal = game.legal_actions(state)
    probe = random.Random(seed)
    for _ in range(SAME_LEGAL_SAMPLES):
        if game.legal_actions(game.resample(state, None, probe)) != legal:
            return None
    return legal


def legal_sites(game: Game[Any], state: Any, successors: Successors, seed: int,
                hand_known: bool = False) -> set[str]:
    """Sites some legal step could change; widened over redrawn hands unless ``hand_known``
    (an AI seat's move is made for it: nothing of a person's hand to hide)."""
    current = game.board(state)
    sites = {site for s in successors.changing for site in changed_sites(current, s.board)}
    if hand_known or public_legal_actions(game, state, successors, seed) is not None:
        return sites
    probe = random.Random(seed)
    for _ in range(PUBLIC_LED_SAMPLES):
        other = game.resample(state, None, probe)
        base = game.board(other)
        for action in game.legal_actions(other):
            sites |= changed_sites(base, game.board(game.apply(other, action)))
    return sites
