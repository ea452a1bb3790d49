"""Tiki Topple's components per edition, loaded from ``data/<edition>.toml`` and validated."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from games.core.datafile import by_player_count, field, load_toml, whole_numbers, words
from games.core.errors import DataFileError
from games.core.whole_numbers import is_whole

DATA = Path(__file__).parent / "data"
EDITIONS = ("schmidt", "gamewright", "gamewright_all_cards")
DECKS = ("sheet", "revision1")
"""Mission decks (``data/missions.toml``, option missions): the first is the default."""
CARD_KINDS = ("up1", "up2", "up3", "puh", "topple", "wiki", "toast")
"""Every card kind any edition may use; the order is the one hands are shown in."""


@dataclass(frozen=True, slots=True)
class Mission:
    number: int
    tikis: tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class Edition:
    id: str
    name: str
    groups: tuple[tuple[str, ...], ...]
    cards: tuple[str, ...]
    """One colour's full set, one entry per physical card, in CARD_KINDS order."""
    removed_with_3_or_4: str
    set_aside: int
    colours: tuple[str, ...]
    missions: tuple[Mission, ...]
    known_missions: tuple[int, ...]
    """Numbers of the mission cards printed in the rule sheet (the rest are ASSUMED)."""
    points: tuple[int, int, int]
    depth: tuple[int, int, int]
    rounds_by_players: dict[int, int]
    goal_points: int
    """Option end=35_points: the total that ends the game after its round ..."""
    goal_cap: int
    """... or this many rounds at the latest."""

    @property
    def tikis(self) -> tuple[str, ...]:
        return tuple(tiki for group in self.groups for tiki in group)

    def hand(self, n_players: int) -> tuple[str, ...]:
        """The cards a player holds at the start of a round, before setting any aside."""
        cards = list(self.cards)
        if n_players >= 3 and self.removed_with_3_or_4:
            cards.remove(self.removed_with_3_or_4)
        return tuple(cards)

    def rounds(self, n_players: int, goal: bool) -> int:
        """Rounds in a game: the sheet's count, or with end=35_points (``goal``) at most."""
        return self.goal_cap if goal else self.rounds_by_players[n_players]

    def mission(self, number: int) -> Mission:
        return self.missions[number - 1]


@cache
def load_edition(edition: str, deck: str = DECKS[0]) -> Edition:
    """An edition's data with the mission deck ``deck``."""
    if edition not in EDITIONS:
        raise DataFileError(f"unknown Tiki Topple edition {edition!r}: {', '.join(EDITIONS)}")
    if deck not in DECKS:
        raise DataFileError(f"unknown Tiki Topple mission deck {deck!r}: {', '.join(DECKS)}")
    path = DATA / f"{edition}.toml"
    where = str(path)
    data = load_toml(path)

    tikis = field(data, "tikis", dict, where)
    groups = tuple(tuple(group) for group in field(tikis, "groups", list, where))
    names = [tiki for group in groups for tiki in group]
    if len(groups) != 3 or any(len(group) != 3 for group in groups):
        raise DataFileError(f"{where}: tikis.groups must be 3 groups of 3 tikis")
    if len(set(names)) != 9 or not all(isinstance(n, str) and n.isalpha() for n in names):
        raise DataFileError(f"{where}: the 9 tiki names must be distinct lower-case words")

    cards_table = field(data, "cards", dict, where)
    per_colour = field(cards_table, "per_colour", dict, where)
    for kind, count in per_colour.items():
        if kind not in CARD_KINDS:
            raise DataFileError(f"{where}: unknown card kind {kind!r} ({', '.join(CARD_KINDS)})")
        if not is_whole(count) or count < 1:
            raise DataFileError(f"{where}: card count for {kind} must be a positive integer")
    cards = tuple(kind for kind in CARD_KINDS for _ in range(per_colour.get(kind, 0)))
    removed = field(cards_table, "removed_with_3_or_4", str, where)
    if removed and removed not in per_colour:
        raise DataFileError(f"{where}: removed_with_3_or_4 names {removed!r}, not in the set")
    set_aside = field(cards_table, "set_aside", int, where)
    if not 0 <= set_aside < len(cards) - 1:
        raise DataFileError(f"{where}: set_aside must leave cards to play")
    colours = words(data, "cards.colours", where, count=4)
    points = whole_numbers(data, "missions.points", where, None, length=3)
    depth = whole_numbers(data, "missions.depth", where, 1, length=3)
    missions, known = _missions(deck, names)
    by_players = by_player_count(data, "rounds.by_players", where, 1, what="rounds")
    goal = field(data, "goal", dict, where)
    goal_points, goal_cap = field(goal, "points", int, where), field(goal, "cap", int, where)
    if goal_points < 1 or goal_cap < max(by_players.values()):
        raise DataFileError(f"{where}: goal.points must be at least 1 and goal.cap at least "
                            "the rounds of a game")

    return Edition(
        id=field(data, "edition", str, where),
        name=field(data, "name", str, where),
        groups=groups,
        cards=cards,
        removed_with_3_or_4=removed,
        set_aside=set_aside,
        colours=colours,
        missions=missions,
        known_missions=known,
        points=points,  # type: ignore[arg-type]
        depth=depth,  # type: ignore[arg-type]
        rounds_by_players=by_players,
        goal_points=goal_points,
        goal_cap=goal_cap,
    )


def _missions(deck: str, names: list[str]) -> tuple[tuple[Mission, ...], tuple[int, ...]]:
    """The cards of one mission deck from ``missions.toml``, and those printed in the sheet."""
    path = DATA / "missions.toml"
    where = f"{path} (decks.{deck})"
    table = field(field(load_toml(path), "decks", dict, str(path)), deck, dict, str(path))
    missions = []
    for index, card in enumerate(field(table, "cards", list, where), start=1):
        if (
            not isinstance(card, list)
            or len(card) != 4
            or card[0] != index
            or len(set(card[1:])) != 3
            or any(tiki not in names for tiki in card[1:])
            or sorted(names.index(tiki) // 3 for tiki in card[1:]) != [0, 1, 2]
        ):
            raise DataFileError(
                f"{where}: mission card {index} must be [{index}, tiki, tiki, tiki] "
                "naming one tiki of each group"
            )
        missions.append(Mission(index, (card[1], card[2], card[3])))
    if len(missions) < 16:
        raise DataFileError(f"{where}: need at least 16 mission cards for 4 players x 4 rounds")
    if len({m.tikis for m in missions}) != len(missions):
        raise DataFileError(f"{where}: two mission cards name the same tikis in the same order")
    known = (whole_numbers(table, "known", where, 1, len(missions), may_be_empty=True)
             if "known" in table else ())
    return tuple(missions), known
