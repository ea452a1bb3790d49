"""Every ```python and ```sh block in the docs runs as written, unless it says why not.

A block is skipped only when the line just above its opening fence is
``<!-- not run: <reason> -->`` (needs a Pi, starts a server until Ctrl-C, ...), so a doc cannot
drift from the code without either failing here or admitting it is not checked. Python blocks
run in a fresh interpreter, shell blocks under ``bash -e``; both from the project root, with the
venv's ``tabletop`` first on PATH and a scratch HOME and XDG_DATA_HOME.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
                *(ROOT / "docs" / "games").glob("*.md")])
RUNNABLE = {"python": "python", "py": "python", "sh": "sh", "bash": "sh", "shell": "sh"}
FENCE = re.compile(r"^```([\w-]*)\s*$")
MARKER = re.compile(r"^<!--\s*not run:\s*(\S.*?)\s*-->\s*$")
TIME_LIMIT = 60


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    language: str
    code: str
    not_run: str | None
    """The reason given in the marker above the block, if any."""

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks_in(text: str, page: str) -> list[Block]:
    """The runnable blocks of one Markdown text (other fences, e.g. ```text, are skipped)."""
    found: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        language = RUNNABLE.get(opening.group(1).lower())
        if language is not None:
            marker = MARKER.match(lines[index - 1]) if index > 0 else None
            found.append(Block(page, index + 1, language, "\n".join(lines[index + 1:end]) + "\n",
                               marker.group(1) if marker else None))
        index = end + 1
    return found


def all_blocks() -> list[Block]:
    return [block for path in PAGES
            for block in blocks_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]


def run_block(block: Block, scratch: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HOME=str(scratch), XDG_DATA_HOME=str(scratch / "data"),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env = {key: value for key, value in env.items() if not key.startswith("PYTEST_")}
    command = ([sys.executable, "-c", block.code] if block.language == "python"
               else ["bash", "-e", "-c", block.code])
    with subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                          start_new_session=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=TIME_LIMIT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # a server the block started goes too
            stdout, stderr = process.communicate()
            stderr += f"\n(still running after {TIME_LIMIT} s: killed)"
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


BLOCKS = all_blocks()


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.not_run is None],
                         ids=lambda b: b.id)
def test_block_runs(block: Block, tmp_path: Path) -> None:
    result = run_block(block, tmp_path)
    assert result.returncode == 0, (
        f"{block.id} ({block.language}) failed with exit code {result.returncode}:\n"
        f"{result.stdout[-2000:]}\n{result.stderr[-3000:]}")


def test_every_skipped_block_gives_a_reason() -> None:
    skipped = [b for b in BLOCKS if b.not_run is not None]
    assert all(len(b.not_run or "") >= 8 for b in skipped), [b.id for b in skipped]
    assert len(BLOCKS) - len(skipped) >= 10  # most examples really run


def test_the_checker_reads_markers_and_languages() -> None:
    text = ("```python\nprint(1)\n```\n"
            "<!-- not run: needs a Raspberry Pi -->\n```sh\ntabletop run\n```\n"
            "```text\nnot code\n```\n```bash\ntrue\n```\n")
    found = blocks_in(text, "x.md")
    assert [(b.language, b.line, b.not_run) for b in found] == [
        ("python", 1, None), ("sh", 5, "needs a Raspberry Pi"), ("sh", 11, None)]
    assert found[0].code == "print(1)\n"


def test_the_checker_catches_a_failing_block(tmp_path: Path) -> None:
    broken = blocks_in("```sh\ntabletop no-such-command\necho never\n```\n", "x.md")[0]
    assert run_block(broken, tmp_path).returncode != 0
    wrong = blocks_in("```python\nfrom games.registry import get_game\n"
                      "get_game('no_such_game')\n```\n", "x.md")[0]
    result = run_block(wrong, tmp_path)
    assert result.returncode != 0 and "no_such_game" in result.stderr
