"""Every engine of the registry as an OpenSpiel game, ``tabletop_<id>``.

One generic adapter over the engine contract: action numbers are indices into the engine's
``limits().actions`` (sorted, so OpenSpiel's ascending legal actions are our sorted ones),
chance outcomes carry the engine's exact probabilities, observations are the engine's own
per-player views (so nothing hidden can leak that the conformance check would not catch), and
returns are the final score totals (or, with ``returns=wins``, each winner's share of one win,
which is what the AI plays for). OpenSpiel is an optional extra (``pip install .[ai]``);
nothing else of ours imports this module.

>>> import pyspiel
>>> from games import openspiel
>>> game = pyspiel.load_game("tabletop_tiki_topple(players=3,edition=gamewright)")
>>> game.num_players(), game.get_type().information.name
(3, 'IMPERFECT_INFORMATION')
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from .core.game import CHANCE, TERMINAL, Game, Limits
from .registry import all_games, get_game

PREFIX = "tabletop_"
RETURNS = ("points", "wins")


class BadParameter(ValueError):
    """A game parameter the bridge does not know (options are checked by the engine)."""


def has_hidden_information(game: Game[Any]) -> bool:
    """A game hides something exactly when it redraws hidden parts in ``resample``.

    The conformance check proves every view is unchanged by ``resample``; a game that keeps
    the default (the state itself) therefore shows everything to everyone.
    """
    return type(game).resample is not Game.resample


def game_type(game: Game[Any]) -> pyspiel.GameType:
    parameters: dict[str, Any] = {"players": game.min_players, "returns": RETURNS[0]}
    parameters.update({spec.name: spec.default for spec in game.options})
    hidden = has_hidden_information(game)
    return pyspiel.GameType(
        short_name=PREFIX + game.id,
        long_name=f"tabletop {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=parameters,
    )


class BridgeGame(pyspiel.Game):
    """One of our engines with a player count and options fixed, as OpenSpiel sees it.

    ``register_all`` makes one subclass per engine (naming it in ``engine_id``) and registers
    the class itself: OpenSpiel keeps what it is given until after Python has shut down, and
    a plain function kept that long aborts the interpreter on exit, where a class does not.
    """

    engine_id: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        engine = self.engine = get_game(self.engine_id)
        self.n_players = int(params.pop("players", engine.min_players))
        self.returns_kind = str(params.pop("returns", RETURNS[0]))
        if self.returns_kind not in RETURNS:
            raise BadParameter(
                f"returns must be one of {', '.join(RETURNS)}, not {self.returns_kind!r}")
        self.options = engine.check_options({key: str(value) for key, value in params.items()})
        self.seats = tuple(f"p{seat + 1}" for seat in range(self.n_players))
        self.limits: Limits = engine.limits(self.n_players, self.options)
        self.number = {action: index for index, action in enumerate(self.limits.actions)}
        low, high = (
            (0.0, 1.0) if self.returns_kind == "wins"
            else (float(self.limits.min_score), float(self.limits.max_score))
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.limits.actions),
            max_chance_outcomes=len(self.limits.actions),
            num_players=self.n_players,
            min_utility=low,
            max_utility=high,
            utility_sum=1.0 if self.returns_kind == "wins" else None,
            max_game_length=self.limits.max_steps,
        )
        super().__init__(
            game_type(engine),
            info,
            {"players": self.n_players, "returns": self.returns_kind, **self.options},
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by name: loading the name again builds the same game through our factory."""
        return pyspiel.load_game, (str(self),)

    def new_initial_state(self) -> BridgeState:
        return BridgeState(self, self.engine.initial(self.seats, self.options))

    def wrap(self, engine_state: Any) -> BridgeState:
        """A bridge state for an engine state reached elsewhere (the table's game).

        It has no OpenSpiel history; observation strings and search work as usual.
        """
        seats = len(self.engine.players(engine_state))
        if seats != self.n_players:
            raise ValueError(f"this {self} is for {self.n_players} players, the state has {seats}")
        return BridgeState(self, engine_state)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ViewObserver:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        return ViewObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Step:
    """One link of a game's record: the engine state reached, and how.

    Links never change once made (only their memo of views fills in), so clones share them:
    ``deepcopy``, which OpenSpiel uses to clone Python states, returns the link itself. Each
    link remembers the views made of it, so a perfect-recall information state costs one view
    per step and player, however often search asks.
    """

    __slots__ = ("action", "actor", "bridge", "engine_state", "parent", "seen")

    def __init__(
        self, bridge: BridgeGame, engine_state: Any, parent: _Step | None, actor: int, action: str
    ) -> None:
        self.bridge = bridge
        self.engine_state = engine_state
        self.parent = parent
        self.actor = actor
        self.action = action
        self.seen: dict[int | None, str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Step:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialization does) as the game, the actions and the last state.

        Replaying the actions rebuilds every link; the last state is kept as JSON so a world
        drawn by ``resample_from_infostate`` survives too.
        """
        actions = []
        step: _Step | None = self
        while step is not None and step.parent is not None:
            actions.append(step.action)
            step = step.parent
        last = self.bridge.engine.state_to_json(self.engine_state)
        return _replay_record, (self.bridge, tuple(reversed(actions)), last)

    def view(self, player: int | None) -> str:
        text = self.seen.get(player)
        if text is None:
            view = self.bridge.engine.view(self.engine_state, player)
            text = json.dumps(view, sort_keys=True, separators=(",", ":"))
            self.seen[player] = text
        return text


def _replay_record(bridge: BridgeGame, actions: tuple[str, ...], last: dict[str, Any]) -> _Step:
    engine = bridge.engine
    state = engine.initial(bridge.seats, bridge.options)
    record = _Step(bridge, state, None, CHANCE, "")
    for action in actions:
        actor = engine.actor(state)
        state = engine.apply(state, action)
        record = _Step(bridge, state, record, actor, action)
    record.engine_state = engine.state_from_json(last)
    return record


class BridgeState(pyspiel.State):
    """An OpenSpiel state wrapping one immutable engine state (in its last record link)."""

    def __init__(self, game: BridgeGame, engine_state: Any) -> None:
        super().__init__(game)
        self.record = _Step(game, engine_state, None, CHANCE, "")

    @property
    def bridge(self) -> BridgeGame:
        return self.record.bridge

    @property
    def engine_state(self) -> Any:
        return self.record.engine_state

    # -- what OpenSpiel asks -------------------------------------------------------------------
    def current_player(self) -> int:
        actor = self.bridge.engine.actor(self.engine_state)
        if actor == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if actor == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return actor

    def _legal_actions(self, player: int) -> list[int]:
        number = self.bridge.number
        return [number[action] for action in self.bridge.engine.legal_actions(self.engine_state)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        number = self.bridge.number
        return [
            (number[action], float(probability))
            for action, probability in self.bridge.engine.chance_outcomes(self.engine_state)
        ]

    def _apply_action(self, action: int) -> None:
        bridge = self.bridge
        text = bridge.limits.actions[action]
        before = self.engine_state
        actor = bridge.engine.actor(before)
        self.record = _Step(bridge, bridge.engine.apply(before, text), self.record, actor, text)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.bridge.limits.actions[action]

    def is_terminal(self) -> bool:
        return self.bridge.engine.actor(self.engine_state) == TERMINAL

    def returns(self) -> list[float]:
        bridge = self.bridge
        if bridge.engine.actor(self.engine_state) != TERMINAL:
            return [0.0] * bridge.n_players
        if bridge.returns_kind == "points":
            return [float(total) for total in bridge.engine.score(self.engine_state).totals]
        return win_shares(bridge.engine, self.engine_state, bridge.n_players)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BridgeState:
        """A world ``player_id`` cannot tell from this one, drawn by the engine's ``resample``.

        The engine redraws what that player cannot see now. The copy keeps this state's
        record and history, so it is a world for search, not a replayable game.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        record = self.record
        world = self.clone()
        drawn = self.bridge.engine.resample(record.engine_state, player_id, rng)
        world.record = _Step(record.bridge, drawn, record.parent, record.actor, record.action)
        return world

    def __str__(self) -> str:
        return json.dumps(self.bridge.engine.state_to_json(self.engine_state), sort_keys=True)


def win_shares(engine: Game[Any], engine_state: Any, n_players: int) -> list[float]:
    """One win split among the winners (ties with the rules' tie-breaks)."""
    winners = engine.winners(engine_state)
    share = 1.0 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(n_players)]


class ViewObserver:
    """Observation and information-state strings from the engine's per-player views.

    ``private_info`` NONE uses the public view, SINGLE_PLAYER that player's view, ALL_PLAYERS
    the whole state; ``perfect_recall`` gives every view the player had since the start, with
    the actions they took, one line per step.
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType) -> None:
        self.iig_obs_type = iig_obs_type
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: BridgeState, player: int) -> None:
        """No tensors: our views are structured JSON, not fixed-size planes."""

    def string_from(self, state: BridgeState, player: int) -> str:
        private = self.iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            whose = "all"
        elif private == pyspiel.PrivateInfoType.NONE:
            whose = None
        else:
            whose = player
        if not self.iig_obs_type.perfect_recall:
            return _observe(state.record, whose)
        lines = []
        step: _Step | None = state.record
        while step is not None:
            mine = step.actor == player and step.parent is not None
            lines.append((f"{step.action} > " if mine else "") + _observe(step, whose))
            step = step.parent
        return "\n".join(reversed(lines))


def _observe(step: _Step, whose: int | str | None) -> str:
    if whose == "all":
        state = step.bridge.engine.state_to_json(step.engine_state)
        return json.dumps(state, sort_keys=True, separators=(",", ":"))
    return step.view(whose)  # type: ignore[arg-type]


@cache
def register_all() -> dict[str, type[BridgeGame]]:
    """Register every game of our registry with OpenSpiel, by short name."""
    classes = {}
    for engine in all_games():
        name = "".join(word.title() for word in engine.id.split("_")) + "Game"
        cls = type(name, (BridgeGame,), {"engine_id": engine.id, "__module__": __name__})
        pyspiel.register_game(game_type(engine), cls)
        classes[PREFIX + engine.id] = cls
    return classes


def load(
    game_id: str, players: int, options: Mapping[str, str] | None = None, returns: str = "points"
) -> BridgeGame:
    """``pyspiel.load_game`` for one of ours, with its options given as a mapping."""
    register_all()
    params: dict[str, Any] = {"players": players, "returns": returns, **(options or {})}
    return pyspiel.load_game(PREFIX + game_id, params)


register_all()
