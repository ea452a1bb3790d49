"""A state that cannot happen is refused with the game's own error, never accepted or crashed on.

Every field of real states' JSON is replaced by values of the wrong kind (None, a list, an
object, text, a fraction, a bool) and, for whole numbers, by a billion: no count in a box game
comes near it. ``state_from_json`` must raise a GameError (BadState) for each, or accept only
what is still a state of the game.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.core.errors import GameError
from games.core.game import Game
from games.core.playout import random_step

from .conftest import players_for

WRONG_KINDS: list[Any] = [None, [], {}, [1, 2], {"a": 1}, "x", 1.5, True]
A_BILLION = 10**9


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:3]):
            yield from paths(inner, (*prefix, index))


def at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def changed(data: dict[str, Any], path: tuple[Any, ...], new: Any) -> dict[str, Any]:
    copied = copy.deepcopy(data)
    parent = at(copied, path[:-1])
    parent[path[-1]] = new
    return copied


def some_states(game: Game[Any]) -> list[Any]:
    rng = random.Random(3)
    state = game.initial(players_for(game))
    seen = [state]
    for _ in range(80):
        if game.is_terminal(state):
            break
        state = game.apply(state, random_step(game, state, rng))
        seen.append(state)
    return seen[:: max(1, len(seen) // 3)]


def test_wrong_kinds_and_impossible_numbers_are_refused(game: Game[Any]) -> None:
    accepted_billions = []
    for state in some_states(game):
        data = game.state_to_json(state)
        for path in list(paths(data))[1:]:
            old = at(data, path)
            trials = [*WRONG_KINDS]
            if isinstance(old, int) and not isinstance(old, bool):
                trials.append(A_BILLION)
            for new in trials:
                if new == old and type(new) is type(old):
                    continue
                try:
                    game.state_from_json(changed(data, path, new))
                except GameError:
                    continue
                except Exception as error:  # the point: nothing else may escape
                    pytest.fail(f"{game.id}: {path} = {new!r} raised "
                                f"{type(error).__name__}: {error}")
                if new is A_BILLION:
                    accepted_billions.append(path)
    assert accepted_billions == [], f"{game.id} accepted a billion at {accepted_billions[:5]}"
