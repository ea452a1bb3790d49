"""Tiki Topple's components per edition, loaded from ``data/<edition>.toml`` and validated."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from games.core.datafile import field, load_toml
from games.core.errors import DataFileError

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
        if not isinstance(count, int) or count < 1:
            raise DataFileError(f"{where}: card count for {kind} must be a positive integer")
    cards = tuple(kind for kind in CARD_KINDS for _ in range(per_colour.get(kind, 0)))
    removed = field(cards_table, "removed_with_3_or_4", str, where)
    if removed and removed not in per_colour:
        raise DataFileError(f"{where}: removed_with_3_or_4 names {removed!r}, not in the set")
    set_aside = field(cards_table, "set_aside", int, where)
    if not 0 <= set_aside < len(cards) - 1:
        raise DataFileError(f"{where}: set_aside must leave cards to play")
    colours = tuple(field(cards_table, "colours", list, where))
    if len(colours) != 4 or len(set(colours)) != 4:
        raise DataFileError(f"{where}: cards.colours must name 4 different colours")

    missions_table = field(data, "missions", dict, where)
    points = tuple(field(missions_table, "points", list, where))
    depth = tuple(field(missions_table, "depth", list, where))
    if len(points) != 3 or len(depth) != 3:
        raise DataFileError(f"{where}: missions.points and missions.depth need 3 entries")
    missions, known = _missions(deck, names)
    rounds = field(data, "rounds", dict, where)
    by_players = {int(k): v for k, v in field(rounds, "by_players", dict, where).items()}
    if sorted(by_players) != [2, 3, 4] or any(
        not isinstance(v, int) or v < 1 for v in by_players.values()
    ):
        raise DataFileError(f"{where}: rounds.by_players must give rounds for 2, 3 and 4 players")
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
    known = table.get("known", [])
    if not isinstance(known, list) or any(
        not isinstance(n, int) or not 1 <= n <= len(missions) for n in known
    ):
        raise DataFileError(f"{where}: known must list card numbers 1 to {len(missions)}")
    return tuple(missions), tuple(known)
