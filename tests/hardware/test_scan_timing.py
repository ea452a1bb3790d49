"""The scan model: how schedules, tags,
multiplexers and power-up add up (figures are printed by `tabletop bench hub`)."""

from __future__ import annotations

import pytest

from hardware.field_schedule import RadioSettings, field_classes, layout_mm
from hardware.scan_timing import (
    AIR_US,
    MUX_SELECT_US,
    class_window_us,
    inventory_cost,
    scheduled_scan,
    unscheduled_scan_ms,
)

GRID = layout_mm({n: (float(n % 8), float(n // 8)) for n in range(64)})


def test_a_class_pays_the_power_up_once_and_overlaps_its_readers_waits() -> None:
    empty = inventory_cost((), mux=False)
    assert empty.wait_us == AIR_US["idle"] and empty.collect_us == 0
    one = class_window_us([empty], 5.0)
    eight = class_window_us([empty] * 8, 5.0)
    assert one == pytest.approx(5000 + empty.cpu_us + empty.air_us)
    # each REQA nobody answers waits while the hub starts the next readers' REQAs
    busy = empty.cpu_us + empty.air_us - empty.wait_us
    assert busy * 7 > empty.wait_us  # enough work after the first reader to cover its wait
    assert eight < 5000 + 8 * (empty.cpu_us + empty.air_us)
    assert eight >= 5000 + 8 * busy + empty.wait_us


def test_a_reader_with_a_new_tag_finds_it_after_the_others_waits() -> None:
    plain = inventory_cost((7,), mux=False, known=False)
    assert plain.collect_us > AIR_US["new7"]  # the new tag, then the REQA nobody answers
    assert plain.wait_us < AIR_US["idle"]  # the first REQA is answered at once
    alone = class_window_us([plain], 0.0)
    assert alone == pytest.approx(plain.cpu_us + plain.air_us)


def test_tags_multiplexers_and_new_tags_cost_more() -> None:
    assert inventory_cost((7,), False).cpu_us > inventory_cost((4,), False).cpu_us
    assert inventory_cost((7, 7), False).air_us == pytest.approx(
        AIR_US["idle"] + 2 * AIR_US["known7"])
    plain, muxed = inventory_cost((7,), False), inventory_cost((7,), True)
    # the field on and off, the check and request, the collect: four visits to the reader
    assert muxed.cpu_us - plain.cpu_us == pytest.approx(4 * MUX_SELECT_US)
    assert inventory_cost((7,), False, known=False).cpu_us > plain.cpu_us


def test_a_scheduled_scan_adds_up_its_classes_and_names_its_currents() -> None:
    classes = field_classes(GRID)
    assert all(len(members) <= 8 for members in classes)
    empty = scheduled_scan(classes, {})
    full = scheduled_scan(classes, {n: (7,) for n in GRID})
    stacked = scheduled_scan(classes, {n: (7, 7, 7) for n in GRID})
    assert empty.scan_ms < full.scan_ms < stacked.scan_ms
    assert full.worst_seen_ms > full.scan_ms
    assert empty.field_classes == len(classes) and empty.readers == 64
    assert full.peak_ma == 8 * 100.0 + 64 * 13.5
    slow = scheduled_scan(classes, {}, RadioSettings(power_up_ms=10.0))
    assert slow.scan_ms == pytest.approx(empty.scan_ms + 5 * len(classes), abs=0.1)


def test_without_a_schedule_all_readers_form_one_class_and_no_field_is_switched() -> None:
    tags = {0: (7,), 5: (7, 7)}
    costs = [inventory_cost(tags.get(r, ()), mux=False, switching=False) for r in range(16)]
    sequential = sum(cost.cpu_us + cost.air_us for cost in costs)
    assert unscheduled_scan_ms(16, tags) == pytest.approx(class_window_us(costs, 0.0) / 1000)
    assert unscheduled_scan_ms(16, tags) < sequential / 1000
    assert unscheduled_scan_ms(17, tags) > unscheduled_scan_ms(16, tags)  # muxes from 17 on
