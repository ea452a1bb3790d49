"""docs/ai.md's Python examples and the AI modules' doctests run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install '.[ai]'")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "ai.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
EXAMPLES = BLOCK.findall(PAGE.read_text(encoding="utf-8"))


def test_the_page_has_examples() -> None:
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"ai.md#{n}" for n in range(len(EXAMPLES))])
def test_example_runs(code: str) -> None:
    exec(compile(code, "docs/ai.md", "exec"), {"__name__": "docs_example"})


@pytest.mark.parametrize("module", ["games.openspiel", "games.ai"])
def test_doctests(module: str) -> None:
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
