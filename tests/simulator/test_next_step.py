"""The page's "do the next step for me": choosing and planning one step, without a browser.

A small model of hands on a table (stacks per site, as the virtual table keeps them) carries
the plans out, and a stand-in for the referee applies what the table shows, so whole games are
played plan by plan for every game.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

import simulator
from games.core.art import site_label
from games.core.game import CHANCE, Game, Sentence, pile_value
from games.core.translation import CORE_LOCALE, Catalogue, package_locale
from games.registry import all_games, get_game
from simulator.next_step import (
    Hands,
    NothingToDo,
    Plan,
    Position,
    piece_names,
    piece_words,
    plan_next,
)
from simulator.steps import Lift, Press, Put

NAMES = ("anna", "ben", "carl", "dora")


class ModelTable:
    """Stacks of pieces per site, put on and lifted off one at a time."""

    def __init__(self, game: Game[Any], n_players: int, board: dict[str, str]) -> None:
        sites = game.sites(n_players)
        self.stacking = frozenset(site.id for site in sites if site.stacks)
        self.piles = frozenset(site.id for site in sites if site.pile)
        self.labels = {site.id: site.label for site in sites}
        self.game_id = game.id
        self.stacks: dict[str, list[str]] = {}
        for site, piece in board.items():
            self.stacks[site] = (piece.split(" / ") if site in self.piles else [piece])

    def board(self) -> dict[str, str]:
        return {site: pile_value(stack) if site in self.piles else stack[-1]
                for site, stack in self.stacks.items() if stack}

    def hands(self) -> Hands:
        under = {site: (stack[-2] if len(stack) > 1 else None)
                 for site, stack in self.stacks.items() if site in self.stacking}
        return Hands(self.board(), self.stacking, under, self.piles, self.labels, self.game_id)

    def do(self, step: Put | Lift | Press) -> None:
        if isinstance(step, Put):
            stack = self.stacks.setdefault(step.site, [])
            assert not stack or step.site in self.stacking, f"{step}: the site is taken"
            stack.append(step.piece)
        elif isinstance(step, Lift):
            assert self.stacks.get(step.site), f"{step}: nothing to lift"
            self.stacks[step.site].pop()


def referee_draws(game: Game[Any], state: Any, rng: random.Random) -> Any:
    """What the service does by itself: draws the table cannot see are made unseen."""
    while game.actor(state) == CHANCE:
        board = game.board(state)
        if any(game.board(game.apply(state, a)) != board for a in game.legal_actions(state)):
            break
        state = game.apply(state, game.sample_chance(state, rng))
    return state


def pending_choice(game: Game[Any], state: Any) -> tuple[str, ...]:
    """The referee's question when every legal action moves nothing and there are several."""
    if game.is_terminal(state) or game.actor(state) == CHANCE:
        return ()
    board = game.board(state)
    legal = game.legal_actions(state)
    silent = [a for a in legal if game.board(game.apply(state, a)) == board]
    return tuple(silent) if len(silent) == len(legal) > 1 else ()


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_plans_made_by_hand_play_a_whole_game(game_id: str) -> None:
    """Every plan is legal, its hands' steps leave the table exactly as the action's board,
    a step that moves nothing presses confirm, and the game ends in a finite number of steps."""
    game = get_game(game_id)
    players = list(NAMES[:game.min_players])
    rng, draws = random.Random(7), random.Random(8)
    state = referee_draws(game, game.initial(players, {}), draws)
    table = ModelTable(game, len(players), game.board(state))
    kinds: set[str] = set()
    for _ in range(5000):
        if game.is_terminal(state):
            break
        position = Position(game, state, choice=pending_choice(game, state))
        plan = plan_next(position, table.hands(), rng)
        kinds.add(plan.kind)
        assert plan.action in game.legal_actions(state)
        after = game.apply(state, plan.action)
        pressed = False
        for batch in plan.batches:
            for step in batch:
                table.do(step)
                pressed |= isinstance(step, Press)
        assert table.board() == game.board(after), plan
        if table.board() == game.board(state) and plan.kind not in ("choose", "show"):
            assert pressed, f"{plan.action} moves nothing: confirm must be pressed"
        assert str(plan.headline) and all(str(line) for line in plan.lines)
        state = referee_draws(game, after, draws)
    assert game.is_terminal(state), f"{game_id} did not end"
    assert "move" in kinds
    with pytest.raises(NothingToDo, match="game is over"):
        plan_next(Position(game, state), table.hands(), rng)


def test_the_advisors_move_is_made_when_it_is_legal() -> None:
    game = get_game("tiki_topple")
    rng = random.Random(0)
    state = game.initial(["anna", "ben"], {"edition": "gamewright"})
    while game.actor(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, rng))
    legal = game.legal_actions(state)
    table = ModelTable(game, 2, game.board(state))
    for advice in (legal[-1], legal[0]):
        plan = plan_next(Position(game, state, advice=advice), table.hands(), rng)
        assert plan.action == advice
        assert plan.headline.args["action"] == game.public_action(state, advice)
        assert plan.lines[-1].template == "It is the move the AI advises."
    # an advice for an old position is not followed
    plan = plan_next(Position(game, state, advice="not a move"), table.hands(), random.Random(3))
    assert plan.action in legal


def test_a_choice_the_board_cannot_show_is_made_with_a_piece_on_the_choice_site() -> None:
    """Topiary's shape for the box: a tile of that shape laid on the deal pad and taken off,
    as the players do it (the page's buttons stay for those who prefer them)."""
    game = get_game("topiary")
    state = game.initial(["anna", "ben"], {})
    choice = pending_choice(game, state)
    assert len(choice) > 1, "topiary starts with the start player's silent choice"
    table = ModelTable(game, 2, game.board(state))
    plan = plan_next(Position(game, state, advice=choice[1], choice=choice), table.hands(),
                     random.Random(0))
    shape = choice[1].split()[1]
    assert (plan.kind, plan.action, plan.choose) == ("show", choice[1], None)
    (put,), (lift,) = plan.batches
    assert put.site == lift.site == game.choice_site and put.piece.startswith(f"topiary:{shape}:")
    assert game.choice_pieces(state)[put.piece] == choice[1]
    assert plan.lines[0].template.startswith("Laid {piece} on {site} to choose {action}")


def test_a_moved_piece_is_said_as_one_move_and_new_pieces_as_taken_from_the_box() -> None:
    game = get_game("tiki_topple")
    rng = random.Random(1)
    state = game.initial(["anna", "ben"], {"edition": "gamewright"})
    while game.actor(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, rng))
    table = ModelTable(game, 2, game.board(state))
    plan = plan_next(Position(game, state), table.hands(), rng)
    templates = [line.template for line in plan.lines]
    assert templates[0] == "Took {piece} from the box and put it on {site}."
    assert plan.lines[0].args["site"] == site_label(table.labels["pad:play"])
    german = Catalogue.load("de", (CORE_LOCALE, package_locale(type(game).__module__),
                                   Path(simulator.__file__).parent / "locale"))
    assert german.text(plan.lines[0]).endswith("auf Ausspielfeld gelegt."), (
        "the place is named in the page's language")
    moved = [line for line in plan.lines if line.template.startswith("Moved")]
    assert moved, templates  # a tiki went up or down the stack
    assert all(line.args["start"] != line.args["site"] for line in moved)
    assert plan.headline.args["player"] == "anna"


def test_secrets_the_score_waits_for_are_laid_on_the_reveal_site_then_taken_off() -> None:
    game = get_game("tiki_topple")
    state = game.initial(["anna", "ben"], {"edition": "gamewright"})
    table = ModelTable(game, 2, game.board(state))
    pieces = ("mission:3",)
    plan: Plan = plan_next(Position(game, state, owed=(1, pieces)), table.hands(),
                           random.Random(0))
    site = game.reveal_site
    assert plan.kind == "show" and plan.action is None
    assert plan.batches == ((Put("mission:3", site),), (Lift(site),))
    assert plan.headline.args == {"player": "ben"}
    assert plan.lines[0].args["pieces"] == "mission 3"
    assert piece_words("topiary:swan:4 / topiary:cube:1", "topiary") == "swan 4 / cube 1"


def test_a_whole_set_laid_out_from_the_box_is_told_in_one_line() -> None:
    game = get_game("tiki_topple")
    state = game.initial(["anna", "ben"], {"edition": "gamewright"})
    table = ModelTable(game, 2, game.board(state))
    plan = plan_next(Position(game, state), table.hands(), random.Random(0))
    assert plan.kind == "chance" and len(plan.batches[0]) == 9  # the nine tikis, one by one
    assert [(line.template, dict(line.args)) for line in plan.lines] == [
        ("Took {count} pieces from the box and laid them out.", {"count": "9"})]


def test_pieces_are_named_as_the_box_prints_them_when_the_art_names_them() -> None:
    game = get_game("tiki_topple")
    rng = random.Random(1)
    state = game.initial(["anna", "ben"], {"edition": "gamewright"})
    while game.actor(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, rng))
    names = piece_names(game)
    assert names, "tiki_topple's art names its pieces"
    model = ModelTable(game, 2, game.board(state))
    hands = dataclasses.replace(model.hands(), names=names)
    plan = plan_next(Position(game, state), hands, rng)
    card = plan.lines[0].args["piece"]
    put = plan.batches[0][[isinstance(s, Put) for s in plan.batches[0]].index(True)]
    assert card == names[put.piece] and isinstance(card, Sentence)
    assert hands.name("no:such:piece") == "no such piece"


def test_a_rhombus_moved_from_the_draw_pad_onto_two_triangles_is_one_move() -> None:
    """On Top: one piece ends on two sites; however the hand orders the steps it is told as
    one move to both, never as a second rhombus out of the box."""
    game = get_game("on_top")
    rng = random.Random(2)
    state = game.initial(["anna", "ben"], {})
    table = ModelTable(game, 2, game.board(state))
    names = piece_names(game)  # a rhombus's two halves (two tags) share the rhombus's name
    spans = []
    for _ in range(12):
        plan = plan_next(Position(game, state), dataclasses.replace(table.hands(), names=names),
                         rng)
        for batch in plan.batches:
            for step in batch:
                table.do(step)
        state = game.apply(state, plan.action)
        spans += [line for line in plan.lines if line.template.startswith("Moved")
                  and isinstance(line.args["site"], Sentence)]
        assert not any(line.template == "Took {piece} from the box and put it on {site}."
                       and str(line.args["piece"]).startswith("rhombus")
                       and plan.kind == "move" for line in plan.lines), plan.lines
    assert spans, "a rhombus was laid from the draw pad"
    assert all(line.args["site"].template == "{first} and {second}" for line in spans)
