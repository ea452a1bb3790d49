"""The AI: legal, reproducible advice for every game, and stronger than random play."""

from __future__ import annotations

import random

import pytest

pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed: pip install '.[ai]' (make test installs it)"
)

from games.ai import Advisor, NotAPlayerTurn, play_match
from games.core.game import CHANCE, TERMINAL
from games.openspiel import has_hidden_information
from games.registry import all_games, get_game


def a_turn_with_choices(game, players: int, seed: int):
    """A state some way into a random game where the player on turn has several moves."""
    rng = random.Random(seed)
    state = game.initial([f"p{n}" for n in range(players)])
    turns = 0
    while True:
        actor = game.actor(state)
        assert actor != TERMINAL, "the game ended before a real choice came"
        if actor != CHANCE and len(game.legal_actions(state)) > 1:
            turns += 1
            if turns > 3:
                return state
        state = game.apply(state, game.sample_chance(state, rng) if actor == CHANCE
                           else rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_advice_is_a_legal_move_and_the_same_for_the_same_seed(game_id: str) -> None:
    game = get_game(game_id)
    state = a_turn_with_choices(game, game.min_players, seed=3)
    advisor = Advisor(game, game.min_players, simulations=12)
    advice = advisor.advise(state, seed=42)
    assert advice.action in game.legal_actions(state)
    assert advice.seat == game.actor(state)
    assert advice.simulations == 12 and advice.seconds > 0
    assert advice.values and all(0.0 <= v <= 1.0 for v in advice.values.values())
    assert advice.action == next(iter(advice.values))  # the most searched move is chosen
    again = advisor.advise(state, seed=42)
    assert (again.action, again.values) == (advice.action, advice.values)
    assert advisor.advise(state, seed=42, simulations=7).simulations == 7  # another strength


def test_the_search_kind_follows_hidden_information() -> None:
    on_top = Advisor(get_game("on_top"), 2, simulations=5)
    tiki = Advisor(get_game("tiki_topple"), 2, simulations=5)
    assert not has_hidden_information(on_top.engine)
    assert type(on_top._bot(random.Random(0), 5)).__name__ == "MCTSBot"
    assert type(tiki._bot(random.Random(0), 5)).__name__ == "ISMCTSBot"


def test_a_forced_move_needs_no_search_and_chance_is_not_the_ais() -> None:
    game = get_game("tiki_topple")
    state = game.initial(["anna", "ben"])
    advisor = Advisor(game, 2, simulations=5)
    with pytest.raises(NotAPlayerTurn, match="no player is on turn"):
        advisor.advise(state)
    rng = random.Random(1)
    while not (game.actor(state) >= 0 and len(game.legal_actions(state)) == 1):
        state = game.apply(state, game.sample_chance(state, rng) if game.actor(state) < 0
                           else rng.choice(game.legal_actions(state)))
    advice = advisor.advise(state)
    assert advice.action == game.legal_actions(state)[0] and advice.simulations == 0


def test_the_advisor_refuses_a_bad_strength_or_setup() -> None:
    game = get_game("topiary")
    with pytest.raises(ValueError, match="at least 1 simulation"):
        Advisor(game, 2, simulations=0)
    with pytest.raises(ValueError, match="at least 1 simulation"):
        Advisor(game, 2).advise(a_turn_with_choices(game, 2, seed=1), simulations=0)
    advisor = Advisor(game, 3, simulations=5)
    with pytest.raises(ValueError, match="for 3 players, the state has 2"):
        advisor.advise(a_turn_with_choices(game, 2, seed=1))


def test_the_ai_beats_random_players() -> None:
    """Seeded, so not flaky: a fixed series of 2-player Tiki Topple games (fair share 50%)."""
    game = get_game("tiki_topple")
    results = [play_match(game, 2, seed % 2, {"edition": "gamewright"}, 40, seed=seed)
               for seed in range(8)]
    share = sum(r.shares[r.ai_seat] for r in results) / len(results)
    assert share >= 0.75, f"the AI won only {share:.0%} against a random player"
    assert all(abs(sum(r.shares) - 1.0) < 1e-9 for r in results)
    assert all(r.thinking for r in results)
