"""The slot line keeps hubs in step: nobody starts a slot before all are ready for it, hubs out
of step meet again at the start of a scan, and a hub that stops never stops the others."""

from __future__ import annotations

import threading
import time

from simulator.slot_line import SlotLine


def run_hubs(line: SlotLine, slots: dict[str, list[int]], log: list[tuple[str, int]]) -> None:
    def hub(name: str) -> None:
        tap = line.tap(name)
        for index in slots[name]:
            tap.slot(index)
            log.append((name, index))
        line.detach(name)  # unplugged

    for name in slots:
        line.attach(name)
    threads = [threading.Thread(target=hub, args=(name,)) for name in slots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)


def test_hubs_start_every_slot_together() -> None:
    line, log = SlotLine(timeout=2.0), []
    run_hubs(line, {"a": [0, 1, 2] * 3, "b": [0, 1, 2] * 3, "c": [0, 1, 2] * 3}, log)
    assert len(log) == 27 and line.timeouts == 0
    for start in range(0, 27, 3):  # each slot's three starts come before the next slot's
        assert {index for _, index in log[start:start + 3]} == {(start // 3) % 3}


def test_hubs_out_of_step_meet_again_at_the_start_of_a_scan() -> None:
    line, log = SlotLine(timeout=2.0), []
    # b comes in mid-scan (a rebooted hub that lost count): it runs on to slot 0 and waits there
    run_hubs(line, {"a": [0, 1, 2, 0, 1, 2], "b": [2, 0, 1, 2, 0, 1, 2]}, log)
    assert line.timeouts == 0
    assert log[0] == ("b", 2)  # a holds at the start of its scan while b runs on to it
    assert [index for _, index in log[1:]] == [0, 0, 1, 1, 2, 2] * 2  # in step from there on


def test_a_hub_that_stops_is_waited_for_only_until_the_timeout_and_an_unplugged_one_not_at_all(
        ) -> None:
    line = SlotLine(timeout=0.2)
    line.tap("dead").slot(0)  # it came once, then never again
    started = time.monotonic()
    line.tap("alive").slot(0)
    line.tap("alive").slot(1)
    assert line.timeouts == 1 and time.monotonic() - started < 1.0  # then it was left out
    line.detach("alive")
    line.tap("other").slot(0)  # alone on the line: no wait
    assert line.timeouts == 1
