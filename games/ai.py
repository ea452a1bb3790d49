"""AI players and hints: OpenSpiel's Python information-set MCTS over our engines.

The search runs on the bridge (``games.openspiel``) and plays for wins (each winner's share
of one win, the rules' tie-breaks included). Worlds the player cannot tell apart are drawn by
the engine's own ``resample``; leaves are valued by random playouts run on the engine directly,
which is many times faster than stepping the bridge. Games without hidden information use
plain MCTS (ISMCTS refuses them, and a perfect-information set is the state itself).

>>> from games.ai import Advisor
>>> from games.tiki_topple import GAME
>>> import random
>>> state = GAME.initial(["anna", "ben"], {"edition": "gamewright"})
>>> while GAME.actor(state) < 0:
...     state = GAME.apply(state, GAME.sample_chance(state, random.Random(1)))
>>> advice = Advisor(GAME, 2, {"edition": "gamewright"}, simulations=50, seed=1).advise(state)
>>> advice.action in GAME.legal_actions(state)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from .core.game import CHANCE, TERMINAL, Game
from .core.playout import random_step
from .openspiel import BridgeGame, BridgeState, has_hidden_information, load, win_shares

DEFAULT_SIMULATIONS = 200
"""The default strength: searched worlds per move (``tabletop bench ai`` measures it)."""
UCT_C = 1.4
"""Exploration constant for values in [0, 1] (a win share)."""


class NotAPlayerTurn(ValueError):
    """The advisor was asked at a chance node or after the end."""


@dataclass(frozen=True, slots=True)
class Advice:
    action: str
    seat: int
    simulations: int
    seconds: float
    values: dict[str, float]
    """Mean win share found for each action searched (the most visited first)."""


class PlayoutEvaluator(mcts.Evaluator):
    """Values a leaf by random playouts of the engine itself, to the end of the game."""

    def __init__(self, rng: random.Random, playouts: int = 1) -> None:
        self.rng = rng
        self.playouts = playouts

    def evaluate(self, state: BridgeState) -> np.ndarray:
        engine = state.bridge.engine
        n = state.bridge.n_players
        total = np.zeros(n)
        for _ in range(self.playouts):
            current = state.engine_state
            while engine.actor(current) != TERMINAL:
                current = engine.apply(current, random_step(engine, current, self.rng))
            total += win_shares(engine, current, n)
        return total / self.playouts

    def prior(self, state: BridgeState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class Advisor:
    """Chooses moves for any seat of one game setup; one per table (it keeps no game state).

    ``simulations`` is the strength: how many worlds the search plays out per move (a call
    of ``advise`` may ask for another, so one advisor serves seats of different strengths).
    """

    def __init__(
        self,
        engine: Game[Any],
        n_players: int,
        options: Mapping[str, str] | None = None,
        simulations: int = DEFAULT_SIMULATIONS,
        seed: int | None = None,
    ) -> None:
        self.engine = engine
        self.simulations = _strength(simulations)
        self.bridge: BridgeGame = load(engine.id, n_players, options, returns="wins")
        self.rng = random.Random(seed)

    def _bot(self, rng: random.Random, simulations: int) -> Any:
        numpy_rng = np.random.RandomState(rng.randrange(2**32))
        evaluator = PlayoutEvaluator(rng)
        if not has_hidden_information(self.engine):
            return mcts.MCTSBot(self.bridge, UCT_C, simulations, evaluator, solve=False,
                                random_state=numpy_rng)
        bot = ismcts.ISMCTSBot(self.bridge, evaluator, UCT_C, simulations,
                               random_state=numpy_rng, use_observation_string=True)
        # Worlds drawn from our generator, so a seeded search is reproducible.
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))
        return bot

    def advise(self, engine_state: Any, seed: int | None = None,
               simulations: int | None = None) -> Advice:
        """The move the AI would make for the seat on turn in ``engine_state``.

        With a ``seed`` the answer depends only on the state, the seed and the strength (the
        table seeds by game and position, so a restart gives the AI seat the same move).
        ``simulations``: this move's strength, if not the advisor's.
        """
        budget = self.simulations if simulations is None else _strength(simulations)
        seat = self.engine.actor(engine_state)
        if seat in (CHANCE, TERMINAL):
            raise NotAPlayerTurn("no player is on turn: the table or the dice decide now")
        started = time.perf_counter()
        state = self.bridge.wrap(engine_state)
        legal = state.legal_actions()
        if len(legal) == 1:
            values: dict[str, float] = {}
            action = legal[0]
        else:
            rng = random.Random(seed) if seed is not None else self.rng
            action, values = self._search(self._bot(rng, budget), state)
        return Advice(
            action=self.bridge.limits.actions[action],
            seat=seat,
            simulations=0 if len(legal) == 1 else budget,
            seconds=time.perf_counter() - started,
            values=values,
        )

    def _search(self, bot: Any, state: BridgeState) -> tuple[int, dict[str, float]]:
        """The most visited move, and each searched move's mean win share."""
        names = self.bridge.limits.actions
        if isinstance(bot, ismcts.ISMCTSBot):
            bot.run_search(state)
            children = bot._root_node.child_info  # the search tree's root: visits and values
            ranked = sorted(children.items(), key=lambda item: (-item[1].visits, item[0]))
            values = {names[a]: round(float(c.value()), 3) for a, c in ranked if c.visits}
            return ranked[0][0], values
        root = bot.mcts_search(state)
        ranked = sorted(root.children, key=lambda child: (-child.explore_count, child.action))
        values = {
            names[child.action]: round(float(child.total_reward / child.explore_count), 3)
            for child in ranked if child.explore_count
        }
        return ranked[0].action, values


def _strength(simulations: int) -> int:
    if simulations < 1:
        raise ValueError(f"the AI needs at least 1 simulation per move, not {simulations}")
    return simulations


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One game of the AI in ``ai_seat`` against random players."""

    shares: tuple[float, ...]
    """Each seat's share of the win (ties split)."""
    ai_seat: int
    thinking: tuple[float, ...]
    """Seconds per AI decision that needed a search (forced moves excluded)."""


def play_match(
    engine: Game[Any],
    n_players: int,
    ai_seat: int,
    options: Mapping[str, str] | None = None,
    simulations: int = DEFAULT_SIMULATIONS,
    seed: int = 0,
) -> MatchResult:
    """The AI in one seat, uniformly random players in the others, chance drawn at random."""
    rng = random.Random(seed)
    advisor = Advisor(engine, n_players, options, simulations, seed=rng.randrange(2**32))
    state = engine.initial([f"p{seat + 1}" for seat in range(n_players)], options)
    thinking = []
    while (actor := engine.actor(state)) != TERMINAL:
        if actor == ai_seat:
            advice = advisor.advise(state)
            if advice.simulations:
                thinking.append(advice.seconds)
            action = advice.action
        else:
            action = random_step(engine, state, rng)
        state = engine.apply(state, action)
    return MatchResult(tuple(win_shares(engine, state, n_players)), ai_seat, tuple(thinking))
