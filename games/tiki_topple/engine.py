"""Tiki Topple (Keith Meyers): push your mission's tikis to the top of the stack.

A round: the stack is built (chance), missions are dealt (chance), in the Schmidt edition
everyone sets cards aside unseen (chance), then players play one card each in turn until
three tikis remain or all hands are empty. The stack is then scored against the missions and
cleared (a step a player does with their hands, so the referee sees it).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from games.core.errors import BadState, IllegalAction
from games.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    Limits,
    OptionSpec,
    RuleChange,
    Secret,
    Sentence,
    Site,
)
from games.core.scoresheet import ScoreSheet
from games.core.tuples import replaced

from . import stack as moves
from . import words
from .actions import (
    CANONICAL,
    PLAY_ORDER,
    TARGET_TEXT,
    aside_outcomes,
    aside_sampler,
    build_actions,
    build_outcomes,
    parse,
    stack_groups_ok,
    wiki_actions,
)
from .components import DECKS, EDITIONS, Edition, load_edition
from .limits import edition_limits
from .position import score_position
from .scoring import mission_line, mission_points
from .state import RoundResult, TikiState, state_from_json, state_to_json


class TikiTopple(Game[TikiState]):
    id = "tiki_topple"
    name = "Tiki Topple"
    players_deal = True  # see docs/games/tiki_topple.md, "Who deals"
    min_players = 2
    max_players = 4
    secrets = (
        Secret("each player's mission card", "others"),
        Secret("the cards each player set aside", "others"),
    )
    options = (
        OptionSpec(
            "edition",
            EDITIONS,
            "schmidt: 9 cards with Puh and Wiki, 2 set aside each round; "
            "gamewright: 7 cards, none set aside, one Up-1 out with 3 or 4 players; "
            "gamewright_all_cards: the same, keeping every card",
        ),
        OptionSpec(
            "missions",
            DECKS,
            "sheet: a mission deck holding the rule sheet's own example cards (the rest "
            "ASSUMED, see data/missions.toml); revision1: our first deck, which lacked them",
        ),
        OptionSpec(
            "end",
            ("rounds", "35_points"),
            "rounds: the sheet's 3 or 4 rounds; 35_points: as some printings, the game ends "
            "after the round in which a player reaches 35 points (at most 12 rounds)",
        ),
    )
    rule_changes = (
        RuleChange(2, "missions", {"sheet": "revision1"},
                   "the mission deck holds the sheet's example cards"),
    )

    # -- setup ---------------------------------------------------------------------------------
    def initial(
        self, players: Sequence[str], options: Mapping[str, str] | None = None
    ) -> TikiState:
        names = self.check_players(players)
        chosen = self.check_options(options)
        edition = load_edition(chosen["edition"], chosen["missions"])
        n = len(names)
        return TikiState(
            players=names,
            edition=edition.id,
            deck=chosen["missions"],
            goal=chosen["end"] == "35_points",
            round=0,
            phase="build",
            stack=(),
            toasted=(),
            missions=(0,) * n,
            used_missions=(),
            hands=(edition.hand(n),) * n,
            aside=((),) * n,
            played=((),) * n,
            turn=0,
            pad="",
            totals=(0,) * n,
            history=(),
        )

    def compute_limits(self, n_players: int, options: Mapping[str, str]) -> Limits:
        return edition_limits(options["edition"], n_players, options["missions"],
                              options["end"] == "35_points")

    def rounds(self, state: TikiState) -> int:
        """The rounds a game has (with end=35_points: at most)."""
        return _edition(state).rounds(len(state.players), state.goal)

    # -- whose turn, what is legal -------------------------------------------------------------
    def actor(self, state: TikiState) -> int:
        phase = state.phase
        if phase == "play" or phase == "cleanup":
            return state.turn
        if phase == "over":
            return TERMINAL
        return CHANCE

    def legal_actions(self, state: TikiState) -> list[str]:
        phase = state.phase
        if phase == "play":
            return self._card_actions(state)
        if phase == "cleanup":
            return ["clear"]
        if phase == "over":
            return []
        return [action for action, _ in self.chance_outcomes(state)]

    def chance_outcomes(self, state: TikiState) -> list[tuple[str, Fraction]]:
        phase = state.phase
        if phase == "build":
            return list(build_outcomes(state.edition))
        if phase == "deal":
            left = self._undealt_missions(state)
            probability = Fraction(1, len(left))
            return sorted((f"mission {number}", probability) for number in left)
        if phase == "aside":
            count = _edition(state).set_aside
            return list(aside_outcomes(state.hands[state.turn], count))
        return []

    def limits_play(self, state: TikiState) -> bool:
        """A mission only scores at the round's end: no card play depends on it. The cards
        set aside (Schmidt edition) are the ones a player cannot play this round."""
        return state.phase != "deal"

    def _undealt_missions(self, state: TikiState) -> list[int]:
        gone = set(state.used_missions) | set(state.missions)
        total = len(_edition(state).missions)
        return [number for number in range(1, total + 1) if number not in gone]

    def _card_actions(self, state: TikiState) -> list[str]:
        stack = state.stack
        size = len(stack)
        kinds = state.hands[state.turn]
        actions: list[str] = []
        for kind in PLAY_ORDER:
            if kind not in kinds:
                continue
            if kind == "toast":
                if state.played[state.turn]:
                    actions.append("toast")
            elif kind == "wiki":
                actions.extend(wiki_actions(frozenset(stack)))
            else:
                low, high = moves.target_range(kind, size)
                actions.extend(map(TARGET_TEXT[kind].__getitem__, sorted(stack[low:high])))
        return actions or ["pass"]

    def to_act(self, state: TikiState) -> int | None:
        """The start player builds the stack and deals the missions; each player sets their
        own cards aside; the player to act plays a card or clears the table."""
        if state.phase in ("build", "deal"):
            return self._start_seat(state)
        if state.phase == "over":
            return None
        return state.turn

    def describe_step(self, state: TikiState) -> Sentence:
        """What the table is waiting for, in the box's words (the page's headline, refusals):
        who does it, with which piece, where. It tells only what everyone may know."""
        phase = state.phase
        names = state.players
        if phase == "build":
            return Sentence("{player}: sort the nine tikis by the symbols on their backs and "
                            "stand them on places 1 to 9 of the stack, each group of three "
                            "together, in any order.", {"player": names[self._start_seat(state)]})
        if phase == "deal":
            dealer = self._start_seat(state)
            if state.turn == dealer:
                return Sentence("{player}: shuffle the mission cards face down and deal "
                                "yourself one; look at it without showing it.",
                                {"player": names[dealer]})
            return Sentence("{dealer}: deal {player} a mission card, face down.",
                            {"dealer": names[dealer], "player": names[state.turn]})
        if phase == "aside":
            return Sentence("{player}: shuffle your action cards and lay {count} of them aside "
                            "face down, unseen, as your discard pile.",
                            {"player": names[state.turn],
                             "count": str(_edition(state).set_aside)})
        if phase == "play":
            return Sentence("{player}: play an action card onto the play pad and move a tiki "
                            "on the stack as the card says.", {"player": names[state.turn]})
        if phase == "cleanup":
            return Sentence("{player}: round {round} is scored. Take the tikis off the stack "
                            "and the card off the play pad, and put the mission cards aside; "
                            "you start the next round.",
                            {"player": names[state.turn], "round": str(state.round + 1)})
        return Sentence("Game over.")

    def action_sentence(self, state: TikiState, action: str) -> Sentence:
        """A step told for the list of events: which card moved which tiki, without naming a
        mission or a card set aside."""
        verb, *rest = action.split()
        names = state.players
        who = names[state.turn]
        if verb == "build":
            return Sentence("The stack is built, top to bottom: {tikis}.",
                            {"tikis": words.tikis(rest)})
        if verb == "mission":
            return Sentence("{player} is dealt a mission card, face down.", {"player": who})
        if verb == "aside":
            return Sentence("{player} lays {count} cards aside, face down.",
                            {"player": who, "count": str(len(rest))})
        if verb == "clear":
            return Sentence("{player} clears the table for the next round.", {"player": who})
        if verb == "pass":
            return Sentence("{player} can play no card and gives up the rest of the hand.",
                            {"player": who})
        told: dict[str, str | Sentence] = {"player": who, "card": words.card(verb)}
        if verb == "toast":
            return Sentence("{player} plays {card}: {tiki} at the bottom leaves the stack for "
                            "this round.", {**told, "tiki": words.tiki(state.stack[-1])})
        if verb == "wiki":
            return Sentence("{player} plays {card}: {first} and {second} swap places.",
                            {**told, "first": words.tiki(rest[0]),
                             "second": words.tiki(rest[1])})
        if verb == "topple":
            return Sentence("{player} plays {card}: {tiki} goes to the bottom of the stack.",
                            {**told, "tiki": words.tiki(rest[0])})
        if verb == "puh":
            return Sentence("{player} plays {card}: {tiki} moves down 2 places.",
                            {**told, "tiki": words.tiki(rest[0])})
        steps = verb.removeprefix("up")
        told["tiki"] = words.tiki(rest[0])
        if steps == "1":
            return Sentence("{player} plays {card}: {tiki} moves up 1 place.", told)
        return Sentence("{player} plays {card}: {tiki} moves up {count} places.",
                        {**told, "count": steps})

    # -- applying ------------------------------------------------------------------------------
    def parse_action(self, text: str) -> str:
        return parse(text)

    def apply(self, state: TikiState, action: str) -> TikiState:
        canonical = action if action in CANONICAL else self.parse_action(action)
        phase = state.phase
        if phase == "play":
            return self._play(state, canonical)
        if phase == "cleanup":
            if canonical != "clear":
                raise IllegalAction(Sentence("the round is over: clear the stack for the next "
                                             "round"))
            return self._next_round(state)
        if phase == "over":
            raise IllegalAction(Sentence("the game is over"))
        if not self._is_outcome(state, canonical):
            raise IllegalAction(self._why_not_chance(state, canonical))
        if phase == "build":
            return self._replace(state, stack=tuple(canonical.split()[1:]), phase="deal",
                                 turn=self._start_seat(state))
        if phase == "deal":
            missions = list(state.missions)
            missions[state.turn] = int(canonical.split()[1])
            return self._after_chance_step(state, missions=tuple(missions), done="deal")
        kinds = canonical.split()[1:]
        hand = list(state.hands[state.turn])
        for kind in kinds:
            hand.remove(kind)
        hands = replaced(state.hands, state.turn, tuple(hand))
        aside = replaced(state.aside, state.turn, tuple(kinds))
        return self._after_chance_step(state, hands=hands, aside=aside, done="aside")

    def sample_chance(self, state: TikiState, rng: random.Random) -> str:
        """Shortcut for the uniform draws (1296 stacks, the mission deck)."""
        if state.phase == "build":
            return rng.choice(build_outcomes(state.edition))[0]
        if state.phase == "deal":
            return f"mission {rng.choice(self._undealt_missions(state))}"
        if state.phase == "aside":
            count = _edition(state).set_aside
            actions, weights = aside_sampler(state.hands[state.turn], count)
            return rng.choices(actions, cum_weights=weights)[0]
        return super().sample_chance(state, rng)

    def _is_outcome(self, state: TikiState, action: str) -> bool:
        if state.phase == "build":
            return action in build_actions(state.edition)
        if state.phase == "deal":
            words = action.split()
            return words[0] == "mission" and int(words[1]) in self._undealt_missions(state)
        count = _edition(state).set_aside
        return action in aside_sampler(state.hands[state.turn], count)[0]

    def _why_not_chance(self, state: TikiState, action: str) -> Sentence:
        edition = _edition(state)
        player = state.players[state.turn]
        if state.phase == "build":
            if not action.startswith("build "):
                return Sentence("the stack has to be built first")
            return stack_groups_ok(edition, action.split()[1:]) or Sentence(
                "not now: {step}", {"step": self.describe_step(state)})
        if state.phase == "deal":
            if not action.startswith("mission "):
                return Sentence("{player} must be dealt a mission card first", {"player": player})
            return Sentence("{card} is not in the mission deck (dealt already, or no such card)",
                            {"card": action})
        if not action.startswith("aside "):
            return Sentence("{player} must set cards aside first", {"player": player})
        return Sentence("{player} sets exactly {count} cards aside, from the hand",
                        {"player": player, "count": str(edition.set_aside)})

    def _after_chance_step(self, state: TikiState, done: str, **changes: Any) -> TikiState:
        """Move the deal or the set-aside on to the next seat, then to the next phase."""
        n = len(state.players)
        following = (state.turn + 1) % n
        if following != self._start_seat(state):
            return self._replace(state, turn=following, **changes)
        if done == "deal" and _edition(state).set_aside:
            return self._replace(state, phase="aside", turn=following, **changes)
        return self._replace(state, phase="play", turn=following, **changes)

    def _play(self, state: TikiState, action: str) -> TikiState:
        seat = state.turn
        parts = action.split()
        kind = parts[0]
        hand = state.hands[seat]
        if kind in ("build", "mission", "aside", "clear"):
            raise IllegalAction(Sentence("it is {player}'s turn to play a card",
                                         {"player": state.players[seat]}))
        if kind == "pass":
            if self._card_actions(state) != ["pass"]:
                raise IllegalAction(Sentence("a player who can play a card must play one"))
            return self._end_turn(state, replaced(state.hands, seat, ()), state.stack,
                                  state.toasted, played=state.played)
        if kind not in hand:
            raise IllegalAction(Sentence("{player} has no {kind} card in hand",
                                         {"player": state.players[seat], "kind": kind}))
        stack = state.stack
        toasted = state.toasted
        if kind == "toast":
            if not state.played[seat]:
                raise IllegalAction(Sentence("toast may not be a player's first card of the "
                                             "round"))
            toasted = (*toasted, stack[-1])
            stack = stack[:-1]
        else:
            targets = parts[1:]
            for tiki in targets:
                if tiki not in stack:
                    raise IllegalAction(Sentence("{tiki} is no longer on the stack (toasted)",
                                                 {"tiki": words.tiki(tiki)}))
            if kind == "wiki":
                stack = moves.swap(stack, *targets)
            else:
                index = stack.index(targets[0])
                if not moves.can_target(kind, index, len(stack)):
                    raise IllegalAction(moves.why_not(kind, index, len(stack)))
                stack = moves.move(stack, kind, targets[0])
        remaining = list(hand)
        remaining.remove(kind)
        hands = replaced(state.hands, seat, tuple(remaining))
        played = replaced(state.played, seat, (*state.played[seat], kind))
        return self._end_turn(state, hands, stack, toasted, played, pad=f"{seat}:{kind}")

    def _end_turn(
        self,
        state: TikiState,
        hands: tuple[tuple[str, ...], ...],
        stack: tuple[str, ...],
        toasted: tuple[str, ...],
        played: tuple[tuple[str, ...], ...],
        pad: str | None = None,
    ) -> TikiState:
        pad = state.pad if pad is None else pad
        if len(stack) <= 3 or not any(hands):
            return self._score_round(state, hands, stack, toasted, played, pad)
        n = len(state.players)
        turn = (state.turn + 1) % n
        while not hands[turn]:
            turn = (turn + 1) % n
        # The hottest line of every playout: build the tuple directly, not through _replace.
        return TikiState(
            state.players, state.edition, state.deck, state.goal, state.round, state.phase, stack,
            toasted,
            state.missions, state.used_missions, hands, state.aside, played, turn, pad,
            state.totals, state.history,
        )

    def _score_round(
        self,
        state: TikiState,
        hands: tuple[tuple[str, ...], ...],
        stack: tuple[str, ...],
        toasted: tuple[str, ...],
        played: tuple[tuple[str, ...], ...],
        pad: str,
    ) -> TikiState:
        edition = _edition(state)
        totals = tuple(
            total + mission_points(edition, stack, edition.mission(number).tikis)
            for total, number in zip(state.totals, state.missions, strict=True)
        )
        reached = state.goal and max(totals) >= edition.goal_points
        last = reached or state.round + 1 == self.rounds(state)
        return self._replace(
            state,
            phase="over" if last else "cleanup",
            turn=(state.round + 1) % len(state.players),
            hands=hands,
            stack=stack,
            toasted=toasted,
            played=played,
            pad=pad,
            totals=totals,
            history=(*state.history, RoundResult(stack, state.missions)),
        )

    def _next_round(self, state: TikiState) -> TikiState:
        edition = _edition(state)
        n = len(state.players)
        return self._replace(
            state,
            round=state.round + 1,
            phase="build",
            stack=(),
            toasted=(),
            missions=(0,) * n,
            used_missions=_still_used(state, len(edition.missions)),
            hands=(edition.hand(n),) * n,
            aside=((),) * n,
            played=((),) * n,
            turn=self._start_seat(state, state.round + 1),
            pad="",
        )

    def _start_seat(self, state: TikiState, round_index: int | None = None) -> int:
        """The start player moves one seat to the left each round."""
        return (state.round if round_index is None else round_index) % len(state.players)

    @staticmethod
    def _replace(state: TikiState, **changes: Any) -> TikiState:
        return state._replace(**changes)

    # -- scoring -------------------------------------------------------------------------------
    def score(self, state: TikiState) -> ScoreSheet:
        """Completed rounds only: this round's missions are still secret."""
        edition = _edition(state)
        lines = tuple(
            tuple(
                mission_line(
                    edition, result.stack, edition.mission(result.missions[seat]).tikis,
                    number, on_table=number == len(state.history),
                )
                for number, result in enumerate(state.history, start=1)
            )
            for seat in range(len(state.players))
        )
        return ScoreSheet(state.players, state.totals, lines)

    def score_position(self, position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
        return score_position(position)

    # -- views and the physical table ----------------------------------------------------------
    def players(self, state: TikiState) -> tuple[str, ...]:
        return state.players

    def public_action(self, state: TikiState, action: str) -> str:
        """Missions and set-aside cards are dealt face down: only that it happened is told."""
        verb = action.partition(" ")[0]
        return f"{verb} (face down)" if verb in ("mission", "aside") else action

    def view(self, state: TikiState, player: int | None) -> dict[str, Any]:
        edition = _edition(state)
        actor = self.actor(state)
        names = state.players
        view: dict[str, Any] = {
            "game": self.id,
            "edition": state.edition,
            "players": list(names),
            "round": state.round + 1,
            "rounds": self.rounds(state),
            "phase": state.phase,
            "to_act": names[actor] if actor >= 0 else ("chance" if actor == CHANCE else None),
            "stack": list(state.stack),
            "toasted": list(state.toasted),
            "pad": self._pad_piece(state),
            "played": {name: list(cards) for name, cards in zip(names, state.played, strict=True)},
            "hand_sizes": {name: len(h) for name, h in zip(names, state.hands, strict=True)},
            "mission_dealt": {name: m > 0 for name, m in zip(names, state.missions, strict=True)},
            "scores": dict(zip(names, state.totals, strict=True)),
            "history": [
                {
                    "round": number,
                    "stack": list(result.stack),
                    "missions": {
                        name: list(edition.mission(m).tikis)
                        for name, m in zip(names, result.missions, strict=True)
                    },
                }
                for number, result in enumerate(state.history, start=1)
            ],
        }
        if player is not None:
            mission = state.missions[player]
            view["you"] = names[player]
            view["hand"] = list(state.hands[player])
            view["set_aside"] = list(state.aside[player])
            view["mission"] = list(edition.mission(mission).tikis) if mission else None
            if mission and state.stack:
                view["mission_points_now"] = mission_points(
                    edition, state.stack, edition.mission(mission).tikis
                )
        return view

    def resample(self, state: TikiState, player: int | None, rng: random.Random) -> TikiState:
        """Redeal others' current missions and redraw which of their cards were set aside."""
        edition = _edition(state)
        hidden = [
            seat for seat in range(len(state.players)) if seat != player and state.missions[seat]
        ]
        own = state.missions[player] if player is not None else 0
        pool = [
            m.number
            for m in edition.missions
            if m.number not in state.used_missions and m.number != own
        ]
        missions = list(state.missions)
        for seat, number in zip(hidden, rng.sample(pool, len(hidden)), strict=True):
            missions[seat] = number
        hands = list(state.hands)
        aside = list(state.aside)
        for seat in range(len(state.players)):
            if seat == player or not state.aside[seat]:
                continue
            cards = sorted(state.hands[seat] + state.aside[seat], key=moves.card_order)
            rng.shuffle(cards)  # from a sorted pool: the redraw depends only on what is seen
            keep = len(state.hands[seat])
            hands[seat] = tuple(sorted(cards[:keep], key=moves.card_order))
            aside[seat] = tuple(sorted(cards[keep:]))
        return self._replace(
            state, missions=tuple(missions), hands=tuple(hands), aside=tuple(aside)
        )

    def sites(self, n_players: int) -> tuple[Site, ...]:
        stack = tuple(Site(f"stack:{i}", 0.0, float(i - 1), f"place {i}") for i in range(1, 10))
        return (*stack, Site("pad:play", 2.0, 4.0, "play pad"),
                Site("pad:reveal", 2.0, 7.0, "reveal pad: missions, face up, to be scored",
                     stacks=True, pile=True))

    def board(self, state: TikiState) -> dict[str, str]:
        board = {f"stack:{i}": f"tiki:{tiki}" for i, tiki in enumerate(state.stack, start=1)}
        pad = self._pad_piece(state)
        if pad:
            board["pad:play"] = pad
        return board

    def _pad_piece(self, state: TikiState) -> str | None:
        if not state.pad:
            return None
        seat, kind = state.pad.split(":")
        return f"card:{_edition(state).colours[int(seat)]}:{kind}"

    def pieces(self) -> tuple[str, ...]:
        """Tikis, action cards, and the mission cards (``mission:N``, tagged so that a mission
        laid face up on the reveal pad is read: see ``revealed_pieces``)."""
        edition = load_edition("schmidt")
        kinds = sorted({kind for e in EDITIONS for kind in load_edition(e).cards})
        most = max(len(load_edition(e, deck).missions) for e in EDITIONS for deck in DECKS)
        return (tuple(f"tiki:{tiki}" for tiki in edition.tikis)
                + tuple(f"card:{colour}:{kind}" for colour in edition.colours for kind in kinds)
                + tuple(f"mission:{number}" for number in range(1, most + 1)))

    def copies(self) -> dict[str, int]:
        """Action cards a colour holds twice (Tiki Up 1 and Tiki Toast in every edition): the
        most any edition has."""
        editions = [load_edition(e) for e in EDITIONS]
        colours = editions[0].colours
        most: dict[str, int] = {}
        for edition in editions:
            for kind in set(edition.cards):
                most[kind] = max(most.get(kind, 0), edition.cards.count(kind))
        return {f"card:{colour}:{kind}": count for colour in colours
                for kind, count in most.items() if count > 1}

    # -- missions dealt from the box: shown on the reveal pad once the round is scored ------
    reveal_site = "pad:reveal"

    def revealed_pieces(self, state: TikiState, seat: int) -> tuple[str, ...]:
        number = state.missions[seat]
        return (f"mission:{number}",) if number else ()

    def needs_secrets(self, before: TikiState, after: TikiState) -> tuple[int, ...]:
        """The step that scored a round needs every mission of that round."""
        if len(after.history) > len(before.history):
            return tuple(range(len(before.players)))
        return ()

    def withhold(self, view: dict[str, Any], seats: Sequence[int]) -> dict[str, Any]:
        """Without the missions shown, neither the scores nor the missions of the rounds
        played are known."""
        hidden = {view["players"][seat] for seat in seats}
        history = [{**result, "missions": {name: None if name in hidden else tikis
                                          for name, tikis in result["missions"].items()}}
                   for result in view["history"]]
        return {**super().withhold(view, seats), "history": history}

    def players_can_deal(self, options: Mapping[str, str]) -> bool:
        """With end=35_points whether the game goes on depends on the missions at once: the
        table must know them, so the digital dealer deals."""
        return self.check_options(options)["end"] != "35_points"

    def render(self, state: TikiState, player: int | None) -> str:
        view = self.view(state, player)
        lines = [
            f"Tiki Topple ({view['edition']}), round {view['round']} of {view['rounds']}"
            f" - {view['phase']}, to act: {view['to_act']}",
            "stack (top first): "
            + "  ".join(f"{i}:{t}" for i, t in enumerate(view["stack"], start=1)),
        ]
        if view["toasted"]:
            lines.append("toasted: " + ", ".join(view["toasted"]))
        lines.append(
            "played: " + "; ".join(f"{n}: {' '.join(c) or '-'}" for n, c in view["played"].items())
        )
        lines.append("scores: " + ", ".join(f"{n} {s}" for n, s in view["scores"].items()))
        if player is not None:
            if view["mission"]:
                points = _edition(state).points
                lines.append(
                    "your mission: "
                    + ", ".join(f"{t} ({p})" for t, p in zip(view["mission"], points, strict=True))
                )
            lines.append("your hand: " + " ".join(view["hand"]))
        return "\n".join(lines)

    # -- serialisation -------------------------------------------------------------------------
    def state_to_json(self, state: TikiState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> TikiState:
        state = state_from_json(data)
        if state.edition not in EDITIONS or state.deck not in DECKS:
            raise BadState(f"unknown edition {state.edition!r} or mission deck {state.deck!r}")
        edition = _edition(state)
        n = len(state.players)
        if not 2 <= n <= 4:
            raise BadState(f"Tiki Topple is for 2 to 4 players, not {n}")
        deck = len(edition.missions)
        rounds = self.rounds(state)
        dealt = [m for m in state.missions if m]
        used = [*state.used_missions, *(m for r in state.history for m in r.missions)]
        limits = edition_limits(state.edition, n, state.deck, state.goal)
        if not 0 <= state.round < rounds:
            raise BadState(f"round is 0 to {rounds - 1} with {n} players, not {state.round}")
        if any(not 0 <= m <= deck for m in state.missions) or len(set(dealt)) != len(dealt):
            raise BadState(f"missions are 0 (none yet) or different cards 1 to {deck}")
        if any(not 1 <= m <= deck for m in used):
            raise BadState(f"used_missions and history name cards 1 to {deck}")
        if any(not limits.min_score <= t <= limits.max_score for t in state.totals):
            raise BadState(f"totals lie between {limits.min_score} and {limits.max_score}")
        return state


def _edition(state: TikiState) -> Edition:
    return load_edition(state.edition, state.deck)


def _still_used(state: TikiState, deck: int) -> tuple[int, ...]:
    """The mission cards out of the deck for the next round: all dealt so far, unless too few
    would be left to deal one each (only with end=35_points): then all go back and are
    shuffled."""
    used = state.used_missions + state.missions
    return used if deck - len(used) >= len(state.players) else ()
