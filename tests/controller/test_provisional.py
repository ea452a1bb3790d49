"""A step judged early (a scan after the hand left it) stays provisional until the hand has been
still for the settle time: if it goes on before then, the board is judged again from the
position before that step. Trapper is where it matters: a trapper moved is a whole step, and
also the first part of the same move paid with a joker pair; a pass moves the turn marker,
which a retirement does too before the out-marker is laid."""

from __future__ import annotations

import asyncio
import random

import pytest

from controller.journal import Journal, JournalFull
from controller.referee import (
    Discrepancy,
    InProgress,
    NoChange,
    NotRecorded,
    Successor,
    TakeBack,
    begins,
    decide,
)
from controller.table import Table
from controller.unresolved import UNRESOLVED, EarlySearch, Resolution
from games.core.playout import seat_names
from games.registry import get_game

from .hand_fed import hand_fed_trapper, working

GAME = get_game("trapper")
PAD = "pad:play:1"


def trapper_table(tmp_path, dealer: str = "players") -> Table:
    """By default players deal and draw from the box: the table keeps a working guess of the
    hands."""
    table = Table(GAME, Journal(tmp_path / "journal.sqlite3"), random.Random(1))
    table.new_game(seat_names(3), {}, dealer=dealer)
    rng = random.Random(5)
    while "pass" not in GAME.legal_actions(table.state):  # setup and the layout, as seen
        table.observe(rng.choice(table.successors.changing).board)
    return table


def bigger_step(table: Table, step: Successor) -> Successor | None:
    """Another legal step that ``step``'s board is the beginning of."""
    current = table.successors.board
    return next((other for other in table.successors.changing if other.board != step.board
                 and begins(other.board, current, step.board)), None)


def test_the_hand_going_on_makes_a_step_judged_early_the_bigger_one(tmp_path) -> None:
    """Every such pair met in a game: a pass then the out-marker is a retirement, a trapper
    moved then the pair's second card is a joker move; the journal keeps only the bigger."""
    table, rng, met = trapper_table(tmp_path), random.Random(2), set()
    while met != {"pass", "move"} and not GAME.is_terminal(table.state):
        steps = [(step, big) for step in table.successors.changing
                 if (big := bigger_step(table, step)) is not None]
        kinds = {("pass" if step.action == "pass" else "move"): (step, big)
                 for step, big in steps}
        fresh = [kind for kind in kinds if kind not in met]
        if fresh:
            step, big = kinds[fresh[0]]
            start = len(table.actions)
            table.observe(step.board, early=True)
            assert table.actions[start] == step.action and table.provisional.step.start == start
            table.observe(big.board)
            assert table.actions[start] == big.action and table.provisional.step is None
            assert table.journal.active().actions == tuple(table.history.known)
            said = [event.text for event in table.events if event.kind == "move"]
            assert said[-2].endswith(": the hand was not done yet, judged again")
            met.add(fresh[0])
        else:
            table.observe(rng.choice(table.successors.changing).board)
    assert met == {"pass", "move"}


def paid_alone(table: Table) -> tuple[Successor, dict[str, str]] | None:
    """A joker move of the trapper whose colour the pad shows already, and its board paid with
    one card of that colour instead, if the working guess reads that board as the joker pair
    begun (it gave the player no card of that colour to pay alone)."""
    current = table.successors.board
    for joker in table.successors.changing:
        colour = joker.action.split()[0]
        if " joker " not in joker.action or current.get(PAD) != f"card:{colour}":
            continue
        board = {**joker.board, PAD: f"card:{colour}"}
        del board["pad:play:2"]
        if isinstance(decide(table.successors, board), InProgress):
            return joker, board
    return None


def paid_alone_found(table: Table
                     ) -> tuple[Successor, dict[str, str], EarlySearch, Resolution] | None:
    """``paid_alone``, if an early search finds the dealing under which its board is one step;
    with that look and its answer."""
    case = paid_alone(table)
    early = table.early_search(case[1]) if case else None
    found = early.run() if early else None
    return None if case is None or early is None or found is None else (*case, early, found)


def test_one_card_the_guess_gave_away_is_judged_early_and_a_pair_laid_after_it_amends(
        tmp_path, monkeypatch) -> None:
    """A second move in a turn paid with one card of the trapper's colour leaves the pad
    showing that colour, as the first payment did. If the working guess gave that player no
    such card, the board reads as a joker pair begun; an early search finds the dealing under
    which it is the single payment, and the move is taken then, provisionally. If the hand
    goes on to lay the pair, the joker move replaces it, under the dealing the table had
    before the early search when the early search's dealing leaves no pair (both cases are met);
    a journal that cannot record the amend leaves it to be asked again, that dealing kept with
    it."""
    table, rng, met = trapper_table(tmp_path), random.Random(7), set()

    def full(*_: object) -> None:
        raise JournalFull(tmp_path / "journal.sqlite3")

    while met != {True, False, "full"} and not GAME.is_terminal(table.state):
        if (case := paid_alone_found(table)) is None:
            table.observe(rng.choice(table.successors.changing).board)
            continue
        joker, board, early, found = case
        assert early.under_way  # a shorter look, among the player's own draws
        single = joker.action.split(" joker ")[0]
        pair_still_legal = joker.action in GAME.legal_actions(found.states[-1])
        start, guessed = len(table.actions), list(table.history.actions)
        amended = table.provisional.amended
        table.early_searched(early, found)
        table.observe(board, early=True)
        assert table.actions[start] == single and table.provisional.step.start == start
        assert table.history.actions[:start] != guessed  # under another dealing
        if not pair_still_legal and "full" not in met:  # the journal refuses the take-back once
            with monkeypatch.context() as patch:
                patch.setattr(table.journal, "take_back", full)
                assert isinstance(table.observe(joker.board), NotRecorded)
            assert table.provisional.step.start == start and table.actions[start] == single
            met.add("full")
        table.observe(joker.board)
        assert table.actions[start] == joker.action and table.provisional.amended == amended + 1
        if not pair_still_legal:  # the dealing from before the early search, as it was
            assert table.history.actions == [*guessed, joker.action]
        stored = table.journal.active()
        assert stored.actions == tuple(table.history.known)
        assert [guess for guess in stored.guesses if guess] == [
            action for action, known in zip(table.history.actions, table.history.known,
                                            strict=True)
            if known == UNRESOLVED]
        met.add(pair_still_legal)
    assert met == {True, False, "full"}


def test_a_step_judged_once_settled_stands(tmp_path) -> None:
    """Judged after the settle time, a pass is final: the out-marker laid later is a mistake,
    as it was before steps were judged early."""
    table = trapper_table(tmp_path)
    by_action = {step.action: step for step in table.successors.changing}
    table.observe(by_action["pass"].board)
    assert table.provisional.step is None
    done = list(table.actions)
    decision = table.observe(by_action["retire"].board)
    assert isinstance(decision, Discrepancy) and table.actions == done


def test_a_step_judged_early_read_otherwise_from_before_it_is_not_amended(tmp_path) -> None:
    """Only a bigger step that the provisional one begins replaces it. A board that, from the
    position before it, reads as another step the provisional one is no part of (a stack built
    in another order; here: the turn marker put back, the position itself) is judged from the
    step as it stands: a take-back offer, which a player confirms."""
    table = trapper_table(tmp_path)
    before, board = list(table.actions), table.successors.board
    by_action = {step.action: step for step in table.successors.changing}
    table.observe(by_action["pass"].board, early=True)
    assert table.actions[len(before)] == "pass"
    assert isinstance(table.observe(board), TakeBack)
    assert table.actions[len(before)] == "pass" and table.provisional.amended == 0

def test_a_step_after_which_the_service_dealt_a_card_is_final_at_once(tmp_path) -> None:
    """With the digital dealer a pass draws two cards shown on the player's phone: they are not
    taken back, so that pass is not provisional."""
    table = trapper_table(tmp_path, dealer="digital")
    by_action = {step.action: step for step in table.successors.changing}
    drawn = table.service_draws
    table.observe(by_action["pass"].board, early=True)
    assert table.service_draws == drawn + 2 and table.provisional.step is None
    done = list(table.actions)
    assert isinstance(table.observe(by_action["retire"].board), Discrepancy)
    assert table.actions == done


def trapper_service(tmp_path):
    """A Trapper table at the first player's turn, its readers fed by hand (three hubs, one
    scan 0.1 s, a lift reported 1.25 scans after it)."""
    service, uid_of, reader_of = hand_fed_trapper(tmp_path)
    service.new_game(seat_names(3), {})
    rng, now = random.Random(5), 0.0
    while "pass" not in GAME.legal_actions(service.table.state):
        now += 1.0
        board = rng.choice(service.table.successors.changing).board
        service.tracker.snapshot({reader: uid_of.get(board.get(site, ""))
                                  for site, reader in reader_of.items()}, now)
        service.clock = lambda settled=now + 1.0: settled
        service.judge()
    return service, uid_of, reader_of


@pytest.mark.parametrize("after", [0.3, 0.8])
def test_the_out_marker_within_the_settle_time_makes_the_pass_a_retirement(tmp_path,
                                                                           after) -> None:
    """The turn marker moved on is a pass, judged a scan later; the out-marker laid 0.3 s after
    the marker (the settle time is 0.5 s) makes it a retirement. Laid 0.8 s after, the pass
    stood when the hand had been still for the settle time, and the out-marker is a mistake."""
    service, uid_of, reader_of = trapper_service(tmp_path)
    tracker, table, clock = service.tracker, service.table, [10.0]
    service.clock = lambda: clock[0]
    start = len(table.actions)
    seat = next(site for site, piece in table.successors.board.items() if piece == "marker:turn")
    passed = next(step for step in table.successors.changing if step.action == "pass").board
    (there,) = [site for site, piece in passed.items() if piece == "marker:turn"]
    tracker.tag_left(reader_of[seat], uid_of["marker:turn"], 10.0)
    tracker.tag_arrived(reader_of[there], uid_of["marker:turn"], 10.0)
    assert service.judge_at(10.05) == pytest.approx(10.1)  # a scan of stillness first
    clock[0] = 10.1
    assert service.judge_at(clock[0]) is None  # one legal step: judged early
    service.judge()
    assert table.actions[start] == "pass" and table.provisional.step.start == start
    clock[0] = 10.0 + after
    tracker.tag_arrived(reader_of[seat], uid_of["marker:out:1"], clock[0])
    if after < service.profile.settle_ms / 1000:
        assert service.judge_at(clock[0]) == pytest.approx(clock[0] + 0.1)  # a scan
        clock[0] += 0.125  # and any lift reported
        assert service.judge_at(clock[0]) is None  # the retirement, one step from before
        service.judge()
        assert table.actions[start:] == ["retire"]
        assert table.journal.active().actions == tuple(table.history.known)
    else:
        assert service.judge_at(clock[0]) is not None and table.provisional.step is None
        clock[0] = tracker.settles_at()
        assert service.judge_at(clock[0]) is None
        service.judge()
        assert table.actions[start] == "pass" and isinstance(table.decision, Discrepancy)


def test_the_service_judges_one_card_the_guess_gave_away_a_scan_after_it_lands(
        tmp_path) -> None:
    """Through the service's clock: the board the working guess reads as a joker pair begun
    is looked at early (not after the pause a step under way waits for), judged a scan after
    it lands as the single payment, and the pair laid 0.3 s later makes it the joker move."""
    service, uid_of, reader_of = trapper_service(tmp_path)
    table, clock, rng = service.table, [10.0], random.Random(3)
    service.clock = lambda: clock[0]

    def lay(board: dict[str, str], now: float) -> None:
        clock[0] = now
        service.tracker.snapshot({reader: uid_of.get(board.get(site, "") + (
            "#2" if site == "pad:play:2" else "")) for site, reader in reader_of.items()}, now)

    while (case := paid_alone_found(table)) is None and not GAME.is_terminal(table.state):
        lay(rng.choice(table.successors.changing).board, clock[0] + 1.0)
        clock[0] = service.tracker.settles_at()
        service.judge()
    assert case is not None
    joker, board, _, _ = case
    start, searched = len(table.actions), list(table.searches.costs)
    lay(board, clock[0] + 1.0)
    landed = clock[0]
    assert service.judge_at(landed + 0.05) == pytest.approx(landed + 0.1)  # a scan of stillness

    async def the_look_answers() -> float | None:
        async with working(service):
            service.judge_at(landed + 0.1)  # the early search is asked of the worker
            await asyncio.wait_for(service.until_idle(), 60)
        return service.judge_at(landed + 0.1)  # then any lift still unreported

    wake = asyncio.run(the_look_answers())
    assert wake is None or wake < landed + 0.2 < service.tracker.settles_at()
    clock[0] = wake or landed + 0.2
    assert service.judge_at(clock[0]) is None
    service.judge()
    assert table.actions[start] == joker.action.split(" joker ")[0]
    assert table.provisional.step.start == start
    assert table.searches.costs == searched  # the early answer
    lay(joker.board, landed + 0.3)
    clock[0] = landed + 0.3 + 0.125
    assert service.judge_at(clock[0]) is None  # the joker move, one step from before
    service.judge()
    assert table.actions[start] == joker.action and table.provisional.amended == 1
    assert table.journal.active().actions == tuple(table.history.known)


def test_the_first_move_after_a_stack_built_does_not_rebuild_it(tmp_path) -> None:
    """Tiki Topple: any order of the nine tikis is a legal build. The stack judged early,
    then two tikis swapped by the first move before the settle time: from before the build
    that reads as another build, but the build judged is no beginning of it, so it stands
    (the swap is a move under way)."""
    stack = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
    table = Table(get_game("tiki_topple"), Journal(tmp_path / "journal.sqlite3"),
                  random.Random(1))
    table.new_game(["anna", "ben"], {})
    built = {f"stack:{place}": f"tiki:{tiki}" for place, tiki in enumerate(stack, start=1)}
    table.observe(built, early=True)
    assert table.actions[0] == "build " + " ".join(stack) and table.provisional.step.start == 0
    table.observe({**built, "stack:1": "tiki:wikiwiki", "stack:2": "tiki:nani"})
    assert table.actions[0] == "build " + " ".join(stack) and table.provisional.amended == 0


def test_the_step_fidgeted_with_stays_provisional_and_a_new_game_has_none(tmp_path) -> None:
    """A hand that lifts the moved piece and puts it back shows the provisional step's own
    board: no amendment, no change, and the step may still grow (judged again, as after a
    button press). A game aborted or begun anew keeps no provisional step of the last."""
    table = trapper_table(tmp_path)
    start = len(table.actions)
    by_action = {step.action: step for step in table.successors.changing}
    table.observe(by_action["pass"].board, early=True)
    assert not table.provisional.amends_to(by_action["pass"].board)
    assert isinstance(table.observe(by_action["pass"].board), NoChange)
    assert table.provisional.step.start == start
    table.observe(by_action["retire"].board)
    assert table.actions[start:] == ["retire"] and table.provisional.amended == 1
    table.observe(table.successors.changing[0].board, early=True)
    assert table.provisional.step is not None
    table.abort()
    assert table.provisional.step is None
    table.new_game(seat_names(3), {})
    assert table.provisional.step is None
