"""games/core/datafile.py: every check of a data file names the file and the field it refuses."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from games.core.datafile import (
    by_player_count,
    field,
    load_toml,
    whole_number,
    whole_numbers,
    words,
)
from games.core.errors import DataFileError

WHERE = "box.toml"


def toml(text: str) -> dict[str, Any]:
    return tomllib.loads(text)


def refusal(check: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(DataFileError) as error:
        check(*args, **kwargs)
    message = str(error.value)
    assert message.startswith(f"{WHERE}: "), message
    return message.removeprefix(f"{WHERE}: ")


def test_load_toml_names_a_missing_or_broken_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match=r"nowhere\.toml is missing"):
        load_toml(tmp_path / "nowhere.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[grid\n")
    with pytest.raises(DataFileError, match=r"broken\.toml is not valid TOML"):
        load_toml(broken)


def test_a_dotted_key_reaches_into_sub_tables_and_errors_name_the_path() -> None:
    data = toml("[grid]\nsize = 5\n[grid.inner]\nname = 'x'\n")
    assert field(data, "grid.size", int, WHERE) == 5
    assert field(data, "grid.inner.name", str, WHERE) == "x"
    assert refusal(field, data, "grid.rows", int, WHERE) == "missing field 'grid.rows'"
    assert refusal(field, data, "tiles.size", int, WHERE) == "missing field 'tiles'"
    assert refusal(field, data, "grid.size.x", int, WHERE) == (
        "field 'grid.size' must be dict, not int")
    assert refusal(field, data, "grid.inner.name", int, WHERE) == (
        "field 'grid.inner.name' must be int, not str")


def test_a_bool_is_not_an_int() -> None:
    assert refusal(field, toml("size = true"), "size", int, WHERE) == (
        "field 'size' must be int, not bool")


def test_whole_number() -> None:
    data = toml("[supply]\nstones = 20\nzero = 0\nflag = true\ntext = '3'\n")
    assert whole_number(data, "supply.stones", WHERE, 1, 21) == 20
    assert whole_number(data, "supply.zero", WHERE) == 0
    assert refusal(whole_number, data, "supply.zero", WHERE, 1) == (
        "supply.zero must be at least 1, not 0")
    assert refusal(whole_number, data, "supply.stones", WHERE, 1, 9) == (
        "supply.stones must be from 1 to 9, not 20")
    assert refusal(whole_number, data, "supply.flag", WHERE) == (
        "field 'supply.flag' must be int, not bool")
    assert refusal(whole_number, data, "supply.text", WHERE) == (
        "field 'supply.text' must be int, not str")
    assert refusal(whole_number, data, "supply.rows", WHERE) == "missing field 'supply.rows'"


def test_whole_numbers() -> None:
    data = toml("sides = [3, 3, 5]\nnone = []\nmixed = [1, true]\nflat = 3\n")
    assert whole_numbers(data, "sides", WHERE, 1, 9, length=3) == (3, 3, 5)
    assert whole_numbers(data, "none", WHERE, may_be_empty=True) == ()
    assert refusal(whole_numbers, data, "none", WHERE) == "none must not be empty"
    assert refusal(whole_numbers, data, "sides", WHERE, 1, 4) == (
        "sides must be a list of whole numbers from 1 to 4, not [3, 3, 5]")
    assert refusal(whole_numbers, data, "sides", WHERE, 1, 9, length=2) == (
        "sides must list 2 whole numbers from 1 to 9, not [3, 3, 5]")
    assert refusal(whole_numbers, data, "mixed", WHERE) == (
        "mixed must be a list of whole numbers at least 0, not [1, True]")
    assert refusal(whole_numbers, data, "flat", WHERE) == "field 'flat' must be list, not int"
    assert refusal(whole_numbers, data, "gone", WHERE) == "missing field 'gone'"


def test_words() -> None:
    data = toml("colours = ['red', 'blue']\nnone = []\nodd = ['red', 'Blue']\n"
                "spaced = ['dark red']\nnumbered = ['red', 3]\ntwice = ['red', 'blue', 'red']\n")
    assert words(data, "colours", WHERE) == ("red", "blue")
    assert words(data, "colours", WHERE, count=2) == ("red", "blue")
    assert words(data, "none", WHERE, may_be_empty=True) == ()
    assert refusal(words, data, "none", WHERE) == "none must not be empty"
    assert refusal(words, data, "colours", WHERE, count=4) == (
        "colours must be 4 different lower-case words, not ['red', 'blue']")
    for key, value in (("odd", "['red', 'Blue']"), ("spaced", "['dark red']"),
                       ("numbered", "['red', 3]")):
        assert refusal(words, data, key, WHERE) == f"{key} must be lower-case words, not {value}"
    assert refusal(words, data, "twice", WHERE) == "twice must not repeat a word, but repeats red"


def test_by_player_count() -> None:
    data = toml("[rounds]\nby_players = { 2 = 4, 3 = 3, 4 = 3 }\n"
                "short = { 2 = 4, 3 = 3 }\nflag = { 2 = 4, 3 = true, 4 = 3 }\n"
                "named = { two = 4 }\nlist = [4, 3, 3]\n")
    assert by_player_count(data, "rounds.by_players", WHERE, 1) == {2: 4, 3: 3, 4: 3}
    assert refusal(by_player_count, data, "rounds.by_players", WHERE, 1, 3, what="rounds") == (
        "rounds.by_players must give rounds for 2, 3 and 4 players (from 1 to 3), not "
        "{'2': 4, '3': 3, '4': 3}")
    assert refusal(by_player_count, data, "rounds.short", WHERE) == (
        "rounds.short must give a whole number for 2, 3 and 4 players (at least 0), not "
        "{'2': 4, '3': 3}")
    assert "rounds.flag must give a whole number" in refusal(
        by_player_count, data, "rounds.flag", WHERE)
    assert refusal(by_player_count, data, "rounds.named", WHERE) == (
        "rounds.named keys must be player counts 2, 3, 4, not ['two']")
    assert refusal(by_player_count, data, "rounds.list", WHERE) == (
        "field 'rounds.list' must be dict, not list")
