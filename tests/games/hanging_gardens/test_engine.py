"""The rules of play: placing cards, temples, score tiles, rounds, the end; refusals say why."""

from __future__ import annotations

import pytest

from games.core.errors import BadActionText, IllegalAction
from games.core.game import CHANCE, TERMINAL
from games.hanging_gardens import GAME
from games.hanging_gardens.state import EMPTY

from .helpers import BOX, LETTERS, card_like, counts, field, garden, playing

START = garden("", "", "___..", "___..", "___..")
TT = card_like("tt / .. / ..")
T1 = card_like("t. / .. / ..")
TT_TP = card_like("tt / tp / ..")


def refused(state, action: str) -> str:
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, action)
    return str(error.value)


# -- setup and rounds ------------------------------------------------------------------------
def test_setup_fills_the_score_tiles_then_deals_the_display():
    state = GAME.initial(["anna", "ben", "cleo"])
    assert GAME.actor(state) == CHANCE and state.phase == "setup"
    for kind in ["queen", "king", "tiger", "garden", "statue", "chalice"]:
        state = GAME.apply(state, f"reveal {kind}")
    assert state.phase == "deal"
    assert GAME.board(state)["tiles:1:1"] == "hg:tile:queen"
    assert GAME.board(state)["tiles:3:2"] == "hg:tile:chalice"
    for card in ["c01", "c02", "c03"]:
        state = GAME.apply(state, f"draw {card}")
    assert state.phase == "place" and GAME.actor(state) == 0
    assert GAME.board(state)["display:3"] == "hg:c03:a"
    assert "display:4" not in {site.id for site in GAME.sites(3)}


@pytest.mark.parametrize(("players", "cards"), [(2, 4), (3, 3), (4, 4)])
def test_the_display_holds_4_3_4_cards(players, cards):
    assert len(GAME.initial(["a", "b", "c", "d"][:players]).display) == cards


def test_two_players_take_two_cards_each_alternately_and_the_start_player_moves_on():
    state = playing(2, display=(T1, TT, 20, 21))
    order = []
    while state.phase != "deal":
        order.append(state.seat)
        state = GAME.apply(state, GAME.legal_actions(state)[0])
        if state.phase == "temple":
            state = GAME.apply(state, "no temple")
    assert order == [0, 1, 0, 1]
    assert state.round == 1 and state.seat == 1


def test_the_game_ends_when_every_card_is_used():
    state = playing(3, display=(T1,), deck=())
    state = GAME.apply(state, GAME.legal_actions(state)[0])
    if state.phase == "temple":
        state = GAME.apply(state, "no temple")
    assert GAME.actor(state) == TERMINAL and GAME.legal_actions(state) == []


# -- placing cards ---------------------------------------------------------------------------
def test_a_card_goes_on_with_its_motifs_on_earlier_cards():
    state = playing(2, display=(TT,))
    after = GAME.apply(state, "place c05 2:3 up")
    assert (
        after.tops[0][field(2, 3)] == after.tops[0][field(2, 4)] == BOX.motifs.index("terrace") + 2
    )
    assert GAME.board(after)["garden:1:2:3"] == "hg:c05:a"  # the tag under its top-left field
    assert GAME.board(after)["garden:1:4:4"] == "hg:c05:b"  # and under its bottom-right
    assert "display:1" not in GAME.board(after)


def test_turned_round_a_card_may_hang_its_blank_fields_over_the_table():
    state = playing(2, display=(TT,))
    assert "place c05 0:3 down" in GAME.legal_actions(state)
    after = GAME.apply(state, "place c05 0:3 down")
    terrace = BOX.motifs.index("terrace") + 2
    assert after.tops[0][field(2, 3)] == after.tops[0][field(2, 4)] == terrace
    assert after.tops[0][field(0, 3)] == 1  # blank ground now lies on the table
    board = GAME.board(after)
    assert board["garden:1:2:4"] == "hg:c05:a" and board["garden:1:0:3"] == "hg:c05:b"


def test_a_motif_on_the_bare_table_is_refused():
    state = playing(2, display=(TT,))
    assert "place c05 0:3 up" not in GAME.legal_actions(state)
    assert "on the bare table" in refused(state, "place c05 0:3 up")


def test_temples_are_never_covered():
    state = playing(2, display=(TT,), temples=((field(2, 3),), ()))
    assert "would cover the temple on 2:3" in refused(state, "place c05 2:3 up")


def test_a_card_not_on_the_display_is_refused():
    state = playing(2, display=(TT,))
    assert "not on the card display" in refused(state, "place c01 2:3 up")


def test_a_card_that_fits_nowhere_leaves_the_game_and_only_such_a_card():
    temples = tuple(field(r, c) for r, c in [(2, 3), (3, 3), (4, 3), (2, 4), (3, 4)])
    state = playing(2, display=(TT, T1), temples=(temples, ()))
    legal = GAME.legal_actions(state)
    assert "discard c05" in legal
    assert not any(action.startswith("place c05") for action in legal)
    assert "discard c01" not in legal
    assert "fits in your garden" in refused(state, "discard c01")
    after = GAME.apply(state, "discard c05")
    assert TT not in after.display and TT not in after.deck and after.seat == 1


# -- temples ---------------------------------------------------------------------------------
def test_a_temple_needs_a_group_of_three_that_the_new_card_grew():
    tops = [garden("", "", "___t.", "___t.", "___t."), START]
    state = playing(2, tops=tops, display=(T1, card_like("p. / .. / ..")))
    # A park elsewhere: the terrace group did not grow, no temple.
    after = GAME.apply(state, "place c02 2:4 up")
    assert after.phase == "place" and after.seat == 1
    # A terrace joining the group: a temple may go on any of its fields.
    after = GAME.apply(state, "place c01 2:4 up")
    assert after.phase == "temple"
    assert GAME.legal_actions(after) == [
        "no temple",
        "temple 2:3",
        "temple 2:4",
        "temple 3:3",
        "temple 4:3",
    ]
    assert "group of 3 or more" in refused(after, "temple 0:0")


def test_a_group_re_covered_without_growing_earns_no_temple():
    """The sheet: a new temple only if at least one new part joined the group. A declined
    group covered again by the same motif has not grown: it is not offered again (rules
    revision 1 offered it)."""
    tops = [garden("", "", "___t.", "___t.", "___t."), START]
    column = card_like(".t / .t / .t")
    state = playing(2, tops=tops, display=(column, T1))
    name = BOX.card_names[column]
    after = GAME.apply(state, f"place {name} 2:2 up")  # its terraces lie on the terraces
    assert after.phase == "place" and after.seat == 1 and not after.built[0]
    terraces = {fields for code, fields in GAME.groups(after.tops[0]) if code == LETTERS["t"]}
    assert terraces == {frozenset({field(2, 3), field(3, 3), field(4, 3)})}  # did not grow
    first = GAME.apply(state._replace(first_reading=True), f"place {name} 2:2 up")
    assert first.phase == "temple" and "temple 2:3" in GAME.legal_actions(first)


def test_the_game_ends_with_the_round_in_which_the_score_tile_stack_runs_out():
    """The last tile of the stack refills the display: the round is played to its end and the
    game is over, cards still in the deck. Rules revision 1 played on until a temple could not
    get a tile."""
    tops = [garden("", "", "___t.", "___t.", "___t."), START]
    last = (BOX.kinds.index("guard"),)
    stack = tuple(1 if kind in last else 0 for kind in range(len(BOX.kinds)))
    for first_reading in (False, True):
        state = playing(2, tops=tops, display=(T1, TT), stack=stack,
                        first_reading=first_reading)
        state = GAME.apply(GAME.apply(state, "place c01 2:4 up"), "temple 2:4")
        state = GAME.apply(GAME.apply(state, "tile 1:1"), "reveal guard")
        assert sum(state.stack) == 0 and state.ending != first_reading
        assert state.phase == "place" and state.seat == 1  # the round goes on
        state = GAME.apply(state, GAME.legal_actions(state)[0])
        while state.phase == "temple":
            state = GAME.apply(state, "no temple")
        assert GAME.is_terminal(state) != first_reading and state.deck
        assert state.missing == (0, 0)


def test_building_a_temple_earns_a_tile_from_the_columns_its_group_allows():
    tops = [garden("", "", "___t.", "___t.", "___t."), START]
    state = playing(2, tops=tops, display=(T1, TT))
    state = GAME.apply(GAME.apply(state, "place c01 2:4 up"), "temple 2:4")
    assert state.phase == "tile" and state.columns == 2  # a group of 4: columns 1 and 2
    assert GAME.board(state)["garden:1:2:4"] == "hg:temple:red"
    assert GAME.legal_actions(state) == ["tile 1:1", "tile 1:2", "tile 2:1", "tile 2:2"]
    assert "columns 1 to 2 only" in refused(state, "tile 3:1")
    state = GAME.apply(state, "tile 2:1")
    assert state.collected[0] == counts("queen") and state.phase == "refill"
    assert "tiles:2:1" not in GAME.board(state)
    state = GAME.apply(state, "reveal gate")
    assert GAME.board(state)["tiles:2:1"] == "hg:tile:gate"
    assert state.phase == "place" and state.seat == 1


def test_one_temple_per_player_per_round():
    tops = [garden("", "", "___t.", "___t.", "___t."), START]
    state = playing(2, tops=tops, display=(T1, TT), built=(True, False))
    after = GAME.apply(state, "place c01 2:4 up")
    assert after.phase == "place" and after.seat == 1


def test_a_group_with_a_temple_gets_no_second_one():
    tops = [garden("", "", "___t.", "___t.", "___t."), START]
    state = playing(2, tops=tops, display=(T1, TT), temples=((field(4, 3),), ()))
    assert GAME.apply(state, "place c01 2:4 up").phase == "place"


def test_a_split_off_part_that_the_card_grew_to_three_may_get_a_temple():
    tops = [garden("", "", ".....", "ttttt", "....."), START]
    state = playing(2, tops=tops, display=(TT_TP,), temples=((field(3, 4),), ()))
    after = GAME.apply(state, "place c13 2:2 up")
    # Row 3 is now t t t p t: the left part (with the card's terraces) has no temple.
    assert after.phase == "temple"
    assert "temple 3:0" in GAME.legal_actions(after)
    assert "temple 3:4" not in GAME.legal_actions(after)
    state = GAME.apply(after, "temple 3:0")
    assert state.columns == 3  # 5 fields: (3,0) (3,1) (3,2) (2,2) (2,3)


def moving_state():
    tops = [
        garden("ttt_aaaa", "", "ppp_ffff", "", "fffff", "", "tttttt"),
        START,
    ]
    temples = tuple(sorted(field(r, c) for r, c in [(0, 0), (0, 4), (2, 0), (4, 0), (6, 0)]))
    return playing(2, tops=tops, temples=(temples, ()), phase="temple", placed=(field(2, 7),))


def test_with_all_five_temples_out_one_moves_from_a_smallest_group():
    state = moving_state()
    legal = GAME.legal_actions(state)
    assert "temple 2:7 from 0:0" in legal and "temple 2:7 from 2:0" in legal
    assert "temple 2:7 from 0:4" not in legal
    assert "move one from a smallest group" in refused(state, "temple 2:7")
    assert "not on one of your smallest groups" in refused(state, "temple 2:7 from 0:4")
    after = GAME.apply(state, "temple 2:7 from 2:0")
    assert after.temples[0] == tuple(
        sorted(field(r, c) for r, c in [(0, 0), (0, 4), (2, 7), (4, 0), (6, 0)])
    )
    board = GAME.board(after)
    assert "garden:1:2:0" not in board and board["garden:1:2:7"] == "hg:temple:red"


def test_temples_are_moved_only_once_all_are_out():
    tops = [garden("", "", "___t.", "___t.", "___t."), START]
    state = playing(2, tops=tops, display=(T1,), temples=((field(0, 0),), ()))
    state = GAME.apply(state, "place c01 2:4 up")
    assert "still have temples" in refused(state, "temple 2:4 from 0:0")


def test_a_group_of_six_may_first_draw_a_hidden_extra_tile():
    """The sheet: the player *may* ("darf") take the extra tile: the confirm button takes it,
    taking an open tile straight away declines it."""
    tops = [garden("", "", "_t_t.", "_t_t.", "_ttt."), START]
    state = playing(2, tops=tops, display=(T1,))
    state = GAME.apply(GAME.apply(state, "place c01 2:4 up"), "temple 2:4")
    assert state.phase == "tile" and state.offer and GAME.actor(state) == 0
    legal = GAME.legal_actions(state)
    assert "take extra" in legal and "tile 3:1" in legal
    before = GAME.board(state)
    assert GAME.board(GAME.apply(state, "take extra")) == before  # silent: the button
    declined = GAME.apply(state, "tile 3:1")
    assert sum(declined.extras[0]) == 0 and not declined.offer
    taken = GAME.apply(state, "take extra")
    assert taken.phase == "extra" and GAME.actor(taken) == CHANCE
    taken = GAME.apply(taken, "extra guard")
    assert GAME.board(taken) == before  # the table cannot see it: the service draws it
    assert taken.phase == "tile" and taken.columns == 3 and "take extra" not in (
        GAME.legal_actions(taken))
    assert GAME.view(taken, 0)["score_tiles_held"]["anna"] == {"open": [], "hidden": ["guard"]}
    hidden = {"open": [], "hidden": {"count": 1}}
    assert GAME.view(taken, 1)["score_tiles_held"]["anna"] == hidden
    assert GAME.view(taken, None)["score_tiles_held"]["anna"] == hidden
    with pytest.raises(IllegalAction, match="no extra tile is on offer"):
        GAME.apply(taken, "take extra")


def test_in_rules_revision_1_the_extra_tile_was_forced():
    tops = [garden("", "", "_t_t.", "_t_t.", "_ttt."), START]
    state = playing(2, tops=tops, display=(T1,))._replace(first_reading=True)
    state = GAME.apply(GAME.apply(state, "place c01 2:4 up"), "temple 2:4")
    assert state.phase == "extra" and GAME.actor(state) == CHANCE


def test_when_the_tiles_run_out_the_round_is_finished_and_each_missing_tile_scores_5():
    tops = [garden("", "", "___t.", "___t.", "___t."), START]
    empty = (EMPTY,) * 6
    state = playing(2, tops=tops, display=(T1, TT), tile_slots=empty, stack=(0,) * len(BOX.kinds))
    state = GAME.apply(GAME.apply(state, "place c01 2:4 up"), "temple 2:4")
    assert state.missing == (1, 0) and state.ending
    assert state.phase == "place" and state.seat == 1  # the round goes on
    state = GAME.apply(state, GAME.legal_actions(state)[0])
    while state.phase == "temple":
        state = GAME.apply(state, "no temple")
    assert GAME.actor(state) == TERMINAL and state.deck  # cards were left
    assert GAME.score(state).totals == (5, 0)
    assert GAME.winners(state) == [0]


# -- text forms and hidden information --------------------------------------------------------
def test_text_forms_parse_back_and_nonsense_is_refused():
    assert GAME.parse_action("  PLACE c05   2:3 UP ") == "place c05 2:3 up"
    assert GAME.parse_action("No Temple") == "no temple"
    with pytest.raises(BadActionText, match="the forms are"):
        GAME.parse_action("place c05 99:3 up")
    state = playing(2, display=(TT,))
    assert "not now" in refused(state, "tile 1:1")


def test_views_and_the_running_score_hide_extra_tiles_until_the_end():
    state = playing(
        2,
        display=(TT,),
        collected=(counts("queen"), counts("guard", "gate")),
        extras=(counts(), counts("guard")),
    )
    assert GAME.view(state, 0)["score_tiles_held"] == {
        "anna": {"open": ["queen"], "hidden": []},
        "ben": {"open": ["gate"], "hidden": {"count": 1}},
    }
    assert GAME.view(state, 1)["score_tiles_held"]["ben"]["hidden"] == ["guard"]
    assert GAME.score(state).totals == (3, 0)  # a gate alone is 0: the guard is not shown
    over = state._replace(phase="over")
    assert GAME.view(over, None)["score_tiles_held"]["ben"]["hidden"] == ["guard"]
    assert GAME.score(over).totals == (3, 3)


def test_a_state_survives_json_and_bad_json_is_refused():
    from games.core.errors import BadState

    state = playing(3, display=(TT, T1), extras=(counts(), counts(), counts()))
    data = GAME.state_to_json(state)
    assert GAME.state_from_json(data) == state
    for broken in (
        {**data, "game": "topiary"},
        {**data, "phase": "dance"},
        {**data, "deck": ["c99"]},
        {**data, "tops": data["tops"][:2]},
        {**data, "extras": [{"guard": 1} | {k: 0 for k in BOX.kinds if k != "guard"}] * 3},
    ):
        with pytest.raises(BadState):
            GAME.state_from_json(broken)


def test_players_and_options_are_checked():
    from games.core.errors import BadSetup

    with pytest.raises(BadSetup, match="2 to 4 players"):
        GAME.initial(["anna"])
    with pytest.raises(BadSetup, match="no option"):
        GAME.initial(["anna", "ben"], {"edition": "x"})
