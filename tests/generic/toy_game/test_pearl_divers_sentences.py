"""The toy game tells its steps, events, score lines and result in words, in German too: its
``locale`` folder travels with it when it is dropped into ``games/`` as a sixth game."""

from __future__ import annotations

import pytest

from games.core import IllegalAction

from ...games.core.sentence_check import german, play_and_read
from .pearl_divers import GAME

GERMAN = german(GAME)


def test_every_phase_is_told_and_translated() -> None:
    for players in (("anna", "ben"), ("anna", "ben", "cleo")):
        seen = play_and_read(GAME, players, {}, seeds=range(4))
        assert seen.phases == {"setup", "dive", "over"}
        assert len(seen.results) == 4


def test_the_diver_who_emptied_a_pool_refills_it() -> None:
    state = GAME.initial(["anna", "ben"])
    assert GERMAN.text(GAME.describe_step(state)) == (
        "Gib anna verdeckt eine Glücksmarke aus der Schachtel.")
    state = GAME.apply(GAME.apply(state, "lucky coral"), "lucky pearl")
    assert str(GAME.describe_step(state)) == "Draw a shell from the bag into pool 1."
    for shell in ("pearl:1", "coral:1", "urchin:1"):
        state = GAME.apply(state, f"fill {shell}")
    assert str(GAME.describe_step(state)) == "anna: take a shell from one of the pools."
    taken = GAME.action_sentence(state, "take 2")
    assert (str(taken), GERMAN.text(taken)) == (
        "anna takes the coral from pool 2.", "anna nimmt die Muschel aus Becken 2: Koralle.")
    state = GAME.apply(state, "take 2")
    assert GAME.to_act(state) == 0
    assert GERMAN.text(GAME.describe_step(state)) == (
        "anna: Zieh eine Muschel aus dem Beutel in Becken 2.")


def test_a_lucky_token_is_dealt_unnamed_and_scored_in_words() -> None:
    state = GAME.initial(["anna", "ben"])
    told = {str(GAME.action_sentence(state, f"lucky {kind}"))
            for kind in ("pearl", "coral", "sponge", "urchin")}
    assert told == {"anna is dealt a lucky token, face down."}
    final = state._replace(lucky=("coral", "pearl"), bag=(), pools=("", "", ""),
                           taken=(("coral:1", "coral:2"), ("pearl:1",)))
    lines = GAME.score(final).lines[0]
    assert [line.text for line in lines] == ["2 coral × 2 = 4", "lucky coral: 2 × 2 = 4"]
    assert [GERMAN.text(line.sentence) for line in lines] == [
        "2 Koralle × 2 = 4", "Glücksmarke Koralle: 2 × 2 = 4"]
    assert GERMAN.text(GAME.describe_result(final)) == "anna gewinnt mit 8 Punkten."


def test_a_refusal_reads_in_german() -> None:
    state = GAME.apply(GAME.apply(GAME.initial(["anna", "ben"]), "lucky coral"), "lucky pearl")
    for shell in ("pearl:1", "coral:1", "urchin:1"):
        state = GAME.apply(state, f"fill {shell}")
    state = GAME.apply(state, "take 2")
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, "fill sponge:9")
    assert str(refused.value) == "fill sponge:9 is not what the table can deal or draw now"
    assert GERMAN.text(refused.value.sentence) == (
        "fill sponge:9 kann der Tisch jetzt nicht austeilen oder ziehen")
