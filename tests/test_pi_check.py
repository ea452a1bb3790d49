"""The cheap half of `make pi-check`: its script parses, its release list agrees with the
package, and its probe reads the wheel's own metadata. (The full check needs root, qemu and
minutes per release: `make pi-check` runs it, docs/install.md says how.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "pi-check"
RELEASES = ROOT / ".ci" / "pi-check.releases"
PROBE = ROOT / ".ci" / "pi_check_probe.py"


def releases() -> list[list[str]]:
    rows = [line.split() for line in RELEASES.read_text(encoding="utf-8").splitlines()]
    return [row for row in rows if row and not row[0].startswith("#")]


def test_script_is_valid_bash() -> None:
    result = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_script_passes_shellcheck() -> None:
    result = subprocess.run(["shellcheck", "-S", "warning", str(SCRIPT)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_releases_cover_bookworm_and_trixie_on_supported_pythons() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    supported = SpecifierSet(project["requires-python"])
    rows = {row[0]: row for row in releases()}
    assert {"bookworm", "trixie"} <= set(rows)
    for release, python, venv, *packages in rows.values():
        assert python in supported, f"{release}: Python {python} is outside requires-python"
        assert venv in {"isolated", "system-site"}, f"{release}: unknown venv mode {venv}"
        assert "python3-venv" in packages, f"{release}: a venv needs python3-venv"
        assert all(re.fullmatch(r"[a-z0-9][a-z0-9.+-]*\??", p) for p in packages), packages


def test_script_refuses_clearly_without_root() -> None:
    """Not root: exit 2 with the reason, before it touches anything."""
    if sys.platform != "linux" or shutil.which("setpriv") is None:
        pytest.skip("needs Linux and setpriv to drop root")
    with tempfile.TemporaryDirectory() as folder:  # the checkout may be closed to others
        os.chmod(folder, 0o755)
        script = Path(folder) / ".ci" / SCRIPT.name
        script.parent.mkdir(mode=0o755)
        shutil.copy2(SCRIPT, script)
        command = [str(script)]
        if os.geteuid() == 0:
            command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=60,
                                env={"PATH": "/usr/bin:/bin", "PI_CHECK_DIR": "/nonexistent/x"})
    assert result.returncode == 2, result.stderr
    assert "needs root" in result.stderr
    assert not Path("/nonexistent/x").exists()


def test_probe_reports_every_pi_requirement_of_this_python(tmp_path: Path) -> None:
    """Run against this venv: one line per `pi` requirement whose marker applies here, each
    either with an installed version or MISSING, and exit 1 exactly when one is missing."""
    # Both read the venv's metadata from a neutral folder (the tree may hold a stale egg-info).
    requires = json.loads(subprocess.run(
        [sys.executable, "-c", "import json; from importlib import metadata; "
         "print(json.dumps(metadata.distribution('tabletop').requires or []))"],
        capture_output=True, text=True, cwd=tmp_path, check=True).stdout)
    applicable = []
    for text in requires:
        req = Requirement(text)
        if req.marker and "extra" in str(req.marker) and req.marker.evaluate({"extra": "pi"}):
            applicable.append(req.name)
    result = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("python       "), result.stdout + result.stderr
    assert lines[1].startswith("tabletop     ")
    extra_lines = [line for line in lines if line.startswith("pi extra ")]
    assert len(extra_lines) == len(applicable)
    missing = 0
    for name, line in zip(applicable, extra_lines, strict=True):
        assert f" {name}" in line
        try:
            assert metadata.version(name) in line
        except metadata.PackageNotFoundError:
            assert "MISSING" in line
            missing += 1
    assert result.returncode == (1 if missing else 0)
