"""What each action card does to the tiki stack (a tuple, top first).

Every move must be made in full, so each card also says which tikis it may target.
"""

from __future__ import annotations

from games.core.game import Sentence

from .components import CARD_KINDS

TARGETED = ("up1", "up2", "up3", "puh", "topple")
"""Cards that name one tiki; ``wiki`` names two, ``toast`` none."""


def can_target(kind: str, index: int, size: int) -> bool:
    """Whether ``kind`` may move the tiki at ``index`` (0 = top) of a stack of ``size``."""
    if kind == "puh":
        return index + 2 <= size - 1
    if kind == "topple":
        return index < size - 1
    return index >= int(kind[2])  # up1, up2, up3


def target_range(kind: str, size: int) -> tuple[int, int]:
    """The slice of stack places ``kind`` may target: the same rule as ``can_target``."""
    if kind == "puh":
        return 0, size - 2
    if kind == "topple":
        return 0, size - 1
    return int(kind[2]), size


def why_not(kind: str, index: int, size: int) -> Sentence:
    """Why ``kind`` may not move the tiki at ``index``, in a player's words."""
    place = str(index + 1)
    if kind == "puh":
        return Sentence("puh moves a tiki 2 places down, and the tiki at place {place} of "
                        "{size} can't", {"place": place, "size": str(size)})
    if kind == "topple":
        return Sentence("topple can't be played on the bottom tiki")
    return Sentence("{kind} moves a tiki {steps} places up in full, and it stands at place "
                    "{place}", {"kind": kind, "steps": kind[2], "place": place})


def move(stack: tuple[str, ...], kind: str, tiki: str) -> tuple[str, ...]:
    """The stack after a targeted card; the caller has checked ``can_target``."""
    index = stack.index(tiki)
    rest = stack[:index] + stack[index + 1 :]
    if kind == "puh":
        to = index + 2
    elif kind == "topple":
        to = len(rest)
    else:
        to = index - int(kind[2])
    return rest[:to] + (tiki,) + rest[to:]


def swap(stack: tuple[str, ...], first: str, second: str) -> tuple[str, ...]:
    a, b = stack.index(first), stack.index(second)
    swapped = list(stack)
    swapped[a], swapped[b] = second, first
    return tuple(swapped)


def card_order(kind: str) -> int:
    return CARD_KINDS.index(kind)
