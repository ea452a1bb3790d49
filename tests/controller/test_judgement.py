"""controller/judgement.py alone: a Table, a Tracker fed by hand and times the test chooses;
no service, no event loop. Each test walks one edge of the state diagram in
docs/architecture.md."""

from __future__ import annotations

import random
import re
from pathlib import Path

from controller.journal import Journal
from controller.judgement import Judgement
from controller.referee import Discrepancy, NoChange
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
