"""A mistake lights red after the settle time like any other, without waiting for a search: the
search for another dealing of the unseen draws runs behind the red light and withdraws it if it
finds one. No search runs where none can matter (a draw that decides nothing for play, a change
no step of the game makes), and a wrong piece lifted clears at the next scan."""

from __future__ import annotations

import asyncio
import random

from controller.compose.box_players import BoxPlayers
from controller.history import MAX_TAKE_BACK
from controller.journal import Journal
from controller.referee import Discrepancy, NoChange, decide
from controller.table import Table
from games.core.game import CHANCE
from games.core.playout import seat_names
from games.registry import get_game

from .hand_fed import hand_fed_trapper, working

TIKI = get_game("tiki_topple")
TRAPPER = get_game("trapper")


def tiki_at_play(tmp_path, edition: str) -> tuple[Table, str]:
    """Anna's turn again after she played a card: the table and that card."""
    table = Table(TIKI, Journal(tmp_path / f"{edition}.sqlite3"), random.Random(7))
    people = BoxPlayers(table, ["anna", "ben"], {"edition": edition})
    while people.game.actor(people.state) == CHANCE:
        people.step()
    people.step()  # anna plays a card: it lies on the play pad
    played = table.expected_board["pad:play"]
    while people.game.actor(people.state) != 0:
        people.step()
    return table, played


def test_a_tiki_mistake_is_red_without_any_search_when_only_missions_are_unseen(
        tmp_path) -> None:
    """Gamewright edition: the only unseen draws are the missions, which decide nothing for
    play (``Game.limits_play``): the card anna played again is a mistake under any dealing."""
    table, played = tiki_at_play(tmp_path, "gamewright")
    assert table.unseen > 0 and not table.searches.unseen_limits_play(table.state)
    board = {**table.expected_board, "pad:play": played}
    searches, before = len(table.searches.costs), list(table.actions)
    assert table.early_search(board) is None
    decision = table.observe(board)
    assert isinstance(decision, Discrepancy) and table.search_asked is None
    assert len(table.searches.costs) == searches and table.actions == before


def test_a_change_no_step_makes_is_red_without_any_search(tmp_path) -> None:
    """Schmidt edition (set-aside cards decide what can be played, so searches may matter):
    a tiki laid on the play pad is a change no step of the game makes, whatever the hands."""
    table, played = tiki_at_play(tmp_path, "schmidt")
    assert table.searches.unseen_limits_play(table.state)
    tiki = table.expected_board["stack:1"]
    board = {site: piece for site, piece in table.expected_board.items() if site != "stack:1"}
    board["pad:play"] = tiki
    searches = len(table.searches.costs)
    assert table.early_search(board) is None
    assert isinstance(table.observe(board), Discrepancy) and table.search_asked is None
    assert len(table.searches.costs) == searches
    # the card she played laid again is a change a step makes: searched, behind the red
    assert isinstance(table.observe({**table.expected_board, "pad:play": played}),
                      Discrepancy)
    assert table.search_asked is not None


def trapper_surprise(table: Table, seeds: range = range(60)) -> tuple[BoxPlayers, str]:
    """Players dealing from the box until the player on turn makes a move that the working
    guess reads as a mistake (a card it gave another hand): the players and that move."""
    for seed in seeds:
        people = BoxPlayers(table, seat_names(3), seed=seed)
        while not TRAPPER.is_terminal(people.state):
            state = people.state
            if TRAPPER.actor(state) != CHANCE:
                earlier = table.history.earlier_boards(MAX_TAKE_BACK)
                for action in TRAPPER.legal_actions(state):
                    board = TRAPPER.board(TRAPPER.apply(state, action))
                    if isinstance(decide(table.successors, board, earlier), Discrepancy):
                        return people, action
            people.step()
            people.show()
    raise AssertionError("no seeded game made the working guess refuse a legal move")


def test_a_payment_only_another_dealing_explains_is_red_then_taken_when_found(
        tmp_path) -> None:
    table = Table(TRAPPER, Journal(tmp_path / "journal.sqlite3"), random.Random(1))
    people, action = trapper_surprise(table)
    board = TRAPPER.board(TRAPPER.apply(people.state, action))
    before = list(table.actions)
    decision = table.observe(board)
    assert isinstance(decision, Discrepancy)  # the likely verdict, at once
    assert "wrong" in table.led_roles().values() and table.actions == before
    search = table.search_asked
    assert search is not None and table.searches.wants(search)
    found, costs = search.run(lambda: not table.searches.wants(search))
    assert found is not None and table.searched(search, found, costs)
    assert isinstance(table.observe(board), NoChange)
    assert table.actions[len(before)] == action
    assert table.journal.active().actions == tuple(table.history.known)
    assert "withdrawn" in str(table.events[-2].message)


def test_a_search_stops_when_its_board_is_no_longer_on_the_table(tmp_path) -> None:
    table = Table(TRAPPER, Journal(tmp_path / "journal.sqlite3"), random.Random(1))
    people, action = trapper_surprise(table)
    board = TRAPPER.board(TRAPPER.apply(people.state, action))
    table.observe(board)
    search = table.search_asked
    assert search is not None
    table.observe(table.expected_board)  # the piece lifted again
    assert not table.searches.wants(search)
    found, costs = search.run(lambda: not table.searches.wants(search))
    assert found is None and sum(cost.applies for cost in costs) <= 1
    assert table.searched(search, found, costs) and search.key not in table.searches._unexplained


def trapper_service(tmp_path):
    """The Trapper service, no hubs, its readers fed by hand (one scan 0.1 s)."""
    service, uid_of, reader_of = hand_fed_trapper(tmp_path)
    clock = [0.0]
    service.clock = lambda: clock[0]

    def lay(board: dict[str, str], now: float) -> None:
        clock[0] = now
        service.tracker.snapshot({reader: uid_of.get(board.get(site, "") + (
            "#2" if site == "pad:play:2" else "")) for site, reader in reader_of.items()}, now)

    return service, lay, clock


def test_the_service_lights_red_at_once_and_takes_the_step_when_the_search_finds_it(
        tmp_path) -> None:
    service, lay, clock = trapper_service(tmp_path)
    table = service.table
    people, action = trapper_surprise(table)
    board = TRAPPER.board(TRAPPER.apply(people.state, action))
    before = list(table.actions)

    async def scene() -> list[object]:
        seen = []
        async with working(service):
            lay(board, clock[0] + 1.0)
            clock[0] = service.tracker.settles_at()
            assert service.judge_at(clock[0]) is None
            service.judge()
            seen.append(table.decision)
            seen.append(dict(service.roles))
            assert service.judging  # the search asked of the worker
            await asyncio.wait_for(service.until_idle(), 60)
        return seen

    decision, roles = asyncio.run(scene())
    assert isinstance(decision, Discrepancy) and "wrong" in roles.values()
    assert table.actions[len(before)] == action and not isinstance(table.decision, Discrepancy)
    assert table.journal.active().actions == tuple(table.history.known)
    assert "wrong" not in service.roles.values()


def test_a_lifted_wrong_piece_clears_at_the_next_scan(tmp_path) -> None:
    """A mistake is judged once settled; the piece lifted again is judged as soon as the hub
    reports the lift, not after the settle time."""
    service, lay, clock = trapper_service(tmp_path)
    table = service.table
    table.new_game(seat_names(3), {}, dealer="digital")  # no unseen draws: no search at all
    rng = random.Random(5)
    while "pass" not in TRAPPER.legal_actions(table.state):
        lay(rng.choice(table.successors.changing).board, clock[0] + 1.0)
        clock[0] = service.tracker.settles_at()
        service.judge()
    expected = dict(table.expected_board)
    changing = table.successors.changing
    empty = next(site.id for site in TRAPPER.sites(3) if site.id not in expected
                 and not any(step.board.get(site.id) for step in changing))
    stray = next(piece for piece in TRAPPER.pieces() if piece not in expected.values())
    lay({**expected, empty: stray}, clock[0] + 1.0)
    landed = clock[0]
    assert service.judge_at(landed + 0.1) is not None  # a mistake waits for the settle time
    clock[0] = service.tracker.settles_at()
    assert service.judge_at(clock[0]) is None
    service.judge()
    assert isinstance(table.decision, Discrepancy)
    lay(expected, clock[0] + 0.05)  # lifted: the reader reports it gone
    assert not service.tracker.settled(clock[0])
    assert service.judge_at(clock[0]) is None  # judged at once
    service.judge()
    assert isinstance(table.decision, NoChange) and "wrong" not in service.roles.values()
