"""The table's token: one per install, made on first start, readable by its owner only, and
never one anyone can read in the repository."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from controller.cli.token_cmd import table_token
from controller.compose import load_board
from controller.errors import UserError
from controller.setup.token import SHIPPED_DEFAULT, TOKEN_FILE, install_token, published_tokens
from hardware.profile import find_profile

GAMES = ("tiki_topple", "topiary", "hanging_gardens", "on_top", "trapper")


@pytest.mark.parametrize("game", GAMES)
def test_no_shipped_profile_names_a_token(game: str) -> None:
    """Before: all five shipped ``web_token = "change-me-before-game-night"``."""
    assert "web_token" not in find_profile(game).read_text()
    assert load_board(game).web_token is None


def test_the_install_token_is_made_once_private_and_shown_again(cli, tmp_path) -> None:
    code, out, _ = cli("token", "--data", str(tmp_path))
    token = out.strip()
    assert code == 0 and len(token) >= 20 and token not in published_tokens()
    path = tmp_path / TOKEN_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert cli("token", "--data", str(tmp_path))[1].strip() == token
    other = tmp_path / "other"
    other.mkdir()
    assert install_token(other)[0] != token  # per install


def test_the_token_is_printed_once_when_made(capsys, tmp_path) -> None:
    profile = load_board("tiki_topple")
    token = table_token(profile, tmp_path)
    first = capsys.readouterr().out
    assert token in first and "tabletop token" in first
    assert table_token(profile, tmp_path) == token
    assert token not in capsys.readouterr().out


def test_a_token_file_others_can_read_is_made_private(tmp_path) -> None:
    path = tmp_path / TOKEN_FILE
    path.write_text("a-token-of-my-own\n")
    path.chmod(0o644)
    assert install_token(tmp_path) == ("a-token-of-my-own", False)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_damaged_token_file_is_one_clear_line(tmp_path) -> None:
    (tmp_path / TOKEN_FILE).write_text("\n")
    with pytest.raises(UserError, match="damaged"):
        install_token(tmp_path)


def shipped_profile_with(tmp_path: Path, token: str) -> Path:
    text = find_profile("tiki_topple").read_text()
    text = text.replace('driver = "neopixel_spi"', 'driver = "recording"')
    text = text.replace('pin_factory = "lgpio"', 'pin_factory = "mock"')
    text = text.replace("settle_ms = 400", f'settle_ms = 400\nweb_token = "{token}"', 1)
    path = tmp_path / "profile.toml"
    path.write_text(text)
    return path


def test_run_refuses_a_token_published_in_the_repository(cli, tmp_path) -> None:
    """Before: the service started with the shipped token without a word."""
    profile = shipped_profile_with(tmp_path, SHIPPED_DEFAULT)
    data = tmp_path / "data"
    code, _, err = cli("run", "--profile", str(profile), "--data", str(data),
                       "--url", str(tmp_path / "no-hub"))
    assert code == 2 and "published in the repository" in err
    assert len(err.strip().splitlines()) == 1
    assert not (data / "journal.sqlite3").exists()  # refused before anything was opened


def test_a_profile_may_name_its_own_token(tmp_path) -> None:
    from hardware.profile import load_profile

    profile = load_profile(shipped_profile_with(tmp_path, "our-own-secret-42"))
    assert table_token(profile, tmp_path) == "our-own-secret-42"
    assert not (tmp_path / TOKEN_FILE).exists()
