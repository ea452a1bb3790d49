"""controller/judgement.py alone: a Table, a Tracker fed by hand and times the test chooses;
no service, no event loop. Each test walks one edge of the state diagram in
docs/architecture.md."""

from __future__ import annotations

import random
import re
from pathlib import Path

from controller.history import MAX_TAKE_BACK
from controller.journal import Journal
from controller.judgement import Judgement
from controller.referee import Discrepancy, NoChange, decide
from controller.table import Table
from controller.tracker import Tracker
from games.registry import get_game

TIKI = get_game("tiki_topple")
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
SETTLE, SCAN = 0.4, 0.1


def judged(tmp_path) -> tuple[Judgement, Table, Tracker, dict[str, int], list[object]]:
    """A two-player Tiki Topple table (the players deal), one reader per site, one scan 0.1 s;
    and what each early search asked would be (``Table.early_search``)."""
    table = Table(TIKI, Journal(tmp_path / "journal.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben"], {})
    sites = [site.id for site in TIKI.sites(2)]
    reader_of = {site: reader for reader, site in enumerate(sites)}
    tracker = Tracker(dict(enumerate(sites)), lambda uid: uid, SETTLE)
    tracker.quick_seconds = tracker.tie_seconds = tracker.round_seconds = SCAN
    asked: list[object] = []
    judgement = Judgement(table, tracker, lambda: False,
                          lambda board: asked.append(table.early_search(board)))
    return judgement, table, tracker, reader_of, asked


def lay(tracker: Tracker, reader_of: dict[str, int], board: dict[str, str], now: float) -> None:
    """The hub's snapshot of ``board`` at ``now`` (each piece's uid is its name)."""
    tracker.snapshot({reader: [board[site]] if site in board else []
                      for site, reader in reader_of.items()}, now)


def built(order=STACK) -> dict[str, str]:
    return {f"stack:{place}": f"tiki:{tiki}" for place, tiki in enumerate(order, start=1)}


def test_one_legal_step_is_judged_a_scan_after_it_lands_and_stands_if_still_for_the_settle(
        tmp_path) -> None:
    judgement, table, tracker, reader_of, _ = judged(tmp_path)
    lay(tracker, reader_of, built(), 10.0)
    assert judgement.wake_at(10.05) == 10.0 + SCAN  # settling: not a scan of stillness yet
    assert judgement.wake_at(10.0 + SCAN) is None  # one step: judged now, before the settle
    judgement.judge(10.0 + SCAN)
    assert table.actions[0] == "build " + " ".join(STACK)
    assert table.provisional.step is not None and table.provisional.step.start == 0  # provisional
    assert table.provisional.step.stands_at == 10.0 + SETTLE
    (before,) = table.provisional.before()  # what a hand going on could still make
    assert before.state is table.states[0] and before.changing
    lay(tracker, reader_of, {}, 11.0)  # the next change comes after the settle time
    judgement.wake_at(11.0)
    assert table.provisional.step is None  # the step stood


def test_a_change_within_the_settle_time_keeps_the_step_open_until_the_next_judgement(
        tmp_path) -> None:
    judgement, table, tracker, reader_of, _ = judged(tmp_path)
    lay(tracker, reader_of, built(), 10.0)
    judgement.judge(10.0 + SCAN)
    lay(tracker, reader_of, {**built(), "pad:play": "card:red:toast"}, 10.2)  # the hand goes on
    judgement.wake_at(10.2)
    assert table.provisional.step is not None and table.provisional.step.stands_at == float("inf")
    lay(tracker, reader_of, built(), 10.3)  # ... and takes it back: the build as it was
    judgement.judge(10.3 + SCAN)
    assert table.provisional.step is not None and table.provisional.step.start == 0  # a fidget


def test_a_mistake_waits_for_the_settle_time_and_a_lifted_wrong_piece_clears_at_once(
        tmp_path) -> None:
    judgement, table, tracker, reader_of, asked = judged(tmp_path)
    lay(tracker, reader_of, built(), 10.0)
    judgement.judge(10.0 + SCAN)
    judgement.wake_at(11.0)
    expected = dict(table.expected_board)
    wrong = {**{site: piece for site, piece in expected.items() if site != "stack:9"},
             "pad:play": expected["stack:9"]}  # a tiki on the card pad: no step does that
    lay(tracker, reader_of, wrong, 12.0)
    assert judgement.wake_at(12.0 + SCAN) == 12.0 + SETTLE  # no step: the whole settle time
    assert not any(asked)  # whatever the hands, no dealing makes that a step: no search
    judgement.judge(12.0 + SETTLE)
    assert isinstance(table.decision, Discrepancy)  # red
    lay(tracker, reader_of, expected, 13.0)
    assert judgement.wake_at(13.0) is None  # the position again: judged at the scan that shows it
    judgement.judge(13.0)
    assert isinstance(table.decision, NoChange)


def test_a_piece_laid_from_the_box_where_no_step_lays_one_waits_for_the_settle_too(
        tmp_path) -> None:
    """A card from the box on the reveal pad during play is no step, and nothing was lifted;
    still it may be a piece a hand is dragging across the table to where it goes, resting on
    a reader's field a scan or two on its way (``bench hand-to-light``'s slides). Judged
    before the hand has been still for the settle time, the table would light red under it."""
    judgement, table, tracker, reader_of, _ = judged(tmp_path)
    tracker.lift_latency = 0.25
    lay(tracker, reader_of, built(), 10.0)
    judgement.judge(10.0 + SCAN)
    judgement.wake_at(11.0)
    lay(tracker, reader_of, {**table.expected_board, "pad:reveal": "card:red:toast"}, 12.0)
    assert judgement.wake_at(12.0 + 0.25) == 12.0 + SETTLE


def answer(table: Table, board: dict[str, str]) -> None:
    """An early search asked, run at once (the service runs it in its worker)."""
    early = table.early_search(board)
    if early is not None:
        table.early_searched(early, early.run())


def built_with_quick_mistakes(tmp_path) -> tuple[Table, Tracker, dict[str, int], Judgement]:
    """``judged``'s table with its stack built (the step stood) and a judgement calling plain
    mistakes quick, whose early searches run at once."""
    judgement, table, tracker, reader_of, _ = judged(tmp_path)
    lay(tracker, reader_of, built(), 10.0)
    judgement.judge(10.0 + SCAN)
    judgement.wake_at(11.0)
    answered = Judgement(table, tracker, lambda: False, lambda board: answer(table, board),
                         quick_mistakes=True)
    return table, tracker, reader_of, answered


def test_quick_plain_mistakes_are_red_once_no_lift_is_unreported(tmp_path) -> None:
    """With ``[timing] plain_mistakes = "quick"`` (players who lay pieces rather than drag
    them), the same card is red once a lift made meanwhile would have been reported and the
    early search for another dealing of the cards set aside has found none, not after the
    settle time; lifted, it clears at the scan that shows it."""
    table, tracker, reader_of, answered = built_with_quick_mistakes(tmp_path)
    tracker.lift_latency = 0.25
    quick = Judgement(table, tracker, lambda: False, lambda board: None, quick_mistakes=True)
    expected = dict(table.expected_board)
    lay(tracker, reader_of, {**expected, "pad:reveal": "card:red:toast"}, 12.0)
    assert quick.wake_at(12.0 + SCAN) == 12.0 + 0.25  # a lift could still come: a slide
    assert quick.wake_at(12.0 + 0.25) == 12.0 + SETTLE  # an early search is to answer
    assert answered.wake_at(12.0 + 0.25) is None  # it found no dealing: before the settle
    quick.judge(12.0 + 0.25)
    assert isinstance(table.decision, Discrepancy)
    lay(tracker, reader_of, expected, 12.5)
    assert quick.wake_at(12.5) is None  # lifted: cleared at the scan that shows it
    quick.judge(12.5)
    assert isinstance(table.decision, NoChange)


def test_quick_plain_mistakes_spare_a_card_that_may_begin_a_step(tmp_path) -> None:
    """A card the working guess set aside, laid on the play pad: under the guess a mistake,
    under another dealing the first half of a step (its tiki not moved yet). The early search
    looks for a whole step and finds none; the card still waits for the settle time, since a
    legal step lays a card there. So do a piece moved and two swapped (a hand sliding)."""
    table, tracker, reader_of, answered = built_with_quick_mistakes(tmp_path)
    expected = dict(table.expected_board)
    earlier = table.history.earlier_boards(MAX_TAKE_BACK)
    set_aside = next(board for piece in TIKI.pieces() if piece.startswith("card:")
                     if isinstance(decide(table.successors, board := {**expected,
                                                                      "pad:play": piece},
                                          earlier), Discrepancy))
    lay(tracker, reader_of, set_aside, 12.0)
    assert answered.wake_at(12.0 + SCAN) == 12.0 + SETTLE
    assert table.early_search(set_aside) is None  # it was asked, and answered
    swapped = {**expected, "stack:1": expected["stack:9"], "stack:9": expected["stack:1"]}
    lay(tracker, reader_of, swapped, 13.0)
    assert answered.wake_at(13.0 + SCAN) == 13.0 + SETTLE


def test_quick_plain_mistakes_leave_a_pad_that_takes_pieces_in_to_the_settle(tmp_path) -> None:
    """Topiary with three players begins with a choice a tile on the deal pad makes (which
    shape goes back in the box): a tile laid there while a hand moves is no plain mistake,
    even with quick plain mistakes, and is judged after the settle time like the choice it
    makes."""
    topiary = get_game("topiary")
    table = Table(topiary, Journal(tmp_path / "journal.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben", "cleo"], {})
    sites = [site.id for site in topiary.sites(3)]
    reader_of = {site: reader for reader, site in enumerate(sites)}
    tracker = Tracker(dict(enumerate(sites)), lambda uid: uid, SETTLE)
    tracker.quick_seconds = tracker.tie_seconds = tracker.round_seconds = SCAN
    quick = Judgement(table, tracker, lambda: False, lambda board: None, quick_mistakes=True)
    assert table.open_pads() == {"pad:deal"}
    lay(tracker, reader_of, {"pad:deal": "topiary:swan:4"}, 10.0)
    assert quick.wake_at(10.0 + SCAN) == 10.0 + SETTLE
    quick.judge(10.0 + SETTLE)
    assert table.actions == ["remove swan"] and not table.open_pads()


def test_a_blind_region_judges_nothing_early(tmp_path) -> None:
    judgement, table, tracker, reader_of, _ = judged(tmp_path)
    blind = Judgement(table, tracker, lambda: True, lambda board: None)
    lay(tracker, reader_of, built(), 10.0)
    assert blind.wake_at(10.0 + SCAN) == 10.0 + SETTLE  # one step, but a hub is down
    assert judgement.wake_at(10.0 + SCAN) is None


def test_every_test_the_state_diagram_names_exists() -> None:
    """docs/architecture.md names, on each arrow it can, the test that walks it: a test
    renamed or removed must not leave the diagram pointing at nothing."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    diagram = text.split("```mermaid", 1)[1].split("```", 1)[0]
    named = [part.strip() for found in re.findall(r"\(([^()]*\btest_\w+[^()]*)\)", diagram)
             for part in found.split(";")]
    assert len(named) >= 20
    for name in named:
        folder = "e2e" if name.startswith("e2e ") else "controller"
        module, _, fragment = name.removeprefix("e2e ").partition(", ")
        path = root / "tests" / folder / f"{module}.py"
        assert path.exists(), f"{name}: no {path}"
        tests = re.findall(r"^(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
        assert any(fragment in test for test in tests), f"{name}: no such test in {path.name}"
