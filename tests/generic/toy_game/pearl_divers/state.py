"""What is in the box (read from the data file) and what a game's state holds."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

from games.core import DataFileError
from games.core.datafile import field, load_toml

DATA_FILE = Path(__file__).parent / "data" / "pearl_divers.toml"


@dataclass(frozen=True, slots=True)
class Kind:
    name: str
    value: int
    copies: int


@dataclass(frozen=True, slots=True)
class Box:
    kinds: tuple[Kind, ...]
    lucky_bonus: int

    @property
    def shells(self) -> tuple[str, ...]:
        """Every shell id, sorted: ``pearl:1``, ``pearl:2``, ..."""
        return tuple(sorted(f"{k.name}:{n}" for k in self.kinds for n in range(1, k.copies + 1)))

    def kind(self, name: str) -> Kind:
        return next(k for k in self.kinds if k.name == name)


@cache
def load_box(path: Path = DATA_FILE) -> Box:
    """The box, validated: names unique, copies at least one."""
    data = load_toml(path)
    where = path.name
    kinds = []
    for number, table in enumerate(field(data, "kind", list, where)):
        spot = f"{where} [[kind]] {number + 1}"
        kind = Kind(field(table, "name", str, spot), field(table, "value", int, spot),
                    field(table, "copies", int, spot))
        if kind.copies < 1 or not kind.name.isalpha():
            raise DataFileError(f"{spot}: a kind needs a one-word name and at least one copy")
        kinds.append(kind)
    if len({k.name for k in kinds}) != len(kinds):
        raise DataFileError(f"{where}: kind names must differ")
    return Box(tuple(kinds), field(data, "lucky_bonus", int, where))


class DiveState(NamedTuple):
    """Immutable; ``apply`` builds a new one."""

    players: tuple[str, ...]
    lucky: tuple[str, ...]
    """The kinds on the lucky tokens dealt so far, by seat (secret until the end)."""
    pools: tuple[str, ...]
    """The shell in each pool on the table, ``""`` where the pool is empty."""
    bag: tuple[str, ...]
    """Shells still in the bag, sorted (everyone can count them)."""
    taken: tuple[tuple[str, ...], ...]
    """The shells each diver took, in order."""
    turn: int
    """The seat that takes next."""
