"""Setup chance, editions, rounds, scoring and the end of the game."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from games.core import TERMINAL, BadPosition, BadSetup, BadState, DataFileError, IllegalAction
from games.core.playout import random_playout
from games.tiki_topple import components
from games.tiki_topple.components import load_edition
from games.tiki_topple.scoring import mission_points

from .helpers import GAME, STACK, play, setup


def test_the_stack_is_any_grouped_order_equally_likely() -> None:
    state = GAME.initial(["anna", "ben"])
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 1296
    assert {p for _, p in outcomes} == {Fraction(1, 1296)}
    assert ("build " + " ".join(STACK), Fraction(1, 1296)) in outcomes


@pytest.mark.parametrize(
    ("stack", "reason"),
    [
        (["nani", "nui", "huhu", "wikiwiki", "lokahi", "akamai", "eepo", "hookipa", "kapu"],
         "stand together"),
        (["nani", "wikiwiki", "huhu", "nui", "lokahi", "akamai", "eepo", "hookipa", "hookipa"],
         "not a Tiki Topple action"),
    ],
)
def test_a_stack_that_breaks_the_grouping_is_refused(stack: list[str], reason: str) -> None:
    with pytest.raises(IllegalAction, match=reason):
        GAME.apply(GAME.initial(["anna", "ben"]), "build " + " ".join(stack))


def test_set_aside_chances_are_exact() -> None:
    state = play(GAME.initial(["anna", "ben"]), "build " + " ".join(STACK), "mission 1",
                 "mission 2")
    outcomes = dict(GAME.chance_outcomes(state))
    assert sum(outcomes.values()) == 1
    assert outcomes["aside toast toast"] == Fraction(1, 36)  # 9 cards: C(9,2) = 36
    assert outcomes["aside toast up1"] == Fraction(4, 36)
    assert outcomes["aside puh wiki"] == Fraction(1, 36)


def test_sampled_set_asides_follow_the_exact_chances() -> None:
    state = play(GAME.initial(["anna", "ben"]), "build " + " ".join(STACK), "mission 1",
                 "mission 2")
    rng = random.Random(7)
    draws = Counter(GAME.sample_chance(state, rng) for _ in range(36_000))
    for action, probability in GAME.chance_outcomes(state):
        assert abs(draws[action] / 36_000 - float(probability)) < 0.01, action


@pytest.mark.parametrize(
    ("players", "edition", "hand", "rounds"),
    [
        (2, "schmidt", 7, 4),
        (3, "schmidt", 6, 3),
        (4, "schmidt", 6, 4),
        (2, "gamewright", 7, 4),
        (4, "gamewright", 6, 4),
        (4, "gamewright_all_cards", 7, 4),
    ],
)
def test_editions_and_player_counts(players: int, edition: str, hand: int, rounds: int) -> None:
    names = [f"p{n}" for n in range(players)]
    state = setup(names, edition=edition)
    assert GAME.actor(state) == 0
    assert [len(h) for h in state.hands] == [hand] * players
    result = random_playout(GAME, names, {"edition": edition}, random.Random(players))
    assert GAME.actor(result.final) == TERMINAL
    assert len(result.final.history) == rounds
    used = [m for r in result.final.history for m in r.missions]
    assert len(used) == len(set(used)) == rounds * players
    assert any(a.startswith("aside") for a in result.actions) == (edition == "schmidt")


def test_unknown_options_are_refused() -> None:
    with pytest.raises(BadSetup, match="edition must be one of schmidt, gamewright"):
        GAME.initial(["a", "b"], {"edition": "deluxe"})
    with pytest.raises(BadSetup, match="no option 'speed'"):
        GAME.initial(["a", "b"], {"speed": "fast"})
    with pytest.raises(BadSetup, match="2 to 4 players"):
        GAME.initial(["a"])
    with pytest.raises(BadSetup, match="must differ"):
        GAME.initial(["a", "a"])


EDITION = load_edition("schmidt")


@pytest.mark.parametrize(
    ("stack", "points"),
    [
        (("hookipa", "lokahi", "nani"), 9 + 5 + 2),
        (("lokahi", "hookipa", "nani"), 0 + 5 + 2),
        (("nani", "lokahi", "hookipa"), 0 + 5 + 2),
        (("nani", "hookipa", "lokahi"), 2),
        (("kapu", "eepo", "nui", "nani"), 0),
    ],
)
def test_the_mission_card_scores_nine_five_two(stack: tuple[str, ...], points: int) -> None:
    # The sheet's card: hookipa only on top (9), lokahi in the top two (5), nani top three (2).
    assert mission_points(EDITION, stack, ("hookipa", "lokahi", "nani")) == points


def test_the_rule_sheets_worked_example() -> None:
    # Mission lokahi / wikiwiki / hookipa: lokahi is not on top (0), wikiwiki is in the top two
    # (5), hookipa stands fourth, one place too low for its 2 points.
    stack = ("wikiwiki", "lokahi", "nani", "hookipa", "kapu")
    assert mission_points(EDITION, stack, ("lokahi", "wikiwiki", "hookipa")) == 5
    higher = ("wikiwiki", "lokahi", "hookipa", "nani", "kapu")
    assert mission_points(EDITION, higher, ("lokahi", "wikiwiki", "hookipa")) == 7


def test_round_scores_go_on_the_sheet_with_checkable_lines() -> None:
    number = next(m.number for m in EDITION.missions if m.tikis[0] == "nani")
    state = setup(missions=[number, 27])
    state = state._replace(hands=(("up1",), ()), played=(("wiki",), ("wiki",)))
    state = play(state, "up1 wikiwiki")  # stack: wikiwiki nani huhu ...
    sheet = GAME.score(state)
    mission = EDITION.mission(number).tikis
    expected = mission_points(EDITION, state.stack, mission)
    assert sheet.totals[0] == expected
    assert sheet.lines[0][0].text.startswith(f"round 1: {mission[0]} at 2 (needs top 1): 0")
    assert sheet.lines[0][0].text.endswith(f"= {expected}")


def test_running_score_hides_this_rounds_missions() -> None:
    state = play(setup(), "up1 wikiwiki")
    sheet = GAME.score(state)
    assert sheet.totals == (0, 0)
    assert sheet.lines == ((), ())


def test_ties_make_several_winners() -> None:
    state = setup()._replace(phase="over", totals=(14, 14))
    assert GAME.winners(state) == [0, 1]
    assert GAME.winners(state._replace(totals=(14, 15))) == [1]


def test_views_show_only_your_own_hand_and_mission() -> None:
    state = setup(missions=[3, 9])
    public = GAME.view(state, None)
    mine = GAME.view(state, 0)
    assert "hand" not in public and "mission" not in public
    assert mine["hand"] == list(state.hands[0])
    assert mine["mission"] == list(EDITION.mission(3).tikis)
    assert mine["set_aside"] == ["toast", "up1"]
    assert public["hand_sizes"] == {"anna": 7, "ben": 7}
    # Another mission and another set-aside for ben change nothing anna or the table sees.
    bens_hand = ("up1", "up2", "up3", "puh", "topple", "wiki", "toast")
    other = state._replace(
        missions=(3, 10),
        hands=(state.hands[0], bens_hand),
        aside=(state.aside[0], ("toast", "up1")),
    )
    assert other != state
    assert GAME.view(other, 0) == mine
    assert GAME.view(other, None) == public
    assert GAME.view(other, 1) != GAME.view(state, 1)


def test_missions_are_revealed_after_the_round() -> None:
    state = setup(missions=[3, 9])._replace(hands=(("up1",), ()), played=(("wiki",),) * 2)
    state = play(state, "up1 wikiwiki")
    history = GAME.view(state, None)["history"]
    assert history[0]["missions"]["ben"] == list(EDITION.mission(9).tikis)


def test_score_position_validates_its_input() -> None:
    sheet, winners = GAME.score_position(
        {"stack": ["Hookipa", "lokahi", "nani"],
         "missions": {"a": ["hookipa", "lokahi", "nani"], "b": ["kapu", "akamai", "huhu"]}}
    )
    assert sheet.totals[0] == 16 and sheet.totals[1] < 16 and winners == [0]
    three = ["nani", "nui", "eepo"]
    five = {name: three for name in "abcde"}
    bad = [
        ([], "JSON object"),
        ({"stack": ["nani", "nui"], "missions": {"a": ["nani", "nui", "eepo"]}}, "3 to 9"),
        ({"stack": ["nani", "nui", "bob"], "missions": {"a": ["nani", "nui", "eepo"]}},
         "unknown tiki 'bob'"),
        ({"stack": ["nani", "nui", "nui"], "missions": {"a": ["nani", "nui", "eepo"]}}, "twice"),
        ({"stack": three, "missions": {"a": ["nani", "nui"], "b": ["nui"]}}, "3 tikis, not 2"),
        ({"stack": ["nani", "nui", "eepo"], "missions": {}}, "map player names"),
        ({"stack": three, "missions": {"a": "nani", "b": ["nui"]}}, "list of tiki names"),
        ({"stack": ["nani", "nui", "eepo"], "missions": {"a": []}, "x": 1}, "unknown keys"),
        ({"stack": three, "missions": {"a": three}}, "2 to 4 players, not 1"),
        ({"stack": three, "missions": five}, "2 to 4 players, not 5"),
        ({"stack": three, "missions": {"a": three, "b": ["eepo", "nui", "nani"]}},
         "b and a hold the same mission card"),
        ({"stack": three, "missions": {"a": three, "b": ["nani", "wikiwiki", "huhu"]}},
         "one tiki of each back symbol"),
    ]
    for position, message in bad:
        with pytest.raises(BadPosition, match=message):
            GAME.score_position(position)


def test_states_from_json_are_checked() -> None:
    state = setup()
    data = GAME.state_to_json(state)
    assert GAME.state_from_json(data) == state
    for broken in [[], {**data, "turn": 5}, {**data, "hands": "x"}, {**data, "phase": "dance"},
                   {k: v for k, v in data.items() if k != "stack"}, {**data, "edition": "x"}]:
        with pytest.raises(BadState):
            GAME.state_from_json(broken)


def test_the_mission_deck_puts_every_tiki_in_every_slot_three_times() -> None:
    slots = Counter((slot, tiki) for m in EDITION.missions for slot, tiki in enumerate(m.tikis))
    assert len(EDITION.missions) == 27
    assert set(slots.values()) == {3} and len(slots) == 27
    assert len({m.tikis for m in EDITION.missions}) == 27


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        ("schmidt", lambda t: t.replace('"nani", "wikiwiki", "huhu"', '"nani", "nani", "huhu"'),
         "distinct"),
        ("schmidt", lambda t: t.replace("up2 = 1", "up2 = 0"), "positive integer"),
        ("schmidt", lambda t: t.replace("puh = 1", "zap = 1"), "unknown card kind"),
        ("schmidt", lambda t: t.replace("set_aside = 2", 'set_aside = "two"'), "must be int"),
        ("missions", lambda t: t.replace('[ 5, "hookipa"', '[ 5, "nani"'), "mission card 5"),
        ("missions", lambda t: t.replace('[ 2, "nani", "hookipa", "nui"]',
                                         '[ 2, "hookipa", "lokahi", "nani"]', 1), "same tikis"),
        ("missions", lambda t: t.replace("known = [5, 14]", "known = [5, 28]"), "known must"),
        ("schmidt", lambda t: t.replace("2 = 4,", ""), "rounds for 2, 3 and 4"),
        ("schmidt", lambda t: t.replace("[cards]", "[cards"), "not valid TOML"),
    ],
)
def test_a_broken_data_file_is_refused_clearly(monkeypatch, tmp_path, name, edit,
                                               message) -> None:
    for file in ("schmidt", "missions"):
        (tmp_path / f"{file}.toml").write_text((components.DATA / f"{file}.toml").read_text())
    original = (components.DATA / f"{name}.toml").read_text()
    changed = edit(original)
    assert changed != original
    (tmp_path / f"{name}.toml").write_text(changed)
    monkeypatch.setattr(components, "DATA", tmp_path)
    load_edition.cache_clear()
    try:
        with pytest.raises(DataFileError, match=message):
            load_edition("schmidt")
    finally:
        load_edition.cache_clear()


def test_the_mission_deck_holds_the_sheets_own_cards() -> None:
    """The sheet scores HOOKIPA first / LOKAHI / NANI, and LOKAHI first / WIKIWIKI / HOOKIPA;
    rules revision 1's deck held neither."""
    for edition in ("schmidt", "gamewright"):
        deck = load_edition(edition)
        cards = {m.tikis: m.number for m in deck.missions}
        sheet = [("hookipa", "lokahi", "nani"), ("lokahi", "wikiwiki", "hookipa")]
        assert [cards.get(card) for card in sheet] == list(deck.known_missions) == [5, 14]
        old = {m.tikis for m in load_edition(edition, "revision1").missions}
        assert not old & set(sheet)
        # every tiki stands in every place three times, and each card is one of each group
        for place in range(3):
            assert sorted(m.tikis[place] for m in deck.missions) == sorted(deck.tikis * 3)
        assert len(set(cards)) == 27
    assert GAME.options_at({}, 1)["missions"] == "revision1"


@pytest.mark.parametrize(("edition", "players", "up1"), [
    ("gamewright", 2, 2), ("gamewright", 3, 1), ("gamewright", 4, 1),
    ("gamewright_all_cards", 3, 2), ("gamewright_all_cards", 4, 2), ("schmidt", 3, 1),
])
def test_with_3_or_4_players_the_gamewright_printing_puts_an_up1_back(edition: str, players: int,
                                                                       up1: int) -> None:
    """The 2026-11 audit: the printed Gamewright rules remove one Up-1 per player at 3-4."""
    state = GAME.initial(["anna", "ben", "cleo", "dan"][:players], {"edition": edition})
    assert all(hand.count("up1") == up1 for hand in state.hands)
    assert len(state.hands[0]) == 5 + up1 + (2 if edition == "schmidt" else 0)


def test_with_end_35_points_the_game_ends_after_the_round_a_player_reaches_35() -> None:
    """Some printings: play rounds until somebody has 35; the missions are reshuffled when
    the deck runs short; at most 12 rounds (ASSUMED cap)."""
    import random

    from games.core.playout import random_playout

    players, options = ["anna", "ben", "cleo", "dan"], {"end": "35_points"}
    rounds_played = set()
    for seed in range(12):
        result = random_playout(GAME, players, options, random.Random(seed))
        state, best_after_round = GAME.initial(players, options), []
        for action in result.actions:
            after = GAME.apply(state, action)
            if len(after.history) > len(state.history):
                best_after_round.append(max(after.totals))
            state = after
        assert state == result.final
        # the game ends at the first round that takes somebody to 35, or at the cap
        assert all(best < 35 for best in best_after_round[:-1])
        assert best_after_round[-1] >= 35 or len(best_after_round) == 12
        rounds_played.add(len(best_after_round))
    assert rounds_played - {4}  # the goal, not the sheet's 4 rounds, decides
    assert max(rounds_played) > 27 // 4  # more rounds than the deck deals: it was reshuffled
    state = GAME.initial(["anna", "ben"], options)
    assert GAME.rounds(state) == 12
    assert GAME.limits(2, options).max_steps > GAME.limits(2).max_steps
