"""`tabletop enroll`: registry import/export, user errors, and a real run over a pty."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from controller.cli import main
from hardware.registry import TagRegistry

LOKAHI = bytes.fromhex("04000001")


def test_export_and_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "tags.sqlite3"
    with TagRegistry(db) as registry:
        registry.enroll(LOKAHI, "tiki:lokahi")
    shared = tmp_path / "club.json"
    args = ["enroll", "--profile", "tiki_topple", "--registry", str(db)]
    assert main([*args, "--export", str(shared)]) == 0
    assert json.loads(shared.read_text())["tags"] == [{"uid": "04000001", "piece": "tiki:lokahi"}]
    other = tmp_path / "other.sqlite3"
    assert main(["enroll", "--profile", "tiki_topple", "--registry", str(other),
                 "--import", str(shared)]) == 0
    assert "1 added" in capsys.readouterr().out
    with TagRegistry(other) as registry:
        assert registry.lookup(LOKAHI) == "tiki:lokahi"


def test_user_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "t.sqlite3")
    assert main(["enroll", "--profile", "no_such_board", "--registry", db]) == 2
    assert "no profile 'no_such_board'" in capsys.readouterr().err
    assert main(["enroll", "--profile", "tiki_topple", "--registry", db,
                 "--piece", "tiki:nobody"]) == 2
    assert "not a piece of this game: tiki:nobody" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["enroll", "--profile", "tiki_topple", "--registry", db,
                 "--import", str(bad)]) == 2
    assert "not a tag file" in capsys.readouterr().err
    assert main(["enroll", "--profile", "tiki_topple", "--registry", db,
                 "--port", str(tmp_path / "no-tty"), "--wait", "0.3"]) == 2
    assert "no hub at" in capsys.readouterr().err


def test_enrolls_one_piece_through_a_hub(
    fake_hub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def person() -> None:  # waits for the prompt, then lays and lifts the tag
        for _ in range(300):
            if any(type(c).__name__ == "RequestSnapshot" for c in fake_hub.commands):
                break
            time.sleep(0.01)
        time.sleep(0.1)
        fake_hub.lay(2, LOKAHI)
        time.sleep(0.5)
        fake_hub.lift(2)

    helper = threading.Thread(target=person, daemon=True)
    helper.start()
    db = tmp_path / "t.sqlite3"
    code = main(["enroll", "--profile", "tiki_topple", "--registry", str(db),
                 "--port", fake_hub.url, "--piece", "tiki:lokahi", "--reads", "3"])
    helper.join(3)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "[1/1] lay tiki:lokahi on any reader" in out
    assert "stored: tag 04000001 on reader 2 is tiki:lokahi" in out
    with TagRegistry(db) as registry:
        assert registry.all() == {"04000001": "tiki:lokahi"}
