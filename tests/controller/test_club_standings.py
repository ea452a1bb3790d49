"""The club's standings, checked by hand: played, wins (shared wins for each winner), points,
and OpenSkill's Plackett-Luce ratings against its formulas with the documented defaults."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta
from datetime import time as clock_time

import pytest

from controller.club_messages import GameResult
from controller.club_standings import by_game, evening_start, ranks, standings

MU, SIGMA, BETA, TAU = 25.0, 25 / 3, 25 / 6, 25 / 300
"""OpenSkill's documented defaults: a new player's mu and sigma, the skill difference that
wins about 76 % of the time, and the extra uncertainty added before each game."""


def game(uid: str, ended: float, scores: dict[str, int], winners: list[str] | None = None,
         name: str = "tiki_topple") -> GameResult:
    best = max(scores.values())
    return GameResult(uid=uid, table="t1", game=name, players=list(scores), scores=scores,
                      winners=winners if winners is not None else
                      [p for p, s in scores.items() if s == best],
                      started=ended - 600, ended=ended, moves=30)


def line(lines, player):
    return next(s for s in lines if s.player == player)


def test_ranks_from_scores_with_ties_sharing_a_place() -> None:
    assert ranks(["a", "b", "c", "d"], {"a": 10, "b": 5, "c": 5, "d": 2}) == [1, 2, 2, 4]
    assert ranks(["a", "b"], {"a": 3, "b": 3}) == [1, 1]
    assert ranks(["a", "b"], {"b": 1}) == [2, 1]  # no score: last


def test_one_game_of_two_matches_the_plackett_luce_formula_by_hand() -> None:
    lines = standings([game("g1", 1000, {"anna": 12, "ben": 7})])
    anna, ben = line(lines, "anna"), line(lines, "ben")
    # Equal ratings: each wins with p = 1/2. sigma^2 gains tau^2 before the game; c is the
    # spread of the whole game; the winner's mu rises by sigma^2 / c * (1 - p), the loser's
    # falls by as much.
    variance = SIGMA**2 + TAU**2
    c = math.sqrt(2 * (variance + BETA**2))
    assert anna.mu == pytest.approx(MU + variance / c * 0.5, abs=1e-9)
    assert ben.mu == pytest.approx(MU - variance / c * 0.5, abs=1e-9)
    assert anna.mu == pytest.approx(27.6354, abs=1e-4)
    assert anna.sigma == ben.sigma < SIGMA  # both are known a little better now
    assert anna.rating == pytest.approx(anna.mu - 3 * anna.sigma)  # the ordinal
    assert (anna.played, anna.wins, anna.points) == (1, 1, 12)
    assert (ben.played, ben.wins, ben.points) == (1, 0, 7)
    assert [s.player for s in lines] == ["anna", "ben"]


def test_a_tie_is_a_tie_and_a_shared_win_counts_for_each_winner() -> None:
    lines = standings([game("g1", 1000, {"anna": 9, "ben": 9})])
    anna, ben = line(lines, "anna"), line(lines, "ben")
    assert anna.wins == ben.wins == 1  # both are winners
    assert anna.mu == ben.mu == pytest.approx(MU)  # neither beat the other
    assert anna.sigma == ben.sigma < SIGMA
    assert anna.rating == ben.rating > 0  # known better than before: above the start


def test_three_players_tied_for_second_rate_alike_below_the_winner() -> None:
    lines = standings([game("g1", 1000, {"cleo": 3, "anna": 20, "ben": 3})])
    assert [s.player for s in lines] == ["anna", "ben", "cleo"]  # the tie: by name
    ben, cleo, anna = line(lines, "ben"), line(lines, "cleo"), line(lines, "anna")
    assert ben.mu == pytest.approx(cleo.mu) and ben.sigma == pytest.approx(cleo.sigma)
    assert anna.mu > MU > ben.mu
    assert (anna.wins, ben.wins, cleo.wins) == (1, 0, 0)


def test_several_games_kept_apart_per_game_and_summed_overall() -> None:
    results = [
        game("a", 1000, {"anna": 10, "ben": 4}),
        game("b", 2000, {"anna": 2, "ben": 8}, name="topiary"),
        game("c", 3000, {"anna": 6, "ben": 6, "cleo": 1}, name="topiary"),
    ]
    overall = standings(results)
    anna, ben, cleo = (line(overall, p) for p in ("anna", "ben", "cleo"))
    assert (anna.played, anna.wins, anna.points) == (3, 2, 18)
    assert (ben.played, ben.wins, ben.points) == (3, 2, 18)
    assert (cleo.played, cleo.wins, cleo.points) == (1, 0, 1)
    games = by_game(results)
    assert list(games) == ["tiki_topple", "topiary"]
    tiki = games["tiki_topple"]
    assert [s.player for s in tiki] == ["anna", "ben"]
    assert (line(tiki, "anna").played, line(tiki, "anna").wins) == (1, 1)
    # the tiki game alone rates as any single game of two: the topiary games do not leak in
    assert line(tiki, "anna").mu == pytest.approx(27.6354, abs=1e-4)
    topiary = games["topiary"]
    assert (line(topiary, "ben").played, line(topiary, "ben").wins,
            line(topiary, "ben").points) == (2, 2, 14)
    assert line(topiary, "ben").rating > line(topiary, "anna").rating  # ben won, then tied


def test_the_order_results_arrive_in_does_not_matter() -> None:
    rng = random.Random(7)
    names = ["anna", "ben", "cleo", "dora"]
    results = [game(f"g{n}", 1000 + n, {p: rng.randint(0, 9) for p in rng.sample(names, 3)})
               for n in range(12)]
    first = standings(results)
    shuffled = results[:]
    rng.shuffle(shuffled)
    assert standings(shuffled) == first
    # ... while the order the games ended in does: a later win counts against a stronger
    # rating than an early one
    swapped = [game("x", 1, {"anna": 5, "ben": 1}), game("y", 2, {"anna": 1, "ben": 5})]
    again = [game("x", 2, {"anna": 5, "ben": 1}), game("y", 1, {"anna": 1, "ben": 5})]
    assert line(standings(swapped), "ben").mu > line(standings(again), "ben").mu


def test_a_game_of_one_counts_but_rates_nobody() -> None:
    lines = standings([game("solo", 1000, {"anna": 40})])
    assert lines[0].played == 1 and lines[0].wins == 1 and lines[0].points == 40
    assert (lines[0].mu, lines[0].sigma, lines[0].rating) == (pytest.approx(MU),
                                                               pytest.approx(SIGMA), 0.0)


def test_sorted_by_rating_then_wins_then_points() -> None:
    lines = standings([game("g1", 1, {"anna": 1, "ben": 5}), game("g2", 2, {"cleo": 3})])
    assert [s.player for s in lines] == ["ben", "cleo", "anna"]  # cleo unrated: 0


@pytest.mark.parametrize(("now", "begun"), [
    (datetime(2024, 3, 9, 23, 30), datetime(2024, 3, 9, 6, 0)),
    (datetime(2024, 3, 10, 1, 30), datetime(2024, 3, 9, 6, 0)),  # after midnight: the night before
    (datetime(2024, 3, 10, 6, 0), datetime(2024, 3, 10, 6, 0)),
])
def test_the_evening_begins_at_the_most_recent_six_oclock(now, begun) -> None:
    assert evening_start(now) == begun.astimezone()
    assert evening_start(now, clock_time(18, 30)) <= now.astimezone()
    assert now.astimezone() - evening_start(now, clock_time(18, 30)) < timedelta(days=1)
