"""Trapper's turn rules: steps, water, jokers, jumps, the display, chips, trades, the end."""

from __future__ import annotations

import random

import pytest

from games.core.errors import BadActionText, IllegalAction
from games.core.game import CHANCE, TERMINAL
from games.core.playout import random_playout
from games.trapper import GAME
from games.trapper.display import Display, Sold
from games.trapper.state import TrapperState

from .helpers import BLUE, RED, C, canoe, cell, tile, turn_state


def test_the_box_holds_64_tiles_with_one_water_side_each() -> None:
    c = GAME.components
    kinds = [t.kind for t in c.tiles]
    assert len(c.tiles) == 64 == c.size * c.size
    assert (kinds.count(0), kinds.count(1), kinds.count(2), kinds.count(3)) == (36, 18, 5, 5)
    assert "water" in c.assumed and "species.animal_values" in c.assumed
    assert len(set(GAME.pieces())) == len(GAME.pieces())


def test_setup_lays_60_tiles_turns_up_the_centre_neighbours_and_deals_six_each() -> None:
    state = GAME.apply(GAME.initial(["anna", "ben"]), "setup")
    rng = random.Random(1)
    while GAME.actor(state) == CHANCE:
        state = GAME.apply(state, GAME.sample_chance(state, rng))
    assert state.phase == "turn" and state.seat == 0
    assert sum(t != -1 for t in state.grid) == 60 and len(state.supply) == 4
    assert sum(state.face_up) == 8  # two tiles beside each centre square
    assert [sum(hand) for hand in state.hands] == [6, 6]
    board = GAME.board(state)
    assert board["grid:3:3"] == "trapper:red" and board["seat:1"] == "marker:turn"
    assert board["bank:bonus:16"] == "chip:bonus:16"


def test_a_step_takes_the_tile_moves_the_trapper_and_turns_up_its_neighbours() -> None:
    state = turn_state({"2:3": "bear-4", "1:3": "wolf-3", "2:2": "lynx-3"},
                       face_down=("1:3", "2:2"))
    after = GAME.apply(state, "red 2:3")
    assert after.trappers[RED] == cell("2:3") and after.grid[cell("2:3")] == -1
    assert after.face_up[cell("1:3")] and after.face_up[cell("2:2")]
    assert after.hands[0][RED] == 3 and after.pad == (RED,)
    assert after.displays[0].loose == (tile("bear-4"),)
    board = GAME.board(after)
    assert board["grid:2:3"] == "trapper:red" and "grid:3:3" not in board
    assert board["pad:play:1"] == "card:red"


def test_water_blocks_the_way_into_a_tile() -> None:
    state = turn_state({"2:3": "bear-1a", "3:2": "bear-4"})  # bear-1a: water south
    assert "red 2:3" not in GAME.legal_actions(state)
    assert "red 3:2" in GAME.legal_actions(state)
    with pytest.raises(IllegalAction, match="water"):
        GAME.apply(state, "red 2:3")


def test_a_joker_is_two_cards_of_one_other_colour() -> None:
    state = turn_state({"2:3": "bear-4"}, hands=((0, 2, 1, 0), (4, 4, 4, 4)))
    legal = GAME.legal_actions(state)
    assert "red 2:3 joker blue" in legal and "red 2:3" not in legal
    assert "red 2:3 joker yellow" not in legal
    after = GAME.apply(state, "red 2:3 joker blue")
    assert after.hands[0] == (0, 0, 1, 0) and after.pad == (BLUE, BLUE)
    with pytest.raises(IllegalAction, match="no red card"):
        GAME.apply(state, "red 2:3")
    with pytest.raises(IllegalAction, match="two yellow"):
        GAME.apply(state, "red 2:3 joker yellow")


def test_only_one_trapper_moves_in_a_turn() -> None:
    state = turn_state({"2:3": "bear-4", "1:3": "wolf-3", "2:4": "lynx-3"})
    after = GAME.apply(state, "red 2:3")
    legal = GAME.legal_actions(after)
    assert "red 1:3" in legal and not any(a.startswith("blue") for a in legal)
    assert "done" in legal and "pass" not in legal and "retire" not in legal
    with pytest.raises(IllegalAction, match="only one trapper"):
        GAME.apply(after, "blue 2:4")


def test_an_isolated_trapper_jumps_to_any_face_up_tile() -> None:
    state = turn_state({"0:0": "bear-4", "7:7": "wolf-3", "6:6": "lynx-3"},
                       face_down=("6:6",))
    legal = GAME.legal_actions(state)
    assert "red 0:0" in legal and "red 7:7" in legal and "red 6:6" not in legal
    after = GAME.apply(state, "red 7:7")
    assert after.face_up[cell("6:6")] is False  # not a neighbour of 7:7
    state = turn_state({"2:3": "bear-4", "7:7": "wolf-3"})
    with pytest.raises(IllegalAction, match="not next to"):
        GAME.apply(state, "red 7:7")


def test_a_trapper_never_moves_onto_an_empty_or_face_down_square() -> None:
    state = turn_state({"2:3": "bear-4", "3:2": "wolf-3"}, face_down=("3:2",))
    with pytest.raises(IllegalAction, match="no tile"):
        GAME.apply(state, "red 4:2")
    with pytest.raises(IllegalAction, match="face down"):
        GAME.apply(state, "red 3:2")


def test_animals_go_to_a_canoe_of_their_species_up_to_its_capacity() -> None:
    display = Display(canoes=(canoe("canoe-bear-3", "bear-1a"), canoe("canoe-bear-2", "bear-2a")),
                      loose=(tile("lynx-1a"),))
    state = turn_state({"2:3": "bear-4", "3:2": "wolf-2a"}, displays=(display, Display()),
                       choose=True)
    legal = GAME.legal_actions(state)
    assert "red 2:3 onto canoe-bear-2" in legal and "red 2:3 onto canoe-bear-3" in legal
    with pytest.raises(IllegalAction, match="say which canoe"):
        GAME.apply(state, "red 2:3")
    after = GAME.apply(state, "red 2:3 onto canoe-bear-3")
    assert after.displays[0].canoes[0].animals == tuple(sorted((tile("bear-1a"), tile("bear-4"))))
    # no wolf canoe: the wolf lies loose
    wolf = GAME.apply(state, "red 3:2")
    assert tile("wolf-2a") in wolf.displays[0].loose


def test_auto_placement_fills_the_canoe_that_sells_soonest() -> None:
    display = Display(canoes=(canoe("canoe-bear-3", "bear-1a"), canoe("canoe-bear-2", "bear-2a")))
    state = turn_state({"2:3": "bear-4"}, displays=(display, Display()))
    assert "red 2:3" in GAME.legal_actions(state)
    after = GAME.apply(state, "red 2:3")
    assert after.sales[0][0].canoe == tile("canoe-bear-2")
    with pytest.raises(IllegalAction, match="placement is auto"):
        GAME.apply(state, "red 2:3 onto canoe-bear-3")


def test_each_canoe_takes_one_herb_and_one_mushroom() -> None:
    display = Display(canoes=(canoe("canoe-bear-3", "bear-1a", herb="herb-1"),))
    state = turn_state({"2:3": "herb-2", "3:2": "mushroom-1"}, displays=(display, Display()))
    herb = GAME.apply(state, "red 2:3")
    assert tile("herb-2") in herb.displays[0].loose
    mushroom = GAME.apply(state, "red 3:2")
    assert mushroom.displays[0].canoes[0].mushroom == tile("mushroom-1")


def test_a_new_canoe_gathers_its_loose_animals_and_extras() -> None:
    loose = tuple(sorted(tile(t) for t in ("bear-1a", "bear-3", "bear-4", "herb-1", "herb-2",
                                           "wolf-1a")))
    state = turn_state({"2:3": "canoe-bear-2"}, displays=(Display(loose=loose), Display()))
    after = GAME.apply(state, "red 2:3")
    sold = after.sales[0][0]
    assert sold.canoe == tile("canoe-bear-2")
    assert set(sold.load) == {tile("bear-3"), tile("bear-4"), tile("herb-1")}
    assert sold.amount == 2 * (3 + 4 + 6)  # a herb is worth 6 (values=printed)
    assert set(after.displays[0].loose) == {tile("bear-1a"), tile("herb-2"), tile("wolf-1a")}


def test_a_full_canoe_is_sold_at_once_for_its_load_doubled_with_a_bonus_chip() -> None:
    display = Display(canoes=(canoe("canoe-bear-3", "bear-3", "bear-2a", herb="herb-1",
                                    mushroom="mushroom-1"),))
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"}, displays=(display, Display()))
    after = GAME.apply(state, "red 2:3")
    # 2 x (3 + 2 + 4 + herb 6 + mushroom 6) = 42: the highest chip, 36
    assert after.sales[0] == (Sold(tile("canoe-bear-3"), after.sales[0][0].load, 42),)
    assert after.displays[0].canoes == () and len(after.displays[0].sold) == 1
    values = GAME.components.bonus_chips
    assert after.bonus[values.index(36)] == 0
    assert "bank:bonus:36" not in GAME.board(after)
    assert GAME.score(after).totals[0] == 42


def test_a_taken_bonus_chip_gives_the_next_lower_one_and_none_below_16() -> None:
    values = GAME.components.bonus_chips
    display = Display(canoes=(canoe("canoe-bear-3", "bear-3", "bear-2a", herb="herb-1",
                                    mushroom="mushroom-1"),))
    state = turn_state({"2:3": "bear-4"}, displays=(display, Display()))
    bonus = list(state.bonus)
    bonus[values.index(36)] = 1
    bonus[values.index(34)] = 1
    after = GAME.apply(state._replace(bonus=tuple(bonus)), "red 2:3")
    assert after.bonus[values.index(32)] == 0
    small = turn_state({"2:3": "bear-4"},
                       displays=(Display(canoes=(canoe("canoe-bear-2", "bear-1a"),)), Display()))
    after = GAME.apply(small, "red 2:3")
    assert after.sales[0][0].amount == 10 and set(after.bonus) == {-1}


def _with_sold(species: list[str]) -> Display:
    sold = tuple(Sold(tile(f"canoe-{name}-1"), (tile(f"{name}-4"),), 8) for name in species)
    return Display(sold=sold)


def test_species_chip_trades_hand_in_whole_loads_once_a_turn() -> None:
    display = _with_sold(["bear", "wolf", "lynx"])
    state = turn_state({"2:3": "bear-3"}, displays=(display, Display()))
    legal = GAME.legal_actions(state)
    assert {"trade 1", "trade 2", "trade 3"} <= set(legal) and "trade 4" not in legal
    after = GAME.apply(state, "trade 2")
    assert len(after.displays[0].sold) == 1 and after.species[1] == 0
    assert "bank:species:2" not in GAME.board(after)
    assert not any(a.startswith("trade") for a in GAME.legal_actions(after))
    with pytest.raises(IllegalAction, match="one species chip"):
        GAME.apply(after, "trade 1")
    with pytest.raises(IllegalAction, match="different species"):
        GAME.apply(state, "trade 4")
    taken = state._replace(species=(-1, -1, 1, -1, -1, -1))
    assert "trade 3" not in GAME.legal_actions(taken)  # taken: a lower chip instead
    assert "trade 2" in GAME.legal_actions(taken)
    with pytest.raises(IllegalAction, match="taken"):
        GAME.apply(taken, "trade 3")


def test_a_trade_keeps_the_most_different_species() -> None:
    display = _with_sold(["bear", "wolf"])
    display = display._replace(sold=(*display.sold, Sold(tile("canoe-bear-2"), (), 0)))
    state = turn_state({"2:3": "bear-3"}, displays=(display, Display()))
    after = GAME.apply(state, "trade 1")
    left = {GAME.components.tiles[s.canoe].species for s in after.displays[0].sold}
    assert len(left) == 2  # a bear load went, bear and wolf remain


def test_ending_a_turn_clears_the_pad_moves_the_marker_and_draws_two() -> None:
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"})
    after = GAME.apply(GAME.apply(state, "red 2:3"), "done")
    assert after.phase == "draw" and after.pad == () and after.discard[RED] == 1
    assert GAME.board(after)["seat:2"] == "marker:turn" and "pad:play:1" not in GAME.board(after)
    assert GAME.actor(after) == CHANCE
    assert GAME.board(GAME.apply(after, "draw red")) == GAME.board(after)  # a secret draw
    after = GAME.apply(GAME.apply(after, "draw red"), "draw blue")
    assert after.phase == "turn" and after.seat == 1 and sum(after.hands[0]) == 15 + 2


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile() -> None:
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"})
    state = state._replace(draw=(1, 0, 0, 0), discard=(0, 3, 4, 0),
                           hands=((4, 4, 4, 4), (11, 9, 8, 16)))
    after = GAME.apply(state, "pass")
    assert after.phase == "draw"
    after = GAME.apply(after, "draw red")
    assert after.draw == (0, 3, 4, 0) and after.discard == (0, 0, 0, 0)
    assert GAME.legal_actions(after) == ["draw blue", "draw yellow"]


def test_retiring_discards_the_hand_and_the_player_is_skipped() -> None:
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"},
                       hands=((4, 4, 4, 4), (4, 4, 4, 4), (4, 4, 4, 4)))
    after = GAME.apply(state, "retire")
    assert after.retired == (True, False, False) and after.hands[0] == (0, 0, 0, 0)
    assert after.discard == (4, 4, 4, 4) and after.seat == 1
    board = GAME.board(after)
    assert board["seat:1"] == "marker:out:1" and board["seat:2"] == "marker:turn"
    after = GAME.apply(after, "pass")
    for _ in range(2):
        after = GAME.apply(after, "draw red")
    assert after.seat == 2  # seat 1 (index 0) is skipped from now on


def test_in_revision1_the_game_ended_when_everyone_still_in_had_passed() -> None:
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"}, options={"reading": "revision1"})
    after = GAME.apply(state, "pass")
    after = GAME.apply(GAME.apply(after, "draw red"), "draw red")
    assert after.seat == 1
    over = GAME.apply(after, "pass")
    assert GAME.actor(over) == TERMINAL and "seat:1" not in GAME.board(over)
    assert "seat:2" not in GAME.board(over)  # the turn marker is put away


def test_a_step_resets_the_passes() -> None:
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"}, options={"reading": "revision1"})
    state = state._replace(passes=1)
    assert GAME.apply(state, "red 2:3").passes == 0


def test_taking_the_last_tile_ends_the_game_at_once() -> None:
    state = turn_state({"2:3": "bear-4"})
    over = GAME.apply(state, "red 2:3")
    assert over.phase == "over" and GAME.legal_actions(over) == []


def test_everyone_retiring_ends_the_game() -> None:
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"})
    after = GAME.apply(state, "retire")
    over = GAME.apply(after, "retire")
    assert over.phase == "over"


def test_final_scoring_counts_unfinished_canoes_loose_pieces_and_chips() -> None:
    display = Display(canoes=(canoe("canoe-bear-3", "bear-4", herb="herb-1"),
                              canoe("canoe-wolf-2")),
                      loose=(tile("lynx-3"),))
    state = turn_state({"2:3": "bear-3"}, displays=(display, Display()))
    state = state._replace(
        sales=((Sold(tile("canoe-moose-1"), (tile("moose-4"),), 8),), ()),
        bonus=(0, 1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
        species=(1, 0, 0, -1, -1, -1),
    )
    running = GAME.score(state)
    assert running.totals == (8, 0)  # during play: money only
    final = GAME.score(state._replace(phase="over"))
    lines = [line.text for line in final.lines[0]]
    assert "unfinished canoe-bear-3 (bear-4, herb-1): +10" in lines
    assert "empty canoe-wolf-2: -2 (capacity)" in lines and "loose lynx-3: -3 (value)" in lines
    # bonus: 18 (p2) is highest -> 12, 16 (p1) -> 8; species: 3 (p1) 12, 2 (p1) 8, 1 (p2) 5
    assert final.totals == (8 + 10 - 2 - 3 + 8 + 12 + 8, 12 + 5)
    assert GAME.winners(state._replace(phase="over")) == [0]


def test_only_the_five_highest_chips_of_a_kind_pay() -> None:
    state = turn_state({"2:3": "bear-3"})._replace(phase="over", bonus=(0,) * 11)
    totals = GAME.score(state).totals
    assert totals == (12 + 8 + 5 + 3 + 2, 0)


def test_ties_share_the_win() -> None:
    state = turn_state({"2:3": "bear-3"})._replace(phase="over")
    assert GAME.winners(state) == [0, 1]


def test_refusals_say_why() -> None:
    state = turn_state({"2:3": "bear-4"})
    with pytest.raises(BadActionText, match="not a Trapper action"):
        GAME.apply(state, "fly away")
    with pytest.raises(IllegalAction, match="not now"):
        GAME.apply(state, "draw red")
    with pytest.raises(IllegalAction, match="pass instead"):
        GAME.apply(state, "done")
    stepped = GAME.apply(turn_state({"2:3": "bear-4", "1:3": "bear-3"}), "red 2:3")
    with pytest.raises(IllegalAction, match="done"):
        GAME.apply(stepped, "pass")
    with pytest.raises(IllegalAction, match="instead of a turn"):
        GAME.apply(stepped, "retire")
    lay = GAME.apply(GAME.initial(["a", "b"]), "setup")
    with pytest.raises(IllegalAction, match="next tile goes on 0:0"):
        GAME.apply(lay, "lay 5:5 bear-4")
    assert GAME.parse_action("  RED 2:3  Joker BLUE ") == "red 2:3 joker blue"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_action_is_one_sensed_change_and_secret_draws_change_nothing(players: int) -> None:
    """What the referee relies on: no player action leaves the table as it was but a single
    one the confirm button can do (a pass when the others have ended), and a chance step
    changes the table either for every outcome (the layout) or for none (cards)."""
    for seed in range(4):
        playout = random_playout(GAME, [f"p{i}" for i in range(players)],
                                 {"placement": "auto"}, random.Random(seed))
        state = GAME.initial([f"p{i}" for i in range(players)])
        for action in playout.actions:
            before = GAME.board(state)
            chance = GAME.actor(state) == CHANCE
            boards = {a: GAME.board(GAME.apply(state, a)) for a in GAME.legal_actions(state)}
            if chance:
                same = [board == before for board in boards.values()]
                assert all(same) or not any(same)
            else:
                silent = [a for a, board in boards.items() if board == before]
                assert silent in ([], ["pass"]), action
                if silent:
                    assert state.retired.count(False) == 1
                assert len({tuple(sorted(b.items())) for b in boards.values()}) == len(boards)
            state = GAME.apply(state, action)


# -- the audit's findings: the box's rules, and rules revision 1 kept as options ---------------
def test_a_lone_canoe_fills_with_the_animals_taken_after_it() -> None:
    """A capacity-2 bear canoe, then two bears: the canoe is full and sold, 2 x (4 + 3)."""
    state = turn_state({"2:3": "canoe-bear-2", "1:3": "bear-4", "0:3": "bear-3",
                        "0:0": "wolf-3"})
    state = GAME.apply(state, "red 2:3")
    assert state.displays[0].canoes == (canoe("canoe-bear-2"),) and not state.displays[0].loose
    state = GAME.apply(GAME.apply(state, "red 1:3"), "red 0:3")
    display = state.displays[0]
    assert display.canoes == () and display.loose == ()
    assert state.sales[0] == (Sold(tile("canoe-bear-2"), (tile("bear-3"), tile("bear-4")), 14),)
    # in rules revision 1 the canoe lay loose for good and the bears beside it
    first = turn_state({"2:3": "canoe-bear-2", "1:3": "bear-4", "0:3": "bear-3",
                        "0:0": "wolf-3"}, options={"reading": "revision1"})
    for step in ("red 2:3", "red 1:3", "red 0:3"):
        first = GAME.apply(first, step)
    assert set(first.displays[0].loose) == {tile(t) for t in ("canoe-bear-2", "bear-4", "bear-3")}
    assert first.sales[0] == ()


def test_an_empty_canoe_takes_herbs_and_mushrooms_too() -> None:
    display = Display(canoes=(canoe("canoe-lynx-1"),))
    state = turn_state({"2:3": "herb-1", "0:0": "wolf-3"}, displays=(display, Display()))
    after = GAME.apply(state, "red 2:3")
    assert after.displays[0].canoes == (canoe("canoe-lynx-1", herb="herb-1"),)


def _draw_two(state: TrapperState) -> TrapperState:
    for _ in range(2):
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    return state


def test_passing_never_ends_the_game() -> None:
    """Two opening passes: the game goes on; it ends when every player has ended."""
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"})
    for _ in range(3):  # three rounds of passes
        for _ in range(2):
            state = _draw_two(GAME.apply(state, "pass"))
    assert state.phase == "turn" and state.seat == 0 and state.passes == 0
    state = GAME.apply(state, "retire")
    assert state.phase == "turn" and state.seat == 1
    # the last player in passes alone: the turn comes back to them (the confirm button)
    alone = _draw_two(GAME.apply(state, "pass"))
    assert alone.phase == "turn" and alone.seat == 1
    assert GAME.board(alone) == GAME.board(state)
    over = GAME.apply(alone, "retire")
    assert GAME.actor(over) == TERMINAL and "seat:2" in GAME.board(over)  # the out marker


def test_with_no_card_left_to_draw_a_player_plays_or_ends() -> None:
    state = turn_state({"2:3": "bear-4", "0:0": "wolf-3"},
                       hands=((16, 16, 0, 0), (0, 0, 16, 16)))
    assert sum(state.draw) == sum(state.discard) == 0
    legal = GAME.legal_actions(state)
    assert "pass" not in legal and "retire" in legal and "red 2:3" in legal
    with pytest.raises(IllegalAction, match="no card is left to draw"):
        GAME.apply(state, "pass")
    # the first reading let them pass (and two passes ended the game)
    first = state._replace(first_reading=True)
    assert "pass" in GAME.legal_actions(first)


def test_printed_values_let_a_canoe_win_the_high_bonus_chips() -> None:
    """Owners' report: three bears and a herb sold for 30; the chip 30 is taken."""
    display = Display(canoes=(canoe("canoe-bear-3", "bear-4", "bear-3", herb="herb-1"),))
    state = turn_state({"2:3": "bear-2a", "0:0": "wolf-3"}, displays=(display, Display()))
    after = GAME.apply(state, "red 2:3")
    assert after.sales[0][0].amount == 30
    assert after.bonus[C.bonus_chips.index(30)] == 0
    # with the first guess (herb worth 1) the same canoe sold for 20
    first = turn_state({"2:3": "bear-2a", "0:0": "wolf-3"}, displays=(display, Display()),
                       options={"values": "first_guess"})
    assert GAME.apply(first, "red 2:3").sales[0][0].amount == 20


def test_every_bonus_chip_can_be_won_with_the_printed_values() -> None:
    """The richest load (three best animals, a herb and a mushroom) reaches the chip 36."""
    best = sorted(C.animal_values, reverse=True)[:3]
    worths = C.worths["printed"]
    assert 2 * (sum(best) + sum(worths)) >= max(C.bonus_chips)
    herb, mushroom = C.worths["first_guess"]
    assert 2 * (sum(best) + herb + mushroom) < max(C.bonus_chips)  # why the guess was wrong


def test_records_from_rules_revision_1_replay_with_its_reading() -> None:
    assert GAME.revision == 2
    assert GAME.options_at({}, 1) == {"placement": "auto", "values": "first_guess",
                                      "reading": "revision1"}
    assert GAME.options_at({"placement": "choose"}, 2) == {
        "placement": "choose", "values": "printed", "reading": "box"}
