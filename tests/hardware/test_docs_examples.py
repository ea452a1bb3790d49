"""Every ```python block in the hardware docs runs as written (```py blocks need hardware)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ("protocol.md", "wiring.md", "firmware.md")
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def examples() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        path = DOCS / page
        if path.exists():
            blocks = BLOCK.findall(path.read_text())
            found += [(f"{page}#{i}", code) for i, code in enumerate(blocks)]
    return found


def test_the_protocol_page_has_a_runnable_example() -> None:
    assert any(name.startswith("protocol.md") for name, _ in examples())


@pytest.mark.parametrize(("name", "code"), examples(), ids=[n for n, _ in examples()])
def test_example_runs(name: str, code: str) -> None:
    exec(compile(code, name, "exec"), {"__name__": "docs_example"})
