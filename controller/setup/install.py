"""Installing (``tabletop install`` / ``tabletop uninstall``): make a Raspberry Pi a table, and
undo it.

Run as root from the venv tabletop was installed into (``sudo /opt/tabletop/bin/tabletop
install --profile tiki_topple``). Each step looks before it changes anything and says
``already`` or ``done``, so a second run changes nothing; what a run changed is written to a
manifest (``/etc/tabletop/install.json``), so ``tabletop uninstall`` undoes exactly that and
leaves the rest of the system (a line that was in ``config.txt`` before, a user who existed
before) as it found it. The data folder is kept unless ``--purge``. ``--club`` instead makes
the club's Mosquitto (controller.club_broker does the work).

Every path goes through ``root`` (the hidden option ``--root``: the tests install into a
scratch folder) and every command through `Runner`, a plain subprocess call that tells its
``out`` what it changes: the tests put recording stand-ins for ``useradd``, ``systemctl`` and
the rest first on PATH.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from controller.compose import DEFAULT_PORT, load_board
from controller.errors import UserError

from . import SERVICE as SERVICE_NAME
from . import UNIT_PATH as UNIT_FILE
from .token import TOKEN_FILE, install_token

USER = "tabletop"
SERVICE = f"{SERVICE_NAME}.service"
GROUPS = ("dialout", "gpio", "spi")
"""The hub's serial port, the buttons' GPIO chip, the LED strip's SPI bus (if the OS has them)."""
SPI_LINE = "dtparam=spi=on"
BUFSIZ = 65536
"""spidev's buffer in bytes: 24 per LED over SPI, so about 2,700 LEDs (the default 4,096: 165)."""
MANIFEST = "etc/tabletop/install.json"
UNIT_PATH = UNIT_FILE.lstrip("/")
"""The service's unit, under the install's root."""
RULE_NAME = "99-tabletop-hubs.rules"
RULE_PATH = "etc/udev/rules.d/" + RULE_NAME
BOOT_DIRS = ("boot/firmware", "boot")
"""Where the Pi's config.txt and cmdline.txt live: Bookworm and later, then older releases."""
APT_LGPIO = "python3-lgpio"
DEFAULT_DATA = Path("/var/lib/tabletop")


class InstallError(UserError):
    """A step cannot be done; the message says what to do instead."""


class Runner:
    """Runs the system's commands (real subprocesses), and prints what it changes."""

    def __init__(self, out: Callable[[str], None]) -> None:
        self.out = out

    def run(self, *args: str) -> str:
        """A command that must succeed; its output."""
        try:
            done = subprocess.run(args, capture_output=True, text=True, check=False)
        except FileNotFoundError:
            raise InstallError(f"`{args[0]}` is not on this system (is this Raspberry Pi OS "
                               "or Debian?)") from None
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip().splitlines()
            raise InstallError(f"`{' '.join(args)}` failed (exit {done.returncode})"
                               + (f": {detail[-1]}" if detail else ""))
        return done.stdout

    def query(self, *args: str) -> tuple[int, str]:
        """A command asked a question: its exit code and output (never raises)."""
        try:
            done = subprocess.run(args, capture_output=True, text=True, check=False)
        except FileNotFoundError:
            return 127, ""
        return done.returncode, done.stdout


@dataclass
class Manifest:
    """What an install changed, so that uninstall undoes that and nothing else."""

    user: str = USER
    created_user: bool = False
    added_groups: list[str] = field(default_factory=list)
    data: str = ""
    created_data: bool = False
    config_txt: str = ""
    config_added: str = ""
    cmdline_txt: str = ""
    cmdline_old: str | None = None
    """The ``spidev.bufsiz=`` word cmdline.txt had before ("" when it had none)."""
    unit: bool = False
    rule: bool = False
    apt: list[str] = field(default_factory=list)
    club: str = ""
    """The Mosquitto folder ``install --club`` wrote the club's broker config into."""

    @classmethod
    def load(cls, path: Path) -> Manifest:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(**data)
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError, TypeError) as error:
            raise InstallError(f"{path}: cannot read what the install changed ({error}); "
                               "undo it by hand (docs/install.md) or delete the file") from None

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.__dict__, indent=2) + "\n", encoding="utf-8")


@dataclass
class Context:
    root: Path
    runner: Runner
    manifest: Manifest
    reboot: list[str] = field(default_factory=list)

    def path(self, absolute: str) -> Path:
        """``absolute`` (like ``/etc/passwd``) under the install's root."""
        return self.root / absolute.lstrip("/")

    def report(self, changed: bool, what: str) -> None:
        self.runner.out(f"  {'done   ' if changed else 'already'}  {what}")


# --- the user and groups ---------------------------------------------------------------------

def _table(path: Path) -> dict[str, list[str]]:
    """``/etc/passwd`` or ``/etc/group`` as name -> fields."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return {}
    return {line.split(":")[0]: line.split(":") for line in lines if ":" in line}


def existing_groups(ctx: Context) -> list[str]:
    groups = _table(ctx.path("/etc/group"))
    return [name for name in GROUPS if name in groups]


def members(ctx: Context, group: str) -> set[str]:
    entry = _table(ctx.path("/etc/group")).get(group)
    return set(filter(None, entry[3].split(","))) if entry and len(entry) > 3 else set()


def ensure_user(ctx: Context, user: str, home: Path) -> None:
    groups = existing_groups(ctx)
    if user not in _table(ctx.path("/etc/passwd")):
        ctx.runner.run("useradd", "--system", "--user-group", "--home-dir", str(home),
                       "--no-create-home", "--shell", "/usr/sbin/nologin",
                       *(["--groups", ",".join(groups)] if groups else []), user)
        ctx.manifest.created_user = True
        ctx.report(True, f"system user {user} (groups: {', '.join(groups) or 'none'})")
    else:
        ctx.report(False, f"system user {user}")
    for group in groups:
        if user in members(ctx, group):
            continue
        ctx.runner.run("usermod", "--append", "--groups", group, user)
        if not ctx.manifest.created_user:
            ctx.manifest.added_groups.append(group)
        ctx.report(True, f"{user} in group {group}")
    missing = sorted(set(GROUPS) - set(groups))
    if missing:
        ctx.runner.out(f"  note     no {', '.join(missing)} group on this system: "
                       "`tabletop doctor` says whether the service can reach its devices")


def owner_ids(ctx: Context, user: str) -> tuple[int, int]:
    entry = _table(ctx.path("/etc/passwd")).get(user)
    if entry is None or len(entry) < 4:
        raise InstallError(f"no user {user} in {ctx.path('/etc/passwd')}")
    return int(entry[2]), int(entry[3])


def ensure_data(ctx: Context, user: str, data: Path) -> None:
    folder = ctx.path(str(data))
    uid, gid = owner_ids(ctx, user)
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    if created:
        ctx.manifest.created_data = True
    ctx.manifest.data = str(data)
    wrong = [p for p in (folder, *folder.rglob("*"))
             if (p.lstat().st_uid, p.lstat().st_gid) != (uid, gid)]
    for path in wrong:
        os.chown(path, uid, gid, follow_symlinks=False)
    if folder.stat().st_mode & 0o777 != 0o750:
        folder.chmod(0o750)
        wrong.append(folder)
    ctx.report(created or bool(wrong), f"data folder {data} (owned by {user}, mode 750)")
    path = folder / TOKEN_FILE
    _, made = install_token(folder)
    if (path.stat().st_uid, path.stat().st_gid) != (uid, gid):
        os.chown(path, uid, gid)
    ctx.report(made, f"the table's token in {data / TOKEN_FILE}")


# --- SPI and its buffer (config.txt, cmdline.txt) -----------------------------------------------

def boot_file(ctx: Context, name: str) -> tuple[str, Path]:
    for folder in BOOT_DIRS:
        path = ctx.path(f"/{folder}/{name}")
        if path.is_file():
            return f"/{folder}/{name}", path
    raise InstallError(f"no {name} in /boot/firmware or /boot: is this a Raspberry Pi? "
                       "(SPI for the LED strip is switched on there)")


def spi_enabled(text: str) -> bool:
    """An active ``dtparam=spi=on`` outside a model filter that may not apply (``[pi4]``)."""
    section = "all"
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
        elif re.fullmatch(r"dtparam=spi(=on)?", line) and section in ("all", "none"):
            return True
    return False


def ensure_spi(ctx: Context) -> None:
    name, path = boot_file(ctx, "config.txt")
    text = path.read_text(encoding="utf-8")
    if spi_enabled(text):
        ctx.report(False, f"SPI on in {name}")
        return
    block = ("" if text.endswith("\n") or not text else "\n") + (
        "\n[all]\n# tabletop: the LED strip is driven over SPI (tabletop uninstall removes "
        f"these lines)\n{SPI_LINE}\n")
    path.write_text(text + block, encoding="utf-8")
    ctx.manifest.config_txt, ctx.manifest.config_added = name, block
    ctx.reboot.append("SPI was switched on")
    ctx.report(True, f"SPI on in {name} ({SPI_LINE})")


_BUFSIZ = re.compile(r"(?<!\S)spidev\.bufsiz=(\S*)")


def ensure_bufsiz(ctx: Context) -> None:
    name, path = boot_file(ctx, "cmdline.txt")
    text = path.read_text(encoding="utf-8")
    line, _, rest = text.partition("\n")
    found = _BUFSIZ.search(line)
    if found and found.group(1).isdigit() and int(found.group(1)) >= BUFSIZ:
        ctx.report(False, f"spidev.bufsiz={found.group(1)} in {name}")
        return
    word = f"spidev.bufsiz={BUFSIZ}"
    if found:
        ctx.manifest.cmdline_old = found.group(0)
        line = line[:found.start()] + word + line[found.end():]
    else:
        ctx.manifest.cmdline_old = ""
        line = f"{line.rstrip()} {word}"
    path.write_text(line + ("\n" if _ or not text else "") + rest, encoding="utf-8")
    ctx.manifest.cmdline_txt = name
    ctx.reboot.append("spidev.bufsiz was raised")
    ctx.report(True, f"{word} in {name} (strips of more than 165 LEDs)")


def ensure_package(ctx: Context, package: str, why: str = "") -> None:
    """A Debian package, installed by apt unless dpkg has it (uninstall removes it then)."""
    code, out = ctx.runner.query("dpkg-query", "-W", "-f=${Status}", package)
    if code == 0 and "install ok installed" in out:
        ctx.report(False, f"{package} from the distribution")
        return
    ctx.runner.run("apt-get", "install", "-y", "--no-install-recommends", package)
    ctx.manifest.apt.append(package)
    ctx.report(True, f"{package} from the distribution{why}")


# --- the GPIO library on Python 3.13 (no lgpio wheel: Debian's python3-lgpio) --------------------

def system_site_packages(prefix: Path) -> bool:
    try:
        text = (prefix / "pyvenv.cfg").read_text(encoding="utf-8")
    except OSError:
        return True  # not a venv: the system's packages are there anyway
    return bool(re.search(r"^include-system-site-packages\s*=\s*true\s*$", text, re.M | re.I))


def ensure_lgpio(ctx: Context, prefix: Path, version: tuple[int, int]) -> None:
    """lgpio has wheels up to Python 3.12 only (the ``pi`` extra installs it there); from 3.13
    on it comes from the distribution, which a venv sees with ``--system-site-packages``."""
    if version < (3, 13):
        ctx.report(False, f"lgpio from PyPI (Python {version[0]}.{version[1]})")
        return
    ensure_package(ctx, APT_LGPIO, f" (no lgpio wheel for Python {version[0]}.{version[1]})")
    if not system_site_packages(prefix):
        raise InstallError(
            f"the venv {prefix} does not see the system's packages, so not {APT_LGPIO}: "
            f"make it again with python3 -m venv --system-site-packages {prefix} and reinstall")


# --- udev rule and systemd unit -------------------------------------------------------------------

def template(name: str) -> str:
    return resources.files(__package__).joinpath("install_files", name).read_text(
        encoding="utf-8")


def write_if_changed(path: Path, text: str) -> bool:
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(0o644)
    return True


def ensure_rule(ctx: Context) -> None:
    changed = write_if_changed(ctx.path(RULE_PATH), template(RULE_NAME))
    if changed:
        ctx.manifest.rule = True
        ctx.runner.run("udevadm", "control", "--reload-rules")
        ctx.runner.run("udevadm", "trigger", "--subsystem-match=tty", "--action=add")
    ctx.report(changed, f"udev rule /{RULE_PATH} (hubs: group dialout, /dev/tabletop/hub-*)")


def unit_text(*, user: str, venv: Path, profile: str, data: Path, port: int) -> str:
    return template(SERVICE).format(user=user, venv=venv, profile=profile, data=data, port=port)


def ensure_service(ctx: Context, text: str) -> None:
    changed = write_if_changed(ctx.path(UNIT_PATH), text)
    ctx.manifest.unit = True
    if changed:
        ctx.runner.run("systemctl", "daemon-reload")
    ctx.report(changed, f"systemd unit /{UNIT_PATH}")
    enabled = ctx.runner.query("systemctl", "is-enabled", SERVICE)[1].strip() == "enabled"
    if not enabled:
        ctx.runner.run("systemctl", "enable", SERVICE)
    ctx.report(not enabled, f"{SERVICE} starts at boot")
    active = ctx.runner.query("systemctl", "is-active", SERVICE)[1].strip() == "active"
    if changed and active:
        ctx.runner.run("systemctl", "restart", SERVICE)
    elif not active:
        ctx.runner.run("systemctl", "start", SERVICE)
    ctx.report(changed or not active, f"{SERVICE} running")


def page_urls(ctx: Context, port: int) -> list[str]:
    _, out = ctx.runner.query("hostname", "-I")
    addresses = [a for a in out.split() if ":" not in a]  # IPv4 first: what phones type
    _, name = ctx.runner.query("hostname")
    urls = [f"http://{a}:{port}/" for a in addresses[:1]]
    if name.strip():
        urls.append(f"http://{name.strip()}.local:{port}/")
    return urls or [f"http://<this Pi's address>:{port}/"]


# --- the club's broker (the work is in controller.club_broker) ---------------------------------

def install_club(ctx: Context, club: str | None, remove: str | None,
                 homeassistant: bool) -> None:
    """Mosquitto on the club's machine: a login per table (``club``, names separated by
    commas; ``remove``: logins to drop), each table kept to its topics."""
    from controller import club_broker as broker

    try:
        tables = broker.table_names(club or "", "--club")
        dropped = broker.table_names(remove or "", "--remove")
        ctx.runner.out(f"tabletop install: the club's broker (Mosquitto in {broker.DEBIAN_ETC})"
                       f" for {', '.join(tables) or 'the tables it has'}")
        ensure_package(ctx, "mosquitto")
        ctx.manifest.club = str(broker.DEBIAN_ETC)
        has_user = "mosquitto" in _table(ctx.path("/etc/passwd"))
        host = ctx.runner.query("hostname")[1].strip()
        made = broker.secure_broker(
            ctx.path(str(broker.DEBIAN_ETC)), tables, remove=dropped,
            host=f"{host}.local" if host else "localhost", homeassistant=homeassistant,
            seen_as=broker.DEBIAN_ETC, owner=owner_ids(ctx, "mosquitto") if has_user else None)
    except broker.ClubBrokerError as error:
        raise InstallError(str(error)) from None
    for changed, what in made.steps:
        ctx.report(changed, what)
    active = ctx.runner.query("systemctl", "is-active", "mosquitto")[1].strip() == "active"
    if made.conf_changed or not active:
        ctx.runner.run("systemctl", "restart", "mosquitto")
    elif made.access_changed:
        ctx.runner.run("systemctl", "reload", "mosquitto")
    ctx.report(made.conf_changed or made.access_changed or not active,
               "mosquitto running with these users and this ACL")
    ctx.runner.out("")
    for table in made.tables:
        ctx.runner.out(f"table {table}'s Pi takes {made.files.seen(made.files.table(table))} "
                       "(docs/club.md, security)")


# --- the commands ---------------------------------------------------------------------------------

def check_root(root: Path) -> None:
    if root == Path("/") and os.geteuid() != 0:
        raise InstallError("changes the system: run it with sudo (sudo "
                           f"{sys.prefix}/bin/tabletop {' '.join(sys.argv[1:])})")


def install(root: Path, runner: Runner, *, profile: str | None, club: str | None = None,
            remove: str | None = None, homeassistant: bool = False, user: str = USER,
            data: Path = DEFAULT_DATA, venv: Path, port: int = DEFAULT_PORT) -> None:
    """Make the machine under ``root`` a table of ``profile`` (its service run by ``user`` from
    ``venv``, keeping its games in ``data``, its page on ``port``), or with ``club`` and
    ``remove`` the club's broker; each step says what it did to ``runner.out``."""
    check_root(root)
    manifest_path = root / MANIFEST
    ctx = Context(root, runner, Manifest.load(manifest_path))
    if (club is not None or bool(remove)) == bool(profile):
        raise InstallError("give --profile (this Pi is a table) or --club TABLE[,TABLE...] "
                           "(this machine is the club's broker), one of them")
    if not profile:
        try:
            install_club(ctx, club, remove, homeassistant)
        finally:
            if ctx.manifest.club:  # Mosquitto is there: what was done so far, for uninstall
                ctx.manifest.save(manifest_path)
        return
    ctx.manifest.user = user
    if not (venv / "bin" / "tabletop").exists() and root == Path("/"):
        raise InstallError(f"no {venv}/bin/tabletop: give --venv, the venv tabletop is "
                           "installed in")
    board = load_board(profile)  # a wrong name stops here, before anything changes
    runner.out(f"tabletop install: {board.name} for {user}, venv {venv}, data {data}")
    steps: list[Callable[[], None]] = [
        lambda: ensure_user(ctx, user, data),
        lambda: ensure_data(ctx, user, data),
        lambda: ensure_lgpio(ctx, venv, sys.version_info[:2]),
        lambda: ensure_spi(ctx),
        lambda: ensure_bufsiz(ctx),
        lambda: ensure_rule(ctx),
        lambda: ensure_service(ctx, unit_text(user=user, venv=venv, profile=profile, data=data,
                                              port=port)),
    ]
    try:
        for step in steps:
            step()
    finally:
        ctx.manifest.save(manifest_path)  # what was done so far, for uninstall
    token, _ = install_token(ctx.path(str(data)))
    runner.out("")
    runner.out(f"status page: {'  or  '.join(page_urls(ctx, port))}")
    runner.out(f"the table's token: {token}  (again: sudo -u {user} {venv}/bin/tabletop "
               f"token --data {data})")
    if ctx.reboot:
        runner.out(f"reboot needed ({' and '.join(ctx.reboot)}): sudo reboot")
    runner.out(f"check everything: {venv}/bin/tabletop doctor")


def uninstall(root: Path, runner: Runner, *, purge: bool = False) -> None:
    """Undo what the install under ``root`` changed, as its manifest says, and nothing else
    (``purge``: the data folder too, if the install made it)."""
    check_root(root)
    manifest_path = root / MANIFEST
    if not manifest_path.is_file():
        runner.out(f"tabletop uninstall: nothing to undo (no {manifest_path})")
        return
    ctx = Context(root, runner, Manifest.load(manifest_path))
    m = ctx.manifest
    runner.out(f"tabletop uninstall: undoing what tabletop install did for {m.user}")
    _undo_service(ctx)
    _undo_boot_files(ctx)
    if m.club:
        from controller.club_broker import BrokerFiles, unconfigure

        files = BrokerFiles(ctx.path(m.club), Path(m.club))
        had_conf = files.conf.exists()
        for line in unconfigure(files, purge):
            runner.out(f"  {line}")
        if had_conf and "mosquitto" not in m.apt:  # back to Debian's defaults
            runner.run("systemctl", "restart", "mosquitto")
    for package in m.apt:
        runner.run("apt-get", "remove", "-y", package)
        ctx.report(True, f"removed {package}")
    _undo_data(ctx, purge)
    _undo_user(ctx)
    manifest_path.unlink()
    with contextlib.suppress(OSError):
        manifest_path.parent.rmdir()  # only if nothing else is in it
    if m.config_txt or m.cmdline_txt:
        runner.out("reboot to switch SPI back off: sudo reboot")


def _undo_service(ctx: Context) -> None:
    """The systemd unit and the udev rule, if the install wrote them."""
    m, runner = ctx.manifest, ctx.runner
    if m.unit:
        unit = ctx.path(UNIT_PATH)
        if unit.exists():
            runner.run("systemctl", "disable", "--now", SERVICE)
            unit.unlink()
            runner.run("systemctl", "daemon-reload")
        ctx.report(True, f"removed {SERVICE}")
    if m.rule:
        ctx.path(RULE_PATH).unlink(missing_ok=True)
        runner.run("udevadm", "control", "--reload-rules")
        ctx.report(True, f"removed /{RULE_PATH}")


def _undo_boot_files(ctx: Context) -> None:
    """cmdline.txt's spidev.bufsiz and config.txt's SPI lines, as they were."""
    m = ctx.manifest
    if m.cmdline_txt:
        path = ctx.path(m.cmdline_txt)
        text = path.read_text(encoding="utf-8")
        line, newline, rest = text.partition("\n")
        word = f"spidev.bufsiz={BUFSIZ}"
        if m.cmdline_old:
            line = line.replace(word, m.cmdline_old, 1)
        else:
            line = re.sub(rf" ?(?<!\S){re.escape(word)}(?!\S)", "", line, count=1)
        path.write_text(line + newline + rest, encoding="utf-8")
        ctx.report(True, f"spidev.bufsiz as it was in {m.cmdline_txt}")
    if m.config_txt:
        path = ctx.path(m.config_txt)
        text = path.read_text(encoding="utf-8")
        if m.config_added and m.config_added in text:
            at = text.rindex(m.config_added)
            path.write_text(text[:at] + text[at + len(m.config_added):], encoding="utf-8")
            ctx.report(True, f"removed the SPI lines from {m.config_txt}")
        else:
            ctx.runner.out(f"  note     the SPI lines in {m.config_txt} were changed since: "
                           "left as they are")


def _undo_data(ctx: Context, purge: bool) -> None:
    """The data folder: deleted with ``purge`` if the install made it, else kept."""
    m, runner = ctx.manifest, ctx.runner
    if m.data and purge and not m.created_data:
        runner.out(f"  kept     the data folder {m.data}: it was there before the install")
    elif m.data and purge:
        shutil.rmtree(ctx.path(m.data), ignore_errors=True)
        ctx.report(True, f"deleted the data folder {m.data}")
    elif m.data:
        runner.out(f"  kept     the data folder {m.data} (games, tags, token); to delete it "
                   f"later: sudo rm -r {m.data}")


def _undo_user(ctx: Context) -> None:
    """The service's user if the install made it, else the groups it added the user to."""
    m = ctx.manifest
    if m.created_user:
        ctx.runner.run("userdel", m.user)
        ctx.report(True, f"removed the user {m.user}")
    for group in m.added_groups:
        ctx.runner.run("gpasswd", "--delete", m.user, group)
        ctx.report(True, f"{m.user} out of group {group}")
