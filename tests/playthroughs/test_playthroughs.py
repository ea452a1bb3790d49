"""Golden playthroughs: a seeded game of every game, player-count extreme and option, as text.

A change to the rules (or to a step sentence, a board or a score line) fails here with a diff
to read. When the change is meant: ``UPDATE_PLAYTHROUGHS=1 pytest tests/playthroughs``
(or ``tabletop playthrough --write tests/playthroughs``), and commit the new files with it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from games.core.playthrough import Setup, playthrough, setups
from games.registry import all_games, get_game

HERE = Path(__file__).parent
UPDATE = os.environ.get("UPDATE_PLAYTHROUGHS") == "1"
CASES = [(game.id, setup) for game in all_games() for setup in setups(game)]


def golden(setup: Setup) -> Path:
    return HERE / setup.game_id / f"{setup.name}.txt"


def difference(expected: str, actual: str, name: str, lines: int = 40) -> str:
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                     f"{name} (checked in)", f"{name} (now)", lineterm=""))
    return "\n".join(diff[:lines])


@pytest.mark.parametrize(("game_id", "setup"), CASES, ids=[f"{g}/{s.name}" for g, s in CASES])
def test_the_playthrough_matches_its_golden_file(game_id: str, setup: Setup) -> None:
    actual = playthrough(get_game(game_id), setup)
    path = golden(setup)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: run UPDATE_PLAYTHROUGHS=1 pytest {HERE}"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, (
        f"{path.relative_to(HERE)} differs; if the change is meant, run "
        f"UPDATE_PLAYTHROUGHS=1 pytest tests/playthroughs\n"
        + difference(expected, actual, path.name))


def test_every_golden_file_belongs_to_a_playthrough() -> None:
    """A game or option that went away leaves no stale file behind."""
    wanted = {golden(setup) for _, setup in CASES}
    assert set(HERE.glob("*/*.txt")) == wanted


def test_a_rule_change_shows_as_a_readable_diff(monkeypatch) -> None:
    game = get_game("tiki_topple")
    setup = setups(game)[0]
    expected = golden(setup).read_text(encoding="utf-8")
    honest = type(game).score

    def one_point_more(self, state):  # a "rule change": every player scores one more
        sheet = honest(self, state)
        return type(sheet)(sheet.players, tuple(t + 1 for t in sheet.totals), sheet.lines)

    monkeypatch.setattr(type(game), "score", one_point_more)
    changed = playthrough(game, setup)
    diff = difference(expected, changed, golden(setup).name)
    assert changed != expected
    assert "-  score p1 0, p2 0" in diff and "+  score p1 1, p2 1" in diff


def test_the_same_seed_gives_the_same_text() -> None:
    game = get_game("topiary")
    setup = Setup("topiary", 3, {"draft": "on"}, seed=9)
    assert playthrough(game, setup) == playthrough(game, setup)
    assert playthrough(game, setup) != playthrough(game, Setup("topiary", 3, {"draft": "on"}, 8))
