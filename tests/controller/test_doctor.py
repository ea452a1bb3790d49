"""`tabletop doctor` against the simulator and against broken setups.

Broken machines are built honestly: a scratch root folder holds the system files the checks
read (no /dev/spidev0.0, a small spidev bufsiz, a 32-bit OS), the hubs are the simulator's
virtual hubs on real ptys running the real firmware (made to report another version, or a copy
of the firmware speaking an older protocol), a read-only journal is a read-only bind mount, a
damaged one has garbage in it, and the service's page is a real `tabletop sim` on a port.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from controller.cli import build_parser, main
from controller.cli import doctor as doctor_cmd
from controller.cli.virtual.table import virtual_hubs
from controller.compose import load_board
from controller.setup import doctor
from controller.setup.token import SHIPPED_DEFAULT, install_token
from hardware.firmware_files import firmware_dir, firmware_version
from hardware.profile import find_profile
from hardware.protocol import PROTOCOL_VERSION
from simulator.firmware_runtime import load_firmware
from simulator.virtual_table import VirtualTable

TABLETOP = str(Path(sys.executable).with_name("tabletop"))
FIX = " — fix: "


def args_of(*argv: str):
    return build_parser().parse_args(["doctor", *argv])


def run_doctor(capsys, host: doctor.Host, *argv: str, only=None) -> tuple[int, list[str]]:
    code = doctor_cmd.run(args_of(*argv), host, only)
    return code, capsys.readouterr().out.splitlines()


def profile_with(tmp_path: Path, *, driver: str = "neopixel_spi", count: int = 24,
                 extra: str = "") -> str:
    """The shipped Tiki Topple profile with another LED driver, LED count or top-level keys."""
    text = find_profile("tiki_topple").read_text(encoding="utf-8")
    text, drivers = re.subn(r'(?m)^driver = "\w+"', f'driver = "{driver}"', text, count=1)
    text, counts = re.subn(r"(?m)^count = \d+", f"count = {count}", text, count=1)
    assert drivers == counts == 1, "the [leds] table of the shipped profile changed"
    path = tmp_path / "board.toml"
    path.write_text(extra + text, encoding="utf-8")
    return str(path)


def lines_of(lines: list[str], text: str) -> list[str]:
    return [line for line in lines if text in line]


# -- the simulator: ready ---------------------------------------------------------------------

def test_the_simulated_table_is_ready_and_every_hub_check_passes(capsys) -> None:
    code = main(["doctor", "--simulate"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0, "\n".join(out)
    assert out[-1] == "ready: the table can be played"
    hub = lines_of(out, "hub 'hub'")
    assert hub[0].startswith("✓ hub 'hub' on ") and firmware_version() in hub[0]
    assert f"protocol {PROTOCOL_VERSION}" in hub[0]
    board = load_board("tiki_topple")
    assert hub[1] == (f"✓ hub 'hub': its {len(board.readers)} readers draw up to 448 mA "
                      "(3 fields on at once), within a USB port's 500 mA")
    assert hub[2] == f"✓ hub 'hub': all {len(board.readers)} readers pass the self-test"
    assert lines_of(out, f"LED strip answers (recording, simulated, {board.leds.count} LEDs"
                    )[0].startswith("✓")
    for skipped in ("GPIO: skipped: simulated", "service: skipped: simulated",
                    "status page: skipped: simulated"):
        assert [line for line in out if line.startswith(f"- {skipped}")], skipped
    assert not [line for line in out if line.startswith("✗")]


def test_the_real_command_prints_json_and_exits_0_on_the_simulator(tmp_path) -> None:
    done = subprocess.run([TABLETOP, "doctor", "--simulate", "--json", "--profile", "topiary"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["ready"] is True and report["simulated"] is True
    statuses = {(c["check"], c["status"]) for c in report["checks"]}
    for hub in ("hub1", "hub2"):  # Topiary's board has two hubs
        assert (f"hub:{hub}", "ok") in statuses and (f"hub:{hub}:readers", "ok") in statuses
    assert all(c["status"] != "fail" for c in report["checks"])


def test_the_checks_are_a_library_without_the_command_line(tmp_path) -> None:
    """``controller.setup.doctor.examine`` returns the findings; nothing is printed."""
    report = doctor.examine(doctor.Host(root=tmp_path), virtual=virtual_hubs,
                            only=["hubs", "journal", "token"])
    assert report.ready and report.simulated and report.profile.game == "tiki_topple"
    assert [f.check for f in report.findings if f.status == "ok"] == [
        "hub:hub", "hub:hub:power", "hub:hub:readers", "journal", "disk", "token"]
    assert report.to_json()["checks"][0]["check"] == "hub:hub"


def test_a_dead_reader_fails_its_hubs_self_test(tmp_path, capsys) -> None:
    table = VirtualTable.for_game("tiki_topple", link_path=tmp_path / "hub")
    table.hub.firmware_version = firmware_version()
    table.kill_reader("stack:4")
    with table:
        code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--url", table.url,
                               only=["hubs"])
    assert code == 1
    (line,) = lines_of(out, "self-test failed")
    assert line.startswith("✗ hub 'hub': self-test failed: reader 3 (stack:4) no_response")
    assert FIX + "check those readers' wiring" in line


# -- wrong firmware ---------------------------------------------------------------------------

def test_a_hub_with_another_firmware_version_fails_naming_hub_flash(tmp_path, capsys) -> None:
    table = VirtualTable.for_game("tiki_topple", link_path=tmp_path / "hub")
    table.hub.firmware_version = "tabletop-hub 2.9.0"
    with table:
        code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--url", table.url,
                               only=["hubs"])
    assert code == 1
    (line,) = lines_of(out, "tabletop-hub 2.9.0")
    assert line.startswith(f"✗ hub 'hub' on {table.url}: tabletop-hub 2.9.0, protocol "
                           f"{PROTOCOL_VERSION}")
    assert f"this tabletop ships {firmware_version()!r}" in line
    assert f"{FIX}tabletop hub flash --port {table.url}" in line
    assert out[-1].startswith("not ready: 1 problem")


def test_a_hub_speaking_an_older_protocol_fails_naming_hub_flash(tmp_path, capsys) -> None:
    old = tmp_path / "firmware"
    shutil.copytree(firmware_dir(), old)
    protocol = old / "protocol.py"
    text = protocol.read_text(encoding="utf-8")
    current = f"PROTOCOL_VERSION = {PROTOCOL_VERSION}"
    assert current in text
    protocol.write_text(text.replace(current, f"PROTOCOL_VERSION = {PROTOCOL_VERSION - 1}"))
    table = VirtualTable.for_game("tiki_topple", link_path=tmp_path / "hub")
    table.hub.firmware = load_firmware(old)
    with table:
        code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--url", table.url,
                               only=["hubs"])
    assert code == 1
    (line,) = lines_of(out, "hub 'hub'")
    assert line.startswith(f"✗ hub 'hub': the hub on {table.url} speaks protocol "
                           f"{PROTOCOL_VERSION - 1}")
    assert f"{FIX}tabletop hub flash --port {table.url}" in line


def test_a_missing_hub_port_fails_with_where_to_look(tmp_path, capsys) -> None:
    code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--url", str(tmp_path / "none"),
                           only=["hubs"])
    assert code == 1
    assert out[1] == (f"✗ hub 'hub': {tmp_path / 'none'} not found{FIX}plug the hub in with a "
                      "USB data cable; `ls /dev/serial/by-id/` lists the hubs (set its url in "
                      "the profile, or --url)")


def test_a_port_where_nothing_answers_fails_within_the_timeout(tmp_path, capsys) -> None:
    master, slave = os.openpty()  # a serial port with nothing behind it
    port = os.ttyname(slave)
    try:
        started = time.monotonic()
        code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--url", port,
                               only=["hubs"])
    finally:
        os.close(master)
        os.close(slave)
    assert code == 1 and time.monotonic() - started < doctor.HELLO_SECONDS + 3
    assert out[1].startswith(f"✗ hub 'hub': no hello from {port} within 5 s")
    assert f"{FIX}is it flashed with tabletop's firmware? tabletop hub flash --port {port}" \
        in out[1]


# -- SPI, GPIO, OS on a scratch root ------------------------------------------------------------

def test_no_spi_device_fails_naming_raspi_config(tmp_path, capsys) -> None:
    code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--profile",
                           profile_with(tmp_path), only=["spi"])
    assert code == 1
    assert out[1] == ("✗ SPI is off: no /dev/spidev0.0" + FIX + "sudo raspi-config nonint "
                      "do_spi 0 (or dtparam=spi=on in /boot/firmware/config.txt), then reboot")


def spi_root(tmp_path: Path, bufsiz: int) -> Path:
    root = tmp_path / "root"
    (root / "dev").mkdir(parents=True)
    (root / "dev" / "spidev0.0").touch()
    params = root / "sys" / "module" / "spidev" / "parameters"
    params.mkdir(parents=True)
    (params / "bufsiz").write_text(f"{bufsiz}\n")
    return root


@pytest.mark.parametrize(("bufsiz", "pieces", "count", "ready"), [
    (4096, None, 165, True),      # 24 * 165 + 128 = 4088 bytes: the most the defaults take
    (4096, None, 166, False),     # 4112
    (65536, None, 300, False),    # the kernel takes it, but Blinka cuts it in 4096-byte pieces
    (65536, "65536", 300, True),  # what tabletop install sets
    (4096, "65536", 300, False),
])
def test_one_led_frame_must_go_to_spi_in_one_piece(tmp_path, capsys, monkeypatch, bufsiz,
                                                    pieces, count, ready) -> None:
    if pieces is None:
        monkeypatch.delenv("SPI_BUFSIZE", raising=False)
    else:
        monkeypatch.setenv("SPI_BUFSIZE", pieces)
    root = spi_root(tmp_path, bufsiz)
    code, out = run_doctor(capsys, doctor.Host(root=root), "--profile",
                           profile_with(tmp_path, count=count), only=["spi"])
    assert out[1] == "✓ SPI enabled (/dev/spidev0.0)"
    need = 8 * 3 * count + 2 * 64
    assert code == (0 if ready else 1), out
    if bufsiz >= need:
        assert out[2] == f"✓ SPI buffer: spidev.bufsiz {bufsiz} bytes ≥ {need} for {count} LEDs"
    else:
        assert out[2].startswith(f"✗ SPI buffer too small: spidev.bufsiz is {bufsiz} bytes, "
                                 f"{count} LEDs need {need}{FIX}add spidev.bufsiz=65536")
    chunk = int(pieces or 4096)
    if need <= 4096 and pieces is None:
        assert len(out) == 4  # no line about pieces: the defaults carry the frame
    elif chunk >= need:
        assert out[3] == f"✓ SPI pieces: SPI_BUFSIZE={pieces} ≥ {need} bytes for {count} LEDs"
    else:
        said = f"SPI_BUFSIZE={pieces}" if pieces else "SPI_BUFSIZE unset"
        assert out[3] == (f"✗ SPI pieces too small: Blinka writes SPI in {chunk}-byte pieces "
                          f"({said}), {count} LEDs need {need} in one{FIX}Environment="
                          "SPI_BUFSIZE=65536 in the [Service] of /etc/systemd/system/"
                          "tabletop.service, then sudo systemctl daemon-reload && sudo "
                          "systemctl restart tabletop")


def test_the_pieces_come_from_the_installed_units_environment(tmp_path, capsys,
                                                              monkeypatch) -> None:
    monkeypatch.setenv("SPI_BUFSIZE", "65536")  # doctor's own: not what the service gets
    root = spi_root(tmp_path, 65536)
    unit = root / doctor.UNIT.lstrip("/")
    unit.parent.mkdir(parents=True)
    profile = profile_with(tmp_path, count=300)
    text = (f"[Service]\nExecStart=/opt/tabletop/bin/tabletop run --profile {profile} "
            f"--data {tmp_path}\n")
    unit.write_text(text)
    code, out = run_doctor(capsys, doctor.Host(root=root), only=["spi"])
    assert code == 1 and out[3].startswith("✗ SPI pieces too small") and "unset" in out[3]
    unit.write_text(text + 'Environment="SPI_BUFSIZE=65536" OTHER=1\n')
    code, out = run_doctor(capsys, doctor.Host(root=root), only=["spi"])
    assert code == 0 and out[3] == "✓ SPI pieces: SPI_BUFSIZE=65536 ≥ 7328 bytes for 300 LEDs"


def test_spi_bytes_is_what_neopixel_spi_really_writes() -> None:
    """The figure above, measured on the library itself where the pi extra is installed."""
    neopixel_spi = pytest.importorskip("neopixel_spi")

    class Bus:
        frequency = 6_400_000

        def __init__(self) -> None:
            self.written: list[int] = []

        def try_lock(self) -> bool:
            return True

        def unlock(self) -> None:
            pass

        def configure(self, **settings) -> None:
            pass

        def write(self, data, start=0, end=None) -> None:
            self.written.append(len(data[start:end]))

    bus = Bus()
    strip = neopixel_spi.NeoPixel_SPI(bus, 200, auto_write=False)
    strip.show()
    assert bus.written[-1] == doctor.spi_bytes(200)


def test_no_gpio_chip_fails(tmp_path, capsys) -> None:
    code, out = run_doctor(capsys, doctor.Host(root=tmp_path), only=["gpio"])
    assert code == 1 and out[1].startswith("✗ GPIO: no /dev/gpiochip0")


def os_root(tmp_path: Path, codename: str) -> Path:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "os-release").write_text(
        f'PRETTY_NAME="Debian GNU/Linux ({codename})"\nVERSION_CODENAME={codename}\n')
    (tmp_path / "proc" / "device-tree").mkdir(parents=True)
    (tmp_path / "proc" / "device-tree" / "model").write_text("Raspberry Pi 4 Model B\x00")
    return tmp_path


@pytest.mark.parametrize(("machine", "bits", "codename", "mark", "said"), [
    ("aarch64", 64, "trixie", "✓", "(64-bit), Raspberry Pi 4 Model B"),
    ("aarch64", 64, "bullseye", "!", "not a release tabletop is checked on"),
    ("armv7l", 32, "bookworm", "✗", "32-bit Raspberry Pi OS is not supported"),
    ("aarch64", 32, "bookworm", "✗", "(32-bit), Raspberry Pi 4 Model B: 32-bit Raspberry Pi"),
])
def test_the_os_line(tmp_path, capsys, machine, bits, codename, mark, said) -> None:
    host = doctor.Host(root=os_root(tmp_path, codename), machine=machine, python_bits=bits)
    code, out = run_doctor(capsys, host, only=["os"])
    assert out[1].startswith(f"{mark} Debian GNU/Linux ({codename}), {machine}")
    assert said in out[1] and code == (1 if mark == "✗" else 0)


# -- the journal ------------------------------------------------------------------------------

def test_a_read_only_journal_folder_fails(tmp_path, run_read_only) -> None:
    """Honestly read-only: a read-only bind mount as root (root ignores file modes), else a
    folder without write permission."""
    data = tmp_path / "data"
    data.mkdir()
    install_token(data)
    command = [TABLETOP, "doctor", "--simulate", "--data", str(data)]
    done = run_read_only(data, command)
    assert done.returncode == 1, done.stdout + done.stderr
    (line,) = lines_of(done.stdout.splitlines(), "journal:")
    assert line.startswith(f"✗ journal: {data} cannot be written (")
    assert FIX + "make it writable by the service's user, or give another --data" in line


def test_a_damaged_journal_fails_and_is_left_where_it_is(tmp_path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    journal = data / "journal.sqlite3"
    db = sqlite3.connect(journal)
    db.execute("CREATE TABLE t (x)")
    db.executemany("INSERT INTO t VALUES (?)", [("x" * 200,)] * 200)
    db.commit()
    db.close()
    damaged = bytearray(journal.read_bytes())
    damaged[4096:8192] = os.urandom(4096)  # a garbage page, as a failing SD card leaves it
    journal.write_bytes(bytes(damaged))
    code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--data", str(data),
                           only=["journal"])
    assert code == 1
    (line,) = lines_of(out, "is damaged")
    assert line.startswith(f"✗ journal {journal} is damaged (")
    assert f"{FIX}stop the service, then tabletop journal recover --data {data}" in line
    assert journal.read_bytes() == bytes(damaged)  # doctor looks, never moves or repairs
    assert sorted(p.name for p in data.iterdir()) == ["journal.sqlite3"]


def test_a_sound_journal_and_its_disk(tmp_path, capsys) -> None:
    from controller.journal import Journal

    data = tmp_path / "data"
    data.mkdir()
    Journal(data / "journal.sqlite3").close()
    code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--data", str(data),
                           only=["journal"])
    assert code == 0
    assert out[1:3] == [f"✓ journal folder {data} is writable",
                        "✓ journal journal.sqlite3 is sound (SQLite quick_check)"]
    free = shutil.disk_usage(data).free / 2**20
    assert out[3].endswith("MB free on the journal's disk")
    assert abs(float(out[3].split()[1].replace(",", "")) - free) < 50


# -- the token --------------------------------------------------------------------------------

def test_the_shipped_default_token_fails(tmp_path, capsys) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "web-token").write_text(SHIPPED_DEFAULT + "\n")
    (data / "web-token").chmod(0o600)
    code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--data", str(data),
                           only=["token"])
    assert code == 1
    assert out[1] == (f"✗ token: {data / 'web-token'} holds a token published in the "
                      f"repository{FIX}delete {data / 'web-token'}; the next start (or tabletop "
                      "token) makes a new one")


def test_a_profile_with_the_shipped_token_fails(tmp_path, capsys) -> None:
    profile = profile_with(tmp_path, driver="neopixel",
                           extra=f'web_token = "{SHIPPED_DEFAULT}"\n')
    code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--profile", profile,
                           "--data", str(tmp_path), only=["token"])
    assert code == 1 and "sets a token published in the repository" in out[1]
    assert FIX + "remove web_token from the profile" in out[1]


def test_the_installs_own_token_passes(tmp_path, capsys) -> None:
    install_token(tmp_path)
    code, out = run_doctor(capsys, doctor.Host(root=tmp_path), "--data", str(tmp_path),
                           only=["token"])
    assert code == 0 and out[1].startswith("✓ token: the install's own")


# -- the service, through its page ----------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fake_systemd(tmp_path: Path, state: str, port: int) -> doctor.Host:
    """A root with systemd's marker folder and an installed unit, and a real `systemctl`
    script on PATH that answers ``state``."""
    root = tmp_path / "root"
    (root / "run" / "systemd" / "system").mkdir(parents=True)
    unit = root / doctor.UNIT.lstrip("/")
    unit.parent.mkdir(parents=True)
    unit.write_text(f"[Service]\nExecStart=/opt/tabletop/bin/tabletop run --profile "
                    f"tiki_topple --data {tmp_path / 'data'} --port {port}\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "systemctl"
    script.write_text(f"#!/bin/sh\necho '{state}'\n[ '{state}' = active ]\n")
    script.chmod(0o755)

    def run(command):
        return subprocess.run([str(bin_dir / command[0]), *command[1:]], capture_output=True,
                              text=True, check=False)
    return doctor.Host(root=root, run=run)


def test_a_stopped_service_fails(tmp_path, capsys) -> None:
    host = fake_systemd(tmp_path, "failed", free_port())
    code, out = run_doctor(capsys, host, only=["service", "page"])
    assert code == 1
    assert out[1] == ("✗ service tabletop is failed" + FIX + "sudo systemctl start tabletop; "
                      "journalctl -u tabletop -n 20 says why it stopped")
    assert out[2].startswith("- status page: nothing answers on port")


def test_a_running_service_is_asked_for_its_hubs_not_its_port(tmp_path, capsys) -> None:
    """A real `tabletop sim` serves the page; doctor reads the hubs and LEDs from it (the
    service holds the hub's port). Its virtual hub says the simulator's own firmware name,
    so doctor reports it as not ours."""
    port = free_port()
    sim = subprocess.Popen([TABLETOP, "sim", "--port", str(port), "--data",
                            str(tmp_path / "data")], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status = json.load(urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/status", timeout=1))
                if all(hub["connected"] for hub in status["hardware"]["hubs"]):
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "tabletop sim did not come up"
            time.sleep(0.2)
        host = fake_systemd(tmp_path, "active", port)
        code, out = run_doctor(capsys, host, only=["service", "page", "hubs", "leds"])
    finally:
        sim.terminate()
        sim.wait(10)
    assert out[1] == "✓ service tabletop is running"
    assert out[2].startswith("✓ status page answers on http://") and out[2].endswith(f":{port}/")
    (hub,) = lines_of(out, "(seen by the service)")
    assert hub.startswith("✗ hub 'hub' on ") and "tabletop-hub (simulated)" in hub
    assert f"this tabletop ships {firmware_version()!r}" in hub
    board = load_board("tiki_topple")
    assert f"✓ hub 'hub': all {len(board.readers)} readers ok" in out
    assert lines_of(out, f"LED strip: {board.leds.count} LEDs, driven by the running service"
                    )[0][0] == "✓"
    assert code == 1


def test_a_whole_run_on_a_bare_machine_names_every_problem(tmp_path, capsys) -> None:
    """Everything real but the root: no OS files, no SPI, no GPIO, no hub, an installed unit
    whose user is not the one running doctor."""
    data = tmp_path / "data"
    unit = tmp_path / doctor.UNIT.lstrip("/")
    unit.parent.mkdir(parents=True)
    unit.write_text(f"[Service]\nUser=tabletop\nExecStart=/opt/tabletop/bin/tabletop run "
                    f"--profile tiki_topple --data {data} --url {tmp_path / 'no-hub'}\n")
    host = doctor.Host(root=tmp_path, machine="aarch64", user="pi")
    code, out = run_doctor(capsys, host)
    assert code == 1
    assert out[0] == f"tabletop doctor: Tiki Topple (tiki_topple.toml), data {data}"
    assert out[1].startswith("! doctor runs as pi, the service as tabletop")
    failed = [line for line in out if line.startswith("✗")]
    assert any(line.startswith("✗ GPIO: no /dev/gpiochip0") for line in failed)
    assert any(line.startswith(f"✗ hub 'hub': {tmp_path / 'no-hub'} not found")
               for line in failed)
    assert any(line.startswith(f"! journal: {data} does not exist yet") for line in out)
    assert all(FIX in line for line in failed)
    assert out[-1] == f"not ready: {len(failed)} problem{'s' * (len(failed) != 1)} (each with " \
                      "its fix above)"


def test_doctor_reads_the_unit_tabletop_install_writes(tmp_path) -> None:
    """The profile, data folder, port and user come from the very unit the installer makes."""
    from controller.setup.install import unit_text

    unit = tmp_path / doctor.UNIT.lstrip("/")
    unit.parent.mkdir(parents=True)
    unit.write_text(unit_text(user="tabletop", venv=Path("/opt/tabletop"), profile="topiary",
                              data=Path("/var/lib/tabletop"), port=8123))
    installed = doctor.installed_unit(doctor.Host(root=tmp_path))
    assert (installed.profile, installed.data, installed.port, installed.urls, installed.user
            ) == ("topiary", "/var/lib/tabletop", 8123, (), "tabletop")
    assert isinstance(installed.environment, dict)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root checks for the service's user")
def test_root_checks_devices_and_files_for_the_services_user(tmp_path, capsys) -> None:
    """`sudo tabletop doctor`: root may open everything, the service's user (here the real
    account nobody) may not, until the devices and files are given to it."""
    import pwd

    nobody = pwd.getpwnam("nobody")
    root = spi_root(tmp_path, 65536)
    device = root / "dev" / "spidev0.0"
    device.chmod(0o660)
    data = tmp_path / "data"
    data.mkdir()
    install_token(data)
    unit = root / doctor.UNIT.lstrip("/")
    unit.parent.mkdir(parents=True)
    unit.write_text(f"[Service]\nUser=nobody\nExecStart=/opt/tabletop/bin/tabletop run "
                    f"--profile {profile_with(tmp_path)} --data {data}\n")
    host = doctor.Host(root=root, user="root")
    code, out = run_doctor(capsys, host, only=["spi", "journal", "token"])
    assert code == 1
    assert "✗ SPI: /dev/spidev0.0 cannot be opened by nobody" + FIX + "sudo usermod -aG spi " \
           "nobody, then log in again (or restart the service)" in out
    assert f"✗ journal: {data} cannot be written by nobody{FIX}sudo chown -R nobody: {data}" \
           in out
    assert (f"✗ token: {data / 'web-token'} cannot be read by nobody{FIX}sudo chown nobody: "
            f"{data / 'web-token'}") in out
    for path in (device, data, data / "web-token"):
        os.chown(path, nobody.pw_uid, -1)
    code, out = run_doctor(capsys, host, only=["spi", "journal", "token"])
    assert code == 0, out
    assert "✓ SPI enabled (/dev/spidev0.0)" in out
    assert f"✓ journal folder {data} is writable by nobody" in out


def test_each_hubs_readers_are_checked_against_their_supply() -> None:
    """The peak is the largest field class the hub announces (100 mA each, the MFRC522 data
    sheet's maximum) plus 13.5 mA per chip; against the supply the profile states, or else a
    USB port's 500 mA."""
    hub = load_board("tiki_topple").hub
    small = doctor.supply_finding(hub, ((0, 3, 6), (1, 4, 7), (2, 5, 8), (9, 10)), 11)
    assert small.status == "ok" and "448 mA (3 fields on at once)" in small.what
    assert "within a USB port's 500 mA" in small.what
    big = ((0, 1, 2, 3, 4, 5, 6, 7), (8, 9, 10))  # eight fields on at once: 948.5 mA
    unstated = doctor.supply_finding(hub, big, 11)
    assert unstated.status == "warn" and "more than a USB port gives (500 mA)" in unstated.what
    assert "supply_ma" in unstated.fix
    stated = dataclasses.replace(hub, supply_ma=800)
    over = doctor.supply_finding(stated, big, 11)
    assert over.status == "fail" and "948 mA" in over.what and "800 mA supply" in over.what
    enough = doctor.supply_finding(dataclasses.replace(hub, supply_ma=2000), big, 11)
    assert enough.status == "ok" and "within its 2,000 mA supply" in enough.what
    every = doctor.supply_finding(hub, (), 11)  # no schedule: every field on
    assert "1,248 mA (11 fields on at once)" in every.what
