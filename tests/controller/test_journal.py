"""The journal keeps every accepted action across restarts; undo marks, never deletes."""

from __future__ import annotations

import random
import sqlite3

import pytest

from controller.journal import Journal, JournalError
from games.core.playout import random_playout
from games.registry import get_game


def test_actions_survive_a_reopen_in_order(tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    game_id = journal.start("tiki_topple", ["anna", "ben"], {"edition": "schmidt"})
    for action in ["build a", "mission 1", "up1 nani"]:
        journal.append(game_id, action)
    journal.close()  # no explicit flush: every append was its own committed transaction
    again = Journal(path)
    stored = again.active()
    assert stored is not None and stored.id == game_id
    assert stored.actions == ("build a", "mission 1", "up1 nani")
    assert stored.players == ("anna", "ben") and stored.options == {"edition": "schmidt"}
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_take_back_marks_and_the_record_follows(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    game_id = journal.start("tiki_topple", ["anna", "ben"], {})
    for action in ["a", "b", "c", "d"]:
        journal.append(game_id, action)
    assert journal.take_back(game_id, 2) == ["d", "c"]
    journal.append(game_id, "e")
    stored = journal.get(game_id)
    assert stored is not None and stored.actions == ("a", "b", "e")
    kept = journal._db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert kept == 5  # nothing deleted


def test_a_new_game_ends_the_old_one_and_exports_replay_records(tmp_path) -> None:
    game = get_game("tiki_topple")
    played = random_playout(game, ["anna", "ben"], {}, random.Random(3))
    journal = Journal(tmp_path / "j.sqlite3")
    first = journal.start("tiki_topple", ["anna", "ben"], {})
    for action in played.actions:
        journal.append(first, action)
    second = journal.start("tiki_topple", ["cleo", "dan"], {})
    assert journal.active().id == second
    games = journal.games()
    assert [(g.id, g.status) for g in games] == [(first, "aborted"), (second, "active")]
    record = games[0].record()
    state = game.initial(record["players"], record["options"])
    for action in record["actions"]:
        state = game.apply(state, action)
    assert state == played.final
    journal.end(second)
    assert journal.active() is None


def test_a_file_that_is_not_a_journal_is_refused(tmp_path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="is damaged"):
        Journal(path)


def test_a_game_keeps_the_rules_revision_it_started_under(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    old = journal.start("trapper", ["anna", "ben"], {}, revision=1)
    new = journal.start("trapper", ["anna", "ben"], {"placement": "choose"}, revision=2)
    assert journal.get(old).revision == 1 and journal.get(new).revision == 2
    assert journal.get(new).record() == {"game": "trapper", "players": ["anna", "ben"],
                                         "options": {"placement": "choose"}, "revision": 2,
                                         "actions": []}


def test_a_journal_from_before_choice_tiles_upgrades_itself(tmp_path) -> None:
    """Its actions had no ``shown`` column: they were all made without a tile on the choice
    site, and a new action records one."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
            options TEXT NOT NULL, status TEXT NOT NULL, started REAL NOT NULL, ended REAL);
        CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT
            NULL, action TEXT NOT NULL, at REAL NOT NULL, undone_at REAL, guess TEXT,
            step INTEGER, PRIMARY KEY (game_id, seq));
        INSERT INTO games (game, players, options, status, started)
            VALUES ('topiary', '["anna", "ben", "cleo"]', '{}', 'active', 0);
        INSERT INTO actions (game_id, seq, action, at, step) VALUES (1, 0, 'remove swan', 0, 0);
    """)
    db.close()
    journal = Journal(path)
    stored = journal.active()
    assert stored is not None and stored.actions == ("remove swan",) and stored.shown is None
    journal.append(stored.id, "lay 1", shown="topiary:swan:4")
    assert journal.get(stored.id).shown == "topiary:swan:4"


def test_a_journal_from_before_revisions_upgrades_itself(tmp_path) -> None:
    """The games table of the first journals had no revision column: theirs is 1."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL,
            options TEXT NOT NULL, status TEXT NOT NULL, started REAL NOT NULL, ended REAL);
        INSERT INTO games (game, players, options, status, started)
            VALUES ('trapper', '["anna", "ben"]', '{}', 'active', 0);
    """)
    db.close()
    journal = Journal(path)
    stored = journal.active()
    assert stored is not None and stored.revision == 1 and stored.record()["revision"] == 1
    newer = journal.start("trapper", ["anna", "ben"], {}, revision=2)
    assert journal.get(newer).revision == 2
