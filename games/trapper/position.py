"""``tabletop score trapper POSITION.json``: score a position written by hand, as at the end.

POSITION = {"players": [names], "money": {name: coins so far (sales included)},
"canoes": {name: [{"canoe": "bear 3", "animals": ["bear 4", "bear 2"], "herb": true,
"mushroom": false, "sold": false}]}, "loose": {name: ["wolf 1", "canoe lynx 2", "herb",
"mushroom"]}, "chips": {name: ["bonus 24", "species 3"]}, "values": "printed"}. Only
"players" is required; "values" names the value set of herbs and mushrooms (the option
``values``; default printed). A canoe with nothing at it may be listed under canoes or loose:
it costs its capacity either way.
Sold canoes are already paid (their money is in "money"); they are checked and listed.
Every mistake is a BadPosition that says where it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.action_text import is_number
from games.core.errors import BadPosition
from games.core.scoresheet import ScoreLine, ScoreSheet
from games.core.whole_numbers import is_whole

from .components import ANIMAL, CANOE, HERB, MUSHROOM, Components
from .display import NONE, Canoe, Display
from .scoring import rank_winners, score_table

FIELDS = {"players", "money", "canoes", "loose", "chips", "values"}


def score_position(
    position: Mapping[str, Any], components: Components
) -> tuple[ScoreSheet, list[int]]:
    if not isinstance(position, Mapping):
        raise BadPosition("a Trapper position is a JSON object with players, money, canoes, "
                          "loose and chips")
    unknown = sorted(set(position) - FIELDS)
    if unknown:
        raise BadPosition(f"unknown field(s) {', '.join(unknown)} in the position "
                          f"(fields: {', '.join(sorted(FIELDS))})")
    players = position.get("players")
    if (not isinstance(players, list) or not all(isinstance(p, str) and p for p in players)
            or not 2 <= len(players) <= 4 or len(set(players)) != len(players)):
        raise BadPosition("players must be a list of 2 to 4 different names")
    values = position.get("values", next(iter(components.worths)))
    if not isinstance(values, str) or values not in components.worths:
        raise BadPosition(f"values must be one of {', '.join(components.worths)}, "
                          f"not {values!r}")
    components = components.with_values(values)
    reader = _Reader(components, players)
    money = reader.per_player(position, "money", 0)
    canoes = reader.per_player(position, "canoes", [])
    loose = reader.per_player(position, "loose", [])
    chips = reader.per_player(position, "chips", [])
    displays = []
    sold_lines: list[list[ScoreLine]] = []
    for name in players:
        if not is_whole(money[name]):
            raise BadPosition(f"money of {name} must be a whole number")
        if money[name] < 0:
            raise BadPosition(f"money of {name} is {money[name]}: money starts at 0 and only "
                              "sales add to it")
        unsold, lines = reader.canoes(canoes[name], name)
        displays.append(Display(canoes=tuple(unsold),
                                loose=tuple(sorted(reader.loose(loose[name], name)))))
        sold_lines.append(lines)
    bonus = [NONE] * len(components.bonus_chips)
    species = [NONE] * len(components.species_chips)
    for seat, name in enumerate(players):
        reader.chips(chips[name], name, seat, bonus, species)
    final = score_table(players, 0, [()] * len(players), displays, tuple(bonus),
                        tuple(species), True, components)
    lines = tuple(
        (ScoreLine(f"money so far: {money[name]}", money[name]), *sold_lines[seat],
         *final.lines[seat])
        for seat, name in enumerate(players)
    )
    sheet = ScoreSheet(tuple(players), tuple(sum(x.points for x in ls) for ls in lines), lines)
    return sheet, rank_winners(sheet.totals)


class _Reader:
    """Turns written pieces into tile numbers, taking each copy from the box only once."""

    def __init__(self, components: Components, players: list[str]) -> None:
        self.components = components
        self.players = players
        self.free = set(range(len(components.tiles)))

    def per_player(self, position: Mapping[str, Any], key: str, default: Any) -> dict[str, Any]:
        value = position.get(key, {})
        if not isinstance(value, Mapping):
            raise BadPosition(f"{key} must map player names to their {key}")
        for name in value:
            if name not in self.players:
                raise BadPosition(f"{key}: {name!r} is not one of the players")
        return {name: value.get(name, default) for name in self.players}

    def take(self, kind: int, species: int, value: int, text: str, where: str) -> int:
        tiles = self.components.tiles
        for number in sorted(self.free):
            tile = tiles[number]
            if tile.kind == kind and tile.species == species and (
                kind in (HERB, MUSHROOM) or tile.value == value
            ):
                self.free.discard(number)
                return number
        exists = any(t.kind == kind and t.species == species and (
            kind in (HERB, MUSHROOM) or t.value == value) for t in tiles)
        if not exists:
            raise BadPosition(f"{where}: there is no {text!r} in the box")
        raise BadPosition(f"{where}: the box has no more {text!r} than that")

    def piece(self, text: Any, where: str, allow_canoe: bool = True) -> int:
        """``bear 4``, ``canoe bear 3``, ``herb``, ``mushroom``."""
        if not isinstance(text, str):
            raise BadPosition(f"{where}: a piece is written like 'bear 4', 'canoe bear 3', "
                              "'herb' or 'mushroom'")
        words = text.lower().split()
        if words in (["herb"], ["mushroom"]):
            return self.take(HERB if words[0] == "herb" else MUSHROOM, -1, 0, text, where)
        is_canoe = bool(words) and words[0] == "canoe"
        if is_canoe:
            if not allow_canoe:
                raise BadPosition(f"{where}: a canoe cannot lie at a canoe")
            words = words[1:]
        species = self.components.species
        if len(words) != 2 or words[0] not in species or not is_number(words[1]):
            raise BadPosition(f"{where}: {text!r} is not a piece; animals are SPECIES VALUE "
                              f"with species {', '.join(species)}")
        return self.take(CANOE if is_canoe else ANIMAL, species.index(words[0]),
                         int(words[1]), text, where)

    def canoes(self, value: Any, name: str) -> tuple[list[Canoe], list[ScoreLine]]:
        if not isinstance(value, list):
            raise BadPosition(f"canoes of {name} must be a list")
        tiles = self.components.tiles
        unsold, lines = [], []
        for number, entry in enumerate(value):
            where = f"{name}'s canoes[{number}]"
            if not isinstance(entry, Mapping) or not isinstance(entry.get("canoe"), str):
                raise BadPosition(f"{where}: a canoe is an object with canoe (like 'bear 3'), "
                                  "animals, herb, mushroom and sold")
            extra = sorted(set(entry) - {"canoe", "animals", "herb", "mushroom", "sold"})
            if extra:
                raise BadPosition(f"{where}: unknown field(s) {', '.join(extra)}")
            canoe = self.piece("canoe " + entry["canoe"], where)
            animals_text = entry.get("animals", [])
            if not isinstance(animals_text, list):
                raise BadPosition(f"{where}: animals must be a list like ['bear 4']")
            animals = [self.piece(a, f"{where}.animals", allow_canoe=False)
                       for a in animals_text]
            info = tiles[canoe]
            for animal in animals:
                if tiles[animal].kind != ANIMAL or tiles[animal].species != info.species:
                    raise BadPosition(f"{where}: a {self.components.species[info.species]} "
                                      f"canoe carries only {self.components.species[info.species]}"
                                      f" animals, not {tiles[animal].name}")
            if len(animals) > info.value:
                raise BadPosition(f"{where}: this canoe carries {info.value} animals, "
                                  f"not {len(animals)}")
            flags = {key: entry.get(key, False) for key in ("herb", "mushroom", "sold")}
            if not all(isinstance(v, bool) for v in flags.values()):
                raise BadPosition(f"{where}: herb, mushroom and sold are true or false")
            herb = self.take(HERB, -1, 0, "herb", where) if flags["herb"] else NONE
            mushroom = self.take(MUSHROOM, -1, 0, "mushroom", where) if flags["mushroom"] else NONE
            full = len(animals) == info.value
            if flags["sold"] != full:
                raise BadPosition(
                    f"{where}: a canoe is sold exactly when it carries {info.value} animals"
                    + ("" if flags["sold"] else ": this one would have been sold already")
                )
            record = Canoe(canoe, tuple(sorted(animals)), herb, mushroom)
            if full:
                lines.append(ScoreLine(f"sold {info.name}: paid during play (in money)", 0))
            else:
                unsold.append(record)
        return unsold, lines

    def loose(self, value: Any, name: str) -> list[int]:
        if not isinstance(value, list):
            raise BadPosition(f"loose pieces of {name} must be a list")
        return [self.piece(text, f"{name}'s loose[{i}]") for i, text in enumerate(value)]

    def chips(self, value: Any, name: str, seat: int, bonus: list[int],
              species: list[int]) -> None:
        if not isinstance(value, list):
            raise BadPosition(f"chips of {name} must be a list like ['bonus 24', 'species 3']")
        for text in value:
            words = str(text).lower().split()
            kinds = {"bonus": (self.components.bonus_chips, bonus),
                     "species": (self.components.species_chips, species)}
            if len(words) != 2 or words[0] not in kinds or not is_number(words[1]):
                raise BadPosition(f"{name}'s chips: {text!r} is not a chip like 'bonus 24'")
            values, owners = kinds[words[0]]
            if int(words[1]) not in values:
                raise BadPosition(f"{name}'s chips: there is no {words[0]} chip {words[1]} "
                                  f"(the chips are {', '.join(map(str, values))})")
            index = values.index(int(words[1]))
            if owners[index] != NONE:
                raise BadPosition(f"{name}'s chips: {text} is already held by "
                                  f"{self.players[owners[index]]}; each chip exists once")
            owners[index] = seat
