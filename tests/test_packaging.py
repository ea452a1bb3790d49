"""The wheel a Pi installs: what it carries, that it works away from the checkout, and that its
``pi`` extra installs from binary wheels alone on Raspberry Pi OS Bookworm and Trixie.

The wheel is built from a copy of the files git would commit (tracked and new, not ignored), so
a file left out of git, or a build leftover in the tree, cannot make the test pass. The
resolution check asks PyPI, as pip on the Pi would: it needs the network and fails (never
passes) without it; offline, deselect it with ``-m 'not network'``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
RELEASES = {
    # Raspberry Pi OS release: (its Python, its glibc): the wheels pip may take there.
    "bookworm": ("3.11", 36),
    "trixie": ("3.13", 41),
}


def committed_files(root: Path) -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, check=True).stdout.decode()
    return [name for name in listed.split("\0")
            if name and (os.path.lexists(root / name))]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in committed_files(ROOT):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_symlink():
            target.symlink_to(os.readlink(ROOT / name))
        else:
            shutil.copy2(ROOT / name, target)
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-cache-dir", "--quiet", "--wheel-dir", str(out), str(source)],
        capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    (found,) = out.glob("tabletop-*.whl")
    return found


def page_files(folder: Path) -> list[Path]:
    """A static folder's pages and the scripts they load (i18n.js, board.js, guide.js)."""
    return sorted([*folder.glob("*.html"), *folder.glob("*.js")])


def test_the_wheel_carries_firmware_scenarios_profiles_pages_and_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "hardware/firmware": sorted((ROOT / "firmware").glob("*.py")),
        "simulator/scenarios": sorted((ROOT / "simulator/scenarios").glob("*.scenario")),
        "hardware/profiles": sorted((ROOT / "hardware/profiles").glob("*.toml")),
        "controller/static": page_files(ROOT / "controller/static"),
        "simulator/static": page_files(ROOT / "simulator/static"),
        "controller/setup/install_files": sorted(
            (ROOT / "controller/setup/install_files").iterdir()),
        "hardware": [ROOT / "hardware/protocol_vectors.json"],
    }
    expected.update({f"games/{p.parent.parent.name}/data": sorted(p.parent.glob("*.toml"))
                     for p in ROOT.glob("games/*/data/*.toml")})
    # The translation catalogues: without them an installed table speaks only English.
    expected.update({str(p.parent.relative_to(ROOT)): sorted(p.parent.glob("*.po"))
                     for package in ("games", "controller", "simulator")
                     for p in (ROOT / package).glob("**/locale/*.po")})
    assert {"games/core/locale", "controller/locale", "simulator/locale"} <= set(expected)
    assert "hardware/firmware/main.py" in names
    wheel_zip = zipfile.ZipFile(wheel)
    for folder, files in expected.items():
        assert files, folder
        for path in files:
            member = f"{folder}/{path.name}"
            assert member in names, f"{member} is not in the wheel"
            assert wheel_zip.read(member) == path.read_bytes(), member
    assert not [n for n in names if n.startswith(("tests/", "firmware/", "docs/"))]


def test_the_wheel_declares_the_pi_extras_and_the_command(wheel: Path) -> None:
    wheel_zip = zipfile.ZipFile(wheel)
    meta_name = next(n for n in wheel_zip.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(wheel_zip.read(meta_name).decode())
    assert {"pi", "pi-pwm"} <= set(meta.get_all("Provides-Extra"))
    requires = meta.get_all("Requires-Dist")
    assert any(r.startswith("lgpio") and 'python_version < "3.13"' in r and 'extra == "pi"' in r
               for r in requires), requires
    assert any(r.startswith("adafruit-circuitpython-neopixel-spi") and 'extra == "pi"' in r
               for r in requires), requires
    entry_points = next(n for n in wheel_zip.namelist() if n.endswith("entry_points.txt"))
    assert "tabletop = controller.cli:main" in wheel_zip.read(entry_points).decode()


def test_an_installed_wheel_finds_its_firmware_and_scenarios(wheel: Path, tmp_path: Path) -> None:
    """Installed away from the checkout (no top-level firmware/ in reach): the flasher's files,
    the simulator's firmware loader and the shipped scenarios all come from the wheel."""
    target = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--no-index", "--target", str(target), str(wheel)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = """
import json
from importlib import resources
import hardware
from hardware.firmware_files import firmware_dir, firmware_files, firmware_version
from simulator.firmware_runtime import load_firmware
firmware = load_firmware()
print(json.dumps({
    "package": hardware.__file__, "dir": str(firmware_dir()),
    "files": {k: v.decode() for k, v in firmware_files().items()},
    "version": firmware_version(), "hub": firmware.hub.__file__,
    "scenarios": sorted(p.name for p in (resources.files("simulator") / "scenarios").iterdir()),
}))
"""
    # -S: none of the checkout's editable-install hooks; the copy in `target` is all there is.
    ran = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(target)},
                         timeout=60)
    assert ran.returncode == 0, ran.stderr[-2000:]
    found = json.loads(ran.stdout)
    assert found["package"].startswith(str(target))
    assert found["dir"] == str(target / "hardware" / "firmware")
    assert found["hub"] == str(target / "hardware" / "firmware" / "hub.py")
    assert found["files"] == {p.name: p.read_text() for p in (ROOT / "firmware").glob("*.py")}
    assert found["version"] in (ROOT / "firmware/config.py").read_text()
    assert found["scenarios"] == sorted(
        p.name for p in (ROOT / "simulator/scenarios").glob("*.scenario"))


def platforms(glibc: int) -> list[str]:
    """Every manylinux tag a 64-bit Pi with this glibc accepts (manylinux2014 is 2.17)."""
    return ["manylinux2014_aarch64",
            *(f"manylinux_2_{minor}_aarch64" for minor in range(17, glibc + 1))]


def pi_requirements(wheel: Path, python: str) -> list[str]:
    """``tabletop[pi]``'s requirements on a 64-bit Pi with this Python, markers evaluated there.

    pip's ``--python-version`` picks wheels for the target but evaluates markers for the Python
    that runs it, so the wheel's own markers are evaluated here, for the Pi; the markers of
    what those pull in are still pip's (`make pi-check` installs on the real releases)."""
    wheel_zip = zipfile.ZipFile(wheel)
    meta_name = next(n for n in wheel_zip.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(wheel_zip.read(meta_name).decode())
    pi = {"python_version": python, "python_full_version": f"{python}.0",
          "platform_machine": "aarch64", "sys_platform": "linux", "platform_system": "Linux",
          "os_name": "posix", "implementation_name": "cpython",
          "platform_python_implementation": "CPython", "extra": "pi"}
    wanted = []
    for line in meta.get_all("Requires-Dist"):
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(pi):
            requirement.marker = None
            wanted.append(str(requirement))
    return wanted


@pytest.mark.network
@pytest.mark.parametrize("release", sorted(RELEASES))
def test_the_pi_extra_installs_from_wheels_alone(wheel: Path, tmp_path: Path,
                                                 release: str) -> None:
    """What pip on a 64-bit Pi would install for ``tabletop[pi]``: binary wheels only (no
    compiler, no C library on the Pi), from PyPI."""
    python, glibc = RELEASES[release]
    wanted = pi_requirements(wheel, python)
    assert any(r.startswith("lgpio") for r in wanted) == (python < "3.13"), wanted
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--no-cache-dir",
         "--ignore-installed", "--only-binary", ":all:", "--implementation", "cp",
         "--python-version", python, *(f"--platform={p}" for p in platforms(glibc)),
         "--target", str(tmp_path / "unused"), "--report", str(report), *wanted],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (
        f"pip cannot install tabletop[pi] on {release} (Python {python}, aarch64) from wheels "
        f"alone (no network? deselect with -m 'not network'):\n{done.stderr[-3000:]}")
    chosen = {item["metadata"]["name"].lower(): item for item in
              json.loads(report.read_text())["install"]}
    assert {"adafruit-blinka", "adafruit-circuitpython-neopixel-spi", "gpiod", "gpiozero",
            "pyserial", "fastapi"} <= set(chosen), sorted(chosen)
    assert ("lgpio" in chosen) == ("rpi-lgpio" in chosen) == (python < "3.13"), sorted(chosen)
    assert "rpi-ws281x" not in chosen  # source only, needs root: the pi-pwm extra
    files = [item["download_info"]["url"].rsplit("/", 1)[-1] for item in chosen.values()]
    assert all(name.endswith(".whl") for name in files), files
    versions = sorted(f"{name}=={item['metadata']['version']}" for name, item in chosen.items())
    print(f"{release}: {' '.join(versions)}")
