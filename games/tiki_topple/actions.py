"""Tiki Topple's action texts: the cards' moves, the chance outcomes, and parsing them.

Texts are made once (``legal_actions`` runs in every step of every playout); ``CANONICAL``
lets ``apply`` skip parsing what is already in canonical form.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from games.core.action_text import is_number, words
from games.core.errors import BadActionText
from games.core.game import Sentence

from . import stack as moves
from .components import CARD_KINDS, Edition, load_edition

TIKIS = load_edition("schmidt").tikis
SORTED_TIKIS = tuple(sorted(TIKIS))
PLAY_ORDER = tuple(sorted(("puh", "toast", "topple", "up1", "up2", "up3", "wiki")))
"""Card kinds in the order their actions sort."""
TARGET_TEXT = {kind: {tiki: f"{kind} {tiki}" for tiki in TIKIS} for kind in moves.TARGETED}
WIKI_PAIRS = tuple((a, b, f"wiki {a} {b}") for a, b in itertools.combinations(SORTED_TIKIS, 2))
"""Action texts made once: legal_actions runs in every step of every playout."""


@cache
def build_outcomes(edition_id: str) -> tuple[tuple[str, Fraction], ...]:
    """Every legal stack (groups contiguous, any order): 3! x 3!^3 = 1296, equally likely."""
    groups = load_edition(edition_id).groups
    stacks = [
        tuple(tiki for group in group_order for tiki in group)
        for ordered in itertools.product(*(itertools.permutations(g) for g in groups))
        for group_order in itertools.permutations(ordered)
    ]
    actions = sorted("build " + " ".join(s) for s in stacks)
    probability = Fraction(1, len(actions))
    return tuple((action, probability) for action in actions)


@cache
def aside_sampler(hand: tuple[str, ...], count: int) -> tuple[list[str], list[float]]:
    """``aside_outcomes`` as float cumulative weights, for fast sampling."""
    outcomes = aside_outcomes(hand, count)
    return [a for a, _ in outcomes], list(itertools.accumulate(float(p) for _, p in outcomes))


@cache
def wiki_actions(present: frozenset[str]) -> tuple[str, ...]:
    return tuple(text for a, b, text in WIKI_PAIRS if a in present and b in present)


@cache
def build_actions(edition_id: str) -> frozenset[str]:
    return frozenset(action for action, _ in build_outcomes(edition_id))


@cache
def aside_outcomes(hand: tuple[str, ...], count: int) -> tuple[tuple[str, Fraction], ...]:
    """The card kinds set aside from ``hand``, with the chance of each multiset."""
    tally = Counter(
        tuple(sorted(combo)) for combo in itertools.combinations(hand, count)
    )
    total = math.comb(len(hand), count)
    return tuple(
        sorted(("aside " + " ".join(kinds), Fraction(n, total)) for kinds, n in tally.items())
    )


def stack_groups_ok(edition: Edition, stack: Sequence[str]) -> Sentence | None:
    """None if ``stack`` is a legal starting stack, else why not."""
    if sorted(stack) != sorted(edition.tikis):
        return Sentence("the stack must hold each of the 9 tikis exactly once")
    group_of = {tiki: n for n, group in enumerate(edition.groups) for tiki in group}
    runs = [group_of[tiki] for tiki in stack]
    if any(runs[i] != runs[i - i % 3] for i in range(9)):
        return Sentence("the tikis of each back symbol must stand together, three in a row")
    return None


CANONICAL = frozenset(
    [*(t for texts in TARGET_TEXT.values() for t in texts.values())]
    + [text for _, _, text in WIKI_PAIRS]
    + ["toast", "pass", "clear"]
    + [f"mission {number}" for number in range(1, 100)]
    + ["aside " + " ".join(kinds) for size in (1, 2, 3)
       for kinds in itertools.combinations_with_replacement(sorted(CARD_KINDS), size)]
)
"""Actions already in canonical form, so apply can skip parsing them (a stack to build is
checked against the outcomes themselves)."""


def parse(text: str) -> str:
    """The canonical text of an action typed by a person; raises BadActionText."""
    head, *args = words(text)
    if head in ("toast", "pass", "clear") and not args:
        return head
    if head in moves.TARGETED and len(args) == 1 and args[0] in TIKIS:
        return f"{head} {args[0]}"
    if head == "wiki" and len(args) == 2 and set(args) <= set(TIKIS) and args[0] != args[1]:
        return "wiki " + " ".join(sorted(args))
    if head == "build" and len(args) == 9 and sorted(args) == sorted(TIKIS):
        return "build " + " ".join(args)
    if head == "mission" and len(args) == 1 and is_number(args[0]):
        return f"mission {int(args[0])}"
    if head == "aside" and args and all(kind in CARD_KINDS for kind in args):
        return "aside " + " ".join(sorted(args))
    raise BadActionText(
        f"{text.strip()!r} is not a Tiki Topple action; try e.g. 'up2 lokahi', "
        "'puh nani', 'topple kapu', 'wiki nani kapu', 'toast'"
    )
