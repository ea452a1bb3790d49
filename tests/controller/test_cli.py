"""The ``tabletop`` command on good and bad input: exit 0, or 2 with one line, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from games.registry import get_game

TIKI = get_game("tiki_topple")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse's own exits (usage errors, --help)
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: object, name: str = "input.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_games_lists_every_registered_game(capsys) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert "tiki_topple" in out and "Tiki Topple" in out and "2-4 players" in out
    code, out, _ = run(capsys, "games", "--json")
    editions = ["schmidt", "gamewright", "gamewright_all_cards"]
    assert {"id": "tiki_topple", "name": "Tiki Topple", "players": "2-4",
            "options": {"edition": editions, "missions": ["sheet", "revision1"],
                        "end": ["rounds", "35_points"]}} in json.loads(out)


def test_score_prints_points_lines_and_winners(capsys, tmp_path) -> None:
    position = {
        "stack": ["wikiwiki", "lokahi", "nani", "hookipa", "kapu"],
        "missions": {"anna": ["lokahi", "wikiwiki", "hookipa"], "ben": ["wikiwiki", "nui", "kapu"]},
    }
    code, out, _ = run(capsys, "score", "tiki_topple", write(tmp_path, position))
    assert code == 0
    result = json.loads(out)
    assert result["scores"] == {"anna": 5, "ben": 9}
    assert result["winners"] == ["ben"]
    assert result["lines"]["ben"] == [
        "wikiwiki at 1 (needs top 1): 9, nui toasted (needs top 2): 0, kapu at 5 (needs top 3): 0"
        " = 9"
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "chess", "{file}"], "no game 'chess'; known games: "),
        (["score", "tiki_topple", "/no/such/file.json"], "no such file"),
        (["score", "tiki_topple", "{bad_json}"], "not valid JSON (line 1"),
        (["score", "tiki_topple", "{file}"], "unknown tiki 'bob'"),
        (["playout", "tiki_topple", "--players", "5"], "2 to 4 players, not 5"),
        (["playout", "tiki_topple", "--players", "2", "--games", "0"], "at least 1"),
        (["playout", "tiki_topple", "--players", "2", "--option", "edition"], "NAME=VALUE"),
        (["playout", "tiki_topple", "--players", "2", "--option", "edition=x"], "must be one of"),
        (["playout", "tiki_topple"], "the following arguments are required: --players"),
        (["play", "tiki_topple", "--players", "anna,ben", "--bots", "cleo"], "not in --players"),
        (["play", "tiki_topple", "--players", "anna,,ben"], "separated by commas"),
        (["play", "tiki_topple", "--players", "anna,ben", "--ai", "cleo"], "not among the players"),
        (["play", "tiki_topple", "--players", "anna,ben", "--ai", "ben:lots"], "simulations"),
        (["play", "tiki_topple", "--players", "anna,ben", "--ai", "ben", "--bots", "ben"],
         "either a random bot or the AI"),
        (["sim", "--autoplay", "topiary", "--ai", "zed"], "not among the players"),
        (["bench", "ai", "--games", "0"], "at least 1"),
        (["bench", "nothing"], "invalid choice"),
        (["bench", "engines", "--game", "chess", "--seconds", "0.01"], "no game matches chess"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, argv, message) -> None:
    files = {
        "{file}": write(tmp_path, {"stack": ["bob", "nui", "eepo"], "missions": {"a": []}}),
        "{bad_json}": write(tmp_path, '{"stack": [', "bad.json"),
    }
    code, out, err = run(capsys, *[files.get(arg, arg) for arg in argv])
    assert code == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_playout_summarises_seeded_games(capsys) -> None:
    argv = ["playout", "tiki_topple", "--players", "3", "--games", "40", "--seed", "5"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 40 and summary["players"] == 3
    assert summary["moves"] > 40 * 50
    assert summary["games_per_second"] > 0
    assert set(summary["mean_score"]) == {"p1", "p2", "p3"}
    assert abs(sum(summary["win_share"].values()) - 1) < 0.01
    _, again, _ = run(capsys, *argv)
    assert json.loads(again)["mean_score"] == summary["mean_score"]  # the seed decides


def record_of_a_game(seed: int = 11) -> dict:
    import random

    from games.core.playout import random_playout

    result = random_playout(TIKI, ["anna", "ben"], {"edition": "schmidt"}, random.Random(seed))
    return {"game": "tiki_topple", "players": ["anna", "ben"], "options": {"edition": "schmidt"},
            "revision": TIKI.revision, "actions": list(result.actions)}, result


def test_replay_reaches_the_same_end(capsys, tmp_path) -> None:
    record, result = record_of_a_game()
    code, out, _ = run(capsys, "replay", write(tmp_path, record))
    assert code == 0
    replayed = json.loads(out)
    assert replayed["finished"] is True
    assert replayed["score"] == TIKI.score(result.final).to_json()
    assert replayed["winners"] == [["anna", "ben"][s] for s in TIKI.winners(result.final)]
    assert replayed["view"] == TIKI.view(result.final, None)


def test_replay_stops_at_an_illegal_action_with_its_index(capsys, tmp_path) -> None:
    record, _ = record_of_a_game()
    first_card = next(i for i, a in enumerate(record["actions"]) if not a.startswith(
        ("build", "mission", "aside")))
    record["actions"][first_card] = "toast"
    code, _, err = run(capsys, "replay", write(tmp_path, record))
    assert code == 2
    assert f"action {first_card} 'toast' is illegal: toast may not be a player's first card" in err
    record["actions"] = "up1 nani"
    code, _, err = run(capsys, "replay", write(tmp_path, record))
    assert code == 2 and "'actions' as a JSON list" in err


def test_play_against_a_bot_to_the_end(capsys, monkeypatch) -> None:
    answers = ["up3 nani", "moves", "999"] + ["1"] * 400
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))
    code, out, _ = run(capsys, "play", "tiki_topple", "--players", "anna,ben", "--bots", "ben",
                       "--seed", "4")
    assert code == 0
    assert "your hand:" in out
    assert "up3 moves a tiki 3 places up in full" in out or "no up3" in out or "toasted" in out
    assert "pick a number from 1 to" in out
    assert "ben (bot):" in out
    assert "winner" in out.splitlines()[-1]


def test_play_can_be_left(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "tiki_topple", "--players", "anna,ben")
    assert code == 0
    assert out.splitlines()[-1] == "game abandoned"


def test_play_against_the_ai_with_a_hint(capsys, monkeypatch) -> None:
    pytest.importorskip("pyspiel", reason="the AI needs OpenSpiel: pip install '.[ai]'")
    answers = ["hint", "moves"] + ["1"] * 400
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(answers) + "\n"))
    code, out, _ = run(capsys, "play", "tiki_topple", "--players", "anna,ben", "--ai", "ben:8",
                       "--option", "edition=gamewright", "--seed", "4")
    assert code == 0
    assert "the AI would play:" in out
    assert "ben (AI):" in out
    assert "winner" in out.splitlines()[-1]


def test_bench_ai_plays_the_ai_against_random_players(capsys) -> None:
    pytest.importorskip("pyspiel", reason="the AI needs OpenSpiel: pip install '.[ai]'")
    code, out, _ = run(capsys, "bench", "ai", "--game", "topiary", "--games", "2",
                       "--simulations", "4", "--jobs", "1", "--json")
    assert code == 0
    row = json.loads(out)["ai"]["topiary"]
    assert row["games"] == 2 and row["players"] == 2 and row["simulations"] == 4
    assert 0.0 <= row["ai_win_share"] <= 1.0 and row["fair_share"] == 0.5
    assert row["decisions"] > 0 and row["think_s_max"] >= row["think_s_p50"] > 0


def test_bench_engines_prints_a_table_and_json(capsys) -> None:
    code, out, _ = run(capsys, "bench", "engines", "--seconds", "0.05")
    assert code == 0
    assert "games/s" in out and "tiki_topple" in out
    code, out, _ = run(capsys, "bench", "engines", "--seconds", "0.05", "--json",
                       "--game", "tiki_topple")
    figures = json.loads(out)
    assert figures["engines"]["tiki_topple"]["players"] == 4
    assert figures["engines"]["tiki_topple"]["games_per_second"] > 0


def test_the_installed_command_runs_without_a_traceback(tmp_path) -> None:
    command = Path(sys.executable).with_name("tabletop")
    ok = subprocess.run([command, "games"], capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and "tiki_topple" in ok.stdout
    bad = subprocess.run([command, "score", "tiki_topple", str(tmp_path / "none.json")],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2
    assert bad.stderr.strip() == f"tabletop score: {tmp_path / 'none.json'}: no such file"


def test_stored_games_are_listed_shown_and_exported(capsys, tmp_path) -> None:
    from controller.journal import Journal

    record, result = record_of_a_game(seed=2)
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start("tiki_topple", record["players"], record["options"],
                            revision=TIKI.revision)
    for action in record["actions"]:
        journal.append(game_id, action)
    journal.end(game_id)
    code, out, _ = run(capsys, "games", "list", "--data", str(tmp_path))
    assert code == 0 and "tiki_topple" in out and "finished" in out and "anna, ben" in out
    code, out, _ = run(capsys, "games", "show", "--data", str(tmp_path), str(game_id))
    assert json.loads(out)["actions"] == record["actions"]
    exported = tmp_path / "record.json"
    code, _, _ = run(capsys, "games", "export", "--data", str(tmp_path), str(game_id),
                     "-o", str(exported))
    assert code == 0
    code, out, _ = run(capsys, "replay", str(exported))
    assert json.loads(out)["score"] == TIKI.score(result.final).to_json()
    code, _, err = run(capsys, "games", "show", "--data", str(tmp_path), "99")
    assert code == 2 and "no stored game 99" in err
    code, _, err = run(capsys, "games", "list", "--data", str(tmp_path / "empty"))
    assert code == 2 and "no journal" in err


def test_run_starts_a_game_with_options_and_refuses_bad_ones(capsys, tmp_path) -> None:
    profile = tmp_path / "bench_table.toml"
    code, _, _ = run(capsys, "profile", "new", "tiki_topple", "--output", str(profile))
    assert code == 0
    text = profile.read_text().replace('driver = "neopixel_spi"', 'driver = "recording"')
    profile.write_text(text.replace('pin_factory = "lgpio"', 'pin_factory = "mock"'))
    code, _, err = run(capsys, "run", "--profile", str(profile), "--data", str(tmp_path),
                       "--url", str(tmp_path / "no-hub"), "--players", "anna,ben",
                       "--option", "edition=nope")
    assert code == 2 and "option edition must be one of" in err
    from controller.journal import Journal

    assert Journal(tmp_path / "journal.sqlite3").games() == []  # refused before anything


def test_run_takes_each_hubs_port_by_name() -> None:
    from controller.compose import hub_urls, load_board
    from controller.errors import UserError

    one, six = load_board("tiki_topple"), load_board("on_top")
    assert hub_urls(one, ["/dev/ttyACM0"]) == ["/dev/ttyACM0"]
    assert hub_urls(one, ["hub=/dev/ttyACM1"]) == ["/dev/ttyACM1"]
    ports = hub_urls(six, ["hub2=/dev/ttyACM7"])
    assert ports[1] == "/dev/ttyACM7" and ports[0] == six.hubs[0].url and len(ports) == 6
    with pytest.raises(UserError, match="give HUB=PORT with a hub of the profile"):
        hub_urls(six, ["/dev/ttyACM0"])  # which of the six?
    with pytest.raises(UserError, match="hub1, hub2"):
        hub_urls(six, ["hub9=/dev/ttyACM0"])


@pytest.mark.parametrize("argv", [["games"], ["playout", "tiki_topple", "--players", "2",
                                            "--games", "20"], ["profile", "new", "topiary"]])
def test_a_closed_pipe_ends_the_command_quietly(argv: list[str]) -> None:
    """As in ``tabletop games | head -0``: the reader is gone before the first write."""
    command = Path(sys.executable).with_name("tabletop")
    process = subprocess.Popen([command, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.close()
    _, stderr = process.communicate(timeout=120)
    assert stderr == b"", stderr.decode()[-500:]
    assert process.returncode == 141  # what a Unix tool killed by SIGPIPE reports


def test_hardware_errors_are_one_line_with_exit_code_two(capsys, tmp_path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("name = 'x\n")
    code, _, err = run(capsys, "run", "--profile", str(broken))
    assert code == 2 and err.startswith("tabletop run: broken.toml: not valid TOML")
    assert len(err.strip().splitlines()) == 1


def test_bench_hub_prints_the_scan_per_game(capsys) -> None:
    code, out, _ = run(capsys, "bench", "hub", "--seconds", "0.05")
    assert code == 0 and "field classes" in out and "hanging_gardens" in out
    code, out, _ = run(capsys, "bench", "hub", "--seconds", "0.05", "--json")
    figures = json.loads(out)
    games = {row["game"]: row for row in figures["games"]}
    assert set(games) == {"hanging_gardens", "on_top", "tiki_topple", "topiary", "trapper"}
    keys = {"game", "readers", "hubs", "field_classes", "scan_ms", "worst_seen_ms",
            "field_ma", "peak_ma"}
    assert all(keys <= set(row) for row in games.values())
    assert games["hanging_gardens"]["readers"] == 235 and games["tiki_topple"]["readers"] == 11
    for row in games.values():
        assert row["worst_seen_ms"] > row["scan_ms"] > 0
        assert row["peak_ma"] >= row["field_ma"] > 0
    assert figures["decoded_frames_per_second"] > 0


@pytest.mark.parametrize("game", ["tiki_topple", "hanging_gardens"])
def test_profile_schedule_prints_field_classes_the_firmware_takes(capsys, game: str) -> None:
    from games.registry import get_game
    from hardware.field_schedule import clashes, reader_layout
    from hardware.profile import find_profile, load_profile
    from simulator.firmware_runtime import load_firmware

    code, out, _ = run(capsys, "profile", "schedule", game)
    assert code == 0
    board = load_profile(find_profile(game))
    parts = out.split("# hub ")[1:] or [out]  # one part per hub of a board with several
    assert len(parts) == len(board.hubs) == (1 if game == "tiki_topple" else 6)
    slots: list[list[int]] = []  # per slot, the profile's readers of every hub
    for hub, part in zip(board.hubs, parts, strict=True):
        settings: dict[str, object] = {}
        exec(part.split("\n", 1)[1] if len(parts) > 1 else part, settings)  # config.py lines
        classes = settings["FIELD_CLASSES"]
        assert load_firmware().hub.check_schedule(classes, len(hub.readers)) == classes
        assert settings["POWER_UP_MS"] == 5
        assert all(len(members) <= board.radio.max_fields_on for members in classes)
        slots = slots or [[] for _ in classes]
        for slot, members in zip(slots, classes, strict=True):  # same slot count on every hub
            slot += [hub.readers[n] for n in members]
    rules = get_game(game)
    where = {s.id: (s.x, s.y) for n in range(rules.min_players, rules.max_players + 1)
             for s in rules.sites(n)}
    positions = reader_layout(board.readers, where, board.radio)
    placed = tuple(tuple(r for r in members if r in positions) for members in slots)
    assert not clashes(placed, positions, board.radio)  # not even across hubs


# -- bench referee-search: players dealing from the box (figures, never timed asserts) --

def test_bench_referee_search_reports_the_searches_and_the_score_of_a_dealt_game(
        capsys) -> None:
    code, out, _ = run(capsys, "bench", "referee-search", "--game", "tiki_topple",
                       "--games", "1", "--json")
    assert code == 0
    figures = json.loads(out)
    assert figures["bench"] == "referee-search" and figures["games"] == 1
    assert list(figures["referee_search"]) == ["tiki_topple"]
    row = figures["referee_search"]["tiki_topple"]
    assert row["players"] == 3 and row["games"] == 1 and row["completed"] == 1
    assert row["failures"] == [] and row["score_mismatch_seeds"] == []
    assert row["service_draws"] == 0 and row["scores_matched"] == 1
    assert row["steps"] > 0 and row["unseen_draws"] > 0 and row["reveals"] > 0
    assert row["searches"] > 0 and row["searches_gave_up"] == 0
    assert 0 < row["search_applies_p50"] <= row["search_applies_p95"] <= row[
        "search_applies_max"] <= row["search_budget"]
    assert 0 < row["search_ms_p50"] <= row["search_ms_p95"] <= row["search_ms_max"]
    assert 0 < row["step_ms_p50"] <= row["step_ms_p95"] <= row["step_ms_max"]


def test_bench_referee_search_prints_a_table(capsys) -> None:
    code, out, _ = run(capsys, "bench", "referee-search", "--game", "tiki_topple",
                       "--games", "1")
    assert code == 0
    assert "applies p50" in out and "service draws" in out
    assert out.splitlines()[-1].split()[0] == "tiki_topple"


def test_bench_referee_search_refuses_an_unknown_game(capsys) -> None:
    code, _, err = run(capsys, "bench", "referee-search", "--game", "chess")
    assert code == 2 and "no game matches chess" in err


def test_an_autoplay_whose_record_differs_says_where_first(tmp_path: Path) -> None:
    """``first_difference``: an unseen draw (``?``) agrees with any draw; the first action that
    differs, or a record that stops short, is named with the actions around it."""
    import random

    from controller.cli.virtual.autoplay import first_difference
    from controller.journal import Journal
    from controller.table import Table

    table = Table(get_game("trapper"), Journal(tmp_path / "journal.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben"], {})
    while "pass" not in table.game.legal_actions(table.state):
        table.observe(table.successors.changing[0].board)
    table.observe(next(step for step in table.successors.changing
                       if step.action == "pass").board)
    truth = [guess if known == "?" else known
             for known, guess in zip(table.actions, table.history.actions, strict=True)]
    assert "?" in table.actions and first_difference(table, truth) is None
    assert truth[-3] == "pass" and table.actions[-2:] == ["?", "?"]  # the pass draws two
    found = first_difference(table, [*truth[:-3], "retire"])
    assert found is not None and found["index"] == len(truth) - 3
    assert found["table"][-3:] == ["pass", "?", "?"] and found["bots"][-1] == "retire"
    assert first_difference(table, [*truth, "done"])["index"] == len(truth)  # stops short
