"""Tiki Topple's limits: every action of an edition, and provable bounds on a game."""

from __future__ import annotations

from functools import cache

from games.core.game import Limits

from . import stack as moves
from .actions import TARGET_TEXT, WIKI_PAIRS, aside_outcomes, build_outcomes
from .components import load_edition


@cache
def edition_limits(edition_id: str, n_players: int, deck: str = "sheet",
                   goal: bool = False) -> Limits:
    """Every action of an edition, and the bounds of a game of it.

    A round has 1 build, n deals, n set-asides (if any), then turns that each take at least
    one card from a hand (a pass empties it, empty hands are skipped), then 1 clear; each
    round adds at most the sum of the mission points to a total, never less than 0. With
    ``goal`` (end=35_points) a game has at most the goal's cap of rounds.
    """
    edition = load_edition(edition_id, deck)
    hand = edition.hand(n_players)
    kinds = set(hand)
    actions = {action for action, _ in build_outcomes(edition_id)}
    actions |= {f"mission {number}" for number in range(1, len(edition.missions) + 1)}
    if edition.set_aside:
        actions |= {action for action, _ in aside_outcomes(hand, edition.set_aside)}
    actions |= {TARGET_TEXT[kind][tiki] for kind in moves.TARGETED if kind in kinds
                for tiki in edition.tikis}
    if "wiki" in kinds:
        actions |= {text for _, _, text in WIKI_PAIRS}
    if "toast" in kinds:
        actions.add("toast")
    actions |= {"pass", "clear"}
    rounds = edition.rounds(n_players, goal)
    setup = 1 + n_players * (2 if edition.set_aside else 1)
    turns = n_players * (len(hand) - edition.set_aside)
    return Limits(
        actions=tuple(sorted(actions)),
        max_steps=rounds * (setup + turns + 1),
        min_score=rounds * sum(min(points, 0) for points in edition.points),
        max_score=rounds * sum(max(points, 0) for points in edition.points),
    )
