"""Playing random games and reading every sentence an engine tells people, in German too.

The games' sentence tests share this: at every step the headline must say something, name the
player whose hands act, and render in German with every template (nested ones included)
translated and every field filled; the events and score lines likewise; at the end the result
must name every winner.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.core.errors import IllegalAction
from games.core.game import Game, Sentence
from games.core.playout import random_step
from games.core.translation import CORE_LOCALE, Catalogue

UNFILLED = re.compile(r"\{[a-z_]*\}")


def german(game: Game[Any]) -> Catalogue:
    """The catalogue a German page uses for ``game``: the core's words and the game's."""
    folder = Path(__import__(type(game).__module__, fromlist=["_"]).__file__).parent
    return Catalogue.load("de", [CORE_LOCALE, folder / "locale"])


def templates(sentence: Sentence) -> Iterator[str]:
    """Every template in a sentence, nested ones included."""
    yield sentence.template
    for value in sentence.args.values():
        if isinstance(value, Sentence):
            yield from templates(value)


@dataclass
class Seen:
    """What the playouts met: phases, step templates, and every English and German text."""

    phases: set[str] = field(default_factory=set)
    step_templates: set[str] = field(default_factory=set)
    steps: int = 0
    results: list[str] = field(default_factory=list)


def check_text(catalogue: Catalogue, sentence: Sentence, what: str) -> str:
    """``sentence`` in German, after checking it says something, has every template
    translated and no field left unfilled; returns the German."""
    assert isinstance(sentence, Sentence), f"{what} is not a Sentence: {sentence!r}"
    english = str(sentence)
    assert english.strip(), f"{what} is empty"
    untranslated = [t for t in templates(sentence)
                    if t != "{text}" and t not in catalogue.messages()]
    assert not untranslated, f"{what}: no German for {untranslated}"
    text = catalogue.text(sentence)
    assert text.strip() and not UNFILLED.search(text), f"{what}: German {text!r} is unfilled"
    return text


def play_and_read(game: Game[Any], players: Sequence[str], options: Mapping[str, str],
                  seeds: Sequence[int]) -> Seen:
    """Play a seeded random game per seed and check every sentence on the way."""
    catalogue = german(game)
    seen = Seen()
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial(players, options)
        while True:
            seen.phases.add(game.phase(state))
            step = game.describe_step(state)
            seen.step_templates.add(step.template)
            seen.steps += 1
            text = check_text(catalogue, step, f"step {step!r}")
            seat = game.to_act(state)
            if seat is not None:
                name = players[seat]
                assert str(step).startswith(name) and text.startswith(name), (
                    f"the step does not name {name}, who acts: {step}")
            if game.is_terminal(state):
                break
            action = random_step(game, state, rng)
            check_text(catalogue, game.action_sentence(state, action), f"event of {action}")
            state = game.apply(state, action)
            for lines in game.score(state).lines:
                for line in lines:
                    check_text(catalogue, line.sentence, f"score line {line.text!r}")
        result = game.describe_result(state)
        told = check_text(catalogue, result, "result")
        for seat in game.winners(state):
            assert players[seat] in str(result) and players[seat] in told, (
                f"the result {result} does not name the winner {players[seat]}")
        seen.results.append(told)
    return seen


def refusal(game: Game[Any], state: Any, action: str) -> tuple[str, str]:
    """The English and the German of the refusal of ``action`` in ``state``, after checking
    it is a Sentence whose every template (nested ones included) has its German."""
    try:
        game.apply(state, action)
    except IllegalAction as error:
        assert error.sentence is not None, f"{action!r}: the refusal {error} is plain English"
        english = str(error)
        assert english == str(error.sentence)
        told = check_text(german(game), error.sentence, f"the refusal of {action!r}")
        assert told != english, f"{action!r}: the German reads as the English: {told!r}"
        return english, told
    raise AssertionError(f"{action!r} was not refused")
