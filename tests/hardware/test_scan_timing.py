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


def cpu(cost) -> float:
    return cost.cpu_us + sum(frame_cpu for frame_cpu, _ in cost.checks)


def air(cost) -> float:
    return cost.air_us + sum(frame_air for _, frame_air in cost.checks)


def test_tags_multiplexers_and_new_tags_cost_more() -> None:
    assert cpu(inventory_cost((7,), False)) > cpu(inventory_cost((4,), False))
    assert air(inventory_cost((7, 7), False)) == pytest.approx(
        AIR_US["idle"] + 2 * AIR_US["known7"])
    assert len(inventory_cost((7, 7), False).checks) == 8  # WUPA, 2 SELECTs, HLTA each
    plain, muxed = inventory_cost((7,), False), inventory_cost((7,), True)
    # the field on and off, the check and request, the collect: four visits to the reader
    assert muxed.cpu_us - plain.cpu_us == pytest.approx(4 * MUX_SELECT_US)
    assert cpu(inventory_cost((7,), False, known=False)) > cpu(plain)


def test_a_class_flies_its_readers_check_frames_side_by_side() -> None:
    stacked = inventory_cost((7, 7, 7), mux=False)
    one = class_window_us([stacked], 5.0)
    eight = class_window_us([stacked] * 8, 5.0)
    assert one == pytest.approx(5000 + cpu(stacked) + air(stacked))  # alone: one after another
    assert eight < 5000 + 8 * (cpu(stacked) + air(stacked)) * 0.6  # the air times overlap
    assert eight > 5000 + 8 * cpu(stacked)  # but the hub's own work does not


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


def test_hubs_in_step_share_slots_where_no_two_fields_of_any_hub_interfere() -> None:
    from hardware.field_schedule import clashes, hub_regions, table_schedules

    settings = RadioSettings()
    regions = hub_regions(GRID, 3)
    assert sorted(r for region in regions for r in region) == sorted(GRID)
    assert [len(region) for region in regions] == [21, 22, 21]  # stripes, even in count
    schedules = table_schedules(GRID, regions, settings)
    assert len({len(classes) for classes in schedules}) == 1  # the same slots on every hub
    for region, classes in zip(regions, schedules, strict=True):
        assert sorted(n for members in classes for n in members) == list(range(len(region)))
        assert all(len(members) <= settings.max_fields_on for members in classes)
    slots = [tuple(region[n] for region, classes in zip(regions, schedules, strict=True)
                   for n in classes[slot]) for slot in range(len(schedules[0]))]
    assert not clashes(tuple(slots), GRID, settings)  # across hubs too


def test_hubs_in_step_take_each_slot_as_long_as_its_slowest_hub() -> None:
    from hardware.scan_timing import synced_scan_ms

    a = ((0, 1), (2,))
    b = ((0,), ())  # nothing of b's in the second slot: it waits for a
    slow, fast = {0: (7, 7, 7)}, {}
    together = synced_scan_ms([a, b], [fast, slow])
    alone_a = scheduled_scan(a, fast).scan_ms
    alone_b = scheduled_scan(b, slow).scan_ms
    first_slot_b = class_window_us([inventory_cost((7, 7, 7), mux=False)], 5.0) / 1000
    second_slot_a = class_window_us([inventory_cost((), mux=False)], 5.0) / 1000
    assert together == pytest.approx(first_slot_b + second_slot_a, abs=0.1)
    assert together > max(alone_a, alone_b)
