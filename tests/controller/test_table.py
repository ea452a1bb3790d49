"""A game at the table: settled boards in, journalled actions and decisions out."""

from __future__ import annotations

import random

import pytest

from controller.errors import NothingToConfirm
from controller.journal import Journal
from controller.referee import Choose, Discrepancy, InProgress, NoChange, TakeBack
from controller.status import Prompt
from controller.table import Table
from games.core.errors import BadSetup
from games.core.game import CHANCE
from games.core.playout import random_step
from games.registry import get_game

GAME = get_game("tiki_topple")
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


def stack_board(stack, pad=None):
    board = {f"stack:{i}": f"tiki:{t}" for i, t in enumerate(stack, start=1)}
    return {**board, "pad:play": pad} if pad else board


@pytest.fixture
def table(tmp_path) -> Table:
    """The digital dealer: the service draws the secrets (players dealing from the box:
    test_unseen_draws.py)."""
    table = Table(GAME, Journal(tmp_path / "journal.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben"], {}, dealer="digital")
    return table


def test_building_the_stack_deals_the_secrets_and_starts_play(table: Table) -> None:
    assert table.status().phase == "build"
    decision = table.observe(stack_board(STACK))
    assert decision == NoChange()
    status = table.status()
    assert status.phase == "play" and status.to_act == "anna"
    assert table.actions[0] == "build " + " ".join(STACK)
    assert [a.split()[0] for a in table.actions[1:]] == ["mission"] * 2 + ["aside"] * 2
    assert table.journal.active().actions == tuple(table.actions)


def test_the_public_status_never_shows_a_secret_deal(table: Table) -> None:

    table.observe(stack_board(STACK))
    text = table.status().model_dump_json()
    for secret in table.actions[1:]:  # the missions and set-aside cards just drawn
        assert secret not in text
    assert table.status().last_action == table.actions[0]
    assert "the table dealt a secret card" in text
    assert table.status().legal is None  # anna's moves would show her hand


def test_legal_moves_are_public_when_nothing_is_hidden(tmp_path) -> None:
    table = Table(GAME, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben"], {"edition": "gamewright"})  # no cards set aside
    table.observe(stack_board(STACK))
    legal = table.status().legal
    assert legal is not None and "up1 wikiwiki" in legal and "toast" not in legal


def test_legal_moves_are_made_once_per_position_for_every_language(tmp_path,
                                                                   monkeypatch) -> None:
    """Comparing every successor's public board is the status's costly part: a second language
    or a second reader of the same position reuses it, a new position makes it anew."""
    from controller import status as report
    from controller.language import catalogue

    table = Table(GAME, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben"], {"edition": "gamewright"})
    table.observe(stack_board(STACK))
    boards = []
    real = table.public_board
    monkeypatch.setattr(table, "public_board", lambda board: boards.append(1) or real(board))
    english = table.status().legal_moves
    made = len(boards)
    assert english and made > len(english)  # every successor's board was compared
    german = table.status(catalogue("de", GAME))
    assert german.legal_moves == english and german.step.text != table.status().step.text
    assert len(boards) == made + 2  # only the expected board of each status, no successors
    assert report._legal_moves(table) == english  # the cached moves are the ones made anew
    table.observe(stack_board(("wikiwiki", "nani", *STACK[2:]), "card:red:up1"))
    before = len(boards)
    moved = table.status().legal_moves
    assert moved and moved != english and len(boards) > before + 1  # a new position: made anew


def test_a_move_is_journalled_and_a_wrong_board_changes_nothing(table: Table) -> None:
    table.observe(stack_board(STACK))
    moved = ("wikiwiki", "nani", *STACK[2:])
    table.observe(stack_board(moved, "card:red:up1"))
    assert table.actions[-1] == "up1 wikiwiki"
    before = list(table.actions)
    wrong = stack_board(moved, "card:red:up1")
    wrong["stack:9"], wrong["stack:8"] = wrong["stack:8"], wrong["stack:9"]  # no card laid yet
    decision = table.observe(wrong)
    # Ben may be half way through a wiki (his card still to come), if he holds one.
    expected = InProgress if "wiki" in table.state.hands[1] else Discrepancy
    assert isinstance(decision, expected)
    assert table.actions == before
    decision = table.observe({**stack_board(moved), "pad:play": "card:blue:up1"})  # not anna's
    assert isinstance(decision, Discrepancy)
    status = table.status()
    assert status.discrepancy.wrong_sites == ["pad:play"]
    assert "Tiki Up 1 card (blue)" in status.discrepancy.message  # the card's art name
    assert table.actions == before


def test_a_restored_position_is_an_undo_confirmed_by_the_button(table: Table) -> None:
    table.observe(stack_board(STACK))
    played = len(table.actions)
    table.observe(stack_board(("wikiwiki", "nani", *STACK[2:]), "card:red:up1"))
    assert len(table.actions) == played + 1
    decision = table.observe(stack_board(STACK))
    assert decision == TakeBack(1)
    assert table.status().prompt == Prompt(kind="undo", steps=1)
    assert table.confirm() == "up1 wikiwiki"
    assert len(table.actions) == played
    assert table.journal.active().actions == tuple(table.actions)
    with pytest.raises(NothingToConfirm):
        table.choose(0)


def test_undo_from_the_page_takes_the_secret_draws_along(table: Table) -> None:
    table.observe(stack_board(STACK))
    assert table.undo(1) == "build " + " ".join(STACK)
    assert table.actions == [] and table.status().phase == "build"
    with pytest.raises(NothingToConfirm):
        table.undo(1)


def test_a_choice_is_resolved_by_a_button(table: Table) -> None:
    from controller.referee import Successor

    one = Successor("one", "s1", {"x": "1"})
    two = Successor("two", "s2", {"x": "1"})
    table.decision = Choose((one, two))
    with pytest.raises(NothingToConfirm, match="from 0 to 1"):
        table.choose(5)


def test_a_journalled_game_resumes_exactly(tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    table = Table(GAME, Journal(path), random.Random(2))
    table.new_game(["anna", "ben", "cleo"], {"edition": "gamewright"})
    rng = random.Random(5)
    while len(table.actions) < 40:
        action = random_step(GAME, table.state, rng)
        after = GAME.apply(table.state, action)
        table.observe(GAME.board(after))
    resumed = Table(GAME, Journal(path), random.Random(99))
    resumed.resume(resumed.journal.active())
    assert resumed.state == table.state
    assert resumed.actions == table.actions


def test_a_whole_game_through_the_table_scores_like_the_engine(tmp_path) -> None:
    table = Table(GAME, Journal(tmp_path / "j.sqlite3"), random.Random(3))
    table.new_game(["anna", "ben"], {}, dealer="digital")
    rng = random.Random(8)
    while not GAME.is_terminal(table.state):
        action = random_step(GAME, table.state, rng)
        table.observe(GAME.board(GAME.apply(table.state, action)))
    replayed = GAME.initial(["anna", "ben"])
    for action in table.journal.games()[-1].actions:
        replayed = GAME.apply(replayed, action)
    assert GAME.score(replayed) == GAME.score(table.state)
    assert table.status().winners and table.journal.active() is None
    assert table.events[-1].kind == "end"


def test_bad_players_are_refused_before_anything_is_stored(tmp_path) -> None:
    table = Table(GAME, Journal(tmp_path / "j.sqlite3"))
    with pytest.raises(BadSetup):
        table.new_game(["solo"], {})
    assert table.journal.games() == []
    assert table.status().started is False


def test_the_lit_targets_do_not_depend_on_a_secret_hand(table: Table) -> None:
    table.observe(stack_board(STACK))
    lit = table.legal_sites()
    only_toast = table.state._replace(hands=(("up1",), table.state.hands[1]))
    table.states[-1] = only_toast  # the same table, a different secret hand
    table._successors = None
    table._legal_sites = None
    assert table.legal_sites() == lit
    assert {s.action for s in table.successors.changing} == {f"up1 {t}" for t in STACK[1:]}


def test_a_game_started_before_a_rules_correction_resumes_under_its_old_rules(tmp_path) -> None:
    """Trapper revision 1 ended a game after two opening passes; a game journalled then and
    resumed after the upgrade still ends there."""
    trapper = get_game("trapper")
    journal = Journal(tmp_path / "j.sqlite3")
    game_id = journal.start("trapper", ["anna", "ben"], {}, revision=1)
    state = trapper.initial(["anna", "ben"], trapper.options_at({}, 1))
    rng = random.Random(4)
    while state.phase != "turn":  # setup, the layout and the deal
        action = random_step(trapper, state, rng)
        journal.append(game_id, action)
        state = trapper.apply(state, action)
    for _ in range(2):  # two opening passes, with the draws after the first
        journal.append(game_id, "pass")
        state = trapper.apply(state, "pass")
        while trapper.actor(state) == CHANCE:
            action = random_step(trapper, state, rng)
            journal.append(game_id, action)
            state = trapper.apply(state, action)
    assert trapper.is_terminal(state)
    table = Table(trapper, journal, random.Random(1))
    table.resume(journal.active())
    assert trapper.is_terminal(table.state) and table.options["reading"] == "revision1"


def test_a_decision_the_table_cannot_see_is_a_choice_on_the_page(tmp_path) -> None:
    """Topiary with 2 players: the players choose the shape that goes back in the box. Nothing
    on the table changes, so the page offers the shapes; picking one plays it."""
    topiary = get_game("topiary")
    table = Table(topiary, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben"], {})
    decision = table.decision
    assert isinstance(decision, Choose)
    assert [s.action for s in decision.successors] == topiary.legal_actions(table.state)
    assert table.observe(topiary.board(table.state)) == decision  # still waiting
    chosen = table.choose(3)
    assert chosen == decision.successors[3].action and table.actions[-1] == chosen
    assert table.state.removed and table.decision == NoChange()
    # one unseen action alone is the confirm button's, not a choice
    table2 = Table(get_game("tiki_topple"), Journal(tmp_path / "k.sqlite3"), random.Random(1))
    table2.new_game(["anna", "ben"], {})
    assert table2.decision == NoChange()


def test_a_tile_laid_on_the_deal_pad_chooses_the_shape_for_the_box(tmp_path) -> None:
    """Topiary with 3 players: laying any tile of a shape on the deal pad puts that shape back
    in the box, with no page needed. The tile is not judged as a deal while it lies there;
    once it is taken off the layout goes on. A piece that names no shape is a mistake."""
    topiary = get_game("topiary")
    table = Table(topiary, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben", "cleo"], {})
    assert isinstance(table.decision, Choose)
    assert table.led_roles() == {"pad:deal": "choice"}
    wrong = table.observe({"pad:deal": "visitor:" + topiary.components.colours[0]})
    assert isinstance(wrong, Discrepancy) and table.actions == []
    table.observe({})
    assert table.observe({"pad:deal": "topiary:swan:4"}) == NoChange()
    assert table.actions == ["remove swan"] and table.state.phase == "lay"
    assert table.journal.active().actions == ("remove swan",)
    assert "pad:deal" not in table.led_roles()
    # the layout goes on while the tile still lies there, and after it is taken off
    first = topiary.legal_actions(table.state)[0]
    laid = topiary.board(topiary.apply(table.state, first))
    table.observe({**laid, "pad:deal": "topiary:swan:4"})
    assert table.actions == ["remove swan", first]
    assert table.observe(laid) == NoChange() and len(table.actions) == 2


def test_a_restart_with_the_choosing_tile_still_on_the_deal_pad_waits_for_it(tmp_path) -> None:
    """The tile that chose the shape is journalled with its choice: after a power cut with it
    still on the pad, the table waits for it to come off as before, and takes the layout laid
    meanwhile, instead of calling the tile a mistake."""
    topiary = get_game("topiary")
    table = Table(topiary, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben", "cleo"], {})
    table.observe({"pad:deal": "topiary:swan:4"})
    assert table.actions == ["remove swan"]
    table.journal.close()  # the power cut

    again = Table(topiary, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    stored = again.journal.active()
    assert stored is not None and stored.shown == "topiary:swan:4"
    again.resume(stored)
    assert again.observe({"pad:deal": "topiary:swan:4"}) == NoChange()
    assert "pad:deal" not in again.led_roles()
    first = topiary.legal_actions(again.state)[0]
    laid = topiary.board(topiary.apply(again.state, first))
    again.observe({**laid, "pad:deal": "topiary:swan:4"})
    assert again.actions == ["remove swan", first]
    again.journal.close()  # a second cut, a step later, the tile still there

    third = Table(topiary, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    third.resume(third.journal.active())
    assert third.observe({**laid, "pad:deal": "topiary:swan:4"}) == NoChange()
    assert third.observe(laid) == NoChange() and third.actions == ["remove swan", first]


def test_an_ai_start_players_shape_is_shown_with_a_tile_of_the_shape_it_chose(tmp_path) -> None:
    """The AI plays anna: once it has chosen the shape for the box, a tile of that shape on the
    deal pad makes the choice, and a tile of another shape is a mistake."""
    pytest.importorskip("open_spiel")
    from controller.advice import ai_advisor

    topiary = get_game("topiary")
    table = Table(topiary, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben", "cleo"], {}, ai={"anna": 20})
    request = table.advice_request()
    assert request is not None and request.kind == "ai"
    advice = ai_advisor(topiary)(request)
    table.receive_advice(request, advice.action, advice.values, advice.seconds,
                         advice.simulations)
    chosen = advice.action.split()[1]
    other = next(shape for shape in topiary.components.shapes if shape != chosen)
    assert table.led_roles().get("pad:deal") == "choice"
    assert isinstance(table.observe({"pad:deal": f"topiary:{other}:1"}), Discrepancy)
    table.observe({})
    table.observe({"pad:deal": f"topiary:{chosen}:2"})
    assert table.actions == [advice.action]
