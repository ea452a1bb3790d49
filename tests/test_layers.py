"""The layer rules of docs/architecture.md, checked on every import statement in the code.

games imports nothing of ours; hardware nothing of games, controller or simulator; simulator
never the controller. Only the command line (``controller/cli``, its ``virtual`` package
included) composes the service with the simulator, and nothing outside it imports it. The
controller's service core (its top-level modules) imports none of its rooms; each room
imports only the rooms below it: core, compose (a table built from a profile), setup
(installation, doctor, the hub's firmware: it runs on the Pi), bench (the benchmarks), cli.
And no two modules of ours import each other, directly or round a ring (an import inside a
function counts; one under ``if TYPE_CHECKING`` does not: it never runs): a circle is two
ideas that should be one module, or one idea in the wrong place.
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
"""Package to what it may not import (the controller's rooms: see ``ROOMS``)."""
ROOMS = {
    "": ("controller.compose", "controller.setup", "controller.bench"),
    "compose": ("controller.setup", "controller.bench"),
    "setup": ("controller.bench",),
    "bench": (),
    "cli": (),
}
"""The controller's service core ("": its top-level modules) and each room of it, to the rooms
above it that it may not import."""
COMPOSING = ("cli",)
"""The one room that may compose the service with the simulator."""


def imports_of(path: Path, root: Path, *, run_only: bool = False,
               names: bool = False) -> list[tuple[int, str]]:
    """Absolute names of our modules a file imports, relative imports resolved. ``run_only``:
    not those under ``if TYPE_CHECKING``; ``names``: each imported name too (``from . import
    status`` imports the module ``controller.status``)."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(node.test)
                   for statement in node.body for inner in ast.walk(statement)}  # not orelse
    found = []
    for node in ast.walk(tree):
        if run_only and id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
            if names:
                found += [(node.lineno, f"{name}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] in OURS]


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def circles(files: list[Path], root: Path = ROOT) -> list[list[str]]:
    """Rings of modules that import each other (Tarjan's strongly connected components)."""
    modules = {module_name(path, root): path for path in files}
    graph = {name: {imported for _, imported in imports_of(path, root, run_only=True,
                                                           names=True)
                    if imported in modules and not name.startswith(imported + ".")}
             for name, path in modules.items()}  # a module's own packages run first: no ring
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for other in sorted(graph[name]):
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            ring = []
            while not ring or ring[-1] != name:
                ring.append(stack.pop())
            if len(ring) > 1:
                found.append(sorted(ring))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def banned_for(relative: Path) -> tuple[str, ...]:
    """What the file at ``relative`` (to the root) may not import."""
    layer = relative.parts[0]
    if layer != "controller":
        return FORBIDDEN.get(layer, ())
    room = relative.parts[1] if len(relative.parts) > 2 else ""
    banned = [*FORBIDDEN[layer], *ROOMS.get(room, ())]
    if room in COMPOSING:
        banned.remove("simulator")
    if room == "cli":
        banned.remove("controller.cli")
    return tuple(banned)


def breaches(path: Path, root: Path = ROOT) -> list[str]:
    relative = path.relative_to(root)
    return [f"{relative}:{line} imports {name}" for line, name in imports_of(path, root)
            if any(name == banned or name.startswith(banned + ".")
                   for banned in banned_for(relative))]


def test_no_module_imports_across_the_layers() -> None:
    files = [p for layer in FORBIDDEN for p in (ROOT / layer).rglob("*.py")]
    assert len(files) > 50
    assert [b for path in files for b in breaches(path)] == []


@pytest.mark.parametrize(("where", "code", "caught"), [
    ("games/x.py", "from controller.table import Table\n", True),
    ("controller/x.py", "from .cli.run import club_link\n", True),
    ("controller/x.py", "from simulator.virtual_table import VirtualTable\n", True),
    ("controller/x.py", "from .compose import build_service\n", True),
    ("hardware/x.py", "import games.registry\n", True),
    ("simulator/x.py", "from controller import web\n", True),
    ("controller/cli/x.py", "from simulator.virtual_table import VirtualTable\n", False),
    ("controller/cli/virtual/x.py", "from simulator.virtual_table import VirtualTable\n", False),
    ("controller/compose/x.py", "from simulator.virtual_table import VirtualTable\n", True),
    ("controller/bench/x.py", "from simulator.noisy_link import measure\n", True),
    ("controller/compose/x.py", "from controller.cli.virtual.table import running\n", True),
    ("controller/setup/x.py", "from simulator.virtual_table import VirtualTable\n", True),
    ("controller/setup/x.py", "from controller.cli.common import print_json\n", True),
    ("controller/bench/x.py", "from ..cli import main\n", True),
    ("controller/compose/x.py", "from controller.setup.token import install_token\n", True),
    ("controller/setup/x.py", "from controller.compose import load_board\n", False),
    ("controller/bench/x.py", "from controller.setup.token import install_token\n", False),
    ("controller/x.py", "from .table import Table\n", False),
])
def test_the_check_catches_a_breach(tmp_path: Path, where: str, code: str, caught: bool) -> None:
    path = tmp_path / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code)
    assert bool(breaches(path, tmp_path)) is caught


def test_no_modules_import_each_other() -> None:
    files = [path for layer in OURS for path in (ROOT / layer).rglob("*.py")]
    assert circles(files) == []


@pytest.mark.parametrize(("code", "ring"), [
    ({"a.py": "from . import b\n", "b.py": "def f():\n    from .a import x\n"}, True),
    ({"a.py": "from . import b\n", "b.py": "from .c import y\n", "c.py": "import pkg.a\n"},
     True),
    ({"a.py": "from . import b\n",
      "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n"},
     False),
    ({"__init__.py": "from .a import x\n", "a.py": "from . import b\n", "b.py": ""}, False),
])
def test_the_circle_check_finds_a_ring(tmp_path: Path, code: dict[str, str], ring: bool) -> None:
    package = tmp_path / "games" / "pkg"
    package.mkdir(parents=True)
    for name, text in code.items():
        (package / name).write_text(text.replace("pkg.", "games.pkg."))
    assert bool(circles(sorted(package.glob("*.py")), tmp_path)) is ring
