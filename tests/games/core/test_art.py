"""games/core/art.py: art files load, match pieces and sites, and refuse what a page cannot draw."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from games.core.art import art_json, load_art, site_label
from games.core.errors import DataFileError
from games.core.game import FACE_DOWN, Sentence
from games.registry import get_game

GOOD = """
[colours]
red = "#d32f2f"

[words]
red = "red"
swan = "swan"

[[piece]]
match = "topiary:{shape}:{value}"
shape = "tile"
fill = "#2f7f9e"
glyph = "{value}"
name = "{shape} {value}"
kind = "tiles"

[[piece]]
match = "visitor:{colour}"
shape = "figure"
fill = "{colour}"
name = "{colour} visitor"

[[piece]]
match = "rhombus:{number=01}:{half}"
shape = "rhombus"
fill = "#ffffff"
corners = ["red", "#00ff00", "#0000ff", "#ffffff"]
glyph = "{number}"
name = "rhombus {number}"

[[site]]
match = "spot:{row}:{col}:S"
offset = [0, -40]
arrow = 90

[[site]]
match = "spot:{row=0}:{col}:{direction}"
offset = [5, 0]
size = 30

[[site]]
match = "grid:{row}:{col}"
ruler = true
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "art.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_pieces_match_by_pattern_and_name_themselves_with_translatable_words(tmp_path) -> None:
    art = load_art(write(tmp_path, GOOD))
    swan = art.piece("topiary:swan:4")
    assert (swan.shape, swan.fill, swan.glyph) == ("tile", "#2f7f9e", "4")
    assert swan.name == Sentence("{shape} {value}", {"shape": Sentence("swan"), "value": "4"})
    assert str(swan.name) == "swan 4" and str(swan.kind) == "tiles"
    visitor = art.piece("visitor:red")
    assert visitor.fill == "#d32f2f"  # a name from [colours]
    assert str(visitor.kind) == "pieces"  # no kind given: the default heading
    assert art.piece("rhombus:01:a").corners == ("#d32f2f", "#00ff00", "#0000ff", "#ffffff")
    assert art.piece("rhombus:02:a") is None  # {number=01} matches only 01
    assert art.piece("topiary:swan") is None  # a pattern matches whole ids only
    assert art.piece(FACE_DOWN).glyph == "?"  # every game can show a face-down piece


def test_missing_splits_piles_into_their_pieces(tmp_path) -> None:
    art = load_art(write(tmp_path, GOOD))
    assert art.missing(["visitor:red / stone:blue", "topiary:whale:1"]) == ["stone:blue"]


def test_site_rules_add_up_in_order(tmp_path) -> None:
    art = load_art(write(tmp_path, GOOD))
    top = art.site("spot:0:2:S")
    assert (top.offset, top.arrow, top.size, top.ruler) == ((5.0, -40.0), 90.0, 30.0, False)
    assert art.site("spot:3:0:S").offset == (0.0, -40.0)
    assert art.site("grid:1:1").ruler and art.site("pad:deal").offset == (0.0, 0.0)


def test_names_lists_every_text_to_translate(tmp_path) -> None:
    art = load_art(write(tmp_path, GOOD))
    assert art.names() == sorted({"{shape} {value}", "{colour} visitor", "rhombus {number}",
                                  "red", "swan", "tiles", "pieces", "face-down piece"})


BAD = [
    ('shape = "tile"', 'shape = "blob"', "field 'shape' must be one of"),
    ('fill = "#2f7f9e"', 'fill = "teal"', "field 'fill' must be #rrggbb"),
    ('glyph = "{value}"', 'glyph = "{size}"', "field 'glyph' uses ['size']"),
    ('glyph = "{value}"', 'glyph = "swan4"', "at most 3 characters"),
    ('name = "{shape} {value}"', 'name = " "', "field 'name' must not be empty"),
    ('name = "{shape} {value}"', 'nmae = "swan"', "unknown field(s) 'nmae'"),
    ('match = "topiary:{shape}:{value}"', 'match = "topiary::{value}"', "has a bad part ''"),
    ('match = "topiary:{shape}:{value}"', 'match = "topiary:{v}:{v}"', "names a field twice"),
    ('kind = "tiles"', 'kind = "{shape} tiles"', "field 'kind' must be a plain heading"),
    ('corners = ["red", "#00ff00", "#0000ff", "#ffffff"]', 'corners = ["red"]',
     "field 'corners' is for a rhombus"),
    ("offset = [0, -40]", "offset = [0]", "field 'offset' must be [dx, dy]"),
    ("size = 30", "size = -1", "field 'size' must be positive"),
    ("ruler = true", 'ruler = "yes"', "field 'ruler' must be true or false"),
    ('red = "#d32f2f"', 'red = "crimson"', "colours.red must be #rrggbb"),
]


@pytest.mark.parametrize(("good", "bad", "message"), BAD, ids=[b[2] for b in BAD])
def test_a_malformed_file_is_refused_naming_file_entry_and_problem(tmp_path, good, bad,
                                                                 message) -> None:
    assert GOOD.count(good) == 1
    path = write(tmp_path, GOOD.replace(good, bad))
    with pytest.raises(DataFileError) as refused:
        load_art(path)
    assert message in str(refused.value)
    assert str(path) in str(refused.value)


def test_the_entry_is_named_by_number_and_pattern(tmp_path) -> None:
    path = write(tmp_path, GOOD.replace('shape = "figure"', 'shape = "meeple"'))
    with pytest.raises(DataFileError, match=r"piece 2 \(visitor:\{colour\}\)"):
        load_art(path)


def test_a_colour_field_resolving_to_no_colour_is_refused_when_drawn(tmp_path) -> None:
    art = load_art(write(tmp_path, GOOD))
    with pytest.raises(DataFileError, match="'purple' is neither #rrggbb nor in \\[colours\\]"):
        art.piece("visitor:purple")


@pytest.mark.parametrize(("text", "message"), [
    ("[[piece]\n", "is not valid TOML"),
    ("", "no [[piece]] rules"),
    ("[piece]\nmatch = 'x'\n", "piece must be a list of tables"),
    ("[sizes]\n", "unknown field(s) 'sizes'"),
])
def test_files_that_are_no_art_file_are_refused(tmp_path, text, message) -> None:
    with pytest.raises(DataFileError) as refused:
        load_art(write(tmp_path, text))
    assert message in str(refused.value)


def test_a_missing_file_says_so(tmp_path) -> None:
    with pytest.raises(DataFileError, match="is missing"):
        load_art(tmp_path / "art.toml")


def test_on_top_rhombi_show_the_corner_colours_of_the_components_file() -> None:
    """The art repeats each rhombus's four colours for drawing: it must say what the data says."""
    game = get_game("on_top")
    folder = Path(__file__).resolve().parents[3] / "games" / "on_top" / "data"
    components = tomllib.loads((folder / "on_top.toml").read_text(encoding="utf-8"))
    art = load_art(folder / "art.toml")
    palette = dict(art.colours)
    for number, colours in components["pieces"].items():
        for half in ("a", "b"):
            drawn = art.piece(f"rhombus:{number}:{half}")
            assert drawn.corners == tuple(palette[c] for c in colours), number
    assert all(art.piece(piece) is not None for piece in game.pieces())


def test_a_field_may_follow_a_literal_prefix(tmp_path) -> None:
    text = GOOD + '\n[[piece]]\nmatch = "hg:c{card}:{half}"\nshape = "card"\nfill = "#efe0b9"\n' \
        'glyph = "{card}"\nname = "building card {card}"\n'
    art = load_art(write(tmp_path, text))
    assert art.piece("hg:c07:a").glyph == "07"
    assert art.piece("hg:c:a") is None and art.piece("hg:tile:a") is None


def test_a_site_label_becomes_a_short_msgid_with_its_numbers_as_fields() -> None:
    assert site_label("play pad 2") == Sentence("play pad {n1}", {"n1": "2"})
    assert site_label("reveal pad: missions, face up, to be scored") == Sentence("reveal pad")
    assert str(site_label("score tile column 1 row 2")) == "score tile column 1 row 2"


def test_the_page_json_names_pieces_and_labels_in_the_readers_words() -> None:
    game = get_game("tiki_topple")
    german = {"nani": "Nani", "play pad": "Ausspielfeld"}

    def name(sentence: Sentence) -> str:
        return german.get(sentence.template, str(sentence))

    drawn = art_json(game, name)
    assert drawn["pieces"]["tiki:nani"]["name"] == "Nani"
    assert drawn["pieces"]["tiki:nani"]["shape"] == "figure"
    assert drawn["sites"]["pad:play"]["label"] == "Ausspielfeld"
    assert drawn["sites"]["stack:1"] == {"dx": 0.0, "dy": 0.0, "size": None, "arrow": None,
                                         "label": "", "ruler": True, "name": "place 1",
                                         "round": False}
