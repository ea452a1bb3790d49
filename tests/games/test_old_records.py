"""Records written by earlier versions keep replaying to the same end.

``tests/games/records/`` holds game records (the format of ``tabletop games export`` and
``tabletop replay``) written once, on the date in their ``written_by``, with the score and
winners that version computed. They are never regenerated: a change that stops one replaying,
or changes its score, breaks a record somebody keeps, and must come with a way to read it
(a new option value keeping the old reading, as Tiki Topple's ``gamewright_all_cards`` does).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from games.registry import all_games, get_game

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


def test_every_game_has_kept_records() -> None:
    assert {json.loads(p.read_text())["game"] for p in RECORDS} >= {g.id for g in all_games()}


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_kept_record_replays_to_the_same_score(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    game = get_game(record["game"])
    state = game.initial(record["players"], record["options"])
    for action in record["actions"]:
        state = game.apply(state, action)
    assert game.is_terminal(state)
    assert game.score(state).to_json() == record["score"]
    assert [record["players"][seat] for seat in game.winners(state)] == record["winners"]


def test_the_replay_command_reads_a_kept_record(capsys) -> None:
    path = next(p for p in RECORDS if p.stem == "topiary-4p")
    assert main(["replay", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] and result["score"] == json.loads(path.read_text())["score"]
