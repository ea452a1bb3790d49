"""Autoplay: a bot plays whole games through the virtual hub, mistakes included, and the host
ends up seeing exactly the board of the bot's final state."""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import pytest

from games.core.errors import IllegalAction
from games.core.game import TERMINAL, Game, Limits, Site
from games.core.scoresheet import ScoreSheet
from games.registry import all_games, get_game
from simulator.autoplay import AutoplayBot, board_after, plan_steps
from simulator.steps import Lift, Press, Put
from simulator.virtual_table import VirtualTable


def test_a_moved_piece_is_a_lift_and_a_put_and_lifts_come_first() -> None:
    before = {"stack:1": "tiki:a", "stack:2": "tiki:b", "pad:play": "card:red:up1"}
    after = {"stack:1": "tiki:b", "stack:2": "tiki:a", "pad:play": "card:red:up1",
             "stack:3": "tiki:c"}
    steps = plan_steps(before, after)
    assert steps == [Lift("stack:1"), Lift("stack:2"), Put("tiki:b", "stack:1"),
                     Put("tiki:a", "stack:2"), Put("tiki:c", "stack:3")]
    board: dict[str, str] = dict(before)
    for step in steps:
        board = board_after(board, step)
    assert board == after
    assert plan_steps(after, after) == []


def test_a_whole_game_with_mistakes_ends_on_the_final_board(table: VirtualTable, watch) -> None:
    game = get_game("tiki_topple")
    settled: list[tuple[int, dict[str, str]]] = []

    async def body(w: Any) -> None:
        async def settle() -> None:
            await w.settle()
            settled.append((len(bot.actions), w.board()))

        bot = AutoplayBot(table, ["anna", "ben", "cleo"], settle=settle, seed=11,
                          mistake_rate=0.25)
        result = await bot.play()
        assert result.finished
        assert result.board == result.expected_board
        assert w.board() == result.expected_board  # what the host saw through the pty
        assert {m.kind for m in result.mistakes} == {"wrong_site", "illegal_move"}
        assert result.unsafe_steps == 0

        # The record replays with the engine to the same end and the same scores.
        record = result.record
        assert (record["game"], record["players"]) == ("tiki_topple", ["anna", "ben", "cleo"])
        state = game.initial(record["players"], record["options"])
        states = [state]
        for action in record["actions"]:
            state = game.apply(state, action)
            states.append(state)
        assert game.is_terminal(state) and game.board(state) == w.board()
        assert list(game.score(state).totals) == list(result.scores.values())

        # No settled board, mistakes included, could be read as a move other than the one made.
        for index, board in settled:
            before = states[index]
            if index == len(record["actions"]):
                continue
            readings = {a for a in game.legal_actions(before)
                        if game.board(game.apply(before, a)) == board}
            made = game.board(states[index + 1]) == board
            assert not readings or made, (index, board, readings)

    watch(body)


def test_a_stray_piece_from_the_box_lies_where_no_step_goes_then_is_lifted(
        table: VirtualTable, watch) -> None:
    """``stray_piece``: a piece from the box on an empty site no legal step changes, judged
    while it lies there (``wrong_board``), lifted, judged again, then the real move."""
    game = get_game("tiki_topple")
    seen: list[tuple[dict[str, str], dict[str, str] | None, Any]] = []

    async def body(w: Any) -> None:
        async def settle() -> None:
            await w.settle()
            seen.append((w.board(), bot.wrong_board, bot.state))

        bot = AutoplayBot(table, ["anna", "ben"], settle=settle, seed=3, mistake_rate=1.0,
                          settle_every="action", mistake_kinds=("stray_piece",))
        result = await bot.play()
        assert result.finished and w.board() == result.expected_board
        assert result.mistakes and {m.kind for m in result.mistakes} == {"stray_piece"}
        strays = [(board, state) for board, wrong, state in seen if wrong is not None]
        assert len(strays) == len(result.mistakes)
        for board, state in strays:
            expected = game.board(state)
            (site,) = board.keys() - expected.keys()
            assert {k: v for k, v in board.items() if k != site} == expected
            assert all(game.board(game.apply(state, action)).get(site) is None
                       for action in game.legal_actions(state))  # no legal step goes there
        for (_, wrong, state), (board, _, _) in pairwise(seen):
            if wrong is not None:
                assert board == game.board(state)  # lifted, and judged before the move

    watch(body)


def test_hooks_supply_hidden_draws_and_settle_per_action(table: VirtualTable, watch) -> None:
    game = get_game("tiki_topple")
    asked: list[int] = []
    answered: list[str] = []
    settles = 0

    async def body(w: Any) -> None:
        nonlocal settles

        def settle() -> Any:
            nonlocal settles
            settles += 1
            return w.settle()

        def hidden(index: int) -> str:  # as the controller would answer from its journal
            asked.append(index)
            answered.append(game.legal_actions(bot.state)[-1])
            return answered[-1]

        bot = AutoplayBot(table, ["anna", "ben"], settle=settle, seed=2,
                          hidden_chance=hidden, settle_every="action")
        for _ in range(5):  # the build, then two secret mission deals and two aside draws
            await bot.play_one()
        assert asked == [1, 2, 3, 4]
        assert bot.actions[1:] == answered
        assert [a.split()[0] for a in answered] == ["mission", "mission", "aside", "aside"]
        assert settles == 1  # one settle for the whole build
        assert w.board() == game.board(bot.state)

    watch(body)


def test_a_hidden_draw_that_is_not_possible_stops_the_bot(table: VirtualTable) -> None:
    from simulator.autoplay import AutoplayError

    async def main() -> None:
        bot = AutoplayBot(table, ["anna", "ben"], settle=lambda: None, seed=2,
                          hidden_chance=lambda index: "mission 99")
        await bot.play_one()  # the build: physical
        with pytest.raises(AutoplayError, match="mission 99"):
            await bot.play_one()

    asyncio.run(main())


class ToyGame(Game[tuple[str, ...]]):
    """Two seats take turns on the Tiki Topple overlay: `add T` lays tiki T on the next stack
    place, `also T` does the very same (so the table cannot tell them apart), and `pass` moves
    nothing. Four actions make a game. Made to test what Tiki Topple itself never does."""

    id = "toy"
    name = "Toy"
    min_players = 2
    max_players = 2
    TIKIS = ("nani", "kapu")

    def initial(self, players: Any, options: Any = None) -> tuple[str, ...]:
        return ()

    def actor(self, state: tuple[str, ...]) -> int:
        return TERMINAL if len(state) == 4 else len(state) % 2

    def legal_actions(self, state: tuple[str, ...]) -> list[str]:
        if len(state) == 4:
            return []
        free = [t for t in self.TIKIS if f"add {t}" not in state and f"also {t}" not in state]
        return sorted([*(f"add {t}" for t in free), *(f"also {t}" for t in free), "pass"])

    def chance_outcomes(self, state: tuple[str, ...]) -> list[tuple[str, Any]]:
        return []

    def apply(self, state: tuple[str, ...], action: str) -> tuple[str, ...]:
        if action not in self.legal_actions(state):
            raise IllegalAction(f"{action} is not legal now")
        return (*state, action)

    def parse_action(self, text: str) -> str:
        return text

    def score(self, state: tuple[str, ...]) -> ScoreSheet:
        return ScoreSheet(("a", "b"), (0, 0), ((), ()))

    def score_position(self, position: Any) -> Any:
        raise NotImplementedError

    def players(self, state: tuple[str, ...]) -> tuple[str, ...]:
        return ("anna", "ben")

    def view(self, state: tuple[str, ...], player: int | None) -> dict[str, Any]:
        return {"actions": list(state)}

    def sites(self, n_players: int) -> tuple[Site, ...]:
        return get_game("tiki_topple").sites(n_players)

    def board(self, state: tuple[str, ...]) -> dict[str, str]:
        laid = [a.split()[1] for a in state if a != "pass"]
        return {f"stack:{i}": f"tiki:{t}" for i, t in enumerate(laid, start=1)}

    def pieces(self) -> tuple[str, ...]:
        return tuple(f"tiki:{t}" for t in self.TIKIS)

    def state_to_json(self, state: tuple[str, ...]) -> dict[str, Any]:
        return {"actions": list(state)}

    def state_from_json(self, data: Any) -> tuple[str, ...]:
        return tuple(data["actions"])

    def compute_limits(self, n_players: int, options: Any) -> Limits:
        kinds = [f"{verb} {t}" for verb in ("add", "also") for t in self.TIKIS]
        return Limits(tuple(sorted([*kinds, "pass"])), max_steps=4, min_score=0, max_score=0)


def toy_table(make_table: Any) -> VirtualTable:
    tiki = make_table()
    tiki.close()
    return VirtualTable(tiki.profile, ToyGame(), scan_ms=4).start()


def test_silent_and_ambiguous_actions_go_through_the_confirm_button(make_table) -> None:
    table = toy_table(make_table)
    steps: list[Any] = []
    try:
        bot = AutoplayBot(table, ["anna", "ben"], settle=lambda: None, seed=4,
                          on_step=steps.append)
        result = asyncio.run(bot.play())
    finally:
        table.close()
    assert result.finished and result.board == result.expected_board
    actions = result.record["actions"]
    assert any(a.startswith("add") for a in actions) and "pass" in actions
    # `also T` would need the page: the bot plays the referee's first reading, `add T`.
    assert not any(a.startswith("also") for a in actions)
    presses = [s for s in steps if isinstance(s, Press)]
    assert len(presses) == 4 and set(presses) == {Press("confirm")}  # every action needs one


def test_a_choose_hook_settles_an_ambiguous_board(make_table) -> None:
    table = toy_table(make_table)
    chosen: list[tuple[str, tuple[str, ...]]] = []
    try:
        bot = AutoplayBot(table, ["anna", "ben"], settle=lambda: None, seed=4,
                          choose=lambda action, same: chosen.append((action, same)))
        result = asyncio.run(bot.play())
    finally:
        table.close()
    laid = [a for a in result.record["actions"] if a != "pass"]
    assert laid and [c[0] for c in chosen] == laid
    assert all(c[1] == (f"add {c[0].split()[1]}", f"also {c[0].split()[1]}") for c in chosen)


@pytest.mark.parametrize("rate", [-0.1, 1.5])
def test_bad_settings_are_refused(table: VirtualTable, rate: float) -> None:
    with pytest.raises(ValueError, match="mistake_rate"):
        AutoplayBot(table, ["anna", "ben"], settle=lambda: None, mistake_rate=rate)
    with pytest.raises(ValueError, match="mistake_kinds"):
        AutoplayBot(table, ["anna", "ben"], settle=lambda: None, mistake_kinds=("typo",))
    with pytest.raises(ValueError, match="no 'bell' button"):
        AutoplayBot(table, ["anna", "ben"], settle=lambda: None, confirm_button="bell")


def test_steps_are_reordered_to_keep_clear_of_a_dangerous_board() -> None:
    import random

    from simulator.autoplay import safe_order, unsafe_boards

    before = {"stack:1": "tiki:a", "stack:2": "tiki:b", "pad:play": "card:red:up1"}
    after = {"stack:1": "tiki:b", "stack:2": "tiki:a", "pad:play": "card:red:up2"}
    steps = plan_steps(before, after)
    danger = {frozenset()}  # the empty table: an earlier position
    assert unsafe_boards(before, steps, danger) == 1  # lifting everything first empties it
    ordered, unsafe = safe_order(before, steps, danger, random.Random(0))
    assert unsafe == 0 and sorted(map(str, ordered)) == sorted(map(str, steps))
    board: dict[str, str] = dict(before)
    for step in ordered:  # a real hand's order: every put on a cleared site, piece in hand
        if isinstance(step, Put):
            assert step.site not in board and step.piece not in board.values()
        board = board_after(board, step)
    assert board == after


def generic_profile(game: Game[Any], tmp_path: Any) -> Any:
    """A board profile for any game: one reader and one LED per site, in the game's order."""
    from hardware.profile import parse_profile

    sites = sorted({s.id for n in range(game.min_players, game.max_players + 1)
                    for s in game.sites(n)})
    data = {
        "name": f"generic {game.id}", "game": game.id, "settle_ms": 100,
        "web_token": "generic-token", "hub": {"url": "/dev/null"},
        "readers": {str(i): site for i, site in enumerate(sites)},
        "leds": {"driver": "recording", "count": len(sites),
                 "sites": {site: [i] for i, site in enumerate(sites)}},
        "buttons": {"pins": {"confirm": 5, "undo": 6}},
        "colours": dict.fromkeys(("legal", "active", "wrong", "score", "idle"), "#ffffff"),
    }
    return parse_profile(data, tmp_path / f"{game.id}.toml", sites)


@pytest.mark.parametrize("game_id", [game.id for game in all_games()])
def test_every_game_plays_to_its_end_through_the_table(
    game_id: str, tmp_path: Any, watch_any: Any
) -> None:
    """Nothing game-specific in the bot: each registered game, on a profile made from its
    sites alone, ends with the host seeing the engine's final board."""
    game = get_game(game_id)
    table = VirtualTable(generic_profile(game, tmp_path), game, scan_ms=2,
                         link_path=tmp_path / "tty").start()
    players = [f"p{i}" for i in range(game.min_players)]

    async def body(w: Any) -> None:
        bot = AutoplayBot(table, players, settle=w.settle, seed=1, mistake_rate=0.1,
                          settle_every="action")
        result = await bot.play()
        assert result.finished and w.board() == result.expected_board
        assert result.mistakes
        if any(site.stacks and site.id != game.reveal_site  # (secrets shown: not here)
               for site in game.sites(len(players))):
            # cards laid over cards stay in the readers' fields, and the host still sees tops
            heights = [len(stack) for stack in table.stacks().values()]
            assert max(heights) >= 3, heights
            assert sum(heights) > len(table.board())

    try:
        watch_any(table, body)
    finally:
        table.close()


def test_a_tower_goes_up_bottom_first_and_comes_down_top_first() -> None:
    piles = {"circle:1"}
    before = {"circle:1": "stone:red", "tri:1": "black"}
    after = {"circle:1": "stone:red / stone:yellow / stone:blue", "tri:1": "black"}
    steps = plan_steps(before, after, {"circle:1"}, piles=piles)
    assert steps == [Put("stone:yellow", "circle:1"), Put("stone:blue", "circle:1")]
    board = before
    for step in steps:
        board = board_after(board, step, piles)
    assert board == after
    back = plan_steps(after, {**after, "circle:1": "stone:red / stone:white"}, {"circle:1"},
                      piles=piles)
    assert [type(step).__name__ for step in back] == ["Lift", "Lift", "Put"]
    import random

    from simulator.autoplay import safe_order

    halfway = frozenset(board_after(before, steps[0], piles).items())
    shuffled, unsafe = safe_order(before, steps, {halfway}, random.Random(1), piles=piles)
    assert (shuffled, unsafe) == (steps, 1)  # no other order: a pile's stones keep theirs
