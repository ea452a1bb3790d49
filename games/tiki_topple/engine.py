"""Tiki Topple (Keith Meyers): push your mission's tikis to the top of the stack.

A round: the stack is built (chance), missions are dealt (chance), in the Schmidt edition
everyone sets cards aside unseen (chance), then players play one card each in turn until
three tikis remain or all hands are empty. The stack is then scored against the missions and
cleared (a step a player does with their hands, so the referee sees it).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from games.core.action_text import is_number, words
from games.core.errors import BadActionText, BadPosition, IllegalAction
from games.core.game import CHANCE, TERMINAL, Game, Limits, OptionSpec, Secret, Sentence, Site
from games.core.scoresheet import ScoreSheet

from . import stack as moves
from .components import CARD_KINDS, EDITIONS, Edition, load_edition
from .scoring import mission_line, mission_points
from .state import RoundResult, TikiState, state_from_json, state_to_json

TIKIS = load_edition("schmidt").tikis
SORTED_TIKIS = tuple(sorted(TIKIS))
PLAY_ORDER = tuple(sorted(("puh", "toast", "topple", "up1", "up2", "up3", "wiki")))
"""Card kinds in the order their actions sort."""
TARGET_TEXT = {kind: {tiki: f"{kind} {tiki}" for tiki in TIKIS} for kind in moves.TARGETED}
WIKI_PAIRS = tuple((a, b, f"wiki {a} {b}") for a, b in itertools.combinations(SORTED_TIKIS, 2))
"""Action texts made once: legal_actions runs in every step of every playout."""


@cache
def build_outcomes(edition_id: str) -> tuple[tuple[str, Fraction], ...]:
    """Every legal stack (groups contiguous, any order): 3! x 3!^3 = 1296, equally likely."""
    groups = load_edition(edition_id).groups
    stacks = [
        tuple(tiki for group in group_order for tiki in group)
        for ordered in itertools.product(*(itertools.permutations(g) for g in groups))
        for group_order in itertools.permutations(ordered)
    ]
    actions = sorted("build " + " ".join(s) for s in stacks)
    probability = Fraction(1, len(actions))
    return tuple((action, probability) for action in actions)


@cache
def aside_sampler(hand: tuple[str, ...], count: int) -> tuple[list[str], list[float]]:
    """``aside_outcomes`` as float cumulative weights, for fast sampling."""
    outcomes = aside_outcomes(hand, count)
    return [a for a, _ in outcomes], list(itertools.accumulate(float(p) for _, p in outcomes))


@cache
def wiki_actions(present: frozenset[str]) -> tuple[str, ...]:
    return tuple(text for a, b, text in WIKI_PAIRS if a in present and b in present)


@cache
def build_actions(edition_id: str) -> frozenset[str]:
    return frozenset(action for action, _ in build_outcomes(edition_id))


@cache
def aside_outcomes(hand: tuple[str, ...], count: int) -> tuple[tuple[str, Fraction], ...]:
    """The card kinds set aside from ``hand``, with the chance of each multiset."""
    tally = Counter(
        tuple(sorted(combo)) for combo in itertools.combinations(hand, count)
    )
    total = math.comb(len(hand), count)
    return tuple(
        sorted(("aside " + " ".join(kinds), Fraction(n, total)) for kinds, n in tally.items())
    )


@cache
def edition_limits(edition_id: str, n_players: int) -> Limits:
    """Every action of an edition, and the bounds of a game of it.

    A round has 1 build, n deals, n set-asides (if any), then turns that each take at least
    one card from a hand (a pass empties it, empty hands are skipped), then 1 clear; each
    round adds at most the sum of the mission points to a total, never less than 0.
    """
    edition = load_edition(edition_id)
    hand = edition.hand(n_players)
    kinds = set(hand)
    actions = {action for action, _ in build_outcomes(edition_id)}
    actions |= {f"mission {number}" for number in range(1, len(edition.missions) + 1)}
    if edition.set_aside:
        actions |= {action for action, _ in aside_outcomes(hand, edition.set_aside)}
    actions |= {TARGET_TEXT[kind][tiki] for kind in moves.TARGETED if kind in kinds
                for tiki in edition.tikis}
    if "wiki" in kinds:
        actions |= {text for _, _, text in WIKI_PAIRS}
    if "toast" in kinds:
        actions.add("toast")
    actions |= {"pass", "clear"}
    rounds = edition.rounds_by_players[n_players]
    setup = 1 + n_players * (2 if edition.set_aside else 1)
    turns = n_players * (len(hand) - edition.set_aside)
    return Limits(
        actions=tuple(sorted(actions)),
        max_steps=rounds * (setup + turns + 1),
        min_score=rounds * sum(min(points, 0) for points in edition.points),
        max_score=rounds * sum(max(points, 0) for points in edition.points),
    )


def stack_groups_ok(edition: Edition, stack: Sequence[str]) -> str:
    """Empty if ``stack`` is a legal starting stack, else why not."""
    if sorted(stack) != sorted(edition.tikis):
        return "the stack must hold each of the 9 tikis exactly once"
    group_of = {tiki: n for n, group in enumerate(edition.groups) for tiki in group}
    runs = [group_of[tiki] for tiki in stack]
    if any(runs[i] != runs[i - i % 3] for i in range(9)):
        return "the tikis of each back symbol must stand together, three in a row"
    return ""


class TikiTopple(Game[TikiState]):
    id = "tiki_topple"
    name = "Tiki Topple"
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
            "gamewright: 7 cards, none set aside",
        ),
    )

    # -- setup ---------------------------------------------------------------------------------
    def initial(
        self, players: Sequence[str], options: Mapping[str, str] | None = None
    ) -> TikiState:
        names = self.check_players(players)
        edition = load_edition(self.check_options(options)["edition"])
        n = len(names)
        return TikiState(
            players=names,
            edition=edition.id,
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
        return edition_limits(options["edition"], n_players)

    def rounds(self, state: TikiState) -> int:
        return load_edition(state.edition).rounds_by_players[len(state.players)]

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
            count = load_edition(state.edition).set_aside
            return list(aside_outcomes(state.hands[state.turn], count))
        return []

    def _undealt_missions(self, state: TikiState) -> list[int]:
        gone = set(state.used_missions) | set(state.missions)
        total = len(load_edition(state.edition).missions)
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

    def describe_step(self, state: TikiState) -> Sentence:
        """What the table is waiting for, in words (the page's headline, refusals)."""
        phase = state.phase
        who = {"player": state.players[state.turn]}
        if phase == "build":
            return Sentence("Build the stack: the nine tikis in a column on the stack places, "
                            "in any order (build TIKI ...).")
        if phase == "deal":
            return Sentence("{player} is dealt a mission card, face down (mission N).", who)
        if phase == "aside":
            count = load_edition(state.edition).set_aside
            return Sentence("{player} sets {count} cards aside, face down (aside CARD ...).",
                            {**who, "count": str(count)})
        if phase == "play":
            return Sentence("{player}: play a card onto the play pad and move the tiki it "
                            "names (up2 lokahi, topple kapu, toast ...).", who)
        if phase == "cleanup":
            return Sentence("The round is over: clear the stack and the play pad for the next "
                            "round (clear).")
        return Sentence("The game is over.")

    # -- applying ------------------------------------------------------------------------------
    def parse_action(self, text: str) -> str:
        head, *args = words(text)
        if head in ("toast", "pass", "clear") and not args:
            return head
        if head in moves.TARGETED and len(args) == 1 and args[0] in TIKIS:
            return f"{head} {args[0]}"
        if head == "wiki" and len(args) == 2 and set(args) <= set(TIKIS) and args[0] != args[1]:
            return "wiki " + " ".join(sorted(args))
        if head == "build" and len(args) == 9 and sorted(args) == sorted(TIKIS):
            return "build " + " ".join(args)
        if head == "mission" and len(args) == 1 and is_number(args[0]):
            return f"mission {int(args[0])}"
        if head == "aside" and args and all(kind in CARD_KINDS for kind in args):
            return "aside " + " ".join(sorted(args))
        raise BadActionText(
            f"{text.strip()!r} is not a Tiki Topple action; try e.g. 'up2 lokahi', "
            "'puh nani', 'topple kapu', 'wiki nani kapu', 'toast'"
        )

    def apply(self, state: TikiState, action: str) -> TikiState:
        canonical = action if action in CANONICAL else self.parse_action(action)
        phase = state.phase
        if phase == "play":
            return self._play(state, canonical)
        if phase == "cleanup":
            if canonical != "clear":
                raise IllegalAction("the round is over: clear the stack for the next round")
            return self._next_round(state)
        if phase == "over":
            raise IllegalAction("the game is over")
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
        hands = _set(state.hands, state.turn, tuple(hand))
        aside = _set(state.aside, state.turn, tuple(kinds))
        return self._after_chance_step(state, hands=hands, aside=aside, done="aside")

    def sample_chance(self, state: TikiState, rng: random.Random) -> str:
        """Shortcut for the uniform draws (1296 stacks, the mission deck)."""
        if state.phase == "build":
            return rng.choice(build_outcomes(state.edition))[0]
        if state.phase == "deal":
            return f"mission {rng.choice(self._undealt_missions(state))}"
        if state.phase == "aside":
            count = load_edition(state.edition).set_aside
            actions, weights = aside_sampler(state.hands[state.turn], count)
            return rng.choices(actions, cum_weights=weights)[0]
        return super().sample_chance(state, rng)

    def _is_outcome(self, state: TikiState, action: str) -> bool:
        if state.phase == "build":
            return action in build_actions(state.edition)
        if state.phase == "deal":
            words = action.split()
            return words[0] == "mission" and int(words[1]) in self._undealt_missions(state)
        count = load_edition(state.edition).set_aside
        return action in aside_sampler(state.hands[state.turn], count)[0]

    def _why_not_chance(self, state: TikiState, action: str) -> str:
        edition = load_edition(state.edition)
        if state.phase == "build":
            if not action.startswith("build "):
                return "the stack has to be built first"
            return stack_groups_ok(edition, action.split()[1:])
        if state.phase == "deal":
            if not action.startswith("mission "):
                return f"{state.players[state.turn]} must be dealt a mission card first"
            return f"{action} is not in the mission deck (dealt already, or no such card)"
        if not action.startswith("aside "):
            return f"{state.players[state.turn]} must set cards aside first"
        return (
            f"{state.players[state.turn]} sets exactly {edition.set_aside} cards aside, "
            "from the hand"
        )

    def _after_chance_step(self, state: TikiState, done: str, **changes: Any) -> TikiState:
        """Move the deal or the set-aside on to the next seat, then to the next phase."""
        n = len(state.players)
        following = (state.turn + 1) % n
        if following != self._start_seat(state):
            return self._replace(state, turn=following, **changes)
        if done == "deal" and load_edition(state.edition).set_aside:
            return self._replace(state, phase="aside", turn=following, **changes)
        return self._replace(state, phase="play", turn=following, **changes)

    def _play(self, state: TikiState, action: str) -> TikiState:
        seat = state.turn
        words = action.split()
        kind = words[0]
        hand = state.hands[seat]
        if kind in ("build", "mission", "aside", "clear"):
            raise IllegalAction(f"it is {state.players[seat]}'s turn to play a card")
        if kind == "pass":
            if self._card_actions(state) != ["pass"]:
                raise IllegalAction("a player who can play a card must play one")
            return self._end_turn(state, _set(state.hands, seat, ()), state.stack, state.toasted,
                                  played=state.played)
        if kind not in hand:
            raise IllegalAction(f"{state.players[seat]} has no {kind} card in hand")
        stack = state.stack
        toasted = state.toasted
        if kind == "toast":
            if not state.played[seat]:
                raise IllegalAction("toast may not be a player's first card of the round")
            toasted = (*toasted, stack[-1])
            stack = stack[:-1]
        else:
            targets = words[1:]
            for tiki in targets:
                if tiki not in stack:
                    raise IllegalAction(f"{tiki} is no longer on the stack (toasted)")
            if kind == "wiki":
                stack = moves.swap(stack, *targets)
            else:
                index = stack.index(targets[0])
                if not moves.can_target(kind, index, len(stack)):
                    raise IllegalAction(moves.why_not(kind, index, len(stack)))
                stack = moves.move(stack, kind, targets[0])
        remaining = list(hand)
        remaining.remove(kind)
        hands = _set(state.hands, seat, tuple(remaining))
        played = _set(state.played, seat, (*state.played[seat], kind))
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
            state.players, state.edition, state.round, state.phase, stack, toasted,
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
        edition = load_edition(state.edition)
        totals = tuple(
            total + mission_points(edition, stack, edition.mission(number).tikis)
            for total, number in zip(state.totals, state.missions, strict=True)
        )
        last = state.round + 1 == self.rounds(state)
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
        edition = load_edition(state.edition)
        n = len(state.players)
        return self._replace(
            state,
            round=state.round + 1,
            phase="build",
            stack=(),
            toasted=(),
            missions=(0,) * n,
            used_missions=state.used_missions + state.missions,
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
        edition = load_edition(state.edition)
        lines = tuple(
            tuple(
                mission_line(
                    edition, result.stack, edition.mission(result.missions[seat]).tikis,
                    f"round {number}: ", on_table=number == len(state.history),
                )
                for number, result in enumerate(state.history, start=1)
            )
            for seat in range(len(state.players))
        )
        return ScoreSheet(state.players, state.totals, lines)

    def score_position(self, position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
        edition = load_edition("schmidt")
        if not isinstance(position, Mapping):
            raise BadPosition("a Tiki Topple position is a JSON object with stack and missions")
        unknown = set(position) - {"stack", "missions"}
        if unknown:
            raise BadPosition(f"unknown keys {sorted(unknown)}; expected stack and missions")
        stack = _tikis(position.get("stack"), "stack")
        if not 3 <= len(stack) <= 9:
            raise BadPosition(f"the stack holds 3 to 9 tikis, not {len(stack)}")
        missions = position.get("missions")
        if not isinstance(missions, Mapping) or not missions:
            raise BadPosition('missions must map player names to 3 tikis, e.g. {"anna": [...]}')
        names = tuple(missions)
        if not all(isinstance(name, str) and name.strip() for name in names):
            raise BadPosition("player names must be non-empty strings")
        totals = []
        lines = []
        for name in names:
            card = _tikis(missions[name], f"{name}'s mission")
            if len(card) != 3:
                raise BadPosition(f"{name}'s mission names 3 tikis, not {len(card)}")
            line = mission_line(edition, stack, card, "")
            totals.append(line.points)
            lines.append((line,))
        sheet = ScoreSheet(names, tuple(totals), tuple(lines))
        best = max(totals)
        return sheet, [seat for seat, total in enumerate(totals) if total == best]

    # -- views and the physical table ----------------------------------------------------------
    def players(self, state: TikiState) -> tuple[str, ...]:
        return state.players

    def view(self, state: TikiState, player: int | None) -> dict[str, Any]:
        edition = load_edition(state.edition)
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
        edition = load_edition(state.edition)
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
            cards = list(state.hands[seat] + state.aside[seat])
            rng.shuffle(cards)
            keep = len(state.hands[seat])
            hands[seat] = tuple(sorted(cards[:keep], key=moves.card_order))
            aside[seat] = tuple(sorted(cards[keep:]))
        return self._replace(
            state, missions=tuple(missions), hands=tuple(hands), aside=tuple(aside)
        )

    def sites(self, n_players: int) -> tuple[Site, ...]:
        stack = tuple(Site(f"stack:{i}", 0.0, float(i - 1), f"place {i}") for i in range(1, 10))
        return (*stack, Site("pad:play", 2.0, 4.0, "play pad"))

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
        return f"card:{load_edition(state.edition).colours[int(seat)]}:{kind}"

    def pieces(self) -> tuple[str, ...]:
        edition = load_edition("schmidt")
        kinds = sorted({kind for e in EDITIONS for kind in load_edition(e).cards})
        return tuple(f"tiki:{tiki}" for tiki in edition.tikis) + tuple(
            f"card:{colour}:{kind}" for colour in edition.colours for kind in kinds
        )

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
                points = load_edition(state.edition).points
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
        if state.edition not in EDITIONS:
            from games.core.errors import BadState

            raise BadState(f"unknown edition {state.edition!r}")
        return state


CANONICAL = frozenset(
    [*(t for texts in TARGET_TEXT.values() for t in texts.values())]
    + [text for _, _, text in WIKI_PAIRS]
    + ["toast", "pass", "clear"]
    + [f"mission {number}" for number in range(1, 100)]
    + ["aside " + " ".join(kinds) for size in (1, 2, 3)
       for kinds in itertools.combinations_with_replacement(sorted(CARD_KINDS), size)]
)
"""Actions already in canonical form, so apply can skip parsing them (a stack to build is
checked against the outcomes themselves)."""


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _tikis(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise BadPosition(f"{what} must be a list of tiki names")
    names = tuple(t.lower() for t in value)
    for name in names:
        if name not in TIKIS:
            raise BadPosition(f"{what}: unknown tiki {name!r}; tikis are {', '.join(TIKIS)}")
    if len(set(names)) != len(names):
        raise BadPosition(f"{what} names a tiki twice")
    return names
