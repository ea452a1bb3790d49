"""Action text typed by a person: look-alike characters are refused by name in every game."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.action_text import is_number, look_up, normalised
from games.core.errors import BadActionText, GameError
from games.core.playout import random_step
from games.registry import all_games

GAMES = all_games()
LOOK_ALIKES = ["mission ²", "ｕｐ２ lokahi", "up٢ lokahi", "up1\u200bwikiwiki", "𝟙", "take ⁵",
               "visitor ２:3:N", "pass\x00", "Mission ³"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alike_characters_are_refused_by_name(game, text: str) -> None:
    with pytest.raises(BadActionText) as refused:
        game.parse_action(text)
    assert "U+" in str(refused.value) or "is not" in str(refused.value)


def test_the_helpers() -> None:
    assert normalised("  UP2   Lokahi ") == "up2 lokahi"
    assert is_number("12") and not is_number("²") and not is_number("١") and not is_number("")
    assert look_up("A  b", {"a b": 1}, "Toy", "'a b'") == ("a b", 1)
    with pytest.raises(BadActionText, match=r"'x' is not a Toy action; the forms are: 'a b'"):
        look_up(" x ", {"a b": 1}, "Toy", "'a b'")
    with pytest.raises(BadActionText, match="U\\+FF41"):
        look_up("ａ b", {"a b": 1}, "Toy", "'a b'")
    with pytest.raises(BadActionText, match="not int"):
        look_up(3, {"a b": 1}, "Toy", "'a b'")


def positions(game, count: int = 6) -> list:
    """A few positions of a seeded game, from setup to late play."""
    rng = random.Random(5)
    state = game.initial([f"p{n}" for n in range(game.min_players)])
    found = [state]
    for _ in range(200):
        if game.is_terminal(state):
            break
        state = game.apply(state, random_step(game, state, rng))
        found.append(state)
    return found[:: max(1, len(found) // count)]


TEXT = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="abcdeiklmnoprstuvwxyz0123456789:-_ ²３٣\u200bNESW", max_size=30),
)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT, data=st.data())
def test_any_text_is_an_action_or_a_clear_refusal(game, text: str, data) -> None:
    try:
        canonical = game.parse_action(text)
    except BadActionText:
        canonical = None
    if canonical is not None:
        assert canonical.isascii() and game.parse_action(canonical) == canonical
    state = data.draw(st.sampled_from(positions(game)))
    with contextlib.suppress(GameError):  # a refusal of the game's own kind; nothing else
        game.apply(state, text)
