"""A sixth game is one folder: copy the project, drop the toy game into ``games/``, touch
nothing else, and the generic suite and ``tabletop sim --autoplay`` pass for it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .conftest import GAMES_VARIABLE

ROOT = Path(__file__).resolve().parents[2]
TOY = Path(__file__).parent / "toy_game" / "pearl_divers"
SKIP = {".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", "node_modules"}


def project_files() -> list[str]:
    """The project's files as git knows them (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [name for name in listed.split("\0")
            if name and ((ROOT / name).is_file() or (ROOT / name).is_symlink())]


def copy_project(target: Path) -> None:
    if (ROOT / ".git").exists() and shutil.which("git"):
        for name in project_files():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            if (ROOT / name).is_symlink():  # hardware/firmware -> ../firmware
                os.symlink(os.readlink(ROOT / name), target / name)
            else:
                shutil.copy2(ROOT / name, target / name)
    else:  # an unpacked source tree
        shutil.copytree(ROOT, target, dirs_exist_ok=True,
                        ignore=lambda _, names: [n for n in names if n in SKIP])


def in_the_copy(copy: Path, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run Python in the copy with the copy's code first on the path (the venv's editable
    install points at the original checkout)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env.update(PYTHONPATH=str(copy), **{GAMES_VARIABLE: "pearl_divers"})
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_a_toy_game_folder_passes_the_generic_suite_and_autoplay(tmp_path: Path) -> None:
    copy = tmp_path / "project"
    copy_project(copy)
    assert not (copy / "games" / "pearl_divers").exists()
    shutil.copytree(TOY, copy / "games" / "pearl_divers",
                    ignore=shutil.ignore_patterns("__pycache__"))

    where = in_the_copy(copy, "-c", "import inspect; from games.registry import get_game; "
                        "print(inspect.getfile(type(get_game('pearl_divers'))))", timeout=30)
    assert Path(where.stdout.strip()).is_relative_to(copy / "games" / "pearl_divers"), where

    suite = in_the_copy(copy, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "tests/generic",
                        "--ignore=tests/generic/test_sixth_game.py", timeout=120)
    report = suite.stdout + suite.stderr
    assert suite.returncode == 0, report[-3000:]
    passed = {line.split("::")[-1] for line in report.splitlines()
              if line.startswith("PASSED ") and line.endswith("[pearl_divers]")}
    assert len(passed) >= 10, report[-3000:]
    assert "test_games_come_from_this_checkout[pearl_divers]" in passed

    autoplay = in_the_copy(copy, "-c", "import sys; from controller.cli import main; "
                           "sys.exit(main())", "sim", "--autoplay", "pearl_divers",
                           "--games", "1", timeout=60)
    assert autoplay.returncode == 0, autoplay.stderr[-3000:]
    summary = json.loads(autoplay.stdout)
    assert (summary["game"], summary["completed"]) == ("pearl_divers", 1)
    assert summary["scores_match"] and summary["records_match"]
