"""The Hanging Gardens tells every step, event, score line and result in the box's words, in
German too ("Die Hängenden Gärten")."""

from __future__ import annotations

import random

import pytest

from games.core.errors import IllegalAction
from games.core.playout import random_playout
from games.hanging_gardens import GAME
from games.hanging_gardens.state import EMPTY, HangingGardensState

from ..core.sentence_check import german, play_and_read
from .helpers import BOX, card_like, field, garden, playing

GERMAN = german(GAME)
EVERY_PHASE = {"setup", "deal", "place", "temple", "extra", "tile", "refill", "over"}


def test_every_phase_is_told_and_translated() -> None:
    """A hidden extra tile comes only with a group of 6 or more: the runs together meet it."""
    phases: set[str] = set()
    for players, options in ((("anna", "ben"), {}),
                             (("anna", "ben", "cleo"), {"gates": "series"}),
                             (("anna", "ben", "cleo", "dora"), {"reading": "revision1"})):
        seen = play_and_read(GAME, players, options, seeds=range(3))
        assert seen.phases >= EVERY_PHASE - {"extra"}
        assert len(seen.results) == 3
        phases |= seen.phases
    assert phases == EVERY_PHASE


def test_the_players_deal_and_refill_themselves() -> None:
    state = GAME.initial(["anna", "ben", "cleo"])
    assert GAME.to_act(state) == 0
    step = GAME.describe_step(state)
    assert str(step) == ("anna: draw a score tile from the stack and lay it face up on the "
                         "score-tile display, column 1, row 1.")
    assert GERMAN.text(step) == ("anna: Zieh eine Punktetafel vom Stapel und lege sie offen "
                                 "auf den Spielplan, Spalte 1, Reihe 1.")
    for kind in ("queen", "king", "tiger", "garden", "statue", "chalice"):
        state = GAME.apply(state, f"reveal {kind}")
    assert state.phase == "deal"
    assert str(GAME.describe_step(state)) == ("anna: draw a building card from the deck and "
                                              "lay it face up on place 1 of the card display.")
    state = GAME.apply(state, "draw c07")
    assert GERMAN.text(GAME.describe_step(state)) == (
        "anna: Zieh eine Baukarte vom Stapel und lege sie offen auf Kartenfeld 2 des "
        "Spielplans.")
    assert GAME.to_act(state) == 0


def _temple_offer() -> HangingGardensState:
    """ben has just laid a card that made a terrace group of 3 (``tt`` over the start card)."""
    top = garden("", "", "___t____", "___tt___", "___..___")
    return playing(tops=[GAME.initial(["anna", "ben"]).tops[0], top], seat=1)._replace(
        phase="temple", placed=(field(3, 4),))


def test_the_temple_step_names_the_group_motif_and_size() -> None:
    state = _temple_offer()
    step = GAME.describe_step(state)
    assert str(step) == ("ben: you may build a temple on your new terrace group of 3 fields, "
                         "or build none.")
    assert GERMAN.text(step) == ("ben: Du darfst einen Tempel auf deine neue Anlage "
                                 "(Terrasse, 3 Felder) setzen oder keinen bauen.")
    full = state._replace(temples=((), (field(0, 0), field(0, 2), field(0, 4), field(0, 6),
                                        field(6, 0))))
    assert "all your temples are built: you may move the temple of a smallest group onto " \
           "your new terrace group of 3 fields" in str(GAME.describe_step(full))


def test_the_score_tile_step_names_the_columns_and_the_extra_tile() -> None:
    state = _temple_offer()._replace(phase="tile", columns=1)
    assert str(GAME.describe_step(state)) == (
        "ben: take an open score tile from column 1 of the score-tile display.")
    wide = state._replace(columns=3, offer=True)
    assert GERMAN.text(GAME.describe_step(wide)) == (
        "ben: Du darfst zuerst eine verdeckte Extra-Tafel vom Stapel ziehen (Bestätigen "
        "drücken); dann nimm eine offene Punktetafel aus den Spalten 1 bis 3.")


def test_a_card_that_fits_nowhere_is_told_so() -> None:
    bare = garden("", "", "", "", "", "", "")  # no start card: nothing lies under any motif
    state = playing(tops=[bare, bare], display=(card_like("tt / .. / .."),))
    assert GAME.legal_actions(state) == [f"discard {BOX.card_names[state.display[0]]}"]
    assert str(GAME.describe_step(state)) == (
        "anna: no card on the card display fits in your garden: put one of them back in the box.")


def _final(players: list[str], seed: int = 4) -> HangingGardensState:
    return random_playout(GAME, players, rng=random.Random(seed)).final


def _counts(**kinds: int) -> tuple[int, ...]:
    return tuple(kinds.get(kind, 0) for kind in BOX.kinds)


def test_the_result_explains_the_score_tile_tie_break() -> None:
    final = _final(["anna", "ben"])
    # anna: one queen (3); ben: a garden and a chalice (2 + 1), so ben holds more tiles
    tied = final._replace(collected=(_counts(queen=1), _counts(garden=1, chalice=1)),
                          extras=(_counts(), _counts()), missing=(0, 0))
    assert GAME.score(tied).totals == (3, 3)
    result = GAME.describe_result(tied)
    assert str(result) == ("ben wins: anna and ben have a score of 3 each, and ben holds the "
                           "most score tiles (2).")
    assert GERMAN.text(result) == ("ben gewinnt: anna und ben haben je 3 Punkte, und ben hat "
                                   "die meisten Punktetafeln (2).")
    shared = tied._replace(collected=(_counts(queen=1), _counts(king=1)))
    assert GERMAN.text(GAME.describe_result(shared)) == (
        "anna und ben gewinnen gemeinsam: je 3 Punkte und gleich viele Punktetafeln (1).")
    clear = tied._replace(collected=(_counts(queen=2), _counts(king=1)))
    assert str(GAME.describe_result(clear)) == "anna wins with 10 points."


def test_score_lines_keep_their_english_and_read_in_german() -> None:
    final = _final(["anna", "ben"])._replace(
        collected=(_counts(queen=3, guard=1, gate=2, tiger=3, animal_handler=1), _counts()),
        extras=(_counts(), _counts()), missing=(2, 0))
    lines = GAME.score(final).lines[0]
    english = [line.text for line in lines]
    assert english == [
        "queen x3: 1 full series of 2 and a series of 1 = 13",
        "tiger x3: 1 full series of 3 = 16",
        "animal handler with a full tiger series = 12",
        "guard with 2 gate tiles: 2 x 3 = 6",
        "2 missing score tiles x 5 = 10",
    ]
    assert [GERMAN.text(line.sentence) for line in lines] == [
        "Königin x3: 1 volle Serie aus 2 und eine Serie aus 1 = 13",
        "Tiger x3: 1 volle Serie aus 3 = 16",
        "Tierpfleger mit voller Serie Tiger = 12",
        "Wächter mit 2 Tafeln blaues Tor: 2 x 3 = 6",
        "2 fehlende Punktetafeln x 5 = 10",
    ]


def test_events_name_the_piece_but_not_a_hidden_extra_tile() -> None:
    state = _temple_offer()._replace(phase="extra")
    told = {str(GAME.action_sentence(state, f"extra {kind}")) for kind in BOX.kinds}
    assert told == {"ben draws a hidden extra score tile."}
    tile = _temple_offer()._replace(phase="tile", columns=1)
    assert tile.tile_slots[0] != EMPTY
    sentence = GAME.action_sentence(tile, "tile 1:1")
    assert str(sentence) == "ben takes the score tile queen from column 1, row 1."
    assert GERMAN.text(sentence) == "ben nimmt die Punktetafel Königin aus Spalte 1, Reihe 1."
    placed = GAME.action_sentence(playing(), "place c01 2:3 down")
    assert GERMAN.text(placed) == ("anna baut Baukarte c01 auf 2:3 in die eigene Auslage ein, "
                                   "umgedreht.")


def test_a_refusal_reads_in_german() -> None:
    state = playing()
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, "tile 1:1")
    assert str(refused.value).startswith("not now: anna: take a building card")
    assert GERMAN.text(refused.value.sentence).startswith(
        "Jetzt nicht: anna: Nimm eine offene Baukarte")
    with pytest.raises(IllegalAction) as bare:
        GAME.apply(state, "place c01 0:0 up")
    assert GERMAN.text(bare.value.sentence) == (
        "c01 würde das Motiv Terrasse auf 0:0 direkt auf den Tisch legen: Jedes Motivfeld muss "
        "auf einer früheren Karte liegen")
