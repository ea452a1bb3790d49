"""The OpenSpiel bridge: OpenSpiel's own random-simulation test on every game, and ours.

OpenSpiel is the optional ``ai`` extra (``pip install .[ai]``); ``make test`` installs it.
"""

from __future__ import annotations

import json
import pickle
import random
from fractions import Fraction

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install '.[ai]' (make test installs it)"
)

from open_spiel.python.observation import make_observation  # noqa: E402

from games import openspiel  # noqa: E402
from games.core.errors import BadSetup  # noqa: E402
from games.registry import all_games, get_game  # noqa: E402

GAME_IDS = [game.id for game in all_games()]
SETUPS = [
    (game.id, players)
    for game in all_games()
    for players in sorted({game.min_players, game.max_players})
]


@pytest.mark.parametrize(("game_id", "players"), SETUPS)
def test_openspiel_random_simulation_test_passes(game_id: str, players: int) -> None:
    """OpenSpiel's own checks: legal actions in range, chance sums, clone, serialization, ..."""
    game = openspiel.load(game_id, players)
    pyspiel.random_sim_test(game, num_sims=50, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_is_registered_with_its_type(game_id: str) -> None:
    engine = get_game(game_id)
    game = pyspiel.load_game(f"tabletop_{game_id}")
    kind = game.get_type()
    assert kind.short_name == f"tabletop_{game_id}"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (kind.min_num_players, kind.max_num_players) == (engine.min_players, engine.max_players)
    hidden = kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert hidden == openspiel.has_hidden_information(engine)
    limits = engine.limits(engine.min_players)
    assert game.num_distinct_actions() == len(limits.actions)
    assert game.max_game_length() == limits.max_steps


def test_which_games_hide_something() -> None:
    hidden = {g.id for g in all_games() if openspiel.has_hidden_information(g)}
    assert {"tiki_topple", "topiary", "hanging_gardens"} <= hidden
    assert "on_top" not in hidden


def test_options_and_players_are_game_parameters() -> None:
    game = pyspiel.load_game("tabletop_tiki_topple(players=4,edition=gamewright)")
    assert game.num_players() == 4
    assert game.get_parameters()["edition"] == "gamewright"
    state = game.new_initial_state()
    texts = [state.action_to_string(a) for a in range(game.num_distinct_actions())]
    assert not any(text.startswith("wiki ") for text in texts)  # no Wiki card in this edition
    with pytest.raises(BadSetup, match="edition must be one of schmidt, gamewright"):
        pyspiel.load_game("tabletop_tiki_topple(edition=pirate)")


def test_action_numbers_are_the_sorted_texts_and_chance_is_exact() -> None:
    engine = get_game("tiki_topple")
    game = openspiel.load("tiki_topple", 3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    exact = dict(engine.chance_outcomes(state.engine_state))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == len(exact) == 1296
    for action, probability in outcomes:
        assert probability == float(exact[state.action_to_string(action)])
    assert [a for a, _ in outcomes] == sorted(a for a, _ in outcomes)
    text = state.action_to_string(outcomes[7][0])
    assert state.string_to_action(text) == outcomes[7][0]


def _play_to_a_turn(game: pyspiel.Game, rng: random.Random) -> pyspiel.State:
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probabilities)[0])
    return state


@pytest.mark.parametrize("game_id", ["tiki_topple", "topiary", "hanging_gardens", "trapper"])
def test_strings_hide_what_the_views_hide(game_id: str) -> None:
    """Redraw what a player cannot see: their strings stay, the others' views may not."""
    engine = get_game(game_id)
    if not openspiel.has_hidden_information(engine):
        pytest.skip(f"{game_id} hides nothing")
    game = openspiel.load(game_id, engine.min_players)
    player = 0
    changed = 0
    for game_seed in range(30):  # until something is hidden from seat 0 (some games rarely)
        rng = random.Random(game_seed)
        state = _play_to_a_turn(game, rng)
        while not changed and not state.is_terminal():
            for seed in range(3):
                sampler = pyspiel.UniformProbabilitySampler(seed, 0, 1)
                world = state.resample_from_infostate(player, sampler)
                assert world.observation_string(player) == state.observation_string(player)
                assert world.information_state_string(player) == (
                    state.information_state_string(player))
                changed += str(world) != str(state)
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if changed:
            break
    assert changed, "resampling never drew a different hidden world"
    # The public observer (no private information) is the public table view.
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    assert public.string_from(state, 0) == json.dumps(
        engine.view(state.engine_state, None), sort_keys=True, separators=(",", ":"))


def test_information_state_has_perfect_recall() -> None:
    game = openspiel.load("tiki_topple", 2)
    rng = random.Random(3)
    state = _play_to_a_turn(game, rng)
    before = state.information_state_string(0)
    seat = state.current_player()
    action = state.legal_actions()[0]
    state.apply_action(action)
    after = state.information_state_string(0)
    assert after.startswith(before + "\n")
    if seat == 0:
        assert f"{state.action_to_string(seat, action)} > " in after.splitlines()[-1]


def test_returns_are_final_totals_or_win_shares() -> None:
    engine = get_game("topiary")
    for returns in ("points", "wins"):
        game = openspiel.load("topiary", 3, returns=returns)
        rng = random.Random(11)
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.returns() == [0.0, 0.0, 0.0]
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        totals = engine.score(state.engine_state).totals
        winners = engine.winners(state.engine_state)
        if returns == "points":
            assert state.returns() == [float(t) for t in totals]
        else:
            assert state.returns() == [
                float(Fraction(1, len(winners))) if s in winners else 0.0 for s in range(3)
            ]


def test_states_survive_serialization_and_pickle_mid_game() -> None:
    game = openspiel.load("hanging_gardens", 2)
    rng = random.Random(8)
    state = _play_to_a_turn(game, rng)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.information_state_string(1) == state.information_state_string(1)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_a_bad_parameter_is_refused_clearly() -> None:
    with pytest.raises(openspiel.BadParameter, match="returns must be one of points, wins"):
        pyspiel.load_game("tabletop_topiary(returns=money)")
    with pytest.raises(BadSetup, match="2 to 4 players"):
        pyspiel.load_game("tabletop_topiary(players=9)")
