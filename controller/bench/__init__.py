"""The benchmarks (``tabletop bench NAME``): measured figures, never pass/fail tests.

Every benchmark is a function ``(options, progress) -> BenchResult`` named in ``BENCHES``, in
a module of this room: ``engines`` (random playouts, the referee, the hub's scan, the LED
latency, the AI), ``autoplay`` (whole games on the virtual table: autoplay, hand-to-light,
mistakes), ``referee_search`` and ``pi_budget`` (people dealing from the box), ``load`` (a
crowd of readers against ``tabletop run``), ``club`` (a hundred quick tables on one broker);
``measure`` holds what several of them time. The one that composes the service with the
simulator in-process, ``noisy-link``, is the command line's (``controller.cli.virtual``: only
it may import the simulator); ``hand_to_light`` times what the virtual table's hands do
through a protocol. A module is imported only when its bench runs: the command line names them
all at every start. The command formats the result as a table, or prints its figures as JSON.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from controller.errors import UserError
from games.core.game import Game
from games.registry import all_games

Progress = Callable[[str], None]
"""Where a long bench says how far it got (the command line: stderr, on a terminal only)."""


@dataclass(frozen=True)
class BenchResult:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    figures: dict[str, Any]
    """The same figures, for ``--json``."""
    ok: bool = True
    """False when the run found a fault (the command then exits 1)."""


@dataclass(frozen=True)
class BenchOptions:
    """What a bench is asked to do; each bench reads the options it takes (``tabletop bench
    --help`` says which)."""

    game: tuple[str, ...] = ()
    """Only these games (none: every game the bench plays)."""
    seconds: float | None = None
    """Time per measurement (None: ``SECONDS``)."""
    games: int | None = None
    players: int = 0
    simulations: int = 0
    jobs: int = 2
    seeds: int | None = None
    """Seeds per game (None: ``SEEDS``)."""
    no_hint: bool = False
    ideal: bool = False
    plain_mistakes: str | None = None
    """The profiles' ``[timing] plain_mistakes`` for the virtual tables (None: their own)."""
    clients: int = 200
    rate: float = 50.0
    rounds: int = 3
    tables: int = 100
    pace: float = 1.0

    def resolved(self, name: str) -> BenchOptions:
        """These options with the bench ``name``'s own time and seeds where none were given."""
        return dataclasses.replace(
            self, seconds=SECONDS.get(name, 3.0) if self.seconds is None else self.seconds,
            seeds=SEEDS.get(name, 50) if self.seeds is None else self.seeds)


SECONDS = {"load": 20.0, "latency": 10.0, "noisy-link": 10.0}
"""Time per measurement of the benches that take another than 3 s (load: per phase; latency:
200 events a second; noisy-link: the wait for each move)."""
SEEDS = {"mistakes": 4, "pi-budget": 3}
"""Seeds per game of the benches that play another number than 50."""

BENCHES: dict[str, str] = {
    "autoplay": "autoplay:bench_autoplay",
    "load": "load:bench_load",
    "hand-to-light": "autoplay:bench_hand_to_light",
    "mistakes": "autoplay:bench_mistakes",
    "pi-budget": "pi_budget:bench_pi_budget",
    "latency": "engines:bench_latency",
    "engines": "engines:bench_engines",
    "referee": "engines:bench_referee",
    "referee-search": "referee_search:bench_referee_search",
    "hub": "engines:bench_hub",
    "ai": "engines:bench_ai",
    "club": "club:bench_club",
}
"""Each bench's name and where it is: ``module:function`` in this room."""


def bench(name: str) -> Callable[[BenchOptions, Progress], BenchResult]:
    """The bench called ``name`` (its module imported now)."""
    module, _, function = BENCHES[name].partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)


def run_bench(name: str, options: BenchOptions | None = None,
              progress: Progress = lambda _: None) -> BenchResult:
    """Run the bench ``name`` with its own defaults where ``options`` gives none."""
    return bench(name)((options or BenchOptions()).resolved(name), progress)


def chosen_games(options: BenchOptions) -> list[Game[Any]]:
    """Every game, or those ``options.game`` names (none of them: a UserError)."""
    ids = chosen_ids(options, [game.id for game in all_games()])
    return [game for game in all_games() if game.id in ids]


def chosen_ids(options: BenchOptions, game_ids: Sequence[str]) -> list[str]:
    """Of ``game_ids``, those ``options.game`` names (all without it; none: a UserError)."""
    chosen = [game_id for game_id in game_ids if not options.game or game_id in options.game]
    if not chosen:
        raise UserError(f"no game matches {', '.join(options.game)}")
    return chosen
