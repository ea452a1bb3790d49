"""The club's store: a result counts once, everything survives reopening, and a file that is
not a sound club store is refused with one line saying what to do (and left untouched)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from controller.club_messages import GameResult
from controller.club_store import (
    FILE_NAME,
    ClubStore,
    ClubStoreDamaged,
    ClubStoreError,
    ClubStoreFull,
    ClubStoreReadOnly,
    NotAClubStore,
    TableRow,
)


def result(uid: str, ended: float, **changes: object) -> GameResult:
    data = {"uid": uid, "table": "t1", "game": "topiary", "players": ["anna", "ben"],
            "scores": {"anna": 4, "ben": 6}, "winners": ["ben"], "started": ended - 60,
            "ended": ended, "moves": 12, **changes}
    return GameResult.model_validate(data)


def test_a_result_counts_once_and_everything_survives_reopening(tmp_path: Path) -> None:
    store = ClubStore.in_folder(tmp_path)
    assert store.add_result(result("b", 200.0), received=201.0)
    assert store.add_result(result("a", 100.0), received=202.0)
    assert not store.add_result(result("b", 999.0, scores={"anna": 9, "ben": 0}), 203.0)
    store.save_tables([TableRow("t1", "online", '{"x": 1}', 5.0)])
    store.save_tables([TableRow("t1", "offline", None, 6.0), TableRow("t2", "online", None, 7.0)])
    store.close()
    again = ClubStore.in_folder(tmp_path)
    stored = again.results()
    assert [r.uid for r in stored] == ["a", "b"]  # in the order they ended
    assert stored[1].scores == {"anna": 4, "ben": 6}  # the first one sent stays
    assert stored[1].received == 201.0 and stored[1].winners == ("ben",)
    assert [r.uid for r in again.results(since=150.0)] == ["b"]
    assert again.tables() == [TableRow("t1", "offline", None, 6.0),
                              TableRow("t2", "online", None, 7.0)]
    again.forget_table("t2")
    assert [row.name for row in again.tables()] == ["t1"]
    assert again.result_count() == 2
    mode = sqlite3.connect(tmp_path / FILE_NAME).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_damaged_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    junk = b"this was never a database " * 100
    path.write_bytes(junk)
    with pytest.raises(ClubStoreDamaged, match=r"club\.sqlite3 is damaged .*restore a copy"):
        ClubStore(path)
    assert path.read_bytes() == junk
    path.write_bytes(b"")
    with pytest.raises(ClubStoreDamaged, match="is empty"):
        ClubStore(path)


def test_another_programs_database_is_not_taken(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE games (id INTEGER)")
    other.commit()
    other.close()
    with pytest.raises(NotAClubStore, match="a --data folder of its own"):
        ClubStore(path)


def test_a_folder_in_its_place_or_a_missing_one_is_one_line(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).mkdir()
    with pytest.raises(ClubStoreError, match="is a directory"):
        ClubStore.in_folder(tmp_path)
    with pytest.raises(ClubStoreError, match="no such folder"):
        ClubStore(tmp_path / "nowhere" / FILE_NAME)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(ClubStoreReadOnly, match="read-only"):
            ClubStore.in_folder(folder)
    finally:
        folder.chmod(0o700)


def test_a_full_disk_stores_nothing_and_says_so(tmp_path: Path) -> None:
    store = ClubStore.in_folder(tmp_path)
    assert store.add_result(result("kept", 1.0), 1.0)
    (pages,) = store._db.execute("PRAGMA page_count").fetchone()
    store._db.execute(f"PRAGMA max_page_count={pages}")  # as a full disk: SQLITE_FULL
    crowd = [f"player-{n:04d}-" + "x" * 40 for n in range(200)]
    big = result("lost", 2.0, players=crowd, scores=dict.fromkeys(crowd, 1), winners=[])
    with pytest.raises(ClubStoreFull, match="is full: free space"):
        store.add_result(big, 2.0)
    assert [r.uid for r in store.results()] == ["kept"]
