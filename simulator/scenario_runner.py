"""Runs a scenario on a virtual table and reports each expectation, pass or fail, by line.

Steps are done in order, as fast as the table allows (only `wait`, `slide`, `press` and `hold`
take time). An expectation is checked again and again until it holds or `timeout_s` runs out,
because the controller judges the table only once it has been still for its settle time.
A step the table cannot do (lifting an empty site) stops the run and is reported with its line.

Expectations about the referee read a JSON status dict from `probe`, a callable the caller
injects (the controller's status; a fake in tests). It may be a plain function or a coroutine
function. Everything runs on the caller's event loop and never blocks it.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from simulator.scenario import Expectation, ExpectLed, ExpectStatus, Scenario, check_scenario
from simulator.steps import Wait, perform
from simulator.virtual_table import TableError, VirtualTable

Probe = Callable[[], Mapping[str, Any] | Awaitable[Mapping[str, Any]]]
_MISSING = object()


@dataclass(frozen=True, slots=True)
class ExpectationResult:
    line: int
    text: str
    passed: bool
    detail: str
    """What was seen (on failure: why it failed)."""


@dataclass(frozen=True, slots=True)
class ScenarioReport:
    source: str
    results: tuple[ExpectationResult, ...]
    error: tuple[int, str] | None = None
    """The step that could not be done (line, message); the run stopped there."""

    @property
    def passed(self) -> bool:
        return self.error is None and all(result.passed for result in self.results)

    def lines(self) -> list[str]:
        """One line per expectation, then the stopping error if any: for a terminal."""
        out = [
            f"{self.source}:{r.line}: {'PASS' if r.passed else 'FAIL'} {r.text}"
            + ("" if r.passed else f" ({r.detail})")
            for r in self.results
        ]
        if self.error is not None:
            out.append(f"{self.source}:{self.error[0]}: STOPPED {self.error[1]}")
        passed = sum(r.passed for r in self.results)
        out.append(f"{passed} of {len(self.results)} expectations passed")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "passed": self.passed,
            "results": [
                {"line": r.line, "text": r.text, "passed": r.passed, "detail": r.detail}
                for r in self.results
            ],
            "error": None if self.error is None else {"line": self.error[0],
                                                     "message": self.error[1]},
        }


def lookup(status: Any, key: str) -> Any:
    """The value at a dotted key (list items by number), or _MISSING."""
    value = status
    for part in key.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return _MISSING
    return value


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def judge_status(status: Mapping[str, Any], expectation: ExpectStatus) -> tuple[bool, str]:
    """Does the status meet the expectation? (passed, what was seen)"""
    value = lookup(status, expectation.key)
    if value is _MISSING:
        return False, f"the status has no {expectation.key!r}"
    seen = f"{expectation.key} is {_show(value)}"
    if expectation.op == "is":
        return value == expectation.value, seen
    if expectation.op == "not":
        return value != expectation.value, seen
    if isinstance(value, str) and isinstance(expectation.value, str):
        return expectation.value in value, seen
    if isinstance(value, list | Mapping):
        return expectation.value in value, seen
    return False, f"{seen}, which cannot contain anything"


class ScenarioRunner:
    def __init__(
        self,
        table: VirtualTable,
        probe: Probe | None = None,
        *,
        timeout_s: float = 3.0,
        poll_s: float = 0.05,
        wait_scale: float = 1.0,
        settle: Callable[[], Awaitable[Any] | Any] | None = None,
    ) -> None:
        if not 0.0 <= wait_scale <= 10.0:
            raise ValueError(f"wait_scale must be 0..10, got {wait_scale}")
        self.table = table
        self.probe = probe
        self.timeout_s = timeout_s
        self.poll_s = poll_s
        self.wait_scale = wait_scale
        """Multiplies every `wait` (a faster referee than the Pi's settle time needs less)."""
        self.settle = settle
        """Awaited after every `wait` (once its time has passed): e.g. until the controller has
        judged the table. With it, `wait_scale=0` runs a scenario as fast as the referee."""

    async def run(self, scenario: Scenario) -> ScenarioReport:
        """Check the scenario's names against the table (ScenarioError), then run it."""
        check_scenario(scenario, self.table)
        results: list[ExpectationResult] = []
        for instruction in scenario.instructions:
            action = instruction.action
            if isinstance(action, ExpectLed | ExpectStatus):
                passed, detail = await self._expect(action)
                results.append(ExpectationResult(instruction.line, str(action), passed, detail))
                continue
            if isinstance(action, Wait):
                action = Wait(round(action.ms * self.wait_scale))
            try:
                await perform(self.table, action)
            except TableError as exc:
                return ScenarioReport(scenario.source, tuple(results), (instruction.line, str(exc)))
            if isinstance(action, Wait) and self.settle is not None:
                done = self.settle()
                if inspect.isawaitable(done):
                    await done
        return ScenarioReport(scenario.source, tuple(results))

    async def _expect(self, expectation: Expectation) -> tuple[bool, str]:
        deadline = time.monotonic() + self.timeout_s
        while True:
            passed, detail = await self._check(expectation)
            if passed or time.monotonic() >= deadline:
                return passed, detail
            await asyncio.sleep(self.poll_s)

    async def _check(self, expectation: Expectation) -> tuple[bool, str]:
        if isinstance(expectation, ExpectLed):
            seen = self.table.led(expectation.site)
            return seen == expectation.colour, f"{expectation.site} shows {seen}"
        if self.probe is None:
            return False, "no status probe: status expectations need the controller"
        status = self.probe()
        if inspect.isawaitable(status):
            status = await status
        if not isinstance(status, Mapping):
            return False, f"the probe returned {type(status).__name__}, not a JSON object"
        return judge_status(status, expectation)
