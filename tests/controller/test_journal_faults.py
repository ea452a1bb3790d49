"""The journal's disk full, its folder read-only, its file damaged (issue 20, findings 5, 6).

A full disk is SQLite's own SQLITE_FULL, made by ``PRAGMA max_page_count`` (the database may
not grow past its pages); raising the limit is freeing space. Damage is done to the bytes of a
real journal: truncated, emptied, zero-filled, a garbage header, a garbage page in the middle,
a directory in its place.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sqlite3
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.journal import (
    DAMAGED,
    Journal,
    JournalDamaged,
    JournalError,
    JournalFull,
)
from controller.journal_repair import check, recover
from controller.referee import NotRecorded
from controller.table import Table
from games.core.playout import random_playout
from games.registry import get_game

GAME = get_game("tiki_topple")
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
NO_LIMIT = 1_073_741_823


def stack_board(stack, pad=None):
    board = {f"stack:{i}": f"tiki:{t}" for i, t in enumerate(stack, start=1)}
    return {**board, "pad:play": pad} if pad else board


def fill(journal: Journal) -> None:
    """The disk is full: no page beyond those the journal has, and every page on the way of
    a new row full (rows of a finished game pad them until SQLite says SQLITE_FULL)."""
    db = journal._db
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    db.execute(f"PRAGMA max_page_count = {pages}")
    filler = journal.start(GAME.id, ["filler", "filler"], {})  # ends any active game...
    db.execute("UPDATE games SET status='aborted' WHERE id=?", (filler,))
    db.execute("UPDATE games SET status='active' WHERE id=(SELECT MAX(id) FROM games WHERE "
               "id<?)", (filler,))  # ...so the one under way is active again
    for size in (40, 8, 1):  # smaller and smaller rows fill what is left of the last pages
        with pytest.raises(JournalFull):
            for _ in range(10_000):
                journal.append(filler, "x" * size)


def free_space(journal: Journal) -> None:
    journal._db.execute(f"PRAGMA max_page_count = {NO_LIMIT}")


def played_journal(path: Path, games: int = 3) -> list[tuple[str, ...]]:
    """A real journal: ``games`` random games of Tiki Topple, the last still under way."""
    journal = Journal(path)
    played = []
    for seed in range(games):
        actions = random_playout(GAME, ["anna", "ben"], {}, random.Random(seed)).actions
        game_id = journal.start(GAME.id, ["anna", "ben"], {}, revision=GAME.revision)
        for action in actions:
            journal.append(game_id, action)
        if seed < games - 1:
            journal.end(game_id)
        played.append(tuple(actions))
    journal.close()
    return played


# -- a full disk -------------------------------------------------------------------------------
def test_a_full_disk_rolls_the_write_back_and_says_what_to_do(tmp_path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start(GAME.id, ["anna", "ben"], {})
    journal.append(game_id, "build a")
    fill(journal)
    with pytest.raises(JournalFull, match=f"free space on the disk of {tmp_path}") as full:
        journal.append(game_id, "mission 1")
    assert "\n" not in str(full.value)
    assert journal.get(game_id).actions == ("build a",)  # nothing half written
    free_space(journal)
    assert journal.append(game_id, "mission 1") == 1  # no gap in the sequence
    assert journal.get(game_id).actions == ("build a", "mission 1")


def test_a_full_disk_refuses_the_move_until_space_is_back_and_loses_nothing(tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    table = Table(GAME, Journal(path), random.Random(1))
    table.new_game(["anna", "ben"], {}, dealer="digital")
    table.observe(stack_board(STACK))
    before, state = list(table.actions), table.state
    fill(table.journal)
    moved = stack_board(("wikiwiki", "nani", *STACK[2:]), "card:red:up1")
    decision = table.observe(moved)  # anna's up1: legal, but the journal cannot take it
    assert isinstance(decision, NotRecorded)
    assert table.actions == before and table.state is state
    status = table.status()
    assert status.decision == "NotRecorded"
    assert "disk is full" in status.discrepancy.message
    assert "free space" in status.discrepancy.message
    assert "taken as soon as the journal can record it" in status.discrepancy.message
    roles = table.led_roles()
    assert {roles[site] for site in status.discrepancy.wrong_sites} == {"wrong"}
    assert set(status.discrepancy.wrong_sites) == {"stack:1", "stack:2", "pad:play"}
    assert isinstance(table.observe(moved), NotRecorded)  # judged again: still refused
    free_space(table.journal)
    table.observe(moved)  # the next judgement (the service retries) takes it
    assert table.actions == [*before, "up1 wikiwiki"]
    assert table.status().decision == "NoChange"
    table.journal.close()
    resumed = Table(GAME, Journal(path), random.Random(9))  # a restart replays everything
    resumed.resume(resumed.journal.active())
    assert resumed.actions == table.actions and resumed.state == table.state


def test_the_service_retries_by_itself_and_a_button_on_a_full_disk_is_only_logged(
        tmp_path, monkeypatch) -> None:
    from gpiozero.pins.mock import MockFactory

    from controller.compose import build_service, load_board
    from hardware.leds import RecordingStrip

    profile = load_board("tiki_topple")
    strip = RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order)
    service, registry = build_service(profile, tmp_path, urls=[str(tmp_path / "no-hub")],
                                      strip=strip, pin_factory=MockFactory(),
                                      rng=random.Random(1))
    for number, tiki in enumerate(STACK):
        registry.enroll(f"aabbcc{number:02x}", f"tiki:{tiki}")
    service.new_game(["anna", "ben"], {"edition": "gamewright"})
    fill(service.table.journal)
    service.tracker.snapshot({n: f"aabbcc{n:02x}" for n in range(9)}, now=0.0)
    service.hubs[0].seen = True
    service.judge()  # the stack built: the journal cannot record it
    status = service.status()
    assert status.decision == "NotRecorded" and status.moves == 0
    assert "disk is full" in status.discrepancy.message
    assert {service.roles[site] for site in status.discrepancy.wrong_sites} == {"wrong"}

    def undo(steps: int = 1) -> str:  # as any command that writes the journal meets it
        return str(service.table.journal.append(service.table.game_id, "x" * 40))

    monkeypatch.setattr(service.table, "undo", undo)
    assert service.press("undo").startswith("the journal's disk is full")  # logged, not raised
    free_space(service.table.journal)
    service.timing = dataclasses.replace(service.timing, journal_retry_ms=10)

    async def retry_once() -> None:
        task = asyncio.create_task(service._retry_journal())
        for _ in range(100):
            await asyncio.sleep(0.01)
            if service.table.actions:
                break
        task.cancel()

    asyncio.run(retry_once())
    assert service.table.actions[0] == "build " + " ".join(STACK)
    assert service.status().decision != "NotRecorded"


# -- a damaged journal -----------------------------------------------------------------------
def _root_page(path: Path, table: str) -> tuple[int, int]:
    db = sqlite3.connect(path)
    (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name=?", (table,)).fetchone()
    (size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    return root, size


def damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "emptied":
        path.write_bytes(b"")
    elif how == "zero-filled":
        path.write_bytes(bytes(len(data)))
    elif how == "garbage header":
        path.write_bytes(random.Random(1).randbytes(100) + data[100:])
    elif how == "garbage in the middle":  # the page the actions table starts from
        root, size = _root_page(path, "actions")
        start = (root - 1) * size
        path.write_bytes(data[:start] + random.Random(2).randbytes(size) + data[start + size:])
    elif how == "a directory":
        path.unlink()
        path.mkdir()


HOW = ["truncated", "emptied", "zero-filled", "garbage header", "garbage in the middle"]


@pytest.mark.parametrize("how", HOW)
def test_a_damaged_journal_is_set_aside_untouched_and_refused_in_one_line(tmp_path, how
                                                                          ) -> None:
    path = tmp_path / "journal.sqlite3"
    played_journal(path)
    damage(path, how)
    damaged = path.read_bytes()
    with pytest.raises(JournalDamaged) as refused:
        Journal(path)
    message = str(refused.value)
    assert "\n" not in message and "tabletop journal recover" in message
    aside = refused.value.aside
    assert aside is not None and aside.name.startswith(f"journal.sqlite3.{DAMAGED}")
    assert aside.read_bytes() == damaged  # kept as it was, byte for byte
    assert not path.exists()  # nothing left where it was, nothing written over it
    fresh = Journal(path)  # the next start begins a new journal, beside the damaged one
    assert fresh.games() == [] and aside.read_bytes() == damaged


def test_a_directory_in_the_journals_place_is_refused_and_left_alone(tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.mkdir()
    with pytest.raises(JournalError, match="is a directory, not a journal"):
        Journal(path)
    assert path.is_dir()


def test_a_new_journal_is_never_an_empty_file(tmp_path) -> None:
    """The service creates its journal under another name and renames it into place, so an
    empty file at the journal's path is one that lost its contents."""
    Journal(tmp_path / "journal.sqlite3").close()
    assert (tmp_path / "journal.sqlite3").stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3"]


def test_damage_found_while_running_is_a_journal_error_not_sqlites(tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    played_journal(path)
    journal = Journal(path)
    damage(path, "garbage in the middle")
    journal._db.execute("PRAGMA shrink_memory")  # nothing of the file left in its cache
    with pytest.raises(JournalDamaged, match="tabletop journal check"):
        journal.active()
    before = path.read_bytes()
    with pytest.raises(JournalDamaged):  # from now on nothing is written into it
        journal.append(1, "up1 nani")
    assert path.read_bytes() == before


def test_a_write_ahead_log_without_its_journal_is_kept_not_replayed_into_a_new_one(
        tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    wal = tmp_path / "journal.sqlite3-wal"
    wal.write_bytes(b"\x37\x7f\x06\x82" + bytes(200))  # the remains of a lost journal
    with pytest.raises(JournalDamaged, match="write-ahead log"):
        Journal(path)
    assert not path.exists() and wal.read_bytes()[:4] == b"\x37\x7f\x06\x82"


# -- the command line ------------------------------------------------------------------------
@pytest.fixture
def profile(tmp_path, cli) -> str:
    """A board profile with a recording LED strip and mock buttons (no Pi needed)."""
    path = tmp_path / "bench_table.toml"
    assert cli("profile", "new", "tiki_topple", "--output", str(path))[0] == 0
    text = path.read_text().replace('driver = "neopixel_spi"', 'driver = "recording"')
    path.write_text(text.replace('pin_factory = "lgpio"', 'pin_factory = "mock"'))
    return str(path)


@pytest.mark.parametrize("how", [*HOW, "a directory"])
def test_run_on_a_damaged_journal_exits_2_with_one_line(cli, tmp_path, profile, how
                                                        ) -> None:
    data = tmp_path / "data"
    data.mkdir()
    played_journal(data / "journal.sqlite3")
    damage(data / "journal.sqlite3", how)
    code, _, err = cli("run", "--profile", profile, "--data", str(data),
                       "--url", str(tmp_path / "no-hub"))
    assert code == 2
    line = err.strip().splitlines()[-1]  # above it: the table's new token, on a first run
    assert line.startswith("tabletop run: ") and "Traceback" not in err
    assert ("is a directory" if how == "a directory" else "tabletop journal recover") in line


def test_check_and_recover_save_a_journal_damaged_in_the_middle(cli, tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    played = played_journal(path)
    code, out, _ = cli("journal", "check", "--data", str(tmp_path))
    assert code == 0 and "sound" in out and "3 games (1 active)" in out
    assert f"{sum(map(len, played))} actions" in out
    damage(path, "garbage in the middle")
    damaged = path.read_bytes()
    code, out, _ = cli("journal", "check", "--data", str(tmp_path))
    assert code == 2 and "damaged" in out and "tabletop journal recover" in out
    code, out, err = cli("journal", "recover", "--data", str(tmp_path))
    assert code == 0, err
    assert "set the damaged journal aside" in out and "recovered with" in out
    assert f"wrote {path}: sound" in out
    aside = next(tmp_path.glob(f"journal.sqlite3.{DAMAGED}*[0-9]"))
    assert aside.read_bytes() == damaged
    recovered = Journal(path)  # the actions table's root page was lost: its rows are not
    games = recovered.games()
    assert [g.players for g in games] == [("anna", "ben")] * 3
    assert recovered.active() is None  # the game under way may lack actions: never resumed
    code, out, _ = cli("journal", "check", "--data", str(tmp_path))
    assert code == 0 and f"set aside: {aside.name}" in out


@pytest.mark.parametrize("shell", ["", None], ids=["python salvage", "sqlite3 shell if any"])
def test_recovery_keeps_every_row_it_can_read(tmp_path, shell) -> None:
    """Garbage over an index page: every row is still readable, and recovered; the game
    under way resumes where it was."""
    path = tmp_path / "journal.sqlite3"
    played = played_journal(path)
    root, size = _root_page(path, "sqlite_autoindex_actions_1")
    data = path.read_bytes()
    start = (root - 1) * size
    path.write_bytes(data[:start] + random.Random(3).randbytes(size) + data[start + size:])
    assert not check(path).sound
    done = recover(path, tmp_path / "recovered.sqlite3", shell=shell)
    assert done.health.sound and done.lost == []
    journal = Journal(tmp_path / "recovered.sqlite3")
    assert [g.actions for g in journal.games()] == played
    table = Table(GAME, journal)
    table.resume(journal.active())
    assert table.actions == list(played[-1])
    with pytest.raises(JournalError, match="exists"):
        recover(path, tmp_path / "recovered.sqlite3", shell=shell)  # never over a file


def test_recover_with_nothing_damaged_says_so(cli, tmp_path) -> None:
    played_journal(tmp_path / "journal.sqlite3", games=1)
    code, out, _ = cli("journal", "recover", "--data", str(tmp_path))
    assert code == 0 and out.startswith("nothing to recover")
    code, _, err = cli("journal", "check", "--data", str(tmp_path / "none"))
    assert code == 2 and "no journal at" in err


# -- a read-only data folder -------------------------------------------------------------------
def test_a_read_only_data_folder_is_one_line_and_exit_2(tmp_path, profile,
                                                        run_read_only) -> None:
    """Honestly read-only: a read-only bind mount (root ignores file modes), or without root
    a folder without write permission."""
    data = tmp_path / "data"
    data.mkdir()
    played_journal(data / "journal.sqlite3", games=1)
    assert main(["token", "--data", str(data)]) == 0  # the token exists: the journal is next
    command = [str(Path(sys.executable).with_name("tabletop")), "run", "--profile", profile,
               "--data", str(data), "--url", str(tmp_path / "no-hub")]
    done = run_read_only(data, command)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "read-only" in done.stderr and "give another --data folder" in done.stderr
