"""Catalogues: nested names translated, English whenever a text has no translation, a broken
file refused with its place, and the language a request gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.core.game import Sentence, comma_list, verbatim
from games.core.translation import (
    Catalogue,
    CatalogueError,
    accepted_languages,
    choose_language,
    supported,
)


def po(folder: Path, *entries: tuple[str, str], extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for msgid, msgstr in entries:
        lines += [f'msgid "{msgid}"', f'msgstr "{msgstr}"', ""]
    (folder / "de.po").write_text("\n".join(lines) + extra, encoding="utf-8")
    return folder


def test_nested_names_are_translated_and_plain_values_go_in_as_they_are(tmp_path: Path) -> None:
    folder = po(tmp_path, ("{player}: put {piece} back on {site}",
                           "{player}: Leg {piece} zurück auf {site}"),
                ("swan {number}", "Schwan {number}"))
    words = Catalogue.load("de", [folder])
    swan = Sentence("swan {number}", {"number": "4"})
    sentence = Sentence("{player}: put {piece} back on {site}",
                        {"player": "swan", "piece": swan, "site": "2:3"})
    assert words.text(sentence) == "swan: Leg Schwan 4 zurück auf 2:3"  # a name stays a name
    assert str(sentence) == "swan: put swan 4 back on 2:3"
    assert words.gettext("swan {number}") == "Schwan {number}"
    assert words.messages() == {"{player}: put {piece} back on {site}":
                                "{player}: Leg {piece} zurück auf {site}",
                                "swan {number}": "Schwan {number}"}


def test_what_nobody_translated_reads_in_english(tmp_path: Path) -> None:
    folder = po(tmp_path / "a", ("done", ""),
                extra='#, fuzzy\nmsgid "maybe"\nmsgstr "vielleicht"\n')
    words = Catalogue.load("de", [folder, tmp_path / "no-catalogue-here"])
    assert words.text(Sentence("{n} left", {"n": "3"})) == "3 left"  # unknown msgid
    assert words.text("done") == "done"  # empty translation
    assert words.text("maybe") == "maybe"  # fuzzy: not checked by a person yet
    assert Catalogue.load("fr", [folder]).messages() == {}


def test_a_later_folder_refines_an_earlier_one(tmp_path: Path) -> None:
    core = po(tmp_path / "core", ("stack", "Stapel"), ("tile", "Plättchen"))
    game = po(tmp_path / "game", ("stack", "Turm"))
    words = Catalogue.load("de", [core, game])
    assert (words.text("stack"), words.text("tile")) == ("Turm", "Plättchen")


def test_a_translation_with_other_fields_is_refused_naming_the_file(tmp_path: Path) -> None:
    folder = po(tmp_path, ("{player} wins", "{spieler} gewinnt"))
    with pytest.raises(CatalogueError, match=r"de\.po:\d+: .*'\{player\} wins'.*\['spieler'\]"):
        Catalogue.load("de", [folder])


@pytest.mark.parametrize("text", [
    'msgid "a"\nmsgid "b"\nmsgstr "c"\n',  # two ids for one text
    'msgid "a"\nmsgstr "b"\nSchwan\n',  # a line that is no entry at all
    'msgid "a"\n',  # an id without its text
])
def test_a_malformed_file_is_refused_naming_the_file(tmp_path: Path, text: str) -> None:
    (tmp_path / "de.po").write_text(text, encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"de\.po"):
        Catalogue.load("de", [tmp_path])


def test_a_stray_brace_in_a_translation_is_refused(tmp_path: Path) -> None:
    folder = po(tmp_path, ("{n} points", "{n} Punkte}"))
    with pytest.raises(CatalogueError, match="stray brace"):
        Catalogue.load("de", [folder])


def test_the_language_is_the_query_then_the_cookie_then_the_browser_then_the_table() -> None:
    assert choose_language("de", "en", "en", "en") == "de"
    assert choose_language(None, "de", "en", "en") == "de"
    assert choose_language(None, None, "de-AT,de;q=0.9,en;q=0.8", "en") == "de"
    assert choose_language(None, None, None, "de") == "de"
    assert choose_language(None, None, None, None) == "en"
    assert choose_language("xx", None, "fr-FR,fr;q=0.9", "de") == "de"  # nothing offered: table's
    assert choose_language(None, None, "fr;q=1, en;q=0.2, de;q=0.7", "en") == "de"


def test_accept_language_is_ranked_by_weight_and_zero_means_never() -> None:
    assert accepted_languages("en;q=0.5, de-CH, fr;q=0, *;q=0.1") == ["de-CH", "en", "*"]
    assert accepted_languages("de;q=bad, en") == ["en"]
    assert accepted_languages(None) == [] and accepted_languages("") == []
    assert [supported(tag) for tag in ("de_DE", "DE-at", "en", "fr", "", None)] == [
        "de", "de", "en", None, None, None]


def test_a_comma_list_translates_its_items_and_a_verbatim_name_stays(tmp_path: Path) -> None:
    words = Catalogue.load("de", [po(tmp_path, ("swan {n}", "Schwan {n}"),
                                     ("{text}", "{text}"), ("{first}, {rest}", "{first}, {rest}"))])
    tiles = comma_list([Sentence("swan {n}", {"n": "2"}), verbatim("swan 3"), "7"])
    assert str(tiles) == "swan 2, swan 3, 7"  # commas only: no "and" before the last
    assert words.text(tiles) == "Schwan 2, swan 3, 7"
    assert comma_list(["alone"]) == "alone"
    with pytest.raises(ValueError, match="at least one"):
        comma_list([])
