"""Scenario files: parsing with line numbers, checking names, running with pass/fail per line.

The shipped Tiki Topple scenarios are run through the real pty against `EngineProbe`, a
deliberately small referee built on the engine alone (the controller is not used here), so a
scenario that asks for an illegal build or a move nobody holds the card for fails in this test.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from games.core.game import CHANCE, Game, pile_begins
from games.registry import all_games, get_game
from hardware.leds import SiteLights
from simulator.scenario import (
    ExpectLed,
    ExpectStatus,
    ScenarioError,
    check_scenario,
    load_scenario,
    parse_scenario,
)
from simulator.scenario_runner import ScenarioRunner, judge_status, lookup
from simulator.steps import Hold, Lift, Press, Put, Replug, Slide, Unplug, Wait
from simulator.virtual_table import VirtualTable

from .conftest import SLOWDOWN

SCENARIOS = Path(__file__).resolve().parents[2] / "simulator" / "scenarios"

GOOD = """\
# header
game tiki_topple
players anna ben   # two
option edition gamewright

put tiki:nani stack:1
put uid:04A1B2C3 stack:2
lift stack:1
slide stack:2 stack:4
press confirm
hold undo 1500
wait 20
unplug
replug
expect led stack:4 off
expect status phase play
expect status discrepancy null
expect status discrepancy not null
expect status discrepancy.wrong_sites contains stack:3
expect status last_action up2 lokahi
expect status scores {"anna": 3}
"""


def test_a_good_scenario_parses_into_steps_and_expectations() -> None:
    scenario = parse_scenario(GOOD, "good")
    assert (scenario.game, scenario.players, scenario.options) == (
        "tiki_topple", ("anna", "ben"), (("edition", "gamewright"),))
    actions = [i.action for i in scenario.instructions]
    assert actions[:9] == [
        Put("tiki:nani", "stack:1"), Put("uid:04A1B2C3", "stack:2"), Lift("stack:1"),
        Slide("stack:2", "stack:4"), Press("confirm"), Hold("undo", 1500), Wait(20),
        Unplug(), Replug()]
    assert actions[9:] == [
        ExpectLed("stack:4", "off"),
        ExpectStatus("phase", "is", "play", "play"),
        ExpectStatus("discrepancy", "is", None, "null"),
        ExpectStatus("discrepancy", "not", None, "null"),
        ExpectStatus("discrepancy.wrong_sites", "contains", "stack:3", "stack:3"),
        ExpectStatus("last_action", "is", "up2 lokahi", "up2 lokahi"),
        ExpectStatus("scores", "is", {"anna": 3}, '{"anna": 3}'),
    ]
    assert [i.line for i in scenario.expectations] == list(range(15, 22))
    assert str(actions[-3]) == "expect status discrepancy.wrong_sites contains stack:3"


def test_every_bad_line_is_reported_with_its_number() -> None:
    text = "put tiki:nani\nlift stack:1\nwait soon\njump stack:2\nexpect led stack:1\n" \
           "hold confirm\nexpect status Bad..key 3\nput uid:XYZ stack:1\nplayers a a\n"
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "bad.scenario")
    lines = [line for line, _ in caught.value.problems]
    assert lines == [1, 3, 4, 5, 6, 7, 8, 9]
    message = str(caught.value)
    assert "bad.scenario:1: expected 'put <piece> <site>'" in message
    assert "bad.scenario:4: unknown step 'jump'" in message


def test_names_are_checked_against_the_table(table: VirtualTable) -> None:
    scenario = parse_scenario(
        "game topiary\nput tiki:nani stack:1\nput tiki:ghost stack:1\nlift stack:0\n"
        "press bell\nexpect led stack:1 purple\nexpect led stack:2 wrong\n", "names")
    with pytest.raises(ScenarioError) as caught:
        check_scenario(scenario, table)
    assert [line for line, _ in caught.value.problems] == [0, 3, 4, 5, 6]


def test_status_lookup_and_judgement() -> None:
    status = {"phase": "play", "discrepancy": {"wrong_sites": ["stack:3"], "message": "x"},
              "players": ["anna", "ben"]}
    assert lookup(status, "players.1") == "ben"
    assert judge_status(status, ExpectStatus("discrepancy.wrong_sites", "contains", "stack:3",
                                             "stack:3"))[0]
    passed, detail = judge_status(status, ExpectStatus("phase", "is", "over", "over"))
    assert not passed and detail == 'phase is "play"'
    passed, detail = judge_status({"discrepancy": None},
                                  ExpectStatus("discrepancy.message", "is", "x", "x"))
    assert not passed and "no 'discrepancy.message'" in detail


def run(runner: ScenarioRunner, text: str) -> Any:
    return asyncio.run(runner.run(parse_scenario(text, "t")))


def test_runner_reports_pass_and_fail_by_line_with_a_fake_probe(table: VirtualTable) -> None:
    status = {"phase": "build", "to_act": "chance", "discrepancy": None}
    calls = 0

    async def probe() -> dict[str, Any]:
        nonlocal calls
        calls += 1
        return status

    runner = ScenarioRunner(table, probe, timeout_s=0.2, poll_s=0.02)
    report = run(runner, "put tiki:nani stack:1\nexpect status phase build\n"
                         "expect status to_act anna\nexpect led stack:1 off\n")
    assert [(r.line, r.passed) for r in report.results] == [(2, True), (3, False), (4, True)]
    assert report.results[1].detail == 'to_act is "chance"'
    assert not report.passed and calls >= 2
    assert report.lines()[1] == 't:3: FAIL expect status to_act anna (to_act is "chance")'
    assert report.to_json()["results"][0] == {
        "line": 2, "text": "expect status phase build", "passed": True,
        "detail": 'phase is "build"'}


def test_an_expectation_waits_for_the_status_to_come_true(table: VirtualTable) -> None:
    answers = iter([{"phase": "build"}] * 3 + [{"phase": "play"}] * 100)
    runner = ScenarioRunner(table, lambda: next(answers), timeout_s=2, poll_s=0.01)
    assert run(runner, "expect status phase play\n").passed


def test_status_expectations_without_a_probe_fail_clearly(table: VirtualTable) -> None:
    report = run(ScenarioRunner(table, timeout_s=0.05), "expect status phase play\n")
    assert not report.passed and "no status probe" in report.results[0].detail


def test_a_step_the_table_cannot_do_stops_the_run_at_its_line(table: VirtualTable) -> None:
    report = run(ScenarioRunner(table, timeout_s=0.05),
                 "put tiki:nani stack:1\nexpect led stack:1 off\nlift stack:2\nlift stack:1\n")
    assert report.error is not None and report.error[0] == 3 and "empty" in report.error[1]
    assert table.board() == {"stack:1": "tiki:nani"}  # line 4 never ran
    assert not report.passed


def test_led_expectations_read_the_virtual_strip(table: VirtualTable) -> None:
    SiteLights(table.strip.strip, table.profile.leds).show(
        {"stack:4": table.profile.colours["wrong"]})
    report = run(ScenarioRunner(table, timeout_s=0.1),
                 "expect led stack:4 wrong\nexpect led stack:5 wrong\n")
    assert [r.passed for r in report.results] == [True, False]
    assert report.results[1].detail == "stack:5 shows off"


# -- the shipped scenarios ---------------------------------------------------------------------


class EngineProbe:
    """The least referee that can answer status expectations: it reads the board the host sees
    and accepts a single matching successor, else says whether the table is on the way."""

    def __init__(self, game: Game[Any], players: list[str], options: dict[str, str],
                 watcher: Any) -> None:
        self.game, self.players = game, players
        self.state = game.initial(players, options)
        self.watcher = watcher
        self.last_action: str | None = None
        self.shown: str | None = None
        """The piece laid on the choice site that made a choice, while it lies there."""
        self.rng = random.Random(5)
        self._hidden()

    def _hidden(self) -> None:
        game = self.game
        while game.actor(self.state) == CHANCE and all(
            game.board(game.apply(self.state, a)) == game.board(self.state)
            for a in game.legal_actions(self.state)
        ):
            self.state = game.apply(self.state, game.sample_chance(self.state, self.rng))

    def __call__(self) -> dict[str, Any]:
        game, seen = self.game, self.watcher.board()
        current = game.board(self.state)
        site = game.choice_site
        laid = seen.get(site) if site is not None else None
        rest = {s: piece for s, piece in seen.items() if s != site}
        if laid is not None and site not in current and rest == current:
            # a piece naming a choice the board cannot show (Topiary's shape for the box)
            chosen = game.choice_pieces(self.state).get(laid)
            if chosen is not None:
                self.state, self.last_action, self.shown = (
                    game.apply(self.state, chosen), chosen, laid)
                self._hidden()
            if laid == self.shown:
                seen = rest
        if laid is None:
            self.shown = None
        current = game.board(self.state)
        successors = {a: game.board(game.apply(self.state, a))
                      for a in game.legal_actions(self.state)}
        matches = [a for a, board in successors.items() if board == seen]
        if seen != current and len(matches) == 1:
            self.last_action = game.public_action(self.state, matches[0])  # as the page says
            self.state = game.apply(self.state, matches[0])
            self._hidden()
            current = seen
        changed = sorted(s for s in current.keys() | seen.keys() if current.get(s) != seen.get(s))
        on_the_way = any(
            all((seen.get(s) is None and board.get(s) != current.get(s))
                or seen.get(s) == board.get(s)
                or (s in seen and pile_begins(board.get(s, ""), seen[s]))  # a tower
                for s in changed)
            for board in successors.values()
        )
        view = game.view(self.state, None)
        seat = game.to_act(self.state)  # as the service names it: whose hands, chance too
        return {
            "phase": view["phase"],
            "to_act": self.players[seat] if seat is not None else None,
            "last_action": self.last_action,
            "discrepancy": None if on_the_way or not changed
            else {"wrong_sites": changed, "message": "put it back"},
        }


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.scenario")), ids=lambda p: p.stem)
def test_shipped_scenarios_pass_against_the_engine(path: Path, tmp_path: Path, watch_any) -> None:
    scenario = load_scenario(path)
    assert scenario.game is not None and scenario.expectations
    table = VirtualTable.for_game(scenario.game, link_path=tmp_path / "tty", scan_ms=4).start()

    async def body(w: Any) -> None:
        probe = EngineProbe(get_game(scenario.game), list(scenario.players),
                            dict(scenario.options), w)
        lights = SiteLights(table.strip.strip, table.profile.leds)

        def status() -> dict[str, Any]:
            result = probe()
            # A stand-in for the controller's lighting: wrong sites in the wrong colour.
            wrong = (result["discrepancy"] or {}).get("wrong_sites", [])
            lit = {site: table.profile.colours["wrong"] for site in wrong
                   if site in table.profile.leds.sites}
            choice = probe.game.choice_site  # and the site where a piece makes a choice
            if choice is not None and probe.game.choice_pieces(probe.state):
                lit[choice] = table.profile.colours["legal"]
            lights.show(lit)
            return result

        async def judge_continuously() -> None:  # as the service does after every settle
            while True:
                status()
                await asyncio.sleep(0.02)

        judge = asyncio.create_task(judge_continuously())
        async def settle() -> None:  # the host has seen the table, and the referee judged it
            await w.settle()
            status()

        runner = ScenarioRunner(table, status, timeout_s=2 * SLOWDOWN, poll_s=0.02,
                                wait_scale=0.0, settle=settle)
        report = await runner.run(scenario)
        judge.cancel()
        assert report.passed, "\n".join(report.lines())

    try:
        watch_any(table, body)
    finally:
        table.close()


def test_scenarios_ship_for_every_game_and_name_only_what_its_table_has() -> None:
    """Every game with a board profile has scenarios; each names only its table's things."""
    from hardware.profile import PROFILES_DIR

    paths = sorted(SCENARIOS.glob("*.scenario"))
    games = {load_scenario(path).game for path in paths}
    with_profiles = {g.id for g in all_games() if (PROFILES_DIR / f"{g.id}.toml").exists()}
    assert with_profiles <= games <= {g.id for g in all_games()}
    assert len([p for p in paths if p.name.startswith("tiki_topple")]) >= 6
    for path in paths:
        scenario = load_scenario(path)
        assert scenario.game is not None
        check_scenario(scenario, VirtualTable.for_game(scenario.game))


def test_a_missing_scenario_file_is_a_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "nope.scenario")
