"""``tabletop install`` / ``uninstall`` into a scratch root, as real subprocesses.

The system's commands (useradd, systemctl, udevadm, ...) are stand-ins first on PATH: one small
script that logs its arguments and does to the scratch root what the real command does to a Pi
(a user line in etc/passwd, a group membership, a unit enabled), so the install reads back its
own effects exactly as it would on the Pi. Then: the first run changes things and says so, the
second changes nothing (no changing command at all), and uninstall leaves every file as it was,
byte for byte.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from controller.setup import install as install_steps
from controller.setup.install import Context, InstallError, Manifest, Runner, spi_enabled

ROOT = Path(__file__).resolve().parents[2]
SERVICE_UID = 998 if os.geteuid() == 0 else os.getuid()
SERVICE_GID = 998 if os.geteuid() == 0 else os.getgid()

FAKE = textwrap.dedent(f"""\
    #!{sys.executable}
    # Stand-in for a system command: logs argv, acts on $FAKE_ROOT as the real one acts on /.
    import json, os, sys
    from pathlib import Path

    name, args = Path(sys.argv[0]).name, sys.argv[1:]
    root, state_file = Path(os.environ["FAKE_ROOT"]), Path(os.environ["FAKE_STATE"])
    with open(os.environ["FAKE_LOG"], "a") as log:
        log.write(json.dumps([name, *args]) + "\\n")
    state = json.loads(state_file.read_text()) if state_file.exists() else {{}}
    passwd, group = root / "etc/passwd", root / "etc/group"

    def edit_members(user, wanted, add):
        lines = []
        for line in group.read_text().splitlines():
            f = line.split(":")
            members = [m for m in f[3].split(",") if m]
            if f[0] in wanted:
                members = members + [user] if add else [m for m in members if m != user]
            lines.append(":".join(f[:3] + [",".join(members)]))
        group.write_text("\\n".join(lines) + "\\n")

    if name == "useradd":
        user, groups = args[-1], []
        if "--groups" in args:
            groups = args[args.index("--groups") + 1].split(",")
        home = args[args.index("--home-dir") + 1]
        with passwd.open("a") as f:
            f.write(f"{{user}}:x:{SERVICE_UID}:{SERVICE_GID}::{{home}}:/usr/sbin/nologin\\n")
        with group.open("a") as f:
            f.write(f"{{user}}:x:{SERVICE_GID}:\\n")
        edit_members(user, groups, True)
    elif name == "usermod":
        edit_members(args[-1], [args[args.index("--groups") + 1]], True)
    elif name == "gpasswd":
        edit_members(args[1], [args[2]], False)
    elif name == "userdel":
        user = args[-1]
        passwd.write_text("".join(l + "\\n" for l in passwd.read_text().splitlines()
                                  if l.split(":")[0] != user))
        group.write_text("".join(l + "\\n" for l in group.read_text().splitlines()
                                 if l.split(":")[0] != user))
        edit_members(user, [l.split(":")[0] for l in group.read_text().splitlines()], False)
    elif name == "systemctl":
        unit = args[-1]
        if args[0] == "is-enabled":
            print("enabled" if state.get("enabled") else "disabled")
            sys.exit(0 if state.get("enabled") else 1)
        if args[0] == "is-active":
            print("active" if state.get("active") else "inactive")
            sys.exit(0 if state.get("active") else 3)
        if args[0] in ("enable", "start", "restart", "disable"):
            if not (root / "etc/systemd/system" / unit).is_file():
                print(f"Unit {{unit}} not found.", file=sys.stderr)
                sys.exit(5)
        if args[0] == "enable":
            state["enabled"] = True
        if args[0] in ("start", "restart"):
            state["active"] = True
        if args[0] == "disable":
            state["enabled"] = False
            if "--now" in args:
                state["active"] = False
    elif name == "dpkg-query":
        print(state.get("dpkg", ""), end="")
        sys.exit(0 if state.get("dpkg") else 1)
    elif name == "apt-get" and args[0] == "install":
        state["dpkg"] = "install ok installed"
    elif name == "hostname":
        print("192.0.2.7 fd00::7" if args == ["-I"] else "tablepi")
    state_file.write_text(json.dumps(state))
""")
COMMANDS = ("useradd", "usermod", "userdel", "gpasswd", "systemctl", "udevadm", "apt-get",
            "dpkg-query", "hostname")
QUERIES = {("systemctl", "is-enabled"), ("systemctl", "is-active"), ("hostname", "-I"),
           ("hostname",), ("dpkg-query", "-W")}
"""Commands that only ask: a second install may run these and nothing else."""

CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

[cm4]
otg_mode=1

[all]
"""
CMDLINE_TXT = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
               "fsck.repair=yes rootwait quiet splash plymouth.ignore-serial-consoles\n")


@pytest.fixture
def pi(tmp_path: Path) -> dict[str, Path]:
    """A scratch root shaped like a fresh Raspberry Pi OS, and the stand-in commands."""
    root = tmp_path / "root"
    for folder in ("etc/systemd/system", "etc/udev/rules.d", "boot/firmware", "var/lib"):
        (root / folder).mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                     "pi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\ndialout:x:20:pi\ngpio:x:997:pi\n"
                                    "spi:x:999:pi\npi:x:1000:\n")
    (root / "boot/firmware/config.txt").write_text(CONFIG_TXT)
    (root / "boot/firmware/cmdline.txt").write_text(CMDLINE_TXT)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "fake"
    fake.write_text(FAKE)
    fake.chmod(0o755)
    for name in COMMANDS:
        (bin_dir / name).symlink_to(fake)
    venv = tmp_path / "venv"
    return {"root": root, "bin": bin_dir, "log": tmp_path / "log",
            "state": tmp_path / "state.json", "venv": venv}


def tabletop(pi: dict[str, Path], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{pi['bin']}{os.pathsep}{os.environ['PATH']}",
           "FAKE_ROOT": str(pi["root"]), "FAKE_LOG": str(pi["log"]),
           "FAKE_STATE": str(pi["state"])}
    pi["log"].write_text("")
    return subprocess.run([sys.executable, "-m", "controller.cli", *args, "--root",
                           str(pi["root"]), "--venv", str(pi["venv"])],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)


def logged(pi: dict[str, Path]) -> list[list[str]]:
    return [json.loads(line) for line in pi["log"].read_text().splitlines()]


def changing(pi: dict[str, Path]) -> list[list[str]]:
    return [c for c in logged(pi) if tuple(c[:2]) not in QUERIES and tuple(c) not in QUERIES]


def snapshot(root: Path) -> dict[str, tuple[int, bytes | str]]:
    """Every file and folder under root: mode and contents (a link: its target)."""
    found: dict[str, tuple[int, bytes | str]] = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        body = (os.readlink(path) if stat.S_ISLNK(info.st_mode)
                else path.read_bytes() if stat.S_ISREG(info.st_mode) else b"")
        found[str(path.relative_to(root))] = (info.st_mode, body)
    return found


def test_install_twice_then_uninstall_leaves_the_pi_as_it_was(pi: dict[str, Path]) -> None:
    before = snapshot(pi["root"])

    first = tabletop(pi, "install", "--profile", "tiki_topple")
    assert first.returncode == 0, first.stderr
    out = first.stdout
    root = pi["root"]
    for what in ("system user tabletop", "data folder /var/lib/tabletop", "SPI on in",
                 "spidev.bufsiz=65536", "udev rule", "systemd unit", "tabletop.service running"):
        assert any(line.startswith("  done") and what in line for line in out.splitlines()), (
            what, out)
    assert ["useradd", "--system", "--user-group", "--home-dir", "/var/lib/tabletop",
            "--no-create-home", "--shell", "/usr/sbin/nologin", "--groups", "dialout,gpio,spi",
            "tabletop"] in logged(pi)
    assert ["systemctl", "enable", "tabletop.service"] in logged(pi)
    assert ["systemctl", "start", "tabletop.service"] in logged(pi)
    assert "status page: http://192.0.2.7:8080/  or  http://tablepi.local:8080/" in out
    assert "reboot needed (SPI was switched on and spidev.bufsiz was raised)" in out

    config = (root / "boot/firmware/config.txt").read_text()
    assert spi_enabled(config) and config.startswith(CONFIG_TXT)
    assert (root / "boot/firmware/cmdline.txt").read_text() == (
        CMDLINE_TXT.rstrip("\n") + " spidev.bufsiz=65536\n")
    unit = (root / "etc/systemd/system/tabletop.service").read_text()
    assert (f"ExecStart={pi['venv']}/bin/tabletop run --profile tiki_topple "
            "--data /var/lib/tabletop --port 8080") in unit
    assert "User=tabletop" in unit and "{" not in unit
    rule = (root / "etc/udev/rules.d/99-tabletop-hubs.rules").read_text()
    assert 'ATTRS{idVendor}=="2e8a"' in rule and 'GROUP="dialout"' in rule
    token_file = root / "var/lib/tabletop/web-token"
    token = token_file.read_text().strip()
    assert f"the table's token: {token} " in out
    info = token_file.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (
        SERVICE_UID, SERVICE_GID, 0o600)
    data = (root / "var/lib/tabletop").stat()
    assert (data.st_uid, stat.S_IMODE(data.st_mode)) == (SERVICE_UID, 0o750)

    installed = snapshot(root)
    second = tabletop(pi, "install", "--profile", "tiki_topple")
    assert second.returncode == 0, second.stderr
    steps = [line for line in second.stdout.splitlines() if line.startswith("  ")]
    assert steps and all(line.startswith("  already") for line in steps), second.stdout
    assert changing(pi) == []
    assert "reboot" not in second.stdout
    assert f"the table's token: {token} " in second.stdout
    assert snapshot(root) == installed

    gone = tabletop(pi, "uninstall", "--purge")
    assert gone.returncode == 0, gone.stderr
    assert ["systemctl", "disable", "--now", "tabletop.service"] in logged(pi)
    assert ["userdel", "tabletop"] in logged(pi)
    assert snapshot(root) == before
    again = tabletop(pi, "uninstall")
    assert again.returncode == 0 and "nothing to undo" in again.stdout


def test_uninstall_keeps_what_was_there_before(pi: dict[str, Path]) -> None:
    """A user, an SPI line and a (small) bufsiz the Pi had before stay; the data is kept."""
    root = pi["root"]
    (root / "etc/passwd").write_text((root / "etc/passwd").read_text()
                                     + f"table:x:{SERVICE_UID}:{SERVICE_GID}::/srv/t:/bin/sh\n")
    (root / "etc/group").write_text((root / "etc/group").read_text().replace(
        "gpio:x:997:pi", "gpio:x:997:pi,table") + f"table:x:{SERVICE_GID}:\n")
    (root / "boot/firmware/config.txt").write_text(CONFIG_TXT + "dtparam=spi=on\n")
    (root / "boot/firmware/cmdline.txt").write_text(
        CMDLINE_TXT.replace("rootwait", "spidev.bufsiz=4096 rootwait"))
    before = snapshot(root)

    done = tabletop(pi, "install", "--profile", "tiki_topple", "--user", "table")
    assert done.returncode == 0, done.stderr
    assert not any(c[0] == "useradd" for c in logged(pi))
    assert ["usermod", "--append", "--groups", "dialout", "table"] in logged(pi)
    assert ["usermod", "--append", "--groups", "spi", "table"] in logged(pi)
    assert "  already  SPI on in /boot/firmware/config.txt" in done.stdout
    assert "spidev.bufsiz=65536 rootwait" in (root / "boot/firmware/cmdline.txt").read_text()
    assert "reboot needed (spidev.bufsiz was raised)" in done.stdout

    gone = tabletop(pi, "uninstall")
    assert gone.returncode == 0, gone.stderr
    assert not any(c[0] == "userdel" for c in logged(pi))
    assert sorted(c for c in logged(pi) if c[0] == "gpasswd") == [
        ["gpasswd", "--delete", "table", "dialout"], ["gpasswd", "--delete", "table", "spi"]]
    assert "kept     the data folder /var/lib/tabletop" in gone.stdout

    after = snapshot(root)
    kept = {k: v for k, v in after.items() if k.startswith("var/lib/tabletop")}
    assert "var/lib/tabletop/web-token" in kept
    assert {k: v for k, v in after.items() if k not in kept} == before


def test_purge_deletes_only_a_data_folder_the_install_made(pi: dict[str, Path]) -> None:
    own = pi["root"] / "srv/games"
    own.mkdir(parents=True)
    (own / "notes.txt").write_text("mine\n")
    assert tabletop(pi, "install", "--profile", "tiki_topple", "--data", "/srv/games"
                    ).returncode == 0
    gone = tabletop(pi, "uninstall", "--purge")
    assert gone.returncode == 0, gone.stderr
    assert "kept     the data folder /srv/games: it was there before" in gone.stdout
    assert (own / "notes.txt").read_text() == "mine\n"


def test_a_wrong_profile_changes_nothing(pi: dict[str, Path]) -> None:
    before = snapshot(pi["root"])
    done = tabletop(pi, "install", "--profile", "no_such_game")
    assert done.returncode == 2
    assert done.stderr.startswith("tabletop install: no profile 'no_such_game'")
    assert len(done.stderr.splitlines()) == 1
    assert logged(pi) == [] and snapshot(pi["root"]) == before


def test_no_boot_files_is_one_line_and_uninstall_undoes_the_steps_before(
        pi: dict[str, Path]) -> None:
    """Not a Pi (no config.txt): the install stops there, and what it did is still undone."""
    (pi["root"] / "boot/firmware/config.txt").unlink()
    before = snapshot(pi["root"])
    done = tabletop(pi, "install", "--profile", "tiki_topple")
    assert done.returncode == 2
    assert "no config.txt in /boot/firmware or /boot: is this a Raspberry Pi?" in done.stderr
    assert tabletop(pi, "uninstall", "--purge").returncode == 0
    assert snapshot(pi["root"]) == before


@pytest.mark.parametrize(("text", "on"), [
    ("dtparam=spi=on\n", True),
    ("dtparam=spi\n", True),
    ("#dtparam=spi=on\n", False),
    ("dtparam=spi=off\n", False),
    ("[pi4]\ndtparam=spi=on\n", False),
    ("[pi4]\nx=1\n[all]\ndtparam=spi=on  # LEDs\n", True),
    ("", False),
])
def test_spi_is_on_only_for_an_active_line_that_applies(text: str, on: bool) -> None:
    assert spi_enabled(text) is on


def test_python_313_takes_lgpio_from_the_distribution(pi: dict[str, Path], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """No lgpio wheel for 3.13: apt's python3-lgpio, which only a venv with the system's
    packages sees."""
    monkeypatch.setenv("PATH", f"{pi['bin']}{os.pathsep}{os.environ['PATH']}")
    for key in ("root", "log", "state"):
        monkeypatch.setenv(f"FAKE_{key.upper()}", str(pi[key]))
    pi["log"].write_text("")
    venv = tmp_path / "venv313"
    venv.mkdir()
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")
    lines: list[str] = []
    ctx = Context(pi["root"], Runner(lines.append), Manifest())
    install_steps.ensure_lgpio(ctx, venv, (3, 13))
    assert ["apt-get", "install", "-y", "--no-install-recommends", "python3-lgpio"] in logged(pi)
    assert ctx.manifest.apt == ["python3-lgpio"]
    install_steps.ensure_lgpio(ctx, venv, (3, 13))  # now installed: nothing more
    assert lines[-1].startswith("  already  python3-lgpio")
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = false\n")
    with pytest.raises(InstallError, match="--system-site-packages"):
        install_steps.ensure_lgpio(ctx, venv, (3, 13))
    install_steps.ensure_lgpio(ctx, venv, (3, 11))
    assert lines[-1] == "  already  lgpio from PyPI (Python 3.11)"
