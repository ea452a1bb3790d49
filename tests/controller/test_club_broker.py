"""The club's broker, secured (``tabletop install --club``), checked against a real Mosquitto.

The files are made into a scratch folder, then Debian's Mosquitto runs with them and paho
clients try what a table, the club and Home Assistant may and may not do. Mosquitto drops a
publish it does not allow without a word to the sender, so every "not received" is checked
in order: a listener gets the allowed messages and a last, allowed marker, and everything the
ACL should have dropped was sent before that marker; Mosquitto delivers one sender's messages
to a subscriber in order, so had it let one through, it would have arrived first.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt
import pytest

from controller.club_broker import (
    TLS_CONF,
    ClubBroker,
    ClubBrokerError,
    Credentials,
    passwd_current,
    secure_broker,
)
from controller.club_messages import Command
from tests.mosquitto import MOSQUITTO, Broker, free_port

ROOT = Path(__file__).resolve().parents[2]
WAIT = 5.0
"""Seconds for what must happen; on loopback it takes milliseconds."""

pytestmark = pytest.mark.skipif(not Path(MOSQUITTO).exists(),
                                reason="Debian's mosquitto is not installed (make mosquitto)")


class Peer:
    """A paho client on its own thread, keeping what it receives in order."""

    def __init__(self, port: int, username: str | None = None, password: str | None = None,
                 ca: Path | None = None):
        self.received: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._connack: queue.Queue[mqtt.ReasonCode] = queue.Queue()
        self._subacks: queue.Queue[int] = queue.Queue()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        self.client.reconnect_delay_set(30, 30)  # a refused peer does not knock again at once
        if username is not None:
            self.client.username_pw_set(username, password)
        if ca is not None:
            self.client.tls_set(ca_certs=str(ca))
        self.client.on_connect = lambda _c, _u, _f, reason, _p: self._connack.put(reason)
        self.client.on_subscribe = lambda _c, _u, mid, _r, _p: self._subacks.put(mid)
        self.client.on_message = lambda _c, _u, m: self.received.put((m.topic, m.payload))
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self.reason = self._connack.get(timeout=WAIT)

    @property
    def accepted(self) -> bool:
        return not self.reason.is_failure

    def subscribe(self, *topics: str) -> Peer:
        for name in topics:
            _, mid = self.client.subscribe(name, qos=1)
            assert self._subacks.get(timeout=WAIT) == mid
        return self

    def publish(self, name: str, payload: bytes | str = b"x") -> None:
        self.client.publish(name, payload, qos=1).wait_for_publish(WAIT)

    def until(self, name: str, payload: bytes) -> list[tuple[str, bytes]]:
        """Everything received up to and with the message ``name``/``payload``."""
        got: list[tuple[str, bytes]] = []
        while not got or got[-1] != (name, payload):
            got.append(self.received.get(timeout=WAIT))
        return got



@pytest.fixture
def peers() -> Iterator[list[Peer]]:
    made: list[Peer] = []
    yield made
    for peer in made:  # all at once: each client's thread takes up to a second to notice
        peer.client.disconnect()
    for peer in made:
        peer.client.loop_stop()


def login(peers: list[Peer], port: int, who: Credentials | None,
          password: str | None = None, ca: Path | None = None) -> Peer:
    peer = Peer(port, who.username if who else None,
                password if password is not None else who.password if who else None, ca)
    peers.append(peer)
    return peer


def broker_for(folder: Path, made: ClubBroker, port: int) -> Broker:
    """A Mosquitto with these users and this ACL (not started: use it with ``with``)."""
    return Broker(folder / "broker", extra=made.files.access_lines(), port=port)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ClubBroker, int]]:
    """Tables a and b, the club and Home Assistant, on one running Mosquitto."""
    folder = tmp_path_factory.mktemp("club")
    port = free_port()
    made = secure_broker(folder / "mosquitto", ["a", "b"], host="127.0.0.1", port=port,
                         homeassistant=True)
    with broker_for(folder, made, port):
        yield made, port


# --- the files ----------------------------------------------------------------------------------

def test_the_files_a_table_and_mosquitto_read(tmp_path: Path) -> None:
    made = secure_broker(tmp_path / "etc", ["b", "a"], host="club.local")
    files = made.files
    assert sorted(made.tables) == ["a", "b"] and made.homeassistant is None
    a = Credentials.read(files.table("a"))
    assert a == made.tables["a"]
    assert (a.url, a.username, a.table) == ("mqtt://club.local:1883", "table-a", "a")
    assert len(a.password) >= 32 and a.password != made.tables["b"].password
    assert Credentials.read(files.club).username == "club"
    url = urlsplit(a.login_url())
    assert (url.scheme, url.hostname, url.port, url.username, unquote(url.password or "")) == (
        "mqtt", "club.local", 1883, "table-a", a.password)
    for path in (files.table("a"), files.table("b"), files.club, files.passwd, files.acl):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    passwd = files.passwd.read_text()
    assert a.password not in passwd and passwd.count("$7$") == 3
    assert passwd_current(files.passwd, made.users())
    assert not passwd_current(files.passwd, {**made.users(), "table-a": "guessed"})
    conf = files.conf.read_text()
    lines = conf.splitlines()
    at = lines.index("listener 1883")
    assert lines[at:at + 5] == [
        "listener 1883", "allow_anonymous false", f"password_file {files.passwd}",
        f"acl_file {files.acl}", "persistence true"]
    assert "\n#listener 8883\n#cafile " in conf
    acl = files.acl.read_text()
    assert "user table-b\ntopic write tabletop/b/availability\n" in acl
    assert "tabletop/+/set/#" in acl and "user homeassistant" not in acl
    assert list(tmp_path.rglob(".*")) == []  # no temporary file left behind


def test_the_drop_in_is_a_config_mosquitto_runs(tmp_path: Path, peers: list[Peer]) -> None:
    """The generated conf.d file itself, included by a broker: its listener refuses strangers
    and lets a table in."""
    port = free_port()
    made = secure_broker(tmp_path / "etc", ["a"], host="127.0.0.1", port=port)
    extra = f"# password_file: in the drop-in\ninclude_dir {made.files.conf.parent}\n"
    with Broker(tmp_path / "broker", extra=extra):
        assert not login(peers, port, None).accepted
        assert login(peers, port, made.tables["a"]).accepted


def test_the_commented_tls_lines_make_a_tls_listener(tmp_path: Path, peers: list[Peer]) -> None:
    """The drop-in's TLS lines, uncommented into a file of their own as docs/club.md says, with
    certificates made by the openssl commands there: logins and the ACL hold on TLS too."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl")
    certs = tmp_path / "certs"
    certs.mkdir()
    (certs / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for command in (
            ["req", "-x509", *ec, "-days", "3650", "-subj", "/CN=tabletop club CA",
             "-keyout", "club-ca.key", "-out", "club-ca.crt"],
            ["req", *ec, "-subj", "/CN=127.0.0.1", "-keyout", "club.key", "-out", "club.csr"],
            ["x509", "-req", "-in", "club.csr", "-CA", "club-ca.crt", "-CAkey", "club-ca.key",
             "-CAcreateserial", "-days", "825", "-extfile", "san.ext", "-out", "club.crt"]):
        subprocess.run(["openssl", *command], cwd=certs, check=True, capture_output=True)
    plain, tls = free_port(), free_port()
    made = secure_broker(tmp_path / "etc", ["a"], host="127.0.0.1", port=plain)
    commented = [line[1:] for line in made.files.conf.read_text().splitlines()
                 if line.startswith(("#listener", "#cafile", "#certfile", "#keyfile"))]
    assert commented[0] == "listener 8883" and len(commented) == 4
    own = "\n".join(commented).replace("listener 8883", f"listener {tls}").replace(
        "/etc/mosquitto/ca_certificates", str(certs)).replace("/etc/mosquitto/certs", str(certs))
    (made.files.conf.parent / TLS_CONF).write_text(own + "\n")
    extra = f"# password_file: in the drop-in\ninclude_dir {made.files.conf.parent}\n"
    with Broker(tmp_path / "broker", extra=extra):
        table = login(peers, tls, made.tables["a"], ca=certs / "club-ca.crt")
        assert table.accepted
        assert not login(peers, tls, None, ca=certs / "club-ca.crt").accepted
        listener = login(peers, plain, made.club).subscribe("tabletop/#")
        table.publish("tabletop/b/state", b"must not pass")
        table.publish("tabletop/a/state", b"over TLS")
        assert listener.until("tabletop/a/state", b"over TLS") == [
            ("tabletop/a/state", b"over TLS")]


# --- who may connect ----------------------------------------------------------------------------

def test_strangers_and_wrong_passwords_are_refused(club: tuple[ClubBroker, int],
                                                   peers: list[Peer]) -> None:
    made, port = club
    assert not login(peers, port, None).accepted
    assert not login(peers, port, made.tables["a"], password="guessed").accepted
    assert not login(peers, port, made.tables["a"], password=made.tables["b"].password).accepted
    assert login(peers, port, made.tables["a"]).accepted
    assert login(peers, port, made.club).accepted


# --- who may publish what -------------------------------------------------------------------------

def test_a_table_writes_its_own_topics_and_nothing_else(club: tuple[ClubBroker, int],
                                                        peers: list[Peer]) -> None:
    made, port = club
    listener = login(peers, port, made.club).subscribe("tabletop/#")
    ha = login(peers, port, made.homeassistant).subscribe("homeassistant/#")
    table = login(peers, port, made.tables["a"])
    allowed = ["tabletop/a/availability", "tabletop/a/state", "tabletop/a/events",
               "tabletop/a/result", "tabletop/a/response/new_game"]
    forbidden = ["tabletop/b/state", "tabletop/a/set/new_game", "tabletop/a/receipt",
                 "tabletop/a/anything_else", "tabletop/a"]
    for good, bad in zip(allowed, forbidden, strict=True):
        table.publish(bad, b"must not pass")
        table.publish(good, b"ok")
    table.publish("tabletop/a/state", b"marker")
    assert listener.until("tabletop/a/state", b"marker") == [
        *((name, b"ok") for name in allowed), ("tabletop/a/state", b"marker")]

    table.publish("homeassistant/sensor/tabletop_b/state/config", b"must not pass")
    table.publish("homeassistant/status", b"must not pass")
    table.publish("homeassistant/sensor/tabletop_a/state/config", b"{}")
    assert ha.until("homeassistant/sensor/tabletop_a/state/config", b"{}") == [
        ("homeassistant/sensor/tabletop_a/state/config", b"{}")]


def test_a_table_reads_its_commands_and_receipts_only(club: tuple[ClubBroker, int],
                                                      peers: list[Peer]) -> None:
    made, port = club
    table = login(peers, port, made.tables["a"]).subscribe("tabletop/#", "homeassistant/#")
    other = login(peers, port, made.tables["b"]).subscribe("tabletop/b/set/#")
    listener = login(peers, port, made.club).subscribe("tabletop/#")
    command = Command(id="7", players=["anna", "ben"]).model_dump_json().encode()

    login(peers, port, made.tables["b"]).publish("tabletop/b/state", b"{}")
    listener.until("tabletop/b/state", b"{}")  # routed: table a would have it queued by now
    sender = login(peers, port, made.club)
    sender.publish("tabletop/b/set/new_game", command)
    sender.publish("tabletop/b/receipt", b'{"uid": "b/1/1"}')
    sender.publish("tabletop/a/set/new_game", command)
    sender.publish("tabletop/a/receipt", b'{"uid": "a/1/1"}')
    login(peers, port, made.homeassistant).publish("homeassistant/status", b"online")
    assert table.until("homeassistant/status", b"online") == [
        ("tabletop/a/set/new_game", command), ("tabletop/a/receipt", b'{"uid": "a/1/1"}'),
        ("homeassistant/status", b"online")]
    assert other.until("tabletop/b/set/new_game", command) == [
        ("tabletop/b/set/new_game", command)]
    assert json.loads(command)["players"] == ["anna", "ben"]


def test_the_club_and_home_assistant_cannot_speak_for_a_table(club: tuple[ClubBroker, int],
                                                              peers: list[Peer]) -> None:
    made, port = club
    listener = login(peers, port, made.club).subscribe("tabletop/#")
    table = login(peers, port, made.tables["a"]).subscribe("homeassistant/status")
    for who in (made.club, made.homeassistant):
        peer = login(peers, port, who)
        peer.publish("tabletop/a/state", b"must not pass")
        peer.publish("tabletop/a/result", b"must not pass")
        peer.publish("tabletop/a/set/abort", who.username.encode())
        assert listener.until("tabletop/a/set/abort", who.username.encode()) == [
            ("tabletop/a/set/abort", who.username.encode())]
    login(peers, port, made.club).publish("homeassistant/status", b"offline")
    login(peers, port, made.homeassistant).publish("homeassistant/status", b"online")
    assert table.until("homeassistant/status", b"online") == [("homeassistant/status", b"online")]


# --- running it again, removing a table ---------------------------------------------------------

def test_again_keeps_every_password_and_adds_new_tables(tmp_path: Path,
                                                        peers: list[Peer]) -> None:
    port = free_port()
    first = secure_broker(tmp_path / "etc", ["a"], host="127.0.0.1", port=port)
    files = first.files
    before = {p: p.read_bytes() for p in files.folder.rglob("*") if p.is_file()}
    again = secure_broker(tmp_path / "etc", ["a"], host="127.0.0.1", port=port)
    assert [changed for changed, _ in again.steps] == [False] * len(again.steps)
    assert not again.conf_changed and not again.access_changed
    assert {p: p.read_bytes() for p in files.folder.rglob("*") if p.is_file()} == before

    more = secure_broker(tmp_path / "etc", ["c"], host="127.0.0.1", port=port)
    assert sorted(more.tables) == ["a", "c"] and more.access_changed
    assert more.tables["a"] == first.tables["a"] and more.club == first.club
    assert files.table("a").read_bytes() == before[files.table("a")]
    with broker_for(tmp_path, more, port):
        for who in (first.tables["a"], more.tables["c"], first.club):
            assert login(peers, port, who).accepted, who.username


def test_removing_a_table_drops_its_login_and_its_acl(tmp_path: Path,
                                                      peers: list[Peer]) -> None:
    port = free_port()
    made = secure_broker(tmp_path / "etc", ["a", "b"], host="127.0.0.1", port=port)
    with broker_for(tmp_path, made, port) as broker:
        assert login(peers, port, made.tables["b"]).accepted
        after = secure_broker(tmp_path / "etc", remove=["b"], host="127.0.0.1", port=port)
        assert sorted(after.tables) == ["a"] and after.access_changed
        assert (True, "table b removed (its user, its ACL lines, its credentials)") in after.steps
        assert not made.files.table("b").exists()
        assert "table-b" not in made.files.acl.read_text()
        assert "table-b:" not in made.files.passwd.read_text()
        assert broker.process is not None
        broker.process.send_signal(signal.SIGHUP)  # systemctl reload mosquitto
        deadline = time.monotonic() + WAIT
        while login(peers, port, made.tables["b"]).accepted:
            assert time.monotonic() < deadline, "table b may still log in"
            time.sleep(0.1)
        assert login(peers, port, made.tables["a"]).accepted
    gone = secure_broker(tmp_path / "etc", remove=["b"], host="127.0.0.1", port=port)
    assert (False, "table b removed (its user, its ACL lines, its credentials)") in gone.steps


def test_again_keeps_an_address_given_to_the_listener(tmp_path: Path) -> None:
    """An admin who closes the clear port to the network (docs/club.md, TLS) keeps it closed."""
    made = secure_broker(tmp_path / "etc", ["a"])
    conf = made.files.conf
    conf.write_text(conf.read_text().replace("listener 1883\n", "listener 1883 127.0.0.1\n"))
    again = secure_broker(tmp_path / "etc", ["a"])
    assert not again.conf_changed
    assert "\nlistener 1883 127.0.0.1\n" in conf.read_text()


# --- what it refuses ------------------------------------------------------------------------------

@pytest.mark.parametrize(("tables", "remove", "message"), [
    (["Big Table"], [], "--club: table name 'Big Table': 1 to 32 of a-z"),
    (["a/b"], [], "--club: table name 'a/b'"),
    (["#"], [], "--club: table name '#'"),
    ([], ["a+"], "--remove: table name 'a+'"),
    (["a"], ["a"], "table a is both added and removed"),
])
def test_bad_names_change_nothing(tmp_path: Path, tables: list[str], remove: list[str],
                                  message: str) -> None:
    with pytest.raises(ClubBrokerError, match="^" + message.replace("+", r"\+")):
        secure_broker(tmp_path / "etc", tables, remove=remove)
    assert not (tmp_path / "etc").exists()


def test_a_folder_that_cannot_be_written_is_one_clear_line(tmp_path: Path) -> None:
    """A file where the folder should be: refused even for root, unlike a mode."""
    (tmp_path / "etc").write_text("not a folder\n")
    with pytest.raises(ClubBrokerError, match=r"etc/tabletop/tables: cannot write there "
                                              r"\(Not a directory\): run as root"):
        secure_broker(tmp_path / "etc", ["a"])


def test_a_damaged_credential_file_is_named(tmp_path: Path) -> None:
    made = secure_broker(tmp_path / "etc", ["a"])
    made.files.table("a").write_text("[mqtt]\nurl = \n")
    with pytest.raises(ClubBrokerError, match=r"tables/a\.toml: not a credential file .*"
                                              "delete it to make a new password"):
        secure_broker(tmp_path / "etc", ["b"])


# --- the command: tabletop install --club -------------------------------------------------------

FAKE = textwrap.dedent(f"""\
    #!{sys.executable}
    # Stand-in for apt-get, dpkg-query, systemctl, hostname: logs argv, keeps a little state.
    import json, os, sys
    from pathlib import Path

    name, args = Path(sys.argv[0]).name, sys.argv[1:]
    state_file = Path(os.environ["FAKE_STATE"])
    with open(os.environ["FAKE_LOG"], "a") as log:
        log.write(json.dumps([name, *args]) + "\\n")
    state = json.loads(state_file.read_text()) if state_file.exists() else {{}}
    if name == "dpkg-query":
        print("install ok installed" if state.get("apt") else "", end="")
        sys.exit(0 if state.get("apt") else 1)
    elif name == "apt-get":
        state["apt"] = args[0] == "install"
        state["active"] = args[0] == "install"  # Debian starts what it installs
    elif name == "systemctl" and args[0] == "is-active":
        print("active" if state.get("active") else "inactive")
    elif name == "systemctl" and args[0] == "restart":
        state["active"] = True
    elif name == "hostname":
        print("clubhouse")
    state_file.write_text(json.dumps(state))
""")
QUERIES = {"dpkg-query", "hostname", "is-active"}


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, Path]:
    """A scratch root shaped like Debian with Mosquitto's folders, and the stand-ins."""
    root = tmp_path / "root"
    (root / "etc/mosquitto/conf.d").mkdir(parents=True)
    (root / "etc/passwd").write_text(
        f"root:x:0:0:root:/root:/bin/bash\n"
        f"mosquitto:x:{os.getuid()}:{os.getgid()}::/var/lib/mosquitto:/usr/sbin/nologin\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "fake").write_text(FAKE)
    (bin_dir / "fake").chmod(0o755)
    for name in ("apt-get", "dpkg-query", "systemctl", "hostname"):
        (bin_dir / name).symlink_to(bin_dir / "fake")
    return {"root": root, "bin": bin_dir, "log": tmp_path / "log", "state": tmp_path / "state"}


def tabletop(machine: dict[str, Path], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{machine['bin']}{os.pathsep}{os.environ['PATH']}",
           "FAKE_LOG": str(machine["log"]), "FAKE_STATE": str(machine["state"])}
    machine["log"].write_text("")
    return subprocess.run([sys.executable, "-m", "controller.cli", *args, "--root",
                           str(machine["root"])],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)


def changing(machine: dict[str, Path]) -> list[list[str]]:
    logged = [json.loads(line) for line in machine["log"].read_text().splitlines()]
    return [c for c in logged if c[0] not in QUERIES and c[1] not in QUERIES]


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() if p.is_file() else b""
            for p in sorted(root.rglob("*"))}


def test_install_club_twice_remove_then_uninstall(machine: dict[str, Path]) -> None:
    root = machine["root"]
    before = snapshot(root)
    first = tabletop(machine, "install", "--club", "a,b")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("tabletop install: the club's broker (Mosquitto in "
                                   "/etc/mosquitto) for a, b\n")
    assert changing(machine) == [
        ["apt-get", "install", "-y", "--no-install-recommends", "mosquitto"],
        ["systemctl", "restart", "mosquitto"]]
    for line in ("  done     mosquitto from the distribution",
                 "  done     table a: user table-a, credentials in "
                 "/etc/mosquitto/tabletop/tables/a.toml",
                 "  done     Mosquitto config /etc/mosquitto/conf.d/tabletop.conf (port 1883, "
                 "no anonymous access)",
                 "table b's Pi takes /etc/mosquitto/tabletop/tables/b.toml (docs/club.md, "
                 "security)"):
        assert line in first.stdout.splitlines(), (line, first.stdout)
    etc = root / "etc/mosquitto"
    assert "password_file /etc/mosquitto/tabletop/passwd\n" in (
        etc / "conf.d/tabletop.conf").read_text()
    table_a = Credentials.read(etc / "tabletop/tables/a.toml")
    assert table_a.url == "mqtt://clubhouse.local:1883"
    manifest = json.loads((root / "etc/tabletop/install.json").read_text())
    assert (manifest["club"], manifest["apt"]) == ("/etc/mosquitto", ["mosquitto"])

    installed = snapshot(root)
    second = tabletop(machine, "install", "--club", "a,b")
    assert second.returncode == 0, second.stderr
    steps = [line for line in second.stdout.splitlines() if line.startswith("  ")]
    assert steps and all(line.startswith("  already") for line in steps), second.stdout
    assert changing(machine) == [] and snapshot(root) == installed

    removed = tabletop(machine, "install", "--remove", "b")
    assert removed.returncode == 0, removed.stderr
    assert changing(machine) == [["systemctl", "reload", "mosquitto"]]
    assert not (etc / "tabletop/tables/b.toml").exists()
    assert Credentials.read(etc / "tabletop/tables/a.toml") == table_a

    gone = tabletop(machine, "uninstall", "--purge")
    assert gone.returncode == 0, gone.stderr
    assert "  done     removed /etc/mosquitto/conf.d/tabletop.conf" in gone.stdout
    assert changing(machine) == [["apt-get", "remove", "-y", "mosquitto"]]
    assert snapshot(root) == before


@pytest.mark.parametrize(("args", "message"), [
    (("--club", "a,Big"), "tabletop install: --club: table name 'Big': 1 to 32 of a-z"),
    (("--club", "a,,b"), "tabletop install: --club takes table names separated by commas"),
    (("--club", "a", "--profile", "tiki_topple"), "tabletop install: give --profile"),
    ((), "tabletop install: give --profile (this Pi is a table) or --club"),
])
def test_install_club_refuses_in_one_line_and_changes_nothing(
        machine: dict[str, Path], args: tuple[str, ...], message: str) -> None:
    before = snapshot(machine["root"])
    done = tabletop(machine, "install", *args)
    assert done.returncode == 2 and done.stderr.startswith(message), done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert changing(machine) == [] and snapshot(machine["root"]) == before
