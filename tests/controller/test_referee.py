"""The referee reads a settled board the same way for any game (here: Tiki Topple)."""

from __future__ import annotations

import pytest

from controller.referee import (
    Accept,
    Choose,
    Discrepancy,
    InProgress,
    NoChange,
    Successors,
    TakeBack,
    decide,
)
from games.core.game import CHANCE
from games.registry import get_game

GAME = get_game("tiki_topple")
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


def playing():
    state = GAME.initial(["anna", "ben"])
    for action in ["build " + " ".join(STACK), "mission 1", "mission 2", "aside toast up1",
                   "aside toast up1"]:
        state = GAME.apply(state, action)
    return state


def board_of(stack, pad=None):
    board = {f"stack:{i}": f"tiki:{t}" for i, t in enumerate(stack, start=1)}
    if pad:
        board["pad:play"] = pad
    return board


def test_the_current_position_is_no_change() -> None:
    state = playing()
    assert decide(Successors(GAME, state), board_of(STACK)) == NoChange()


def test_one_matching_action_is_accepted() -> None:
    state = playing()
    moved = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "kapu", "akamai", "eepo", "hookipa")
    decision = decide(Successors(GAME, state), board_of(moved, "card:red:up3"))
    assert isinstance(decision, Accept)
    assert decision.successor.action == "up3 kapu"
    assert decision.successor.state == GAME.apply(state, "up3 kapu")


def test_a_move_half_done_lights_where_it_goes_on() -> None:
    state = playing()
    lifted = board_of(STACK[:8], "card:red:up3")  # card laid, kapu lifted off the bottom
    decision = decide(Successors(GAME, state), lifted)
    assert isinstance(decision, InProgress)
    assert {s.action for s in decision.successors} == {"up3 kapu"}
    assert decision.targets == ("stack:6", "stack:7", "stack:8", "stack:9")
    assert decision.active == ("pad:play", "stack:9")


def test_the_card_alone_narrows_the_moves_to_that_card() -> None:
    decision = decide(Successors(GAME, playing()), board_of(STACK, "card:red:wiki"))
    assert isinstance(decision, InProgress)
    assert {s.action.split()[0] for s in decision.successors} == {"wiki"}
    assert len(decision.successors) == 36


def test_a_swap_without_a_card_waits_for_the_card() -> None:
    swapped = board_of(("wikiwiki", "nani", *STACK[2:]))
    decision = decide(Successors(GAME, playing()), swapped)
    assert isinstance(decision, InProgress)
    assert {s.action for s in decision.successors} == {"up1 wikiwiki", "wiki nani wikiwiki"}
    assert decision.targets == ("pad:play",)


def test_a_move_no_card_allows_is_a_discrepancy_in_words() -> None:
    up4 = ("nani", "wikiwiki", "huhu", "nui", "kapu", "lokahi", "akamai", "eepo", "hookipa")
    decision = decide(Successors(GAME, playing()), board_of(up4, "card:red:up3"))
    assert isinstance(decision, Discrepancy)
    assert [w.site for w in decision.wrong] == [
        "pad:play", "stack:5", "stack:6", "stack:7", "stack:8", "stack:9"]
    assert decision.message.startswith(
        "Take card red:up3 off pad play; stack 5 should hold tiki lokahi, not tiki kapu; ")


def test_a_stray_or_missing_piece_is_named() -> None:
    state = GAME.apply(GAME.apply(playing(), "up1 wikiwiki"), "wiki huhu kapu")
    state = GAME.apply(state, "toast")  # anna toasts huhu off the bottom
    stray = {**GAME.board(state), "stack:9": "tiki:huhu"}
    decision = decide(Successors(GAME, state), stray)
    assert isinstance(decision, Discrepancy)
    assert decision.message == "Take tiki huhu off stack 9"
    only_toast = state._replace(hands=(state.hands[0], ("toast",)))
    lifted = GAME.board(only_toast)
    top = lifted.pop("stack:1")
    decision = decide(Successors(GAME, only_toast), lifted)
    assert isinstance(decision, Discrepancy)
    assert decision.message == f"Put {top.replace(':', ' ')} back on stack 1"


def test_the_stack_the_players_built_is_read_as_the_chance_outcome() -> None:
    state = GAME.initial(["anna", "ben"])
    successors = Successors(GAME, state)
    assert not successors.hidden_chance
    decision = decide(successors, board_of(STACK))
    assert isinstance(decision, Accept)
    assert decision.successor.action == "build " + " ".join(STACK)
    split = ("nani", "nui", "huhu", "wikiwiki", "lokahi", "akamai", "eepo", "hookipa", "kapu")
    refused = decide(successors, board_of(split))
    assert isinstance(refused, Discrepancy)
    # Guidance toward the nearest legal stack, not "take everything off".
    assert [w.site for w in refused.wrong] == ["stack:2", "stack:4"]
    assert refused.toward is not None and refused.toward.startswith("build nani")
    assert "stack 2 should hold tiki wikiwiki, not tiki nui" in refused.message
    assert refused.message.startswith("Almost build nani wikiwiki huhu nui")
    assert isinstance(decide(successors, board_of(STACK[:4])), InProgress)


def test_secret_deals_are_hidden_chance() -> None:
    state = GAME.apply(GAME.initial(["anna", "ben"]), "build " + " ".join(STACK))
    successors = Successors(GAME, state)
    assert successors.hidden_chance
    assert len(successors.silent) == 27


def test_an_earlier_position_asks_for_a_take_back() -> None:
    state = playing()
    after = GAME.apply(state, "wiki kapu nani")
    earlier = [GAME.board(state)]
    assert decide(Successors(GAME, after), GAME.board(state), earlier) == TakeBack(1)
    assert decide(Successors(GAME, after), GAME.board(state), []) != TakeBack(1)


def test_several_matching_actions_are_a_choice() -> None:
    # No shipped game has two actions with one board yet; build the index by hand.
    from controller.referee import Successor

    successors = Successors.__new__(Successors)
    successors.board = {"a": "x"}
    successors.chance = False
    one = Successor("one", 1, {"a": "y"})
    two = Successor("two", 2, {"a": "y"})
    successors.changing = [one, two]
    successors.silent = []
    successors._by_board = {frozenset({("a", "y")}): [one, two]}
    assert decide(successors, {"a": "y"}) == Choose((one, two))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_of_a_random_game_is_recognised(players: int) -> None:
    import random

    rng = random.Random(players)
    state = GAME.initial([f"p{n}" for n in range(players)])
    while not GAME.is_terminal(state):
        successors = Successors(GAME, state)
        if successors.hidden_chance:
            state = GAME.apply(state, GAME.sample_chance(state, rng))
            continue
        action = (GAME.sample_chance(state, rng) if successors.chance
                  else rng.choice(GAME.legal_actions(state)))
        after = GAME.apply(state, action)
        decision = decide(successors, GAME.board(after))
        assert isinstance(decision, Accept), (action, decision)
        assert decision.successor.action == action
        state = after


def test_two_quick_steps_by_the_same_player_are_read_one_after_the_other(tmp_path) -> None:
    import random

    from controller.journal import Journal
    from controller.table import Table

    topiary = get_game("topiary")
    rng = random.Random(4)
    state = topiary.initial(["anna", "ben"])
    while topiary.actor(state) == CHANCE or not topiary.legal_actions(state)[0].startswith(
            "visitor"):
        state = topiary.apply(state, topiary.sample_chance(state, rng)
                              if topiary.actor(state) == CHANCE
                              else rng.choice(topiary.legal_actions(state)))
    # Find a visitor whose line has a face-down tile: place it, take, then place in one go.
    for visitor in topiary.legal_actions(state):
        placed = topiary.apply(state, visitor)
        if topiary.actor(placed) == topiary.actor(state) and topiary.legal_actions(placed):
            take = topiary.legal_actions(placed)[0]
            taken = topiary.apply(placed, take)
            if topiary.board(taken) != topiary.board(placed):
                break
    successors = Successors(topiary, placed)
    assert successors.matching(topiary.board(taken)) == [
        s for s in successors.changing if s.action == take]
    put = topiary.legal_actions(taken)[0]
    done = topiary.apply(taken, put)
    decision = decide(successors, topiary.board(done))
    assert isinstance(decision, Accept) and decision.successor.action == take
    table = Table(topiary, Journal(tmp_path / "j.sqlite3"))
    table.game_id = table.journal.start("topiary", ["anna", "ben"], {})
    table.players = ("anna", "ben")
    table.history.start(placed)
    table.observe(topiary.board(done))
    assert table.actions == [take, put]


def test_lifting_pieces_on_the_way_to_a_move_is_not_a_take_back() -> None:
    # A board reached only by lifting pieces, which starts a legal move, is that move begun,
    # even when it equals an earlier position (On Top: a drawn piece lifted off its pad).
    after = GAME.apply(playing(), "up1 wikiwiki")
    lifted = {site: piece for site, piece in GAME.board(after).items() if site != "pad:play"}
    assert isinstance(decide(Successors(GAME, after), lifted, [lifted]), InProgress)


def a_tower_to_build(stones: int = 2):
    """An On Top position whose next step builds a tower of ``stones`` stones."""
    import random

    game = get_game("on_top")
    rng = random.Random(4)
    for _ in range(50):
        state = game.initial(["a", "b", "c", "d"])
        while not game.is_terminal(state):
            if game.actor(state) != CHANCE and state.phase == "tower":
                _circle, tower = state.towers[state.built]
                if len(tower) >= stones:
                    return game, state
            actions = game.legal_actions(state)
            state = game.apply(state, game.sample_chance(state, rng)
                               if game.actor(state) == CHANCE else rng.choice(actions))
    raise AssertionError("no tower of that height in 50 random games")


def test_a_tower_is_in_progress_while_its_stones_go_on_in_order_and_wrong_out_of_order() -> None:
    game, state = a_tower_to_build()
    successors = Successors(game, state)
    [tower] = successors.changing
    site = next(s for s in tower.board if tower.board[s] != successors.board.get(s))
    pile = tower.board[site].split(" / ")
    begun = {**successors.board, site: pile[0]}
    assert isinstance(decide(successors, begun), InProgress)
    assert isinstance(decide(successors, tower.board), Accept)
    upside_down = {**successors.board, site: " / ".join(reversed(pile))}
    assert isinstance(decide(successors, upside_down), Discrepancy)
    top_first = {**successors.board, site: pile[-1]}
    if pile[-1] != pile[0]:
        assert isinstance(decide(successors, top_first), Discrepancy)
