"""Pearl Divers' rules: every diver is dealt a secret lucky token; shells are drawn from the bag
into the pools on the table; in turn each diver takes one shell from a pool, and whoever emptied
a pool refills it from the bag. When bag and pools are empty the shells are scored."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from games.core import (
    CHANCE,
    TERMINAL,
    BadPosition,
    BadState,
    Game,
    IllegalAction,
    Limits,
    ScoreSheet,
    Secret,
    Sentence,
    Site,
)
from games.core.state_fields import entries, texts, whole

from . import actions
from .scoring import score_sheet, shell_name
from .state import DiveState, load_box


class PearlDivers(Game[DiveState]):
    id = "pearl_divers"
    name = "Pearl Divers"
    min_players = 2
    max_players = 3
    secrets = (Secret("each diver's lucky token", hidden_from="others"),)

    def __init__(self) -> None:
        self.box = load_box()

    # -- setup and steps -----------------------------------------------------------------------
    def initial(self, players: Sequence[str], options: Mapping[str, str] | None = None
                ) -> DiveState:
        self.check_options(options)
        names = self.check_players(players)
        return DiveState(names, (), ("",) * (len(names) + 1), self.box.shells,
                         ((),) * len(names), 0)

    def actor(self, state: DiveState) -> int:
        if len(state.lucky) < len(state.players):
            return CHANCE  # the secret deal
        if state.bag and "" in state.pools:
            return CHANCE  # a shell drawn into the first empty pool
        if not any(state.pools):
            return TERMINAL
        return state.turn

    def legal_actions(self, state: DiveState) -> list[str]:
        actor = self.actor(state)
        if actor == CHANCE:
            return [action for action, _ in self.chance_outcomes(state)]
        if actor == TERMINAL:
            return []
        return sorted(actions.text("take", n + 1) for n, shell in enumerate(state.pools) if shell)

    def chance_outcomes(self, state: DiveState) -> list[tuple[str, Fraction]]:
        if self.actor(state) != CHANCE:
            return []
        if len(state.lucky) < len(state.players):
            left = sorted(k.name for k in self.box.kinds if k.name not in state.lucky)
            return [(actions.text("lucky", kind), Fraction(1, len(left))) for kind in left]
        return [(actions.text("fill", shell), Fraction(1, len(state.bag))) for shell in state.bag]

    def parse_action(self, text: str) -> str:
        return actions.text(*actions.parse(text))

    def apply(self, state: DiveState, action: str) -> DiveState:
        action = self.parse_action(action)
        if action not in self.legal_actions(state):
            raise IllegalAction(self._why_not(state, action))
        verb, argument = actions.parse(action)
        if verb == "lucky":
            return state._replace(lucky=(*state.lucky, argument))
        if verb == "fill":
            pools = list(state.pools)
            pools[pools.index("")] = argument
            return state._replace(pools=tuple(pools),
                                  bag=tuple(s for s in state.bag if s != argument))
        pool = int(argument) - 1
        pools = list(state.pools)
        taken = list(state.taken)
        taken[state.turn] = (*taken[state.turn], pools[pool])
        pools[pool] = ""
        return state._replace(pools=tuple(pools), taken=tuple(taken),
                              turn=(state.turn + 1) % len(state.players))

    def _why_not(self, state: DiveState, action: str) -> Sentence:
        actor = self.actor(state)
        if actor == TERMINAL:
            return Sentence("the game is over")
        if actor == CHANCE:
            return Sentence("{action} is not what the table can deal or draw now",
                            {"action": action})
        return Sentence("{action}: that pool is empty or not on this table", {"action": action})

    # -- what the current step is -------------------------------------------------------------
    def phase(self, state: DiveState) -> str:
        if len(state.lucky) < len(state.players):
            return "setup"
        return "over" if self.is_terminal(state) else "dive"

    def to_act(self, state: DiveState) -> int | None:
        """At a refill, the diver who just emptied the pool draws from the bag."""
        actor = self.actor(state)
        if actor >= 0:
            return actor
        if actor == CHANCE and any(state.taken):
            return (state.turn - 1) % len(state.players)
        return None

    def describe_step(self, state: DiveState) -> Sentence:
        """Who does what with which piece where (the page's headline)."""
        actor = self.actor(state)
        if actor == TERMINAL:
            return Sentence("Game over: the bag and the pools are empty.")
        if len(state.lucky) < len(state.players):
            return Sentence("Deal {player} a lucky token from the box, face down.",
                            {"player": state.players[len(state.lucky)]})
        if actor == CHANCE:
            pool = str(state.pools.index("") + 1)
            seat = self.to_act(state)
            if seat is None:
                return Sentence("Draw a shell from the bag into pool {pool}.", {"pool": pool})
            return Sentence("{player}: draw a shell from the bag into pool {pool}.",
                            {"player": state.players[seat], "pool": pool})
        return Sentence("{player}: take a shell from one of the pools.",
                        {"player": state.players[actor]})

    def action_sentence(self, state: DiveState, action: str) -> Sentence:
        """A step in words for the events list; the lucky token stays unnamed."""
        verb, argument = actions.parse(action)
        if verb == "lucky":
            return Sentence("{player} is dealt a lucky token, face down.",
                            {"player": state.players[len(state.lucky)]})
        kind, _, _ = argument.partition(":")
        if verb == "fill":
            return Sentence("A {shell} is drawn into pool {pool}.",
                            {"shell": shell_name(kind), "pool": str(state.pools.index("") + 1)})
        pool = int(argument)
        return Sentence("{player} takes the {shell} from pool {pool}.",
                        {"player": state.players[state.turn],
                         "shell": shell_name(state.pools[pool - 1].partition(":")[0]),
                         "pool": argument})

    # -- scoring -------------------------------------------------------------------------------
    def score(self, state: DiveState) -> ScoreSheet:
        lucky = state.lucky if self.is_terminal(state) else None
        return score_sheet(self.box, state.players, state.taken, lucky)

    def score_position(self, position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
        """A position is the public view at the end: ``players``, ``taken``, ``lucky``."""
        try:
            players = tuple(position["players"])
            taken = tuple(tuple(shells) for shells in position["taken"])
            lucky = tuple(position["lucky"])
        except (KeyError, TypeError) as error:
            raise BadPosition(f"a position needs players, taken and lucky ({error})") from None
        shells, kinds = set(self.box.shells), {k.name for k in self.box.kinds}
        if (len(taken) != len(players) or len(lucky) != len(players)
                or not set(lucky) <= kinds or not {s for t in taken for s in t} <= shells):
            raise BadPosition("taken and lucky need one entry per player, of known shells")
        sheet = score_sheet(self.box, players, taken, lucky)
        best = max(sheet.totals)
        return sheet, [seat for seat, total in enumerate(sheet.totals) if total == best]

    # -- what people and sensors see ----------------------------------------------------------
    def players(self, state: DiveState) -> tuple[str, ...]:
        return state.players

    def public_action(self, state: DiveState, action: str) -> str:
        """A lucky token is dealt face down: everyone reads only that one was."""
        return "lucky (face down)" if action.startswith("lucky ") else action

    def view(self, state: DiveState, player: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "phase": self.phase(state),
            "players": list(state.players),
            "pools": list(state.pools),
            "bag": len(state.bag),
            "taken": [list(shells) for shells in state.taken],
            "lucky_dealt": len(state.lucky),
        }
        if self.is_terminal(state):
            view["lucky"] = list(state.lucky)
        elif player is not None and player < len(state.lucky):
            view["my_lucky"] = state.lucky[player]
        return view

    def resample(self, state: DiveState, player: int | None, rng: random.Random) -> DiveState:
        """Redraw the lucky tokens ``player`` has not seen (all of them for the public)."""
        if self.is_terminal(state):
            return state
        known = {player: state.lucky[player]} if player is not None and player < len(
            state.lucky) else {}
        pool = [k.name for k in self.box.kinds if k.name not in known.values()]
        hidden = [seat for seat in range(len(state.lucky)) if seat not in known]
        drawn = iter(rng.sample(pool, len(hidden)))
        lucky = tuple(known[seat] if seat in known else next(drawn)
                      for seat in range(len(state.lucky)))
        return state._replace(lucky=lucky)

    def sites(self, n_players: int) -> tuple[Site, ...]:
        """One pool more than there are divers, in a row."""
        self.check_player_count(n_players)
        return tuple(Site(f"pool:{n}", float(n - 1), 0.0, f"pool {n}")
                     for n in range(1, n_players + 2))

    def board(self, state: DiveState) -> dict[str, str]:
        return {f"pool:{n + 1}": f"shell:{shell}" for n, shell in enumerate(state.pools) if shell}

    def pieces(self) -> tuple[str, ...]:
        return tuple(f"shell:{shell}" for shell in self.box.shells)

    # -- bounds and JSON -----------------------------------------------------------------------
    def compute_limits(self, n_players: int, options: Mapping[str, str]) -> Limits:
        """Steps: one deal per diver, then each shell is drawn once and taken once.

        Scores: a diver's total is at least the sum of every negative shell (they took them all
        and hold another lucky kind) and at most every non-negative shell plus the lucky bonus
        on the most numerous kind.
        """
        box = self.box
        everything = [actions.text("lucky", k.name) for k in box.kinds]
        everything += [actions.text("fill", shell) for shell in box.shells]
        everything += [actions.text("take", n) for n in range(1, n_players + 2)]
        low = sum(min(k.value, 0) * k.copies for k in box.kinds)
        high = sum(max(k.value, 0) * k.copies for k in box.kinds)
        high += box.lucky_bonus * max(k.copies for k in box.kinds)
        return Limits(tuple(sorted(everything)), max_steps=n_players + 2 * len(box.shells),
                      min_score=low, max_score=high)

    def state_to_json(self, state: DiveState) -> dict[str, Any]:
        return {"players": list(state.players), "lucky": list(state.lucky),
                "pools": list(state.pools), "bag": list(state.bag),
                "taken": [list(t) for t in state.taken], "turn": state.turn}

    def state_from_json(self, data: Mapping[str, Any]) -> DiveState:
        try:
            players = texts(data["players"], "players")
            state = DiveState(
                players, texts(data["lucky"], "lucky"), texts(data["pools"], "pools"),
                texts(data["bag"], "bag"),
                tuple(texts(t, f"taken[{seat}]")
                      for seat, t in enumerate(entries(data["taken"], "taken"))),
                whole(data["turn"], "turn", 0, len(players) - 1))
        except (KeyError, TypeError) as error:
            raise BadState(f"not a Pearl Divers state ({error})") from None
        shells = set(self.box.shells)
        if (len(state.pools) != len(state.players) + 1 or len(state.taken) != len(state.players)
                or not {*state.bag, *state.pools, *(s for t in state.taken for s in t)}
                <= shells | {""}):
            raise BadState("not a Pearl Divers state (pools, taken, turn or shells are off)")
        return state

