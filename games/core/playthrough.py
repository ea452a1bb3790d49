"""Golden playthroughs: one seeded random game written out step by step, as readable text.

In the spirit of OpenSpiel's playthrough files: checked in per game, player count and option,
and compared by a test, so a change to the rules shows up as a diff a person can read (which
step now reads differently, which board changed, which score line moved) rather than as a
failing hash. Everything printed is sorted or in seat order, so the text depends only on the
engine and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import BadSetup
from .game import CHANCE, TERMINAL, Game, Sentence
from .playout import random_step, seat_names

SHOWN_ACTIONS = 6
"""Legal actions listed per step; longer lists show their count and the first few."""
SEED = 1


@dataclass(frozen=True, slots=True)
class Setup:
    """One playthrough: the game, its player count and options, and the seed."""

    game_id: str
    players: int
    options: Mapping[str, str]
    seed: int = SEED

    @property
    def name(self) -> str:
        """The file name: ``2p``, ``4p``, ``2p-edition-gamewright``."""
        chosen = "".join(f"-{key}-{value}" for key, value in sorted(self.options.items()))
        return f"{self.players}p{chosen}"


def setups(game: Game[Any]) -> list[Setup]:
    """The playthroughs a game gets: fewest and most players, and each non-default option
    (with the fewest players it allows: On Top's partner game needs four)."""
    found = [Setup(game.id, game.min_players, {}), Setup(game.id, game.max_players, {})]
    for spec in game.options:
        for value in spec.choices[1:]:
            found.append(Setup(game.id, _fewest_players(game, {spec.name: value}),
                               {spec.name: value}))
    return found


def _fewest_players(game: Game[Any], options: Mapping[str, str]) -> int:
    for count in range(game.min_players, game.max_players + 1):
        try:
            game.initial(seat_names(count), options)
        except BadSetup:
            continue
        return count
    raise BadSetup(Sentence("{game}: no player count allows the options {options}",
                            {"game": Sentence(game.name), "options": str(dict(options))}))


def playthrough(game: Game[Any], setup: Setup) -> str:
    return "".join(f"{line}\n" for line in _lines(game, setup))


def _lines(game: Game[Any], setup: Setup) -> Iterator[str]:
    players = seat_names(setup.players)
    options = game.check_options(setup.options)
    rng = random.Random(setup.seed)
    state = game.initial(players, options)
    shown = ", ".join(f"{key}={value}" for key, value in sorted(options.items())) or "none"
    yield (f"# {game.name}: {setup.players} players ({', '.join(players)}), options {shown}, "
           f"seed {setup.seed}")
    yield "# A seeded random game; regenerate with UPDATE_PLAYTHROUGHS=1 pytest tests/playthroughs"
    board: dict[str, str] = {}
    totals: tuple[int, ...] = ()
    step = 0
    while True:
        actor = game.actor(state)
        who = {CHANCE: "chance", TERMINAL: "over"}.get(actor) or players[actor]
        yield ""
        yield f"step {step} · {game.phase(state)} · {who}"
        yield f"  {game.describe_step(state)}"
        now = game.board(state)
        if now != board:
            yield f"  board {_changes(board, now)}"
            board = now
        sheet = game.score(state)
        if sheet.totals != totals:
            yield "  score " + ", ".join(f"{p} {t}" for p, t in zip(players, sheet.totals,
                                                                      strict=True))
            totals = sheet.totals
        if actor == TERMINAL:
            break
        legal = game.legal_actions(state)
        listed = " | ".join(legal[:SHOWN_ACTIONS])
        more = f" | ... {len(legal) - SHOWN_ACTIONS} more" if len(legal) > SHOWN_ACTIONS else ""
        yield f"  legal ({len(legal)}): {listed}{more}"
        action = random_step(game, state, rng)
        yield f"  -> {action}"
        yield f"     {game.action_sentence(state, action)}"
        state = game.apply(state, action)
        step += 1
    yield ""
    yield f"winners: {', '.join(players[seat] for seat in game.winners(state))}"
    yield f"result: {game.describe_result(state)}"
    for name, total, lines in zip(players, sheet.totals, sheet.lines, strict=True):
        yield f"{name}: {total}"
        for line in lines:
            yield f"  {line.points:+d}  {line.text}"


def _changes(before: Mapping[str, str], after: Mapping[str, str]) -> str:
    """``+site=piece`` for what arrived or changed, ``-site`` for what left, sorted by site."""
    parts = []
    for site in sorted(before.keys() | after.keys()):
        if site not in after:
            parts.append(f"-{site}")
        elif before.get(site) != after[site]:
            parts.append(f"+{site}={after[site]}")
    return " ".join(parts)
