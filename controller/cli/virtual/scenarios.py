"""Scenarios on the virtual table (``tabletop sim --scenario``): the shipped ones by name, a
maker's own by file, each run headless against a running service (docs/simulator.md)."""

from __future__ import annotations

import contextlib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from controller.errors import UserError
from games.registry import get_game

from .settling import settled
from .table import running

if TYPE_CHECKING:  # the simulator is imported when used: `tabletop run` must not load it
    from importlib.resources.abc import Traversable

    from simulator.scenario_runner import ScenarioReport

SCENARIO_SUFFIX = ".scenario"
SCENARIO_DEFAULT_GAME = "tiki_topple"
"""The game of a scenario that names none."""


def shipped_scenarios() -> dict[str, Traversable]:
    """The scenarios the package ships, by name (the file stem), sorted. Found through the
    package, not the checkout, so a wheel installed on a Pi has them wherever pip put them."""
    folder = resources.files("simulator") / "scenarios"
    entries = sorted(folder.iterdir(), key=lambda entry: entry.name)
    return {entry.name.removesuffix(SCENARIO_SUFFIX): entry for entry in entries
            if entry.name.endswith(SCENARIO_SUFFIX)}


def scenario_file(given: str) -> contextlib.AbstractContextManager[Path]:
    """The file ``--scenario`` names: an existing file first (a maker's own scenario), else a
    shipped scenario by name, with or without ``.scenario`` (a context: a packaged file may
    only be a path while it is open)."""
    if Path(given).is_file():
        return contextlib.nullcontext(Path(given))
    shipped = shipped_scenarios()
    entry = shipped.get(given.removesuffix(SCENARIO_SUFFIX))
    if entry is None:
        raise UserError(f"{given}: no such scenario file, nor a shipped scenario of that name "
                        f"(shipped: {', '.join(shipped)})")
    return resources.as_file(entry)


def scenario_games() -> dict[str, str]:
    """Each shipped scenario's name and its game, so a maker without the checkout knows what
    ``--scenario NAME`` can run."""
    from simulator.scenario import load_scenario

    games = {}
    for name, entry in shipped_scenarios().items():
        with resources.as_file(entry) as path:
            games[name] = load_scenario(path).game or SCENARIO_DEFAULT_GAME
    return games


async def run_scenario(path: Path, data: Path, scan: float | str = "realistic",
                       plain_mistakes: str | None = None) -> ScenarioReport:
    """Run the scenario in ``path`` on a fresh virtual table keeping its journal in ``data``:
    its report (a file that does not load, or names what the table lacks: a UserError)."""
    from simulator.scenario import ScenarioError, load_scenario
    from simulator.scenario_runner import ScenarioRunner

    try:
        scenario = load_scenario(path)
    except (OSError, ScenarioError) as error:
        raise UserError(str(error)) from None
    game = get_game(scenario.game or SCENARIO_DEFAULT_GAME)
    players = scenario.players or ("anna", "ben")
    game.initial(players, dict(scenario.options))
    async with running(game.id, data, players, scenario.options, scan=scan,
                       plain_mistakes=plain_mistakes) as (table, service):
        runner = ScenarioRunner(table, lambda: service.status().model_dump(mode="json"),
                                settle=lambda: settled(table, service))
        try:
            return await runner.run(scenario)
        except ScenarioError as error:  # names a site, piece or colour this table lacks
            raise UserError(str(error)) from None
