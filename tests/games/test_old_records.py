"""Records written by earlier versions keep replaying to the same end.

``tests/games/records/`` holds game records (the format of ``tabletop games export`` and
``tabletop replay``) written once, on the date in their ``written_by``, with the score and
winners that version computed. They are never regenerated: a change that stops one replaying,
or changes its score, breaks a record somebody keeps, and must come with a way to read it:
a rule change (``Game.rule_changes``) names the option value that keeps the old reading, and a
record replays under the rules revision it names (none: revision 1). The ``-revisionN`` records
were written at that revision (On Top's revision 2, before its neutral stones).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
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
    revision = record.get("revision", 1)  # none: written before revisions
    assert path.stem.endswith(f"-revision{revision}") == ("revision" in record)
    state = game.initial(record["players"], game.options_at(record["options"], revision))
    for action in record["actions"]:
        state = game.apply(state, action)
    assert game.is_terminal(state)
    renamed = game.renamed()
    assert _comparable(game.score(state).to_json(), renamed) == _renamed(record["score"], renamed)
    assert [record["players"][seat] for seat in game.winners(state)] == record["winners"]


def _renamed(score: dict, renamed: Mapping[str, str]) -> dict:
    """The score of a kept record with the words renamed since (a shape given its box name):
    the same lines with the same points (in the order of today's names)."""
    if not renamed:
        return score
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, renamed)) + r")\b")
    return {"scores": score["scores"],
            "lines": {name: sorted(pattern.sub(lambda m: renamed[m.group(1)], line)
                                   for line in lines)
                      for name, lines in score["lines"].items()}}


def _comparable(score: dict, renamed: Mapping[str, str]) -> dict:
    if not renamed:
        return score
    return {"scores": score["scores"],
            "lines": {name: sorted(lines) for name, lines in score["lines"].items()}}


@pytest.mark.parametrize("stem", ["topiary-4p", "trapper-4p", "on_top-3p-revision2"])
def test_the_replay_command_reads_a_kept_record(stem: str, capsys) -> None:
    path = next(p for p in RECORDS if p.stem == stem)
    assert main(["replay", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    game = get_game(stem.split("-")[0])
    assert result["finished"]
    renamed = game.renamed()
    assert _comparable(result["score"], renamed) == _renamed(json.loads(path.read_text())["score"],
                                                             renamed)


def test_a_record_names_its_rules_revision(tmp_path, capsys) -> None:
    """The same Trapper actions read under today's rules end elsewhere: the revision matters,
    and one the engine does not know is refused with one line."""
    record = json.loads(next(p for p in RECORDS if p.stem == "trapper-2p").read_text())
    path = tmp_path / "today.json"
    path.write_text(json.dumps({**record, "revision": get_game("trapper").revision}))
    assert main(["replay", str(path)]) == 0
    today = json.loads(capsys.readouterr().out)
    assert (today["finished"], today["score"]) != (True, record["score"])
    path.write_text(json.dumps({**record, "revision": 7}))
    assert main(["replay", str(path)]) == 2
    assert "knows rules revisions 1 to 2, not 7" in capsys.readouterr().err


def test_on_top_records_of_revision_2_had_no_neutral_stones() -> None:
    """Read as today's rules (neutral stones with three players), the same actions no longer
    end as they ended at the table."""
    record = json.loads(next(p for p in RECORDS if p.stem == "on_top-3p-revision2").read_text())
    game = get_game("on_top")
    state = game.initial(record["players"], record["options"])
    replayed = 0
    for action in record["actions"]:
        if game.is_terminal(state) or action not in game.legal_actions(state):
            break  # a tower the old rules built is not called for (or another is)
        state = game.apply(state, action)
        replayed += 1
    assert replayed < len(record["actions"]) or game.score(state).to_json() != record["score"]
