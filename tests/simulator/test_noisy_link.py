"""Issue 20, finding 7: a noisy cable. The virtual hub (the real firmware on a real pty) with
5 % of its bytes changed or lost, read through the real HubLink: the snapshot gets through in
small parts, each move is seen within 2 s, and the host never shows a board that was not on
the table. On a cable far noisier than that, the link says so.

(Before snapshots came in parts, no snapshot and no move got through in 60 s at 5 %.)
"""

from __future__ import annotations

import asyncio

import pytest

from hardware.link import TOO_NOISY
from simulator.noisy_link import judged, measure


@pytest.mark.parametrize(("noise", "drop"), [(0.05, 0.0), (0.0, 0.05)],
                         ids=["5% byte noise", "5% lost bytes"])
def test_play_goes_on_over_a_cable_with_5_percent_bad_bytes(noise: float, drop: float) -> None:
    run = asyncio.run(measure(noise, drop, moves=4, timeout=15.0))
    assert run.first_snapshot_s is not None, "no snapshot got through"
    assert len(run.moves_s) == 4 and None not in run.moves_s, run.moves_s
    # The promise is 2 s (`tabletop bench noisy-link` measures it); on a busy test machine
    # the test checks that play goes on, with slack.
    assert max(run.moves_s) < 4.0, run.moves_s  # type: ignore[type-var]
    assert run.wrong == []
    health = run.health
    assert health is not None and health.crc_errors > 10  # the noise was real, and was caught
    assert health.frame_loss is not None and health.frame_loss > 0.3
    assert health.byte_errors == pytest.approx(0.05, abs=0.025)
    assert not health.too_noisy
    # No storm: the host's requests stay a trickle, and the hub's answers a small share of
    # what 115200 baud carries (11520 bytes/s).
    assert run.host_bytes / run.seconds < 400
    assert run.hub_bytes / run.seconds < 11520 / 4


def test_a_cable_turning_noisy_mid_game_still_carries_a_whole_snapshot() -> None:
    run = asyncio.run(measure(0.05, 0.0, moves=2, timeout=15.0, scan_ms=4, from_start=False))
    assert run.first_snapshot_s is not None and run.first_snapshot_s < 4.0
    assert None not in run.moves_s and run.wrong == []


@pytest.mark.parametrize(("noise", "drop"), [(0.3, 0.0), (0.0, 0.3)],
                         ids=["30% byte noise", "30% lost bytes"])
def test_a_cable_far_too_noisy_is_reported(noise: float, drop: float) -> None:
    health = asyncio.run(judged(noise, drop, within=5.0))
    assert health.too_noisy
    assert health.byte_errors is not None and health.byte_errors > TOO_NOISY
    assert health.frame_loss is not None and health.frame_loss > 0.9


def test_a_hub_that_cannot_connect_through_the_noise_is_reported() -> None:
    """At 12 % a 62-byte HELLO arrives once in 3000 tries: the hub never connects."""
    health = asyncio.run(judged(0.12, 0.0, within=8.0))
    assert not health.connected and health.too_noisy


def test_a_clean_cable_is_not_reported() -> None:
    health = asyncio.run(judged(0.0, 0.0, within=1.0))
    assert health.connected and health.crc_errors == 0
    assert not health.too_noisy and health.byte_errors in (0.0, None)
