"""Standings of a club evening: pure functions of the results, nothing stored.

Each player has games played, wins (a shared win counts for every winner), points (the sum of
their final scores) and a rating from OpenSkill's Plackett-Luce model, which rates games of
any number of players. A game's ranks come from its final scores, highest first; equal scores
are a tie. The rating shown is OpenSkill's *ordinal*, mu - 3 sigma: a cautious estimate of a
player's skill, which the model is about 99.7 % sure the true skill is above. Everyone starts
at 0 (mu 25, sigma 25/3); winning raises it, and so does playing at all, as the model grows
surer (sigma shrinks). Results are rated in the order they ended (the uid breaks a tie), so
the same results always give the same standings, whatever order they arrived in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import time as clock_time
from typing import TYPE_CHECKING, Any, Protocol

from .errors import ControllerError

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

EVENING_STARTS = clock_time(6, 0)
"""An evening runs from 06:00 local time to the next 06:00: a game at 01:30 still counts for
the evening before."""
INSTALL_HINT = "pip install 'tabletop[club]'"


class RatingUnavailable(ControllerError, ImportError):
    """OpenSkill is not installed (it comes with the ``club`` extra)."""

    http_status = 503


class Result(Protocol):
    """What a standing needs of a result: ``GameResult`` and ``StoredResult`` both fit."""

    @property
    def uid(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def players(self) -> Sequence[str]: ...
    @property
    def scores(self) -> Mapping[str, int]: ...
    @property
    def winners(self) -> Sequence[str]: ...
    @property
    def ended(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in a table of standings."""

    player: str
    played: int
    wins: int
    points: int
    rating: float
    """OpenSkill's ordinal, mu - 3 sigma (0 before any game against someone)."""
    mu: float
    sigma: float


def model() -> PlackettLuce:
    """OpenSkill's Plackett-Luce model with its documented defaults (mu 25, sigma 25/3, beta
    25/6, tau 25/300), or ``RatingUnavailable`` saying how to install it."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise RatingUnavailable("the club's standings need OpenSkill: "
                                f"{INSTALL_HINT}") from None
    return PlackettLuce()


def ranks(players: Sequence[str], scores: Mapping[str, int]) -> list[int]:
    """Each player's place by final score (1 is best); equal scores share a place, and the
    next place is skipped (10, 5, 5, 2 rank 1, 2, 2, 4). A player without a score is last."""
    given = [scores.get(player, float("-inf")) for player in players]
    return [1 + sum(other > mine for other in given) for mine in given]


def in_order(results: Iterable[Result]) -> list[Result]:
    """The results in the order they ended (then by uid): the order they are rated in."""
    return sorted(results, key=lambda result: (result.ended, result.uid))


def standings(results: Iterable[Result]) -> list[Standing]:
    """Every player of ``results``, best first: by rating, then wins, then points, then name.
    A game of one player counts for played, wins and points, but rates nobody."""
    rater = model()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    points: dict[str, int] = defaultdict(int)
    for result in in_order(results):
        players = list(dict.fromkeys(result.players))  # a name twice would rate itself
        for player in players:
            played[player] += 1
            points[player] += result.scores.get(player, 0)
            wins[player] += player in result.winners
        if len(players) < 2:
            continue
        teams = [[ratings.get(player) or rater.rating(name=player)] for player in players]
        rated = rater.rate(teams, ranks=ranks(players, result.scores))
        for player, (rating,) in zip(players, rated, strict=True):
            ratings[player] = rating
    fresh = rater.rating()
    lines = []
    for player in played:
        rating = ratings.get(player, fresh)
        lines.append(Standing(player, played[player], wins[player], points[player],
                              float(rating.ordinal()), float(rating.mu), float(rating.sigma)))
    return sorted(lines, key=lambda s: (-s.rating, -s.wins, -s.points, s.player))


def by_game(results: Iterable[Result]) -> dict[str, list[Standing]]:
    """Standings of each game id apart (a rating in one game says nothing of another), by
    game id."""
    games: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        games[result.game].append(result)
    return {game: standings(games[game]) for game in sorted(games)}


def evening_start(now: datetime, starts: clock_time = EVENING_STARTS) -> datetime:
    """The most recent ``starts`` (local time) at or before ``now``: when the evening that
    ``now`` belongs to began. ``now`` without a time zone is taken as local time."""
    local = now.astimezone()
    day = local.date()
    begun = datetime.combine(day, starts).astimezone()
    if begun > local:
        begun = datetime.combine(day - timedelta(days=1), starts).astimezone()
    return begun

