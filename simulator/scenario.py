"""Scenario files: physical steps at the table and what should follow, one per line.

```
# a comment; blank lines are ignored
game tiki_topple                 # optional headers: the game, its players, its options
players anna ben
option edition schmidt
put tiki:nani stack:1            # lay a piece (or a bare tag: put uid:04A1B2C3 stack:1)
lift stack:1
slide stack:3 stack:1            # over the sites between
press confirm                    # a button by its profile role
hold undo 1500                   # ms
wait 500                         # ms
unplug                           # the hub's USB cable; replug puts it back
replug
expect led stack:1 wrong         # a profile colour name or off
expect status phase play         # a key of the controller's status JSON, dotted for nesting
expect status discrepancy null   # values are JSON when they parse as JSON, else plain text
expect status discrepancy not null
expect status discrepancy.wrong_sites contains stack:3
```

`parse_scenario` checks the words; `check_scenario` checks the names against a table (sites,
pieces, buttons, colours). Both report every problem with its line number at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from simulator.steps import Hold, Lift, Press, Put, Replug, Slide, Step, Unplug, Wait
from simulator.virtual_table import FOREIGN_PREFIX, VirtualTable

MAX_MS = 600_000
_COMMENT = re.compile(r"(^|\s)#.*$")
_KEY = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$")
_HEX = re.compile(r"^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{20})$")


class ScenarioError(ValueError):
    """A scenario that cannot be run; `problems` lists (line number, message) pairs."""

    def __init__(self, source: str, problems: Iterable[tuple[int, str]]) -> None:
        self.source = source
        self.problems = tuple(problems)
        text = "\n".join(f"{source}:{line}: {message}" for line, message in self.problems)
        super().__init__(text)


@dataclass(frozen=True, slots=True)
class ExpectLed:
    site: str
    colour: str

    def __str__(self) -> str:
        return f"expect led {self.site} {self.colour}"


@dataclass(frozen=True, slots=True)
class ExpectStatus:
    key: str
    """Dotted path into the status JSON: ``discrepancy.wrong_sites``."""
    op: Literal["is", "not", "contains"]
    value: Any
    text: str
    """The value as written, for reports."""

    def __str__(self) -> str:
        op = "" if self.op == "is" else f"{self.op} "
        return f"expect status {self.key} {op}{self.text}"


Expectation = ExpectLed | ExpectStatus


@dataclass(frozen=True, slots=True)
class Instruction:
    line: int
    action: Step | Expectation


@dataclass(frozen=True, slots=True)
class Scenario:
    source: str
    instructions: tuple[Instruction, ...]
    game: str | None = None
    players: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    @property
    def expectations(self) -> tuple[Instruction, ...]:
        return tuple(i for i in self.instructions if isinstance(i.action, ExpectLed | ExpectStatus))


def _ms(word: str) -> int:
    if not word.isdigit() or int(word) > MAX_MS:
        raise ValueError(f"{word!r} is not a time in ms (a whole number 0..{MAX_MS})")
    return int(word)


def _words(words: list[str], count: int, usage: str) -> list[str]:
    if len(words) != count:
        raise ValueError(f"expected '{usage}'")
    return words


def _piece(word: str) -> str:
    if word.startswith(FOREIGN_PREFIX) and not _HEX.match(word[len(FOREIGN_PREFIX):]):
        raise ValueError(f"{word!r}: a bare tag is uid: and 4, 7 or 10 bytes of hex")
    return word


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _expect(words: list[str], rest: str) -> Expectation:
    if not words:
        raise ValueError("expected 'expect led <site> <colour>' or 'expect status <key> <value>'")
    if words[0] == "led":
        _, site, colour = _words(words, 3, "expect led <site> <colour name|off>")
        return ExpectLed(site, colour)
    if words[0] == "status":
        if len(words) < 3:
            raise ValueError("expected 'expect status <dotted.key> [not|contains] <value>'")
        key = words[1]
        if not _KEY.match(key):
            raise ValueError(f"{key!r} is not a status key (words joined by dots)")
        op: Literal["is", "not", "contains"] = "is"
        value_text = rest.split(None, 2)[2]
        if words[2] in ("not", "contains") and len(words) > 3:
            op = "not" if words[2] == "not" else "contains"
            value_text = value_text.split(None, 1)[1]
        return ExpectStatus(key, op, _value(value_text), value_text)
    raise ValueError(f"cannot expect {words[0]!r}: expect led ... or expect status ...")


def _step(verb: str, words: list[str]) -> Step:
    if verb == "put":
        piece, site = _words(words, 2, "put <piece> <site>")
        return Put(_piece(piece), site)
    if verb == "lift":
        return Lift(*_words(words, 1, "lift <site>"))
    if verb == "slide":
        return Slide(*_words(words, 2, "slide <from site> <to site>"))
    if verb == "press":
        return Press(*_words(words, 1, "press <button>"))
    if verb == "hold":
        button, ms = _words(words, 2, "hold <button> <ms>")
        return Hold(button, _ms(ms))
    if verb == "wait":
        return Wait(_ms(_words(words, 1, "wait <ms>")[0]))
    if verb == "unplug":
        _words(words, 0, "unplug")
        return Unplug()
    if verb == "replug":
        _words(words, 0, "replug")
        return Replug()
    raise ValueError(
        f"unknown step {verb!r} (steps: put, lift, slide, press, hold, wait, unplug, replug, "
        "expect; headers: game, players, option)"
    )


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """The scenario in `text`; raises ScenarioError naming every bad line."""
    instructions: list[Instruction] = []
    problems: list[tuple[int, str]] = []
    headers: dict[str, Any] = {"game": None, "players": (), "options": {}}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        verb, *words = line.split()
        rest = line[len(verb):].strip()
        try:
            if verb == "game":
                if headers["game"] is not None:
                    raise ValueError("the game is named twice")
                headers["game"] = _words(words, 1, "game <game id>")[0]
            elif verb == "players":
                if headers["players"]:
                    raise ValueError("the players are named twice")
                if not words or len(set(words)) != len(words):
                    raise ValueError("expected 'players <name> <name> ...', names all different")
                headers["players"] = tuple(words)
            elif verb == "option":
                name, value = _words(words, 2, "option <name> <value>")
                headers["options"][name] = value
            elif verb == "expect":
                instructions.append(Instruction(number, _expect(words, rest)))
            else:
                instructions.append(Instruction(number, _step(verb, words)))
        except ValueError as exc:
            problems.append((number, str(exc)))
    if problems:
        raise ScenarioError(source, problems)
    return Scenario(
        source,
        tuple(instructions),
        headers["game"],
        headers["players"],
        tuple(sorted(headers["options"].items())),
    )


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(str(path), [(0, f"cannot read the scenario ({exc})")]) from None
    return parse_scenario(text, str(path))


def check_scenario(scenario: Scenario, table: VirtualTable) -> None:
    """Refuse names the table does not know (every problem at once, with line numbers)."""
    problems: list[tuple[int, str]] = []
    sites = set(table.sites)
    pieces = set(table.tags.pieces)
    buttons = set(table.buttons.roles)
    colours = set(table.strip.names)

    def site(line: int, name: str) -> None:
        if name not in sites:
            problems.append((line, f"no site {name!r} on this table"))

    if scenario.game is not None and scenario.game != table.game.id:
        problems.append((0, f"the scenario is for {scenario.game}, the table is {table.game.id}"))
    for instruction in scenario.instructions:
        line, action = instruction.line, instruction.action
        match action:
            case Put(piece, where):
                if not piece.startswith(FOREIGN_PREFIX) and piece not in pieces:
                    problems.append((line, f"{piece!r} is not a piece of {table.game.name}"))
                site(line, where)
            case Lift(where):
                site(line, where)
            case Slide(start, end):
                site(line, start)
                site(line, end)
            case Press(button) | Hold(button, _):
                if button not in buttons:
                    problems.append((line, f"no button {button!r} (buttons: "
                                           f"{', '.join(sorted(buttons))})"))
            case ExpectLed(where, colour):
                if where not in table.profile.leds.sites:
                    problems.append((line, f"no LEDs under {where!r} on this table"))
                if colour not in colours:
                    problems.append((line, f"no colour {colour!r} (colours: "
                                           f"{', '.join(table.strip.names)})"))
    if problems:
        raise ScenarioError(scenario.source, problems)
