"""The pads beside the board: what the table took in there is left out of the board it judges
until a hand takes it off, and only that."""

from __future__ import annotations

from controller.pads import Pads
from games.core.game import PILE_JOIN
from games.registry import get_game


def test_secrets_taken_in_are_left_out_until_taken_off_and_only_those() -> None:
    pads = Pads(get_game("tiki_topple"))
    board = {"stack:1": "tiki:nani", "pad:reveal": PILE_JOIN.join(("card:red:m1", "card:red:m2"))}
    expected = {"stack:1": "tiki:nani"}
    laid = pads.on_reveal_site(board, expected)
    assert laid is not None and not laid.taken_in and laid.rest == expected
    assert pads.to_judge(board, expected) == board  # not taken in yet: judged as it lies
    pads.secrets = laid.pieces
    assert pads.to_judge(board, expected) == expected
    some = {**expected, "pad:reveal": "card:red:m2"}  # one of them taken off already
    assert pads.to_judge(some, expected) == expected
    other = {**expected, "pad:reveal": "card:red:m3"}  # not what was shown: judged
    assert pads.to_judge(other, expected) == other
    assert pads.on_reveal_site(expected, expected) is None and pads.secrets is None


def test_the_choosing_piece_is_left_out_until_it_comes_off() -> None:
    pads = Pads(get_game("topiary"))
    site = pads.game.choice_site
    assert site is not None
    expected = {"row:1:1": "tree:a"}
    board = {**expected, site: "shape:x"}
    pads.choice = "shape:x"
    laid = pads.on_choice_site(board, expected)
    assert laid is not None and laid.taken_in and pads.to_judge(board, expected) == expected
    other = {**expected, site: "shape:y"}
    assert pads.to_judge(other, expected) == other
    assert pads.on_choice_site(expected, expected) is None and pads.choice is None


def test_a_pad_the_position_uses_is_no_pad() -> None:
    """Where the position itself has a piece on the site, nothing there is left out."""
    pads = Pads(get_game("tiki_topple"))
    pads.secrets = ("card:red:m1",)
    board = {"pad:reveal": "card:red:m1"}
    assert pads.on_reveal_site(board, board) is None
    assert pads.to_judge(board, board) == board
