"""Every text a person reads has its German, in the catalogue of the package that says it.

The message ids are extracted from the sources as the runtime will look them up:
- Python: the first argument of ``Sentence(...)``, of ``_(...)`` and of the hardware's
  ``Wording(...)`` (both branches of a conditional). The hardware has no catalogue: its words
  reach people through the controller, so they must be in ``controller/locale``. This walks
  the syntax tree rather than using Babel's token-based Python extractor, which glues
  ``"a" if n == 1 else "b"`` into one id no code ever asks for.
- JavaScript (``controller/static/*.js``, ``simulator/static/*.js`` and inline ``<script>``):
  ``t("...")`` calls with a literal first argument, wherever they stand: also inside the
  ``${...}`` of template strings, which Babel's JavaScript extractor passes over.
- HTML: the text of ``data-i18n`` elements (whitespace collapsed, as ``i18n.js`` reads it) and
  the values of ``data-i18n-title``, ``data-i18n-placeholder``, ``data-i18n-aria-label``.

A page's scripts count for the page: a script under ``/static/`` loaded by ``/sim`` needs its
texts in ``simulator/locale`` too, since the /sim page's dictionary comes from there.

Catalogues stay honest both ways: a German text for a message no source uses any more (an
obsolete entry) fails as well, except for names the games use as data (piece and site kinds,
game names, the words of their data files), which code builds at run time. A game's option
names and choices are its own words: they belong in its catalogue and nowhere else.

The shared words (``games/core/locale``), a game's catalogue and a service's (controller or
/sim) are merged at run time, the later winning: so no message may have two different German
texts among catalogues that load together, or one of them silently never shows.
"""

from __future__ import annotations

import ast
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from controller.service import option_msgids
from games.core.art import all_sites, art_of, site_label
from games.core.translation import Catalogue, CatalogueError, package_locale
from games.registry import all_games

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "controller", "simulator", "hardware")
SPOKEN_FOR = {"hardware": "controller"}
"""A package without a catalogue, and the one whose catalogue translates its texts: the link's
errors (``hardware.wording.Wording``) are worded on the page by ``controller.health``."""
MSGID_CALLS = ("Sentence", "_", "Wording")
"""The calls whose first argument is a msgid."""
ATTRIBUTES = ("data-i18n-title", "data-i18n-placeholder", "data-i18n-aria-label")
T_CALL = re.compile(r"""(?<![\w$.])(?:I18n\.)?t\(\s*"""
                    r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*[,)]""")
"""A ``t()`` call whose first argument is a string literal."""
SCRIPT = re.compile(r"^/static/([\w.-]+\.js)$")
CORE = ROOT / "games/core/locale"
SERVICES = (ROOT / "controller/locale", ROOT / "simulator/locale")
"""The services' catalogues, each loaded after the shared words and the game's."""
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


def python_msgids(source: str) -> Iterator[tuple[int, str]]:
    """``Sentence("...")``, ``_("...")`` and ``Wording("...")`` first arguments, with their
    line."""
    tree = ast.parse(source)
    constants = {target.id: node.value.value for node in tree.body
                 if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                 and isinstance(node.value.value, str)
                 for target in node.targets if isinstance(target, ast.Name)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else (
            node.func.attr if isinstance(node.func, ast.Attribute) else None)
        if name in MSGID_CALLS:
            yield from ((node.lineno, text) for text in literals(node.args[0], constants))


def literals(node: ast.expr, constants: dict[str, str]) -> Iterator[str]:
    """The strings an argument can be: constants, the module's own string constants by name
    (``Sentence(DEFAULT_KIND)``); anything else is built at run time."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Name) and node.id in constants:
        yield constants[node.id]
    elif isinstance(node, ast.IfExp):
        yield from literals(node.body, constants)
        yield from literals(node.orelse, constants)


def script_msgids(source: str, first_line: int = 1) -> Iterator[tuple[int, str]]:
    """``t("...")`` and ``t('...')`` in a script, with their line."""
    for match in T_CALL.finditer(source):
        quoted = match.group(1)
        body = quoted[1:-1]
        if quoted[0] == "'":
            body = body.replace('\\\'', "'").replace('"', '\\"')
        text = json.loads(f'"{body}"')
        if text:
            yield first_line + source.count("\n", 0, match.start()), text


class PageTexts(HTMLParser):
    """The marked texts of a page, its inline scripts' ``t()`` texts and the scripts it loads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.msgids: list[tuple[int, str]] = []
        self.scripts: list[str] = []
        self._open: list[tuple[str, int, list[str]]] = []  # marked elements being read
        self._script: tuple[int, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        line = self.getpos()[0]
        for attribute in ATTRIBUTES:
            if found.get(attribute):
                self.msgids.append((line, str(found[attribute])))
        if tag == "script":
            match = SCRIPT.match(found.get("src") or "")
            if match:
                self.scripts.append(match.group(1))
            self._script = (line, [])
        if tag in VOID:
            return
        if "data-i18n" in found:
            self._open.append((tag, line, []))
        elif self._open:
            self._open.append((tag, line, self._open[-1][2]))  # its text counts for the marked

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            line, parts = self._script
            self.msgids.extend(script_msgids("".join(parts), line))
            self._script = None
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            if not self._open or parts is not self._open[-1][2]:
                text = " ".join("".join(parts).split())
                if text:
                    self.msgids.append((line, text))

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script[1].append(data)
        elif self._open:
            self._open[-1][2].append(data)


def catalogue_folder(path: Path) -> Path:
    """The locale folder a source's texts belong in."""
    parts = path.relative_to(ROOT).parts
    if parts[0] == "games":
        game = ROOT / "games" / parts[1]
        return game / "locale" if game.is_dir() and parts[1] != "core" else \
            ROOT / "games/core/locale"
    return ROOT / SPOKEN_FOR.get(parts[0], parts[0]) / "locale"


def sources() -> dict[Path, set[str]]:
    """Every package folder's msgids, by the locale folder they must be in."""
    wanted: dict[Path, set[str]] = defaultdict(set)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for _, msgid in python_msgids(path.read_text(encoding="utf-8")):
                wanted[catalogue_folder(path)].add(msgid)
        for path in sorted((ROOT / package / "static").glob("*.js")):
            for _, msgid in script_msgids(path.read_text(encoding="utf-8")):
                wanted[catalogue_folder(path)].add(msgid)
        for path in sorted((ROOT / package / "static").glob("*.html")):
            page = PageTexts()
            page.feed(path.read_text(encoding="utf-8"))
            folder = catalogue_folder(path)
            wanted[folder].update(msgid for _, msgid in page.msgids)
            for script in page.scripts:  # served from controller/static
                loaded = ROOT / "controller/static" / script
                if loaded.exists():
                    wanted[folder].update(msgid for _, msgid in
                                          script_msgids(loaded.read_text(encoding="utf-8")))
    return wanted


def german(folder: Path) -> dict[str, str]:
    """A de.po's entries, the untranslated and fuzzy ones as empty."""
    path = folder / "de.po"
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        catalog = read_po(handle, abort_invalid=True)
    return {str(m.id): "" if m.fuzzy else str(m.string) for m in catalog if m.id}


def data_words() -> set[str]:
    """Names looked up at run time rather than written in code: each game's name, its art's
    piece names and words (data/art.toml), its sites' labels as words, and the kinds of its
    pieces and sites (``controller.referee.named`` for what the art does not name)."""
    words: set[str] = set()
    for game in all_games():
        words.add(game.name)
        words.update(art_of(game).names())
        words.update(piece.partition(":")[0] for piece in game.pieces())
        for site in all_sites(game):
            words.add(site.id.partition(":")[0])
            if site.label:
                words.add(site_label(site.label).template)
    return words


def option_words() -> dict[Path, set[str]]:
    """Each game's options' names, choices and help as the new-game form looks them up
    (``controller.service.option_msgids``, ``OptionSpec.help``), by the game's locale folder."""
    words: dict[Path, set[str]] = defaultdict(set)
    for game in all_games():
        for spec in game.options:
            words[package_locale(type(game).__module__)].update(
                option_msgids(spec.name, spec.choices).values(), {spec.help})
    return words


def game_folders() -> list[Path]:
    """Every game's locale folder."""
    return sorted(p.parent for p in (ROOT / "games").glob("*/locale/de.po")
                  if p.parent != CORE)


WANTED = sources()
OPTIONS = option_words()
FOLDERS = sorted({*WANTED, *(p.parent for package in PACKAGES
                             for p in (ROOT / package).glob("**/locale/de.po"))})


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: str(f.relative_to(ROOT)))
def test_every_message_has_its_german(folder: Path) -> None:
    have = german(folder)
    if folder != CORE:
        have = {**german(CORE), **have}  # the shared words load first, for games and services
    wanted = {*WANTED.get(folder, ()), *OPTIONS.get(folder, ())}
    missing = sorted(msgid for msgid in wanted if not have.get(msgid))
    assert not missing, f"{len(missing)} texts without German in {folder}/de.po: {missing}"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: str(f.relative_to(ROOT)))
def test_no_catalogue_keeps_texts_nobody_says(folder: Path) -> None:
    used = set(WANTED.get(folder, ()))
    if folder == CORE:  # the shared words serve every game, and both pages
        used |= {m for f, ms in WANTED.items() if f.parent.parent.name == "games" for m in ms}
        used |= both_pages()
    used |= data_words() | OPTIONS.get(folder, set())
    obsolete = sorted(set(german(folder)) - used)
    assert not obsolete, f"{folder}/de.po has texts no source uses: {obsolete}"


@pytest.mark.parametrize("service", SERVICES, ids=lambda f: str(f.relative_to(ROOT)))
def test_no_message_has_two_germans_among_catalogues_that_load_together(service: Path) -> None:
    clashes: set[str] = set()  # a shared word clashes once, whatever the game
    for game in game_folders():
        said: dict[str, dict[str, str]] = defaultdict(dict)
        for folder in (CORE, game, service):
            for msgid, text in german(folder).items():
                said[msgid][str(folder.relative_to(ROOT))] = text
        clashes.update(f"{msgid!r}: {by}" for msgid, by in said.items()
                       if len(set(by.values())) > 1)
    assert not clashes, "one German per message, in one catalogue:\n" + "\n".join(sorted(clashes))


def both_pages() -> set[str]:
    """The texts the status page's service and /sim both say (the LED legend, the language
    menu)."""
    controller, simulator = SERVICES
    return set(WANTED.get(controller, ())) & set(WANTED.get(simulator, ()))


def test_words_both_pages_say_are_the_shared_words() -> None:
    """Written once, in games/core/locale, not once in each page's catalogue."""
    shared = both_pages()
    assert shared, "the pages share no words: this test tests nothing"
    repeated = {str(service.relative_to(ROOT)): sorted(shared & set(german(service)))
                for service in SERVICES}
    assert not any(repeated.values()), f"shared words in a page's catalogue: {repeated}"
    lacking = sorted(msgid for msgid in shared if not german(CORE).get(msgid))
    assert not lacking, f"games/core/locale/de.po lacks {lacking}"


def test_option_words_are_the_games_own() -> None:
    assert OPTIONS, "no game has options: the option checks test nothing"
    services = {msgid for service in SERVICES for msgid in german(service)}
    for folder, words in OPTIONS.items():
        assert folder in game_folders(), f"{folder}: options belong to a game"
        lacking = sorted(words - set(german(folder)))
        assert not lacking, f"{folder}/de.po lacks {lacking}"
        assert not words & services, f"a service names options: {sorted(words & services)}"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: str(f.relative_to(ROOT)))
def test_every_catalogue_loads(folder: Path) -> None:
    Catalogue.load("de", [folder])  # CatalogueError names the file and entry


def test_the_extractors_find_what_the_runtime_looks_up() -> None:
    python = list(python_msgids(
        'x = Sentence("one {n}" if n == 1 else "many {n}", {"n": Sentence("swan")})\n'
        'y = _("marked")\nz = Sentence(kind)\nKIND = "pieces"\nw = Sentence(KIND)\n'
        'v = Wording("cannot open {url}", {"url": url})\n'))
    assert sorted(msgid for _, msgid in python) == ["cannot open {url}", "many {n}", "marked",
                                                    "one {n}", "pieces", "swan"]
    page = PageTexts()
    page.feed('<p data-i18n>Put  the\n  swan back</p><input data-i18n-placeholder="Players">'
              '<span data-i18n>a <b>bold</b> word</span>'
              '<script src="/static/i18n.js"></script>'
              '<script>el.textContent = t("hub {name} connected", {name});\n'
              'list.innerHTML = `<p>${esc(n === 1 ? t("1 point") : t(\'{n} "points"\', {n}))}'
              '</p>`; other.t("not ours");</script>')
    assert [m for _, m in page.msgids] == ["Put the swan back", "Players", "a bold word",
                                           "hub {name} connected", "1 point", '{n} "points"']
    assert page.scripts == ["i18n.js"]
    assert catalogue_folder(ROOT / "games/topiary/engine.py") == ROOT / "games/topiary/locale"
    assert catalogue_folder(ROOT / "games/core/game.py") == ROOT / "games/core/locale"
    assert catalogue_folder(ROOT / "simulator/static/sim.html") == ROOT / "simulator/locale"
    assert catalogue_folder(ROOT / "hardware/link.py") == ROOT / "controller/locale"


def test_a_broken_catalogue_is_refused_with_its_place(tmp_path: Path) -> None:
    (tmp_path / "de.po").write_text('msgid "a {b}"\nmsgstr "ein {c}"\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"de\.po:1.*fields \['c'\].*\['b'\]"):
        Catalogue.load("de", [tmp_path])
