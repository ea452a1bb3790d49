"""Public means public: redraw every secret and the public status, LEDs and log stay the same.

Checked the way the conformance check checks views: a table at a position and a table at the
same position with every secret redrawn (``resample(state, None)``) must show everyone the same
status JSON (what the page and every SSE client receive), the same LED roles and the same
observed board, also while a piece is lifted. And a take-back never deals a secret anew.
"""

from __future__ import annotations

import json
import random

import pytest

from controller.journal import Journal
from controller.referee import Choose
from controller.table import Table
from games.core.game import FACE_DOWN, TERMINAL
from games.core.playout import random_step
from games.registry import get_game

GAMES = ("tiki_topple", "topiary", "hanging_gardens", "on_top", "trapper")
PLAYERS = ["anna", "ben", "cleo"]


def table_at(game, state, path) -> Table:
    """A table whose game stands at ``state`` (the digital dealer: the service knows every
    secret, so whatever it shows everyone could leak them)."""
    table = Table(game, Journal(path), random.Random(5))
    table.new_game(PLAYERS[:max(2, game.min_players)], {}, dealer="digital")
    table._begin(table.players, table.options, state, {})
    return table


def public(table: Table, board: dict[str, str]) -> tuple[str, dict[str, str], dict[str, str]]:
    """What everyone sees: the status JSON (the page, SSE), the LEDs, the observed board."""
    status = table.status().model_dump(exclude={"game_id"})
    return (json.dumps(status, sort_keys=True), table.led_roles(), table.public_board(board))


def positions(game, seed: int, count: int):
    """``count`` positions spread over a random game with secrets in play."""
    rng = random.Random(seed)
    state = game.initial(PLAYERS[:max(2, game.min_players)], {})
    states = []
    while game.actor(state) != TERMINAL:
        states.append(state)
        state = game.apply(state, random_step(game, state, rng))
    hidden = [s for s in states if game.resample(s, None, random.Random(0)) != s] or states
    return [hidden[i * len(hidden) // count] for i in range(count)]


@pytest.mark.parametrize("game_id", GAMES)
def test_redrawing_every_secret_changes_nothing_anyone_sees(game_id, tmp_path) -> None:
    game = get_game(game_id)
    checked = 0
    for number, state in enumerate(positions(game, seed=3, count=6)):
        redrawn = game.resample(state, None, random.Random(number))
        a = table_at(game, state, tmp_path / f"a{number}.sqlite3")
        b = table_at(game, redrawn, tmp_path / f"b{number}.sqlite3")
        board_a, board_b = game.board(state), game.board(redrawn)
        assert public(a, board_a) == public(b, board_b), f"position {number}"
        # A hand lifts a piece (the same site on both tables): the step under way, or what
        # is wrong, reads the same too.
        for site in sorted(board_a)[:: max(1, len(board_a) // 3)]:
            lifted_a = {s: p for s, p in board_a.items() if s != site}
            lifted_b = {s: p for s, p in board_b.items() if s != site}
            a.observe(lifted_a)
            b.observe(lifted_b)
            assert public(a, lifted_a) == public(b, lifted_b), f"position {number}, {site}"
            a.observe(board_a)
            b.observe(board_b)
            checked += 1
        checked += state != redrawn
    assert checked > 6


def test_face_down_tiles_are_never_named_to_everyone(tmp_path) -> None:
    """Topiary's layout goes face down and the deal pad holds a face-down tile: the public
    status names neither, in the board, the last action or the events."""
    game = get_game("topiary")
    table = Table(game, Journal(tmp_path / "j.sqlite3"), random.Random(2))
    table.new_game(["anna", "ben"], {}, dealer="digital")
    rng = random.Random(9)
    for _ in range(200):  # the shape put back, the layout and the deal, all tags read
        if table.state.phase == "visitor":
            break
        if isinstance(table.decision, Choose):
            table.choose(0)
            continue
        action = random_step(game, table.state, rng)
        table.observe(game.board(game.apply(table.state, action)))
    assert table.state.phase == "visitor"
    secret_names = {piece for site, piece in game.board(table.state).items()
                    if site in game.face_down(table.state)}
    assert secret_names
    observed = dict(game.board(table.state))
    status = table.status()
    text = status.model_dump_json()
    for name in secret_names:
        assert name not in text
        assert name.split(":", 1)[1].replace(":", " ") not in text  # "swan 5" in a sentence
    assert set(table.public_board(observed).values()) >= {FACE_DOWN}
    texts = [event.text for event in table.events]  # the engine's action sentences
    assert "A face-down tile is dealt to anna." in texts
    assert "A face-down tile lies on square 0:0." in texts


def test_a_wrong_face_down_tile_is_reported_without_naming_either(tmp_path) -> None:
    game = get_game("topiary")
    table = Table(game, Journal(tmp_path / "j.sqlite3"), random.Random(2))
    table.new_game(["anna", "ben"], {}, dealer="digital")
    rng = random.Random(4)
    while table.state.phase in ("remove", "lay"):
        if isinstance(table.decision, Choose):
            table.choose(0)
            continue
        action = random_step(game, table.state, rng)
        table.observe(game.board(game.apply(table.state, action)))
    board = dict(game.board(table.state))
    down = sorted(game.face_down(table.state) - {"pad:deal"})
    first, second = down[0], down[1]
    board[first], board[second] = board[second], board[first]  # two face-down tiles swapped
    table.observe(board)
    report = table.status().discrepancy
    assert report is not None and sorted(report.wrong_sites) == [first, second]
    assert "another face-down piece" in report.message
    assert board[first] not in report.model_dump_json()
    assert board[second] not in report.model_dump_json()


def test_a_step_under_way_does_not_list_the_cards_in_a_secret_hand(tmp_path) -> None:
    """Tiki Topple: anna lifts a tiki to move it. Listing the moves that tiki can make would
    list her cards; the page lists none and lights what any hand could do."""
    game = get_game("tiki_topple")
    table = Table(game, Journal(tmp_path / "j.sqlite3"), random.Random(1))
    table.new_game(["anna", "ben"], {}, dealer="digital")
    stack = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
    board = {f"stack:{i}": f"tiki:{t}" for i, t in enumerate(stack, start=1)}
    table.observe(board)
    assert table.state.phase == "play"
    lifted = {site: piece for site, piece in board.items() if site != "stack:5"}
    table.observe(lifted)
    progress = table.status().progress
    assert progress is not None and progress.actions == []
    assert "stack:5" not in progress.targets and progress.targets


def test_a_take_back_keeps_the_secrets_dealt_and_names_none(tmp_path) -> None:
    """Undo takes the build back with the deals after it; building the stack again deals the
    very same missions and set-aside cards, also after a restart in between."""
    game = get_game("tiki_topple")
    path = tmp_path / "j.sqlite3"
    table = Table(game, Journal(path), random.Random(1))
    table.new_game(["anna", "ben"], {}, dealer="digital")
    stack = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")
    board = {f"stack:{i}": f"tiki:{t}" for i, t in enumerate(stack, start=1)}
    table.observe(board)
    dealt = table.actions[1:]
    assert [a.split()[0] for a in dealt] == ["mission", "mission", "aside", "aside"]
    table.observe({})  # the stack lifted, and taken back on the page
    assert table.undo(1) == "build " + " ".join(stack)
    text = table.status().model_dump_json()
    for secret in dealt:
        assert secret not in text
    assert "took back build" in text

    table.observe(board)  # built again: the same deal
    assert table.actions[1:] == dealt
    table.observe({})
    table.undo(1)

    restarted = Table(game, Journal(path), random.Random(99))  # a power cut, another draw
    restarted.resume(Journal(path).active())
    restarted.observe(board)
    assert restarted.actions[1:] == dealt
