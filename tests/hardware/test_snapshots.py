"""The host's mirror of a hub's readers (snapshot parts and the change counter), the pacing of
its requests, and the link's frame-loss window."""

from __future__ import annotations

import random

import pytest

from hardware.link import LossWindow
from hardware.protocol import (
    ReaderFault,
    ReaderState,
    ReaderStatus,
    RequestSnapshot,
    Snapshot,
    SnapshotPart,
    TagArrived,
    TagLeft,
)
from hardware.snapshots import Mirror, Pacer, applied, request_for

A, B, C = bytes.fromhex("04a1b2c3"), bytes.fromhex("04112233445566"), bytes.fromhex("04010203")
EMPTY = ReaderState(ReaderStatus.OK)


def part(changes: int, reader: int, *uids: bytes, readers: int = 3) -> SnapshotPart:
    return SnapshotPart(changes, reader, readers, ReaderState(ReaderStatus.OK, uids))


def synced(changes: int = 5) -> Mirror:
    mirror = Mirror(3)
    for reader in range(3):
        mirror.part(part(changes, reader, *((A,) if reader == 1 else ())))
    return mirror


def test_a_snapshot_is_handed_on_only_when_every_part_tells_the_same_moment() -> None:
    mirror = Mirror(3)
    assert mirror.wants(0) == (0, 1, 2)
    assert mirror.part(part(5, 0)) is None
    assert mirror.part(part(5, 2)) is None
    assert mirror.wants(0) == (1,)  # only what is missing
    assert mirror.part(part(5, 1, A)) == Snapshot((EMPTY, ReaderState(ReaderStatus.OK, (A,)),
                                                   EMPTY))
    assert mirror.wants(0) is None and mirror.missed == 0


def test_a_part_from_after_a_lost_change_makes_the_others_be_asked_again() -> None:
    mirror = Mirror(3)
    mirror.part(part(5, 0))
    mirror.part(part(5, 1))
    assert mirror.part(part(6, 2, A)) is None  # a change was sent between, and lost
    assert mirror.missed == 1
    assert mirror.wants(0) == (0, 1)
    mirror.part(part(6, 0))
    assert mirror.part(part(6, 1)) == Snapshot((EMPTY, EMPTY, ReaderState(ReaderStatus.OK, (A,))))


def test_changes_received_in_order_keep_the_mirror_current() -> None:
    mirror = synced()
    mirror.change(TagArrived(1, B))
    mirror.change(TagArrived(1, A))  # put back: on top again
    mirror.change(TagArrived(0, C))
    mirror.change(TagLeft(0, C))
    mirror.change(ReaderFault(2, ReaderStatus.COMM_ERROR))
    assert mirror.changes == 10 and mirror.wants(0) is None
    mirror.lost()  # a heartbeat, say, was damaged: one part settles it
    assert mirror.wants(7) == (1,)
    assert mirror.part(part(10, 1, B, A)) is None  # nothing was lost; nothing is owed
    assert mirror.wants(0) is None and mirror.missed == 0
    mirror.ask()
    assert mirror.wants(0) == (0, 1, 2)
    for reader in (0, 1):
        mirror.part(part(10, reader, *((B, A) if reader else ())))
    snapshot = mirror.part(SnapshotPart(10, 2, 3, ReaderState(ReaderStatus.COMM_ERROR)))
    assert snapshot == Snapshot((EMPTY, ReaderState(ReaderStatus.OK, (B, A)),
                                 ReaderState(ReaderStatus.COMM_ERROR)))


def test_a_lost_change_is_found_by_the_next_part_whatever_came_between() -> None:
    mirror = synced(5)
    mirror.lost()  # the damaged frame was TagArrived(2, C): the hub counts 6
    mirror.change(TagLeft(1, A))  # the next change arrives: the mirror counts 6, the hub 7
    assert mirror.part(part(7, 0)) is None
    assert mirror.missed == 1 and mirror.wants(0) == (1, 2)


def test_applying_a_change_follows_the_firmware() -> None:
    state = ReaderState(ReaderStatus.OK, (A, B))
    assert applied(state, TagArrived(0, A)).uids == (B, A)
    assert applied(state, TagLeft(0, A)).uids == (B,)
    assert applied(state, ReaderFault(0, ReaderStatus.NO_RESPONSE)) == ReaderState(
        ReaderStatus.NO_RESPONSE, (A, B))


def test_every_reader_is_asked_for_with_an_empty_request() -> None:
    assert request_for((0, 1, 2), 3) == RequestSnapshot()
    assert request_for((1,), 3) == RequestSnapshot((1,))


def test_the_pacer_waits_for_the_answer_and_backs_off_only_on_silence() -> None:
    pacer = Pacer(rng=random.Random(1))
    assert pacer.due(0.0)
    pacer.asked(0.0, 11)
    assert not pacer.due(0.005)
    first = pacer.next_at
    assert 0.05 < first < 0.2  # the answer's own time on the line, three times over
    pacer.answered(0.03, 10)  # the hub answered after 30 ms (it was busy scanning)
    assert not pacer.due(0.05)  # one frame of the answer is still out
    pacer.answered(0.04)
    assert not pacer.due(0.059)  # 10 ms on the line: it rests twice as long
    assert pacer.due(0.061)  # then the rest is asked for, long before the wait was over
    waits = []
    now = 0.0
    for _ in range(8):  # nothing comes back at all: twice as long each time, up to 1 s
        pacer.asked(now, 1)
        waits.append(pacer.next_at - now)
        now = pacer.next_at
    assert waits[-1] <= 1.0 * 1.2 and waits[-1] > 4 * waits[0]
    pacer.heard()
    pacer.asked(now, 1)
    assert pacer.next_at - now < 0.1  # the cable talks again: back to the base pace


@pytest.mark.parametrize("parts", [1, 11, 64, 255])
def test_asking_again_and_again_fills_at_most_a_third_of_the_line(parts: int) -> None:
    pacer = Pacer(rng=random.Random(2))
    pacer.asked(0.0, parts)
    answer_seconds = parts * 24 * 10 / 115_200
    assert pacer.next_at >= 3 * answer_seconds * (1 - pacer.jitter)


def test_the_loss_window_counts_what_was_lost_once_and_forgets_old_frames() -> None:
    window = LossWindow(seconds=5.0, minimum=10)
    assert window.loss(0.0) is None and window.byte_errors(0.0) is None
    window.frames(0.5, [(16, True)] * 6)
    assert window.loss(1.0) is None  # too few frames to judge a cable
    window.frames(1.0, [(16, False)])
    window.skipped(1.1, 1)  # the same lost frame, seen by the gap too
    window.frames(1.1, [(16, True)])
    window.skipped(1.2, 3)  # dropped bytes merged three frames into one damaged run
    window.frames(1.2, [(40, False), (16, True), (16, True), (16, True)])
    assert window.loss(1.5) == pytest.approx(4 / 14)
    assert window.byte_errors(1.5) == pytest.approx(0.01068, abs=1e-4)  # a grid search's
    window.frames(7.0, [(16, False)] * 10)
    assert window.loss(7.0) == 1.0 and window.byte_errors(7.0) == 1.0  # nothing good in 5 s


@pytest.mark.parametrize("rate", [0.01, 0.05, 0.1])
def test_the_byte_error_rate_does_not_depend_on_the_length_of_the_frames(rate: float) -> None:
    """Long hellos lose more frames than small parts on the same cable; the byte error rate
    estimated from either is the cable's."""
    rng = random.Random(3)
    for size in (16, 62):
        window = LossWindow()
        window.frames(0.0, [(size, rng.random() < (1 - rate) ** size) for _ in range(1500)])
        assert window.byte_errors(0.0) == pytest.approx(rate, rel=0.25)


def test_a_cable_is_called_too_noisy_only_beyond_reasonable_doubt() -> None:
    window = LossWindow()
    window.frames(0.0, [(62, False), (32, False)] * 5)  # ten answers to REQUEST_HELLO, lost
    assert window.byte_errors(0.0) == 1.0  # the best guess...
    assert not window.worse_than(0.0, 0.08)  # ...but at 8 % most of them are lost too
    rng = random.Random(4)
    for rate, verdict in ((0.05, False), (0.3, True)):
        window = LossWindow()
        window.frames(0.0, [(size, rng.random() < (1 - rate) ** size)
                            for size in (62, 32, 16, 22, 29) * 40])
        assert window.worse_than(0.0, 0.08) is verdict
