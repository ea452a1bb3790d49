"""Every game has pictures for every piece it can put on the table (games/<game>/data/art.toml)."""

from __future__ import annotations

import random
from typing import Any

from games.core.art import art_json, art_of, art_path
from games.core.game import FACE_DOWN, Game
from games.core.playout import random_step
from games.core.translation import CORE_LOCALE, Catalogue, package_locale

from .conftest import players_for


def test_the_art_file_loads_and_draws_every_piece_of_the_box(game: Game[Any]) -> None:
    art = art_of(game)
    assert art_path(game).is_file()
    assert art.missing(game.pieces()) == [], f"{art.path}: no [[piece]] rule draws these"
    drawn = art_json(game)["pieces"]
    assert set(game.pieces()) | {FACE_DOWN} == set(drawn)
    for piece, picture in drawn.items():
        assert picture["name"].strip(), piece
        assert picture["fill"].startswith("#") and picture["stroke"].startswith("#"), piece


def test_every_board_of_random_games_is_drawn(game: Game[Any]) -> None:
    """What the table shows during real games (piles split into their pieces, face-down
    pieces as such) has a picture for each piece, with the fewest and the most players."""
    art = art_of(game)
    for count in sorted({game.min_players, game.max_players}):
        rng = random.Random(count)
        state = game.initial(players_for(game, count))
        seen: set[str] = set()
        for _ in range(400):
            if game.is_terminal(state):
                break
            state = game.apply(state, random_step(game, state, rng))
            seen.update(game.board(state).values())
            seen.update(game.public_board(state).values())
        assert seen, f"{game.id}: nothing was laid on the table in 400 steps"
        assert art.missing(seen) == [], f"{game.id} with {count} players"


def test_every_rule_is_used(game: Game[Any]) -> None:
    """A rule that matches no piece or no site is a typo, and its piece goes undrawn."""
    art = art_of(game)
    pieces = game.pieces()
    sites = [site.id for count in range(game.min_players, game.max_players + 1)
             for site in game.sites(count)]
    for rule in art.piece_rules:
        assert any(rule.pattern.match(piece) is not None for piece in pieces), rule.pattern.text
    for rule in art.site_rules:
        assert any(rule.pattern.match(site) is not None for site in sites), rule.pattern.text


def test_every_piece_name_has_a_german_text(game: Game[Any]) -> None:
    german = Catalogue.load("de", (CORE_LOCALE, package_locale(type(game).__module__)))
    art = art_of(game)
    untranslated = [name for name in art.names() + art.label_names(game)
                    if name not in german.messages() or not german.messages()[name].strip()]
    assert untranslated == [], f"add these to {game.id}'s locale/de.po"
