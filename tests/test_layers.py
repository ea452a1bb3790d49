"""The layer rules of DESIGN.md section 1, checked on every import statement in the code.

games imports nothing of ours; hardware nothing of games, controller or simulator; simulator
never the controller; only the command line (controller/cli) composes with the simulator, and
nothing outside it imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("games", "hardware", "controller", "simulator", "firmware")
FORBIDDEN = {
    "games": ("hardware", "controller", "simulator"),
    "hardware": ("games", "controller", "simulator"),
    "simulator": ("controller",),
    "controller": ("simulator", "controller.cli"),
}
"""Package to what it may not import (controller/cli is exempt from its own row)."""


def imports_of(path: Path, root: Path) -> list[tuple[int, str]]:
    """Absolute names of our modules a file imports, relative imports resolved."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return [(line, name) for line, name in found if name.split(".")[0] in OURS]


def breaches(path: Path, root: Path = ROOT) -> list[str]:
    relative = path.relative_to(root)
    layer = relative.parts[0]
    if relative.parts[:2] == ("controller", "cli"):
        return []
    return [f"{relative}:{line} imports {name}" for line, name in imports_of(path, root)
            if any(name == banned or name.startswith(banned + ".")
                   for banned in FORBIDDEN.get(layer, ()))]


def test_no_module_imports_across_the_layers() -> None:
    files = [p for layer in FORBIDDEN for p in (ROOT / layer).rglob("*.py")]
    assert len(files) > 50
    assert [b for path in files for b in breaches(path)] == []


@pytest.mark.parametrize(("where", "code", "caught"), [
    ("games/x.py", "from controller.table import Table\n", True),
    ("controller/x.py", "from .cli.compose import build_service\n", True),
    ("controller/x.py", "from simulator.virtual_table import VirtualTable\n", True),
    ("hardware/x.py", "import games.registry\n", True),
    ("simulator/x.py", "from controller import web\n", True),
    ("controller/cli/x.py", "from simulator.virtual_table import VirtualTable\n", False),
    ("controller/x.py", "from .table import Table\n", False),
])
def test_the_check_catches_a_breach(tmp_path: Path, where: str, code: str, caught: bool) -> None:
    path = tmp_path / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code)
    assert bool(breaches(path, tmp_path)) is caught
