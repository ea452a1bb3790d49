"""The observed board from reader events: stacks per site, the newest tag on top."""

from __future__ import annotations

import pytest

from controller.tracker import Tracker

PIECES = {"aa": "card:1", "bb": "card:2", "cc": "card:3"}


def tracker() -> Tracker:
    return Tracker({0: "field:1", 1: "field:2"}, PIECES.get, settle_seconds=0.4)


def test_tags_laid_over_tags_stack_and_the_top_one_is_the_board() -> None:
    t = tracker()
    t.tag_arrived(0, "aa", 1.0)
    t.tag_arrived(0, "bb", 2.0)
    assert t.board == {"field:1": "card:2"}
    assert t.stacks == {"field:1": ("card:1", "card:2")}
    assert not t.settled(2.3) and t.settled(2.5)
    t.tag_left(0, "bb", 3.0)  # the top card lifted: the one under it shows
    assert t.board == {"field:1": "card:1"}
    t.tag_arrived(0, "bb", 4.0)
    t.tag_left(0, "aa", 5.0)  # pulled from under: the top stays
    assert t.stacks == {"field:1": ("card:2",)}


def test_a_tag_announced_again_was_put_back_on_top() -> None:
    t = tracker()
    for uid in ("aa", "bb", "cc"):
        t.tag_arrived(0, uid, 1.0)
    t.tag_arrived(0, "aa", 2.0)  # lifted and put back: the hub announces it again
    assert t.stacks["field:1"] == ("card:2", "card:3", "card:1")
    t.tag_arrived(0, "aa", 3.0)  # already on top: nothing changes
    assert t.settles_at() == 2.4


def test_a_snapshot_keeps_known_order_and_puts_new_tags_on_top() -> None:
    t = tracker()
    t.tag_arrived(0, "bb", 1.0)
    t.tag_arrived(0, "aa", 1.0)
    t.snapshot({0: ["aa", "bb", "cc"], 1: "dd", 5: ["ee"]}, 2.0)
    assert t.stacks == {"field:1": ("card:2", "card:1", "card:3"), "field:2": ("uid:dd",)}
    assert [u.uid for u in t.unknown] == ["dd"]  # reported, never guessed
    assert t.board == {"field:1": "card:3"}  # field 2: an unknown tag, so no piece
    t.snapshot({0: [], 1: None}, 3.0)
    assert t.board == {} and t.stacks == {}


def test_a_pile_site_shows_its_whole_pile_bottom_to_top() -> None:
    pieces = {"a1": "stone:yellow", "b2": "stone:blue", "c3": "stone:blue"}
    tracker = Tracker({0: "circle:1", 1: "field:2"}, pieces.get, 0.4,
                      piles=frozenset({"circle:1"}))
    for uid in ("a1", "b2"):
        tracker.tag_arrived(0, uid, 1.0)
    tracker.tag_arrived(1, "c3", 1.0)
    assert tracker.board == {"circle:1": "stone:yellow / stone:blue", "field:2": "stone:blue"}
    tracker.tag_arrived(0, "zz", 1.1)  # a tag nobody enrolled is reported, not shown
    assert tracker.board["circle:1"] == "stone:yellow / stone:blue"
    tracker.tag_left(0, "b2", 2.0)
    assert tracker.board["circle:1"] == "stone:yellow"


def test_after_an_arrival_the_board_waits_for_a_lift_the_hub_has_not_reported_yet() -> None:
    """A piece moved: its new site reports it the scan it lands, its old one only once the
    hub's miss limit of scans has passed; judging in between would see both sites full."""
    t = tracker()
    t.lift_latency = 1.2
    t.tag_arrived(1, "bb", 5.0)
    t.tag_arrived(0, "aa", 10.0)  # bb moved to field:1 ...
    assert t.settles_at() == 11.2 and not t.settled(10.5)
    t.tag_left(1, "bb", 10.9)  # ... and its old site says so: the settle time from now
    assert t.settles_at() == 11.3 and t.settled(11.3)
    t.tag_left(0, "aa", 20.0)  # a departure alone needs only the settle time
    assert t.settles_at() == 20.4


def test_stones_that_arrived_in_one_scan_may_lie_in_either_order() -> None:
    pieces = {"y": "stone:yellow", "b": "stone:blue", "r": "stone:red"}
    t = Tracker({0: "circle:1"}, pieces.get, 0.4, piles=frozenset({"circle:1"}))
    t.tie_seconds = 0.3
    t.tag_arrived(0, "r", 1.0)
    t.tag_arrived(0, "b", 2.0)  # blue and yellow found by the same scan
    t.tag_arrived(0, "y", 2.01)
    assert t.pile_orders("circle:1") == [("r", "b", "y"), ("r", "y", "b")]
    t.reorder("circle:1", ("r", "y", "b"))
    assert t.board == {"circle:1": "stone:red / stone:yellow / stone:blue"}
    with pytest.raises(ValueError, match="other tags"):
        t.reorder("circle:1", ("r", "y"))


def test_a_tag_heard_on_two_sites_lies_on_one() -> None:
    """Across the edge of two fields (of one hub or two) a tag is heard twice: it lies where it
    arrived first, or where the service places it, and shows there only."""
    t = tracker()
    t.tag_arrived(1, "aa", 1.0)
    t.tag_arrived(0, "aa", 1.2)  # the other field hears it too
    assert t.shared == {"aa": ("field:2", "field:1")}
    assert t.board == {"field:2": "card:1"} and t.stacks == {"field:2": ("card:1",)}
    t.place("aa", "field:1")
    assert t.board == {"field:1": "card:1"}
    t.place("aa", "field:9")  # not a site it is heard on: where it arrived first
    assert t.board == {"field:2": "card:1"}
    t.tag_left(1, "aa", 2.0)  # pushed over: only field 1 hears it now
    assert t.shared == {} and t.board == {"field:1": "card:1"}


def test_a_hubs_snapshot_replaces_only_its_own_readers_and_a_lost_hubs_sites_are_forgotten(
        ) -> None:
    t = tracker()
    t.tag_arrived(0, "aa", 1.0)
    t.tag_arrived(1, "bb", 1.0)
    t.snapshot({1: ["cc"]}, 2.0)  # the hub of reader 1 only
    assert t.board == {"field:1": "card:1", "field:2": "card:3"}
    t.forget({"field:1"}, 3.0)  # reader 0's hub went down
    assert t.board == {"field:2": "card:3"} and t.settles_at() == 3.0 + 0.4


def test_a_covered_tag_missed_for_a_scan_goes_back_to_its_place_not_on_top() -> None:
    t = tracker()
    t.flicker_seconds = 0.3
    for n, uid in enumerate(("aa", "bb", "cc")):
        t.tag_arrived(0, uid, 1.0 + n)
    t.tag_left(0, "aa", 5.0)  # the bottom card missed a scan ...
    t.tag_arrived(0, "aa", 5.2)  # ... and is read again
    assert t.stacks["field:1"] == ("card:1", "card:2", "card:3") and t.board["field:1"] == "card:3"
    assert t.settles_at() == 5.2 + 0.4  # a change, but not an arrival to wait for lifts after
    t.tag_left(0, "aa", 6.0)
    t.tag_arrived(0, "aa", 7.0)  # gone a whole second: lifted out and laid on top
    assert t.board["field:1"] == "card:1"


def test_tags_a_lost_hub_reports_again_arrived_when_it_came_back() -> None:
    """Their arrival times (which order a tie, which site a shared tag lies on) are those of
    the snapshot after the hub's return, not of before it went down."""
    t = tracker()
    t.tag_arrived(0, "aa", 1.0)
    t.tag_arrived(1, "aa", 2.0)  # heard on field 2 too, later
    assert t.shared == {"aa": ("field:1", "field:2")}
    t.forget({"field:1"}, 3.0)  # field 1's hub went down ...
    t.snapshot({0: ["aa"]}, 4.0)  # ... and came back
    assert t.shared == {"aa": ("field:2", "field:1")}  # field 2 heard it first now


def test_what_lifts_not_yet_reported_could_still_make_of_the_board() -> None:
    """The adaptive settle judges a board early only if no lift made but not yet reported could
    turn it into another legal step: a stack may show any of its pieces on top once lifted, a
    pile any of its pieces in order, any site may empty; nothing may be laid."""
    t = tracker()
    t.tag_arrived(0, "aa", 1.0)
    t.tag_arrived(0, "bb", 2.0)  # card 2 over card 1
    t.tag_arrived(1, "cc", 3.0)
    assert t.board == {"field:1": "card:2", "field:2": "card:3"}
    assert t.lifts_could_show([{"field:1": "card:2"}])  # card 3 lifted
    assert t.lifts_could_show([{"field:1": "card:1", "field:2": "card:3"}])  # card 2 lifted
    assert t.lifts_could_show([{}])
    assert not t.lifts_could_show([{"field:1": "card:2", "field:2": "card:3"}])  # as it is
    assert not t.lifts_could_show([{"field:1": "card:3"}])  # card 3 is not in that stack
    assert not t.lifts_could_show([{"field:1": "card:2", "field:2": "card:3", "field:9": "x"}])
    pieces = {"y": "stone:yellow", "b": "stone:blue", "r": "stone:red"}
    towers = Tracker({0: "circle:1"}, pieces.get, 0.4, piles=frozenset({"circle:1"}))
    for uid in ("y", "b", "r"):
        towers.tag_arrived(0, uid, 1.0)
    assert towers.lifts_could_show([{"circle:1": "stone:yellow / stone:red"}])  # blue pulled
    assert not towers.lifts_could_show([{"circle:1": "stone:red / stone:yellow"}])


def test_a_faster_pace_counts_from_when_it_began_and_settling_waits_for_a_whole_round() -> None:
    """A watch confirmed at 10.5 s: what changed before was read at the old pace, so the scan
    of stillness and the wait for a lift count from then. A settled board has also waited
    until every reader was read since the change (a round of the hubs' stride)."""
    t = tracker()
    t.quick_seconds, t.lift_latency, t.round_seconds = 0.1, 0.125, 0.6
    t.tag_arrived(0, "a1", 10.0)
    assert (t.still_at(), t.quick_at()) == (pytest.approx(10.1), pytest.approx(10.125))
    assert t.settles_at() == pytest.approx(10.6)  # the round, longer than the settle time
    t.sped_up(10.5)
    assert (t.still_at(), t.quick_at()) == (pytest.approx(10.6), pytest.approx(10.625))
    t.round_seconds = 0.2
    assert t.settles_at() == pytest.approx(10.4)  # the settle time, longer than the round
