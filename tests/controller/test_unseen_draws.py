"""Players deal from the box: the table writes ``?`` for what it cannot see and learns it as
cards are played and secrets shown (controller/unresolved.py)."""

from __future__ import annotations

import asyncio
import random

import pytest

from controller.compose.box_players import BoxPlayers
from controller.errors import NothingToConfirm
from controller.journal import Journal
from controller.referee import Discrepancy, InProgress, NoChange, SecretShown, decide
from controller.table import Table
from controller.unresolved import UNRESOLVED, Reveal, search_dealings
from games.core.game import CHANCE
from games.registry import get_game

from .hand_fed import working

TIKI = get_game("tiki_topple")
STACK = ("nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "kapu")


def new_table(tmp_path, game=TIKI, name: str = "journal.sqlite3") -> Table:
    return Table(game, Journal(tmp_path / name), random.Random(7))


def builds_and_takes_extras(action: str) -> bool:
    return action == "take extra" or action.startswith("temple")


@pytest.mark.parametrize("game_id, players, seed, prefer", [
    ("tiki_topple", ["anna", "ben", "cleo"], 3, None),
    ("hanging_gardens", ["anna", "ben"], 10, builds_and_takes_extras),  # a hidden extra tile
])
def test_a_whole_game_dealt_from_the_box_scores_as_the_players_own_engine(
        tmp_path, game_id: str, players: list[str], seed: int, prefer) -> None:
    game = get_game(game_id)
    table = new_table(tmp_path, game)
    people = BoxPlayers(table, players, seed=seed, prefer=prefer or (lambda action: False))
    people.play()
    assert table.service_draws == 0 and table.unseen > 0
    if game.reveal_site is not None:
        assert table.reveals  # the score needed secrets shown
    assert len(table.actions) == len(people.actions)
    assert all(known in (UNRESOLVED, real)
               for known, real in zip(table.actions, people.actions, strict=True))
    status = table.status()
    assert status.finished and status.secrets_wanted is None
    assert status.scores is not None
    assert status.scores.scores == game.score(people.state).to_json()["scores"]
    assert status.winners == [players[s] for s in game.winners(people.state)]


def test_secret_draws_are_written_as_unresolved_and_nothing_is_guessed_in_public(
        tmp_path) -> None:
    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"])
    while people.game.actor(people.state) == CHANCE:
        people.step()
    assert table.actions[0].startswith("build ")
    assert table.actions[1:] == [UNRESOLVED] * 4  # two missions, two hands' set-aside cards
    assert table.journal.active().actions == tuple(table.actions)
    status = table.status()
    assert status.unseen_draws == 4 and status.dealer == "players"
    text = status.model_dump_json()
    for guess in table.history.actions[1:]:  # the working resolution is nobody's knowledge
        assert guess not in text
    seat = table.claim_seat(0, table.seats.records()[0].code)
    assert table.private_view(0, seat) == table.game.view(table.state, None)


def play_until_the_guess_lacks_a_card(table: Table, people: BoxPlayers
                                      ) -> tuple[int, list[str]]:
    """Play on until the player on turn may play a card the working guess set aside: that
    seat, and the plays with such a card."""
    while people.game.actor(people.state) == CHANCE:
        people.step()
    for _ in range(12):
        seat = people.game.actor(people.state)
        lacking = set(people.state.hands[seat]) - set(table.state.hands[seat])
        surprise = [a for a in people.game.legal_actions(people.state)
                    if a.split()[0] in lacking]
        if surprise:
            return seat, surprise
        people.step()
    raise AssertionError("the seeded deal never made the guess lack a card")


def test_a_card_the_working_guess_set_aside_is_still_a_legal_play(tmp_path) -> None:
    """Schmidt edition: two cards each set aside unseen. A player plays a kind the table's
    working resolution had set aside: possible, so accepted (the resolution changes, not the
    game)."""
    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"])
    seat, surprise = play_until_the_guess_lacks_a_card(table, people)
    # the early search the service takes off its loop a scan after the card lands: a step under
    # another dealing, though none under the working guess
    shown = people.game.board(people.game.apply(people.state, surprise[0]))
    assert not table.successors.matching(shown)
    working = list(table.history.actions)
    early = table.early_search(shown)
    assert early is not None and not table.early_search_found(shown)  # not looked yet
    assert not early.under_way  # a mistake under the guess: the whole look, swaps too
    table.early_searched(early, early.run())
    assert table.early_search_found(shown) and table.history.actions == working
    assert table.early_search(shown) is None  # once per board
    lifted = {site: piece for site, piece in table.expected_board.items() if site != "stack:1"}
    assert isinstance(decide(table.successors, lifted), InProgress)
    assert table.early_search(lifted) is None  # only lifted, a step under way: once settled
    searches = len(table.searches.costs)
    people.step(surprise[0])  # judged: the early search's dealing is taken, no search again
    assert table.actions[-1] == surprise[0] and len(table.searches.costs) == searches
    assert surprise[0].split()[0] in table.states[-2].hands[seat]


def test_the_first_toast_of_a_game_is_searched_though_the_guess_set_it_aside(tmp_path) -> None:
    """A Toast empties a place, which no step before the first one did; under the working
    guess the player on turn holds no Toast, so no legal step makes that change either. The
    table must still search their hand (it once read this as a plain mistake, for good)."""
    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"], seed=0)

    def lacks_a_toast() -> bool:
        seat = people.game.actor(people.state)
        return seat != CHANCE and "toast" in people.game.legal_actions(people.state) and (
            "toast" not in table.state.hands[seat])

    while not lacks_a_toast():
        people.step()
    assert "toast" not in table.actions
    assert all(s.action != "toast" for s in table.successors.changing)
    toasted = people.game.board(people.game.apply(people.state, "toast"))
    assert any(site not in toasted for site in table.expected_board)  # a place emptied
    people.step("toast")
    assert table.actions[-1] == "toast" and table.decision == NoChange()


def test_a_card_no_hand_can_hold_is_refused_with_the_reason(tmp_path) -> None:
    """Anna holds one card of each kind: the one she has played lies on her pile, so no way
    of dealing gives it to her again."""
    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"])
    while people.game.actor(people.state) == CHANCE:
        people.step()
    people.step()  # anna plays a card
    played = table.expected_board["pad:play"]
    while people.game.actor(people.state) != 0:
        people.step()
    before = list(table.actions)
    early = table.early_search({**table.expected_board, "pad:play": played})
    assert early is not None and early.run() is None
    decision = table.observe({**table.expected_board, "pad:play": played})
    assert isinstance(decision, Discrepancy) and decision.wrong[0].site == "pad:play"
    assert table.search_asked is not None  # the likely verdict first, the search asked
    table.search_now()
    assert isinstance(table.decision, Discrepancy) and table.decision.wrong[0].site == "pad:play"
    assert table.actions == before and table.searches.costs


def test_the_score_waits_for_the_missions_and_takes_only_a_possible_one(tmp_path) -> None:
    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"], seed=5)
    while not people.to_show:
        people.step()
    status = table.status()
    assert status.scores is None and status.secrets_wanted is not None
    assert status.secrets_wanted.player == "anna" and status.secrets_wanted.waiting == [
        "anna", "ben"]
    assert status.view["scores"] is None
    assert all(r["missions"]["anna"] is None for r in status.view["history"])
    while "pad:play" in people.game.board(people.state):
        people.step()  # clear the stack and the pad
    board = people.game.board(people.state)
    (_, anna), (_, ben) = people.to_show
    shown = table.observe({**board, "pad:reveal": anna[0]})
    assert shown == SecretShown(0, anna, complete=True)
    assert table.status().secrets_wanted.player == "ben"
    assert isinstance(table.observe(board), NoChange)  # taken off
    wrong = table.observe({**board, "pad:reveal": anna[0]})  # anna's mission again, as ben's
    assert isinstance(wrong, Discrepancy) and "cannot be ben's" in wrong.message
    assert len(table.reveals) == 1
    table.observe(board)
    assert isinstance(table.observe({**board, "pad:reveal": ben[0]}), SecretShown)
    table.observe(board)
    people.to_show.clear()
    status = table.status()
    assert status.secrets_wanted is None
    assert status.scores.scores == TIKI.score(people.state).to_json()["scores"]


def test_unseen_draws_and_shown_secrets_survive_a_restart(tmp_path) -> None:
    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"], seed=5)
    while not people.to_show:
        people.step()
    while "pad:play" in people.game.board(people.state):
        people.step()
    people.to_show = people.to_show[:1]  # anna shows hers; ben's is still awaited
    people.show()
    assert len(table.reveals) == 1
    again = new_table(tmp_path)  # kill -9: a new process reads the journal
    again.resume(table.journal.active())
    assert again.actions == table.actions and again.reveals == table.reveals
    assert again.unseen == table.unseen
    assert again.pending_reveals() == table.pending_reveals() != []
    assert again.expected_board == table.expected_board
    assert again.status().scores is None


def test_a_card_no_trapper_hand_can_hold_is_refused(tmp_path) -> None:
    """Two players, seed 3: by step 180 all sixteen green cards lie played on the discard pile
    (the pile was never reshuffled), so a payment with a green card is refused, however the
    box was dealt."""
    game = get_game("trapper")
    table = Table(game, Journal(tmp_path / "journal.sqlite3"), random.Random(3))
    people = BoxPlayers(table, ["anna", "ben"], seed=3)
    while len(people.actions) < 180:
        people.step()
    def greens(words: list[str]) -> int:  # green paid: "green 4:2", "red 4:2 joker green"
        if "joker" in words:
            return 2 * (words[words.index("joker") + 1] == "green")
        return int(words[0] == "green")

    assert sum(greens(action.split()) for action in table.actions) == 16
    state = people.state
    seat = game.actor(state)
    hands = list(state.hands)
    hands[seat] = (hands[seat][0] - 1, *hands[seat][1:3], hands[seat][3] + 1)  # a red as green
    pretend = state._replace(hands=tuple(hands))  # a hand the box cannot have dealt
    board = game.board(game.apply(pretend, "green 4:2"))
    before = list(table.actions)
    decision = table.observe(board)
    assert isinstance(decision, Discrepancy)
    assert "take card green off pad play:1" in decision.message
    assert table.actions == before


def test_a_trapper_game_dealt_from_the_box_resumes_after_a_kill_and_plays_to_the_end(
        tmp_path) -> None:
    """Killed after 120 steps (36 of them unseen cards); the new process reads the journal,
    works from the same guesses, and takes every later payment, the unpredicted ones too."""
    game = get_game("trapper")
    table = Table(game, Journal(tmp_path / "journal.sqlite3"), random.Random(11))
    people = BoxPlayers(table, ["anna", "ben", "cleo"], seed=11)
    while len(people.actions) < 120:
        people.step()
    assert table.unseen == 36
    again = Table(game, Journal(tmp_path / "journal.sqlite3"), random.Random(3))
    again.resume(table.journal.active())
    assert again.actions == table.actions and again.history.known == table.history.known
    assert again.history.actions == table.history.actions  # the same working guesses
    assert again.expected_board == table.expected_board
    people.table = again
    people.play()
    assert again.actions[:120] == table.actions[:120] and len(again.actions) == 190
    assert all(known in (UNRESOLVED, real)
               for known, real in zip(again.actions, people.actions, strict=True))
    assert again.status().scores.scores == game.score(people.state).to_json()["scores"]


def test_undo_takes_back_a_step_and_its_unseen_draws_without_naming_them(tmp_path) -> None:
    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"])
    people.step()  # the stack is built; the missions and set-aside cards follow unseen
    assert table.actions[1:] == [UNRESOLVED] * 4
    table.undo()
    assert table.actions == []
    assert "took back build" in table.events[-1].text and "?" not in table.events[-1].text


def test_resolve_finds_a_dealing_for_a_reveal_and_refuses_an_impossible_one() -> None:
    state = TIKI.initial(["anna", "ben"])
    rng = random.Random(2)
    actions, states = [], [state]
    while TIKI.actor(states[-1]) == CHANCE:
        action = TIKI.sample_chance(states[-1], rng)
        actions.append(action)
        states.append(TIKI.apply(states[-1], action))
    steps = [actions[0]] + [UNRESOLVED] * (len(actions) - 1)
    mission = TIKI.revealed_pieces(states[-1], 1)
    found, cost = search_dealings(TIKI, state, steps, reveals=[Reveal(len(steps), 1, mission)])
    assert found is not None and TIKI.revealed_pieces(found.states[-1], 1) == mission
    assert cost.applies < 200
    both = [Reveal(len(steps), 0, mission), Reveal(len(steps), 1, mission)]  # one card, twice
    found, cost = search_dealings(TIKI, state, steps, reveals=both)
    assert found is None and not cost.gave_up


def test_a_game_with_an_ai_seat_has_the_digital_dealer(tmp_path) -> None:
    table = new_table(tmp_path)
    table.new_game(["anna", "ben"], {}, ai={"ben": 50})
    assert table.dealer == "digital"
    table.observe({f"stack:{i}": f"tiki:{t}" for i, t in enumerate(STACK, start=1)})
    assert UNRESOLVED not in table.actions and table.service_draws == 4


def test_a_dealer_that_is_not_one_is_refused(tmp_path) -> None:
    from games.core.errors import BadSetup

    with pytest.raises(BadSetup, match="the dealer is one of players, digital"):
        new_table(tmp_path).new_game(["anna", "ben"], {}, dealer="croupier")


def test_a_record_with_unseen_draws_replays_and_scores_once_the_secrets_are_in(
        tmp_path, capsys) -> None:
    import json

    from controller.cli import main

    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"], seed=4)
    people.play()
    record = table.journal.games()[-1].record()
    assert UNRESOLVED in record["actions"] and len(record["reveals"]) == 8  # 4 rounds x 2
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["score"] == TIKI.score(people.state).to_json()
    assert replayed["unseen"] == record["actions"].count(UNRESOLVED)
    path.write_text(json.dumps({**record, "reveals": record["reveals"][:-1]}))
    assert main(["replay", str(path)]) == 0
    waiting = json.loads(capsys.readouterr().out)
    assert waiting["score"] is None and waiting["waiting_for_secrets_of"] == ["ben"]
    shown = record["reveals"][-1]
    impossible = [*record["reveals"][:-1], {**shown, "pieces": record["reveals"][-2]["pieces"]}]
    path.write_text(json.dumps({**record, "reveals": impossible}))  # anna's card as ben's
    assert main(["replay", str(path)]) == 2  # a user error
    assert "no way of dealing the box explains" in capsys.readouterr().err


def test_options_under_which_players_cannot_deal_get_the_digital_dealer(tmp_path) -> None:
    """Tiki Topple to 35 points: whether the game goes on depends on the missions at once."""
    table = new_table(tmp_path)
    table.new_game(["anna", "ben"], {"end": "35_points"})
    assert table.dealer == "digital"
    assert "the table deals the secrets" in table.events[-1].text
    table.new_game(["anna", "ben"], {})
    assert table.dealer == "players"


def test_cards_the_working_guess_gave_to_retired_hands_are_found_by_swapping_draws(
        tmp_path) -> None:
    """Trapper dealt from the box, seed 11 with three players: at step 177 the last player
    left pays two green cards, while the working guess had every green in the discard pile
    (in the hands of the two who retired). Two swaps of a retired hand's draw with one of the
    payer's explain it (a card dealt and a card drawn are the same card: ``dealt_piece``);
    before swaps counted as one change, the table refused this legal payment."""
    game = get_game("trapper")
    table = Table(game, Journal(tmp_path / "journal.sqlite3"), random.Random(11))
    people = BoxPlayers(table, ["anna", "ben", "cleo"], seed=11)
    people.play()
    assert table.service_draws == 0 and table.unseen > 50
    assert len(table.actions) == len(people.actions) == 190
    assert all(known in (UNRESOLVED, real)
               for known, real in zip(table.actions, people.actions, strict=True))
    assert table.status().scores.scores == game.score(people.state).to_json()["scores"]


def test_confirm_has_the_table_look_further_for_a_payment_the_first_searches_gave_up_on(
        tmp_path) -> None:
    """Trapper, four players, seed 11: the payment at step 146 (two blue cards) needs a
    dealing the first searches (80,000 applies) do not reach. The table lights it as wrong
    and says that confirm looks further; confirmed, the longer search finds the dealing and
    the step is taken."""
    game = get_game("trapper")
    table = Table(game, Journal(tmp_path / "journal.sqlite3"), random.Random(11))
    people = BoxPlayers(table, ["anna", "ben", "cleo", "dora"], seed=11)
    while len(people.actions) < 145:
        people.step()
    action = "red 6:4 joker blue"
    assert action in game.legal_actions(people.state)
    after = game.apply(people.state, action)
    table.observe(game.board(after))
    table.search_now()
    assert isinstance(table.decision, Discrepancy) and table.may_look_further
    assert "press confirm and the table looks further" in table.decision.message
    assert len(table.actions) == 145
    passing = {site: piece for site, piece in game.board(after).items() if site != "pad:play:2"}
    table.observe(passing)  # a hand passes over a card: another board
    table.search_now()
    table.observe(game.board(after))  # back as it was: refused again, the offer is back
    table.search_now()
    assert isinstance(table.decision, Discrepancy)
    assert table.may_look_further
    assert "looks further" in str(table.confirm())
    table.search_now()  # the patient search the confirm asked
    assert len(table.actions) == 146 and table.actions[-1] == action
    assert not table.may_look_further
    with pytest.raises(NothingToConfirm):
        table.confirm()  # nothing more to look for


def test_a_possible_card_that_restores_an_earlier_board_is_a_move_not_a_take_back(
        tmp_path) -> None:
    """Anna's second up1 leaves the stack as it was two moves ago. The working resolution
    had set an up1 aside, so it read the board as a take-back offer; another dealing makes it
    her move, which is what it was."""
    table = Table(TIKI, Journal(tmp_path / "j.sqlite3"), random.Random(0))  # guesses up1 aside
    table.new_game(["anna", "ben"], {})
    played = ["build akamai nui lokahi kapu hookipa eepo huhu wikiwiki nani", "mission 9",
              "mission 21", "aside puh wiki", "aside puh toast", "up2 nani",
              "wiki nui wikiwiki", "topple akamai", "up3 eepo", "up1 nui", "up1 hookipa",
              "up1 kapu"]
    state = TIKI.initial(["anna", "ben"])
    for action in played:
        state = TIKI.apply(state, action)
        table.observe(TIKI.board(state))
        table.search_now()
    assert table.actions[-1] == "up1 kapu" and len(table.actions) == len(played)
    assert isinstance(table.decision, NoChange)


# -- hints where the table has not seen the secrets ----------------------------------------------


def test_a_hint_weighs_several_dealings_the_table_cannot_tell_apart(tmp_path) -> None:
    """Players dealt the missions: a hint asked for anna carries the history, and the worlds it
    samples are different dealings (anna's mission among them), each agreeing with the public
    table and each a replay of what was seen."""
    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben", "cleo"], seed=2)
    while people.game.actor(people.state) == CHANCE:
        people.step()
    table.request_hint()
    request = table.advice_request()
    assert request is not None and request.kind == "hint" and request.unseen is not None
    assert request.unseen.known == tuple(table.actions)
    worlds = request.unseen.worlds(TIKI, 4, seed=request.seed)
    assert len(worlds) == 4
    public = TIKI.view(table.state, None)
    assert all(TIKI.view(world, None) == public for world in worlds)
    missions = {tuple(TIKI.view(world, 0)["mission"]) for world in worlds}
    assert len(missions) > 1, "the worlds should not all give anna the same mission"
    # the digital dealer knows the cards: its hints search its own state
    digital = new_table(tmp_path, name="digital.sqlite3")
    digital.new_game(["anna", "ben"], {}, dealer="digital")
    digital.observe(stack_board(STACK))
    digital.request_hint()
    request = digital.advice_request()
    assert request is not None and request.unseen is None


def stack_board(stack) -> dict[str, str]:
    return {f"stack:{i}": f"tiki:{t}" for i, t in enumerate(stack, start=1)}


def test_the_move_most_worlds_chose_is_advised_among_the_legal_ones() -> None:
    from controller.advice import weigh_worlds

    picks = [("a", {"a": 0.6, "b": 0.4}), ("b", {"a": 0.5, "b": 0.7}),
             ("a", {"a": 0.8}), ("x", {"x": 0.9})]
    action, values = weigh_worlds(picks, legal={"a", "b"})
    assert action == "a" and values["a"] == round((0.6 + 0.5 + 0.8) / 3, 3)
    assert "x" not in values  # the table would not take it: not shown beside the hint
    assert weigh_worlds([("b", {"b": 0.2}), ("a", {"a": 0.9})], {"a", "b"})[0] == "a"  # tie
    assert weigh_worlds([("x", {})], {"a"}) is None


def test_the_ai_answers_a_hint_from_sampled_worlds_with_a_legal_move(tmp_path) -> None:
    pytest.importorskip("open_spiel")
    from controller.advice import HINT_WORLDS, ai_advisor

    table = new_table(tmp_path)
    people = BoxPlayers(table, ["anna", "ben"], seed=4)
    while people.game.actor(people.state) == CHANCE:
        people.step()
    table.request_hint()
    request = table.advice_request()
    assert request is not None and request.unseen is not None
    advise = ai_advisor(TIKI)
    assert advise is not None
    advice = advise(request)
    assert advice.action in TIKI.legal_actions(table.state)
    assert advice.simulations == HINT_WORLDS * (request.simulations // HINT_WORLDS)
    assert table.receive_advice(request, advice.action, advice.values, advice.seconds,
                                advice.simulations) is not False
    assert table.current_advice() is not None


def test_the_service_looks_early_off_its_loop_and_judges_when_the_look_answers(
        tmp_path) -> None:
    """A card the working guess set aside lands on the pad: a scan later the service starts
    the early search in a thread (the hubs are read on meanwhile), and when it answers the board
    is judged at once with the dealing it found, long before the settle time."""
    from gpiozero.pins.mock import MockFactory

    from controller.compose import build_service, load_board
    from hardware.leds import RecordingStrip

    profile = load_board("tiki_topple")
    service, registry = build_service(
        profile, tmp_path, urls=[str(tmp_path / "no-hub")], pin_factory=MockFactory(),
        strip=RecordingStrip(profile.leds.count, byteorder=profile.leds.pixel_order),
        rng=random.Random(1))
    uid_of = {piece: f"{number:08x}" for number, piece in enumerate(TIKI.pieces(), start=1)}
    for piece, uid in uid_of.items():
        registry.enroll(uid, piece)
    table = service.table
    people = BoxPlayers(table, ["anna", "ben"])
    _, surprise = play_until_the_guess_lacks_a_card(table, people)
    reader_of = {site: reader for reader, site in profile.readers.items()}
    tracker = service.tracker
    tracker.snapshot({reader_of[site]: uid_of[piece]
                      for site, piece in people.game.board(people.state).items()}, 0.0)
    service.hubs[0].seen = True
    for hub in service.hubs:
        hub.period, hub.miss_limit = 0.1, 1
    service._hub_timing()
    before = people.game.board(people.state)
    shown = people.game.board(people.game.apply(people.state, surprise[0]))
    moved = sorted(site for site in shown if before.get(site) != shown[site])
    for site in moved:  # the tikis moved and the card laid, as the hub reports them
        if site in before:
            tracker.tag_left(reader_of[site], uid_of[before[site]], 10.0)
    for site in moved:
        tracker.tag_arrived(reader_of[site], uid_of[shown[site]], 10.0)
    assert tracker.board == shown and not table.successors.matching(shown)
    searches = len(table.searches.costs)

    async def a_scan_later() -> float | None:
        async with working(service):
            wake = service.judge_at(10.125)  # not one step under the guess: the early search starts
            assert wake == pytest.approx(10.0 + profile.settle_ms / 1000)
            assert service._early is not None and service.judging is False
            await asyncio.wait_for(service._retimed.wait(), 10)  # the early search answered
            assert service._early is None
        return service.judge_at(10.125)

    assert asyncio.run(a_scan_later()) is None  # judged at once now
    service.judge()
    assert table.actions[-1] == surprise[0] and len(table.searches.costs) == searches
