"""``tabletop bench noisy-link``: play over a noisy cable (the simulator's noisy link between
the virtual hub and the real ``HubLink``)."""

from __future__ import annotations

from typing import Any

from controller.bench import BenchOptions, BenchResult, Progress


def bench_noisy_link(options: BenchOptions, progress: Progress) -> BenchResult:
    """Play over a noisy cable (issue 20, finding 7): the virtual Tiki Topple hub with 0-10 %
    of its bytes changed or lost (and 5 % changed both ways), read through the real HubLink.
    Per cable: the time to connect and to the first whole snapshot, then eight moves (puts and
    lifts), each timed from the hand until the host's board shows it; boards seen that were
    never on the table; the link's own estimate of the bad bytes; and the bytes each way (a
    storm would show there).
    "mid-game": the cable turns noisy after connecting, the snapshot is asked for on it."""
    import asyncio

    from simulator.noisy_link import measure

    rows = []
    figures: list[dict[str, Any]] = []
    for kind in ("bad", "lost", "bad both ways"):
        for rate in (0.0, 0.01, 0.05, 0.1):
            for from_start in (True, False):
                if (rate == 0.0 and (kind != "bad" or not from_start)) or (
                        kind == "bad both ways" and rate != 0.05):
                    continue
                label = f"{rate:.0%} {kind} bytes" if kind != "bad both ways" else (
                    f"{rate:.0%} bad bytes both ways")
                progress(f"noisy-link: {label}{'' if from_start else ' mid-game'}")
                run = asyncio.run(measure(0.0 if kind == "lost" else rate,
                                          rate if kind == "lost" else 0.0, moves=8,
                                          timeout=options.seconds, from_start=from_start,
                                          host_to_hub=kind == "bad both ways"))
                f = {"cable": label, "from_start": from_start, **run.figures(),
                     "byte_errors": None if run.health is None or run.health.byte_errors is None
                     else round(run.health.byte_errors, 3)}
                figures.append(f)
                rows.append((label, "start" if from_start else "mid-game", f["connected_s"],
                             f["first_snapshot_s"], f"{f['moves_seen']}/{f['moves']}",
                             f["move_s_mean"], f["move_s_max"], f["wrong_boards"],
                             f["byte_errors"], f["frame_loss"], f["too_noisy"],
                             f["host_bytes_per_s"], f["hub_bytes_per_s"]))
    return BenchResult(
        f"A noisy cable: virtual Tiki Topple hub (realistic scan), 8 moves, {options.seconds:g} s "
        "timeout; "
        "seconds (target: every move seen within 2 s, no wrong board up to 5 %)",
        ("cable", "noisy from", "connect", "snapshot", "moves seen", "move mean", "move max",
         "wrong", "bad bytes est.", "frame loss", "too noisy", "host B/s", "hub B/s"),
        tuple(rows), {"bench": "noisy-link", "runs": figures})
