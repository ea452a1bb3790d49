"""Every action card, its full-move restriction, and the turn order."""

from __future__ import annotations

import pytest

from games.core import IllegalAction

from .helpers import GAME, STACK, play, setup


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("up1 wikiwiki", "wikiwiki nani huhu nui lokahi akamai eepo hookipa kapu"),
        ("up2 huhu", "huhu nani wikiwiki nui lokahi akamai eepo hookipa kapu"),
        ("up3 kapu", "nani wikiwiki huhu nui lokahi kapu akamai eepo hookipa"),
        ("puh nani", "wikiwiki huhu nani nui lokahi akamai eepo hookipa kapu"),
        ("puh akamai", "nani wikiwiki huhu nui lokahi eepo hookipa akamai kapu"),
        ("topple nani", "wikiwiki huhu nui lokahi akamai eepo hookipa kapu nani"),
        ("wiki kapu nani", "kapu wikiwiki huhu nui lokahi akamai eepo hookipa nani"),
    ],
)
def test_each_card_moves_the_stack(action: str, expected: str) -> None:
    state = play(setup(), action)
    assert state.stack == tuple(expected.split())
    kind = action.split()[0]
    assert state.hands[0].count(kind) == setup().hands[0].count(kind) - 1
    assert state.played[0] == (kind,)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("up1 nani", "1 places up in full"),
        ("up2 wikiwiki", "2 places up in full"),
        ("up3 huhu", "3 places up in full"),
        ("puh hookipa", "2 places down"),
        ("puh kapu", "2 places down"),
        ("topple kapu", "bottom tiki"),
        ("toast", "first card"),
    ],
)
def test_moves_must_be_made_in_full(action: str, reason: str) -> None:
    state = setup()
    assert action not in GAME.legal_actions(state)
    with pytest.raises(IllegalAction, match=reason):
        GAME.apply(state, action)


def test_the_legal_moves_of_a_full_hand() -> None:
    legal = GAME.legal_actions(setup())
    assert legal == sorted(legal)
    assert sum(a.startswith("up1 ") for a in legal) == 8
    assert sum(a.startswith("up2 ") for a in legal) == 7
    assert sum(a.startswith("up3 ") for a in legal) == 6
    assert sum(a.startswith("puh ") for a in legal) == 7
    assert sum(a.startswith("topple ") for a in legal) == 8
    assert sum(a.startswith("wiki ") for a in legal) == 36
    assert "toast" not in legal  # nobody's first card may be toast


def test_toast_removes_the_bottom_tiki_after_a_first_card() -> None:
    state = play(setup(), "up1 wikiwiki", "wiki huhu nani", "toast")
    assert state.stack[-1] == "hookipa"
    assert state.toasted == ("kapu",)
    with pytest.raises(IllegalAction, match="no longer on the stack"):
        GAME.apply(play(state, "up1 huhu"), "up2 kapu")


def test_a_card_not_in_hand_cannot_be_played() -> None:
    state = setup(asides=["toast up1", "toast up1"])
    state = play(state, "up1 wikiwiki", "up1 huhu")  # both play their last up1
    with pytest.raises(IllegalAction, match="has no up1 card"):
        GAME.apply(state, "up1 huhu")


def test_players_alternate_and_empty_hands_are_skipped() -> None:
    state = setup(("anna", "ben", "cleo"), missions=[1, 2, 3])
    assert GAME.actor(state) == 0
    state = play(state, "wiki huhu nani")
    assert GAME.actor(state) == 1
    state = state._replace(hands=(state.hands[0], state.hands[1], ()))
    state = play(state, "up2 nui")
    assert GAME.actor(state) == 0


def test_a_player_must_play_if_able_and_forfeits_an_unplayable_hand() -> None:
    state = setup()
    with pytest.raises(IllegalAction, match="must play"):
        GAME.apply(state, "pass")
    stuck = state._replace(hands=(("toast",), state.hands[1]))
    assert GAME.legal_actions(stuck) == ["pass"]
    after = GAME.apply(stuck, "pass")
    assert after.hands[0] == ()
    assert after.stack == stuck.stack
    assert GAME.actor(after) == 1


def test_the_round_ends_at_once_when_three_tikis_remain() -> None:
    state = setup()
    state = state._replace(
        stack=STACK[:4], toasted=STACK[4:], played=(("up1",), ()), turn=0
    )
    after = GAME.apply(state, "toast")
    assert after.phase == "cleanup"
    assert after.stack == STACK[:3]
    assert after.hands[1] == state.hands[1]  # unplayed cards stay unplayed
    assert len(after.history) == 1


def test_the_round_ends_when_all_hands_are_empty() -> None:
    state = setup()
    state = state._replace(hands=(("up1",), ()), played=(("wiki",), ("wiki",)))
    after = GAME.apply(state, "up1 huhu")
    assert after.phase == "cleanup"
    assert len(after.stack) == 9
    assert GAME.legal_actions(after) == ["clear"]


def test_the_next_round_starts_with_the_next_player_and_fresh_cards() -> None:
    state = setup(("anna", "ben", "cleo"), missions=[1, 2, 3])
    state = state._replace(hands=(("up1",), (), ()), played=(("wiki",),) * 3)
    state = play(state, "up1 huhu")
    assert GAME.actor(state) == 1  # ben clears the stack and starts round 2
    state = play(state, "clear")
    assert (state.round, state.phase, state.stack, state.pad) == (1, "build", (), "")
    assert GAME.board(state) == {}
    state = play(state, "build " + " ".join(STACK), "mission 4", "mission 5", "mission 6")
    assert state.missions == (6, 4, 5)  # dealt from the start player on
    state = play(state, "aside toast up1", "aside toast up1", "aside toast up1")
    assert GAME.actor(state) == 1
    assert all(len(hand) == 6 for hand in state.hands)
    assert state.used_missions == (1, 2, 3)


def test_used_missions_are_not_dealt_again() -> None:
    state = setup()
    state = state._replace(hands=(("up1",), ()), played=(("wiki",), ("wiki",)))
    state = play(state, "up1 huhu", "clear", "build " + " ".join(STACK))
    with pytest.raises(IllegalAction, match="not in the mission deck"):
        GAME.apply(state, "mission 1")
    outcomes = [a for a, _ in GAME.chance_outcomes(state)]
    assert "mission 1" not in outcomes and "mission 2" not in outcomes
    assert len(outcomes) == 25


def test_the_play_pad_shows_the_last_card_in_its_colour() -> None:
    state = play(setup(), "up1 wikiwiki")
    board = GAME.board(state)
    assert board["pad:play"] == "card:red:up1"
    assert board["stack:1"] == "tiki:wikiwiki"
    assert len(board) == 10
    state = play(state, "wiki hookipa nani")
    assert GAME.board(state)["pad:play"] == "card:yellow:wiki"
    assert GAME.board(state)["stack:8"] == "tiki:nani"


def test_action_texts_parse_back() -> None:
    assert GAME.parse_action("  UP2   Lokahi ") == "up2 lokahi"
    assert GAME.parse_action("wiki nani huhu") == "wiki huhu nani"
    assert GAME.parse_action("Aside up1 toast") == "aside toast up1"
    for bad in ["", "up4 nani", "up2 bob", "wiki nani nani", "toast nani", "mission x"]:
        with pytest.raises(IllegalAction, match=r"not a Tiki Topple action|empty"):
            GAME.parse_action(bad)
