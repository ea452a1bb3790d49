"""The AI modules' doctests run as written (docs/ai.md's examples run in tests/test_docs_run.py)."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install '.[ai]'")


@pytest.mark.parametrize("module", ["games.openspiel", "games.ai"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
