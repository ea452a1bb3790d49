"""Browser fixtures: Debian's Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def screenshot(tmp_path):
    """Save a page's picture: into docs/ with UPDATE_SCREENSHOTS=1, else into tmp_path."""
    import os

    folder = DOCS if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path

    def take(page, name: str, **options) -> Path:
        path = folder / name
        page.screenshot(path=str(path), **options)
        assert path.stat().st_size > 1000
        return path

    return take


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Per module: Playwright's sync API runs an event loop in this thread while it is open,
    which would stop every later test that calls asyncio.run in the same worker."""
    if not CHROMIUM.exists() or shutil.which("chromium") is None:
        pytest.fail("Chromium is missing: `make test` installs it (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
