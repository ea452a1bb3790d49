"""The club's Mosquitto, secured: a user and password for each table, and an ACL that keeps
each table to its own topics.

``tabletop install --club a,b`` calls `secure_broker`, which writes into Mosquitto's config
folder (Debian: ``/etc/mosquitto``):

- ``conf.d/tabletop.conf``: a listener, no anonymous access, the two files below, persistence,
  and a commented TLS listener;
- ``tabletop/passwd``: the password file, hashed by the real ``mosquitto_passwd``;
- ``tabletop/acl``: who may read and write what;
- ``tabletop/tables/<table>.toml``: each table's credentials, the file its Pi takes, and
  ``tabletop/club.toml`` (and ``homeassistant.toml``) for the club's own programs.

The credential files are the source of truth: the password file and the ACL are made from
them on every run, so running again keeps every password, adds new tables, and ``remove``
drops a table by deleting its file. Every file is replaced atomically (a temporary file in the
same folder, then a rename), so Mosquitto never reads half a file.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import shutil
import subprocess
import tempfile
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from .club_messages import DISCOVERY, HA_STATUS, ROOT, BadMessage, check_table_name
from .errors import ControllerError

DEBIAN_ETC = Path("/etc/mosquitto")
PORT = 1883
TLS_PORT = 8883
CLUB_USER = "club"
HA_USER = "homeassistant"
TABLE_USER_PREFIX = "table-"
"""A table's user is ``table-<name>``: no table name can then clash with ``club``."""
TABLE_WRITES = ("availability", "state", "events", "result", "response/+")
"""What a table publishes under ``tabletop/<table>/`` (club_messages): these and no more, so
it can never write its own ``set/...`` or ``receipt``."""
MOSQUITTO_PASSWD = "mosquitto_passwd"


class ClubBrokerError(ControllerError):
    """The broker's files cannot be made: one line saying what to do."""


@dataclass(frozen=True)
class Credentials:
    """One MQTT login: what a table's Pi (or the club's program) needs to connect."""

    url: str
    username: str
    password: str
    table: str | None = None
    """The table these are for (None: the club's or Home Assistant's)."""

    def toml(self, about: str) -> str:
        lines = [f"# tabletop: {about} on the club's broker. Written by `tabletop install "
                 "--club`;", "# secret: whoever holds it can speak for it (docs/club.md).",
                 "[mqtt]", f"url = {json.dumps(self.url)}",
                 f"username = {json.dumps(self.username)}",
                 f"password = {json.dumps(self.password)}"]
        if self.table is not None:
            lines.append(f"table = {json.dumps(self.table)}")
        return "\n".join(lines) + "\n"

    def login_url(self) -> str:
        """``mqtt://user:password@host:port``, the form ``tabletop club --mqtt`` and
        ``club_link.BrokerAddress.parse`` take (a secret: keep it out of logs)."""
        scheme, _, rest = self.url.partition("://")
        return f"{scheme}://{quote(self.username, safe='')}:{quote(self.password, safe='')}@{rest}"

    @classmethod
    def read(cls, path: Path) -> Credentials:
        """A credential file as written by `toml` (a table's Pi reads it with this too)."""
        try:
            mqtt = tomllib.loads(path.read_text(encoding="utf-8"))["mqtt"]
            return cls(url=str(mqtt["url"]), username=str(mqtt["username"]),
                       password=str(mqtt["password"]),
                       table=None if mqtt.get("table") is None else str(mqtt["table"]))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError,
                TypeError) as error:
            raise ClubBrokerError(f"{path}: not a credential file ({error.__class__.__name__}: "
                                  f"{error}); delete it to make a new password") from None


def table_user(table: str) -> str:
    return TABLE_USER_PREFIX + table


@dataclass(frozen=True)
class BrokerFiles:
    """Where one club's broker files are: ``etc`` is where they are written, ``seen_as`` the
    same folder as Mosquitto sees it (they differ when an install writes under ``--root``)."""

    etc: Path
    seen_as: Path | None = None

    @property
    def conf(self) -> Path:
        return self.etc / "conf.d" / "tabletop.conf"

    @property
    def folder(self) -> Path:
        return self.etc / "tabletop"

    @property
    def passwd(self) -> Path:
        return self.folder / "passwd"

    @property
    def acl(self) -> Path:
        return self.folder / "acl"

    @property
    def tables(self) -> Path:
        return self.folder / "tables"

    def table(self, name: str) -> Path:
        """The credential file of table ``name``: the file its Pi takes."""
        return self.tables / f"{name}.toml"

    @property
    def club(self) -> Path:
        return self.folder / "club.toml"

    @property
    def homeassistant(self) -> Path:
        return self.folder / "homeassistant.toml"

    def seen(self, path: Path) -> Path:
        """``path`` as Mosquitto and the person at the keyboard see it."""
        return (self.seen_as or self.etc) / path.relative_to(self.etc)

    def access_lines(self) -> str:
        """The config lines that switch passwords and the ACL on: for a test's broker."""
        return (f"allow_anonymous false\npassword_file {self.seen(self.passwd)}\n"
                f"acl_file {self.seen(self.acl)}\n")


@dataclass
class ClubBroker:
    """What a run made: every login, and one line per step (changed or already so)."""

    files: BrokerFiles
    tables: dict[str, Credentials]
    club: Credentials
    homeassistant: Credentials | None
    steps: list[tuple[bool, str]] = field(default_factory=list)
    conf_changed: bool = False
    """The listener config changed: Mosquitto must restart."""
    access_changed: bool = False
    """Users or ACL changed: a reload (SIGHUP) is enough."""

    def users(self) -> dict[str, str]:
        logins = [self.club, *self.tables.values(),
                  *([self.homeassistant] if self.homeassistant else [])]
        return {login.username: login.password for login in logins}


# --- the files' text --------------------------------------------------------------------------

TLS_CONF = "tabletop-tls.conf"
"""The admin's own drop-in for TLS, beside ours: a run rewrites ``tabletop.conf``, never it."""


def conf_text(files: BrokerFiles, port: int = PORT, bind: str | None = None) -> str:
    """The drop-in. Debian's mosquitto.conf already sets persistence_location and the log
    (repeating a path there is an error), so only the switch is here."""
    return f"""\
# tabletop: the club's broker. Written by `tabletop install --club`; a run rewrites it
# (keeping an address you add to the listener line, such as 127.0.0.1).
# Every client logs in (tables, the club, Home Assistant); what each may read and write is in
# the ACL. Users and ACL are read again on `systemctl reload mosquitto`.
listener {port}{f" {bind}" if bind else ""}
allow_anonymous false
password_file {files.seen(files.passwd)}
acl_file {files.seen(files.acl)}
persistence true

# TLS (optional, docs/club.md): these four lines, uncommented, in {TLS_CONF} beside this
# file, the certificates in place, then `sudo systemctl restart mosquitto`; the tables' url
# becomes "mqtts://<this host>:{TLS_PORT}". The logins and the ACL above hold there too.
#listener {TLS_PORT}
#cafile /etc/mosquitto/ca_certificates/club-ca.crt
#certfile /etc/mosquitto/certs/club.crt
#keyfile /etc/mosquitto/certs/club.key
"""


def kept_bind(conf: Path, port: int) -> str | None:
    """The address the admin gave our listener (``listener 1883 127.0.0.1``), kept by a run."""
    try:
        lines = conf.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        words = line.split("#", 1)[0].split()
        if len(words) == 3 and words[:2] == ["listener", str(port)]:
            return words[2]
    return None


def acl_text(tables: Iterable[str], homeassistant: bool) -> str:
    """One ``user`` block per login. Not ``pattern`` lines with ``%u``: those apply to every
    user (the club's too) and tie a user's name to a topic; a block per user reads as the
    list of what each may do, and removing a table is removing its block."""
    blocks = [
        "# tabletop: who may read and write what. Written by `tabletop install --club`; a run\n"
        "# rewrites it. Anything not granted here is refused (a publish is dropped unseen).",
        f"# The club: reads every table, answers results and sends commands.\n"
        f"user {CLUB_USER}\ntopic read {ROOT}/#\ntopic write {ROOT}/+/receipt\n"
        f"topic write {ROOT}/+/set/#",
    ]
    if homeassistant:
        blocks.append(
            f"# Home Assistant: reads the tables and its discovery, sends commands.\n"
            f"user {HA_USER}\ntopic read {ROOT}/#\ntopic read {DISCOVERY}/#\n"
            f"topic write {HA_STATUS}\ntopic write {ROOT}/+/set/#")
    for table in sorted(tables):
        own = f"{ROOT}/{table}"
        blocks.append("\n".join([
            f"# Table {table}: writes its own messages and Home Assistant discovery; reads its",
            "# commands, its receipts and Home Assistant's birth message.",
            f"user {table_user(table)}",
            *(f"topic write {own}/{leaf}" for leaf in TABLE_WRITES),
            f"topic write {DISCOVERY}/+/tabletop_{table}/+/config",
            f"topic read {own}/set/#", f"topic read {own}/receipt", f"topic read {HA_STATUS}",
        ]))
    return "\n\n".join(blocks) + "\n"


# --- the password file --------------------------------------------------------------------------

def _hash_matches(hashed: str, password: str) -> bool:
    """A mosquitto_passwd ``$7$`` (PBKDF2-SHA512) hash of ``password``? Other kinds: no, so
    the file is made again."""
    parts = hashed.split("$")
    if len(parts) != 5 or parts[1] != "7" or not parts[2].isdigit():
        return False
    try:
        salt, digest = base64.b64decode(parts[3]), base64.b64decode(parts[4])
    except ValueError:
        return False
    mine = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, int(parts[2]), len(digest))
    return hmac.compare_digest(mine, digest)


def passwd_current(path: Path, users: dict[str, str]) -> bool:
    """The password file has exactly these users, with these passwords."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    found = dict(line.split(":", 1) for line in lines if ":" in line)
    return found.keys() == users.keys() and all(
        _hash_matches(found[user], password) for user, password in users.items())


def _mosquitto_passwd() -> str:
    found = shutil.which(MOSQUITTO_PASSWD) or next(
        (p for p in ("/usr/bin/mosquitto_passwd", "/usr/sbin/mosquitto_passwd")
         if Path(p).exists()), None)
    if found is None:
        raise ClubBrokerError("mosquitto_passwd is not on this system: install Mosquitto "
                              "(sudo apt install mosquitto)")
    return found


def write_passwd(path: Path, users: dict[str, str], owner: tuple[int, int] | None) -> None:
    """The users' passwords in plain text to a private temporary file, hashed in place by
    ``mosquitto_passwd -U`` (so no password is ever on a command line), then renamed."""
    tool = _mosquitto_passwd()
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=".passwd-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as plain:
            plain.writelines(f"{user}:{password}\n" for user, password in sorted(users.items()))
        done = subprocess.run([tool, "-U", name], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip().splitlines()
            raise ClubBrokerError(f"`mosquitto_passwd -U` failed (exit {done.returncode})"
                                  + (f": {detail[-1]}" if detail else ""))
        _settle(Path(name), 0o600, owner)
        os.replace(name, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


# --- writing ----------------------------------------------------------------------------------

def _settle(path: Path, mode: int, owner: tuple[int, int] | None) -> None:
    os.chmod(path, mode)
    if owner is not None:
        os.chown(path, *owner)


def write_atomic(path: Path, text: str, mode: int = 0o644,
                 owner: tuple[int, int] | None = None) -> bool:
    """``text`` to ``path`` unless it holds it already (then False); never half a file."""
    try:
        if path.read_text(encoding="utf-8") == text:
            _settle(path, mode, owner)
            return False
    except (FileNotFoundError, UnicodeDecodeError):
        pass
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        _settle(Path(name), mode, owner)
        os.replace(name, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
    return True


def _names(names: Iterable[str], what: str) -> list[str]:
    try:
        return sorted({check_table_name(name) for name in names})
    except BadMessage as error:
        raise ClubBrokerError(f"{what}: {error}") from None


def table_names(text: str, what: str = "--club") -> list[str]:
    """``a,b`` as checked table names (``""``: none)."""
    names = [name.strip() for name in text.split(",")] if text.strip() else []
    if "" in names:
        raise ClubBrokerError(f"{what} takes table names separated by commas, not {text!r}")
    return _names(names, what)


def existing_tables(files: BrokerFiles) -> list[str]:
    """The tables the broker knows: one credential file each."""
    if not files.tables.is_dir():
        return []
    return _names((path.stem for path in files.tables.glob("*.toml")), str(files.tables))


def _login(path: Path, url: str, username: str, table: str | None) -> Credentials:
    """The login kept in ``path`` with today's url, or a new one with a fresh password."""
    if path.exists():
        old = Credentials.read(path)
        if old.username == username:
            return Credentials(url, username, old.password, table)
    return Credentials(url, username, secrets.token_urlsafe(24), table)


def secure_broker(etc: Path, tables: Iterable[str] = (), *, remove: Iterable[str] = (),
                  host: str = "localhost", port: int = PORT, homeassistant: bool = False,
                  seen_as: Path | None = None,
                  owner: tuple[int, int] | None = None) -> ClubBroker:
    """Make (or bring up to date) the broker's files in ``etc`` for ``tables`` plus those it
    has already, less ``remove``. ``host``/``port`` go into the credentials' url; ``owner``
    (uid, gid) is Mosquitto's user, who must read the password file and the ACL."""
    files = BrokerFiles(Path(etc), seen_as)
    add, drop = _names(tables, "--club"), _names(remove, "--remove")
    if both := set(add) & set(drop):
        raise ClubBrokerError(f"table {', '.join(sorted(both))} is both added and removed")
    if not 0 < port < 65536:
        raise ClubBrokerError(f"port {port}: not a TCP port (1 to 65535)")
    _mosquitto_passwd()  # before anything is written
    url = f"mqtt://{host}:{port}"
    try:
        known = existing_tables(files)
        keep = sorted((set(known) | set(add)) - set(drop))
        logins = {t: _login(files.table(t), url, table_user(t), t) for t in keep}
        club = _login(files.club, url, CLUB_USER, None)
        ha_wanted = homeassistant or files.homeassistant.exists()
        ha = _login(files.homeassistant, url, HA_USER, None) if ha_wanted else None
        result = ClubBroker(files, logins, club, ha)
        return _write(result, known, drop, port, owner)
    except OSError as error:
        where = error.filename or etc
        raise ClubBrokerError(f"{where}: cannot write there ({error.strerror or error}): run "
                              "as root (sudo) or give a folder you may write") from None


def _write(result: ClubBroker, known: list[str], drop: list[str], port: int,
           owner: tuple[int, int] | None) -> ClubBroker:
    files, steps = result.files, result.steps
    files.tables.mkdir(parents=True, exist_ok=True)
    files.conf.parent.mkdir(parents=True, exist_ok=True)
    files.tables.chmod(0o700)
    files.folder.chmod(0o750)  # Mosquitto's group may pass, to its two files
    if owner is not None:
        os.chown(files.folder, -1, owner[1])
    for table, login in result.tables.items():
        path = files.table(table)
        changed = write_atomic(path, login.toml(f"table {table!r}"), 0o600)
        steps.append((changed, f"table {table}: user {login.username}, credentials in "
                               f"{files.seen(path)}"))
    for login, path, about in ((result.club, files.club, "the club"),
                               (result.homeassistant, files.homeassistant, "Home Assistant")):
        if login is not None:
            changed = write_atomic(path, login.toml(about), 0o600)
            steps.append((changed, f"{about}'s user {login.username}: credentials in "
                                   f"{files.seen(path)}"))
    users = result.users()
    passwd_changed = not passwd_current(files.passwd, users)
    if passwd_changed:
        write_passwd(files.passwd, users, owner)
    else:
        _settle(files.passwd, 0o600, owner)
    steps.append((passwd_changed, f"password file {files.seen(files.passwd)} "
                                  f"({len(users)} users)"))
    acl_changed = write_atomic(files.acl, acl_text(result.tables, result.homeassistant is not None),
                               0o600, owner)
    steps.append((acl_changed, f"ACL {files.seen(files.acl)} (each table to its own topics)"))
    conf = conf_text(files, port, kept_bind(files.conf, port))
    result.conf_changed = write_atomic(files.conf, conf)
    steps.append((result.conf_changed, f"Mosquitto config {files.seen(files.conf)} (port "
                                       f"{port}, no anonymous access)"))
    for table in drop:
        if table in known:
            files.table(table).unlink(missing_ok=True)
        steps.append((table in known, f"table {table} removed (its user, its ACL lines, its "
                                      "credentials)"))
    result.access_changed = passwd_changed or acl_changed
    return result


def unconfigure(files: BrokerFiles, purge: bool = False) -> list[str]:
    """Undo `secure_broker`: the drop-in goes (Mosquitto back to Debian's defaults); the users
    and credentials stay unless ``purge``. One line per thing done or kept."""
    said = []
    if files.conf.exists():
        files.conf.unlink()
        said.append(f"done     removed {files.seen(files.conf)}")
    if purge:
        shutil.rmtree(files.folder, ignore_errors=True)
        said.append(f"done     deleted the club's users and credentials {files.seen(files.folder)}")
    elif files.folder.exists():
        said.append(f"kept     the club's users and credentials {files.seen(files.folder)} "
                    f"(--purge deletes them)")
    return said
