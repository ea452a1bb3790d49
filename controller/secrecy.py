"""What the table may show everyone while a player's hand is secret.

The legal moves often depend on a hand nobody else may see. Lighting exactly those sites, or
listing exactly those moves, would show the hand; so when they depend on it, the table shows the
union over positions it cannot tell apart (redrawn with the game's own ``resample``, not the
real hand) and lists nothing. Checked generically, for any game that declares its secrets by
overriding ``resample``. Pieces lying face down are read by their tags but shown to everyone
only as face down (``Game.face_down``), and actions are told in their public words
(``Game.public_action``).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games.core.game import FACE_DOWN, Game

from .referee import Decision, Discrepancy, InProgress, Successors, WrongSite, changed_sites

SAME_LEGAL_SAMPLES = 4
"""Redraws that must all leave the legal moves unchanged for them to count as public."""
PUBLIC_LED_SAMPLES = 8
"""Redrawn hands whose legal sites are lit, when the real hand is secret."""


def _redraws(game: Game[Any], state: Any, seed: int, count: int) -> list[Any]:
    """Positions the public cannot tell from ``state``. A game's redraw depends only on what
    the viewer sees (checked by the conformance check), so these are the same for every
    hand the table cannot tell apart: whatever is shown from them gives nothing away."""
    probe = random.Random(seed)
    return [game.resample(state, None, probe) for _ in range(count)]


def public_legal_actions(game: Game[Any], state: Any, successors: Successors, seed: int
                         ) -> list[str] | None:
    """The legal actions, unless they depend on hidden information (a hand): then None."""
    if successors.chance or game.is_terminal(state):
        return []
    legal = game.legal_actions(state)
    for other in _redraws(game, state, seed, SAME_LEGAL_SAMPLES):
        if game.legal_actions(other) != legal:
            return None
    return legal


def legal_sites(game: Game[Any], state: Any, successors: Successors, seed: int,
                hand_known: bool = False) -> set[str]:
    """Sites some legal step could change. When the steps depend on a secret hand (and it is
    not an AI seat's, whose move is made for it), the sites redrawn hands could use: the
    same for every hand the table cannot tell apart."""
    current = game.board(state)
    sites = {site for s in successors.changing for site in changed_sites(current, s.board)}
    if hand_known or public_legal_actions(game, state, successors, seed) is not None:
        return sites
    sites = set()
    for other in _redraws(game, state, seed, PUBLIC_LED_SAMPLES):
        base = game.board(other)
        for action in game.legal_actions(other):
            sites |= changed_sites(base, game.board(game.apply(other, action)))
    return sites


def hidden_sites(game: Game[Any], state: Any, successors: Successors) -> frozenset[str]:
    """Sites whose piece everyone may not be told: face down now, or face down once a legal
    step is made (a tile laid face down is read before the step is accepted)."""
    sites = set(game.face_down(state))
    for successor in successors.changing:
        sites |= game.face_down(successor.state)
    return frozenset(sites)


def public_decision(decision: Decision, game: Game[Any], state: Any, hidden: frozenset[str],
                    legal_public: bool, legal_sites: set[str]) -> Decision:
    """``decision`` as the page, the log and the LEDs may show it: face-down pieces not
    named, and, when the legal steps depend on a secret hand, a step under way lit over every
    site a hand like it could use (``legal_sites``) rather than the hand's own."""
    def masked(site: str, piece: str | None) -> str | None:
        return FACE_DOWN if piece is not None and site in hidden else piece

    if isinstance(decision, Discrepancy):
        wrong = tuple(WrongSite(w.site, masked(w.site, w.expected), masked(w.site, w.seen))
                      for w in decision.wrong)
        toward = game.public_action(state, decision.toward) if decision.toward else None
        return dataclasses.replace(decision, wrong=wrong, toward=toward)  # its kind kept
    if isinstance(decision, InProgress) and not legal_public:
        targets = tuple(sorted(legal_sites - set(decision.active)))  # not the hand's own
        return InProgress((), targets, decision.active)
    return decision
