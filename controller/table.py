"""One game at the table: the state, its history, the journal, and what the referee decided.

Synchronous and free of I/O except the journal, so it is tested directly; the service feeds
it settled boards and button presses. Every accepted action is committed to the journal
before the state (and so the LEDs) moves on.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.errors import BadSetup, IllegalAction
from games.core.game import CHANCE, Game

from .journal import Journal, StoredGame
from .referee import (
    Accept,
    Choose,
    Decision,
    Discrepancy,
    InProgress,
    NoChange,
    Successors,
    TakeBack,
    WrongSite,
    changed_sites,
    decide,
    pretty,
)

MAX_TAKE_BACK = 12
"""How many positions back a restored table is recognised as a take-back request."""
PUBLIC_LED_SAMPLES = 8
"""Redrawn hands whose legal sites are lit too, when the real hand is secret."""
HINT_SIMULATIONS = 200
"""The hint's strength (simulations per move); the AI's default strength too."""
MAX_SIMULATIONS = 20_000


class NothingToConfirm(IllegalAction):
    """A confirm, choice or undo with nothing waiting for it."""


@dataclass(frozen=True, slots=True)
class AdviceRequest:
    """A move the AI should think about: for an AI seat (``ai``) or a hint (``hint``)."""

    kind: str
    seat: int
    state: Any
    options: Mapping[str, str]
    simulations: int
    seed: int
    """Fixed by game and position, so a restart brings back the same advice."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The AI's move for the position ``state`` (the table's state when it was asked)."""

    kind: str
    seat: int
    state: Any
    action: str
    values: dict[str, float]
    seconds: float
    simulations: int


@dataclass(frozen=True, slots=True)
class Event:
    """A line for the page's list of last events."""

    kind: str
    text: str


class Table:
    def __init__(self, game: Game[Any], journal: Journal, rng: random.Random | None = None):
        self.game = game
        self.journal = journal
        self.rng = rng or random.Random()
        self.game_id: int | None = None
        self.players: tuple[str, ...] = ()
        self.options: dict[str, str] = {}
        self.states: list[Any] = []
        self.actions: list[str] = []
        self.decision: Decision = NoChange()
        self.events: list[Event] = []
        self.last_board: dict[str, str] = {}
        self.seat_tokens: dict[int, str] = {}
        """Who holds which seat's private view (see claim_seat); cleared with every new game."""
        self.ai: dict[int, int] = {}
        """Seats the AI plays, with its strength (simulations per move)."""
        self.hint_simulations = HINT_SIMULATIONS
        self.advice: Advice | None = None
        self._hint_for: Any = None
        """The state a hint was asked for (a hint is for one position only)."""
        self._restricted: tuple[Any, str | None, Successors] | None = None
        self._held_board: dict[str, str] | None = None
        """After an undo: the board as it was, not to be read again until the table changes."""
        self._successors: Successors | None = None
        self._legal_sites: tuple[Any, set[str]] | None = None

    # -- starting and resuming ---------------------------------------------------------------
    def new_game(self, players: Sequence[str], options: Mapping[str, str] | None = None,
                 ai: Mapping[str, int] | None = None) -> None:
        """Start a game; ``ai`` names the players the AI plays, with its strength."""
        state = self.game.initial(players, options)  # refuses bad input before touching disk
        options = self.game.check_options(options)
        seats = _ai_seats(players, ai or {})
        self.game_id = self.journal.start(self.game.id, list(players), options, seats)
        self._begin(tuple(players), options, state, ())
        self.ai = seats
        names = [f"{name} (AI)" if seat in seats else name for seat, name in enumerate(players)]
        self.log("game", f"new game of {self.game.name}: {', '.join(names)}")
        self._draw_hidden_chance()

    def resume(self, stored: StoredGame) -> None:
        """Replay a journalled game (after a restart or a power cut)."""
        state = self.game.initial(stored.players, stored.options)
        self.game_id = stored.id
        self._begin(stored.players, stored.options, state, ())
        self.ai = dict(stored.ai)
        for action in stored.actions:
            self._advance(action, self.game.apply(self.state, action))
        self.log("game", f"resumed after {len(stored.actions)} actions")
        self._draw_hidden_chance()

    def _begin(self, players: tuple[str, ...], options: dict[str, str], state: Any,
               actions: tuple[str, ...]) -> None:
        self.players, self.options = players, options
        self.seat_tokens = {}
        self.ai = {}
        self.advice = None
        self.states, self.actions = [state], list(actions)
        self.decision = NoChange()
        self._successors = None

    @property
    def started(self) -> bool:
        return bool(self.states)

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def _all_successors(self) -> Successors:
        """Every legal step from here, made once per position."""
        if self._successors is None:
            self._successors = Successors(self.game, self.state)
        return self._successors

    @property
    def successors(self) -> Successors:
        """What the referee may accept now: on an AI seat's turn, only the AI's move."""
        every = self._all_successors
        if every.actor not in self.ai:
            return every
        advice = self.current_advice()
        chosen = advice.action if advice is not None and advice.kind == "ai" else None
        cached = self._restricted
        if cached is None or cached[0] is not self.state or cached[1] != chosen:
            only = [chosen] if chosen is not None else []
            cached = self._restricted = (self.state, chosen, every.only(only))
        return cached[2]

    @property
    def expected_board(self) -> dict[str, str]:
        return self.game.board(self.state) if self.started else {}

    # -- what the table shows ----------------------------------------------------------------
    def observe(self, board: Mapping[str, str]) -> Decision:
        """Judge a settled board; accept what it shows, as many steps as it shows."""
        self.last_board = dict(board)
        if not self.started or self.game.is_terminal(self.state):
            self.decision = NoChange()
            return self.decision
        if self._held_board is not None:
            if dict(board) == self._held_board and board != self.expected_board:
                self.decision = _guidance(self.expected_board, board)
                return self.decision
            self._held_board = None
        for _ in range(64):  # a table a few steps ahead: accept them one by one
            decision = decide(self.successors, board, self._earlier_boards())
            if not isinstance(decision, Accept):
                break
            self._accept(decision.successor.action, decision.successor.state, "table")
        else:  # pragma: no cover - only a game whose actions never change the board
            decision = NoChange()
        if decision != self.decision:
            self._report(decision)
        self.decision = decision
        return decision

    def _report(self, decision: Decision) -> None:
        if isinstance(decision, Discrepancy):
            self.log("wrong", decision.message)
        elif isinstance(decision, Choose):
            options = " or ".join(s.action for s in decision.successors)
            self.log("choose", f"the table could mean {options}: press confirm to pick")
        elif isinstance(decision, TakeBack):
            self.log("undo", f"the table is back {decision.steps} step(s): confirm to undo")

    def _earlier_boards(self) -> list[dict[str, str]]:
        """Distinct earlier positions, newest first (positions a step did not change skipped)."""
        boards: list[dict[str, str]] = []
        current = self.expected_board
        for state in reversed(self.states[-MAX_TAKE_BACK - 1 : -1]):
            board = self.game.board(state)
            if board != current and (not boards or boards[-1] != board):
                boards.append(board)
        return boards

    # -- accepting ------------------------------------------------------------------------
    def _accept(self, action: str, state: Any, source: str) -> None:
        assert self.game_id is not None
        self.journal.append(self.game_id, action)  # committed before anything shows it
        self._advance(action, state)
        if source == "chance":  # a secret: the public log says only that it happened
            self.log("deal", "the table dealt a secret card")
        else:
            self.log("move", f"{self._who()}{action}")
        self._draw_hidden_chance()
        if self.game.is_terminal(self.state):
            self.journal.end(self.game_id)
            winners = [self.players[seat] for seat in self.game.winners(self.state)]
            self.log("end", f"game over; {' and '.join(winners)} won")

    def _who(self) -> str:
        if len(self.states) < 2:
            return ""
        actor = self.game.actor(self.states[-2])
        return f"{self.players[actor]}: " if actor >= 0 else ""

    def _advance(self, action: str, state: Any) -> None:
        self.actions.append(action)
        self.states.append(state)
        self._successors = None
        self.decision = NoChange()

    def _draw_hidden_chance(self) -> None:
        """Secret deals the table cannot see are drawn here (and shown only in private views)."""
        while self.game.actor(self.state) == CHANCE and self.successors.hidden_chance:
            action = self.game.sample_chance(self.state, self.rng)
            self._accept(action, self.game.apply(self.state, action), "chance")

    # -- players' inputs (buttons and the page) --------------------------------------------
    def confirm(self) -> str:
        """The confirm button: take back, pick the first reading, or do a silent action."""
        if isinstance(self.decision, TakeBack):
            return self._drop(self._actions_back(self.decision.steps))
        if isinstance(self.decision, Choose):
            return self.choose(0)
        silent = self.successors.silent if self.started else []
        if len(silent) == 1 and not self.successors.chance:
            self._accept(silent[0].action, silent[0].state, "button")
            return silent[0].action
        raise NothingToConfirm("nothing is waiting for a confirmation")

    def choose(self, index: int) -> str:
        if not isinstance(self.decision, Choose):
            raise NothingToConfirm("there is no choice to make")
        if not 0 <= index < len(self.decision.successors):
            raise NothingToConfirm(f"pick a number from 0 to {len(self.decision.successors) - 1}")
        chosen = self.decision.successors[index]
        self._accept(chosen.action, chosen.state, "choice")
        return chosen.action

    def undo(self, steps: int = 1) -> str:
        """Take back ``steps`` visible steps (with the secret draws that followed them)."""
        count = 0
        for _ in range(steps):
            while count < len(self.actions) and self._is_hidden_chance_step(
                len(self.actions) - 1 - count
            ):
                count += 1
            count += 1
        return self._drop(count)

    def _drop(self, actions: int) -> str:
        if self.game_id is None or actions < 1 or actions > len(self.actions):
            raise NothingToConfirm("there is nothing to take back")
        taken = self.journal.take_back(self.game_id, actions)
        self._held_board = dict(self.last_board)
        del self.actions[-actions:]
        del self.states[-actions:]
        self._successors = None
        self.decision = NoChange()
        self.log("undo", f"took back {', '.join(reversed(taken))}")
        return taken[-1]

    def legal_sites(self) -> set[str]:
        """Sites some legal step could change, lit for everyone to see.

        When the legal steps depend on a secret hand, the union over positions the table cannot
        tell apart is lit instead, so the LEDs do not hint at the hand.
        """
        key = (len(self.actions), self.state, self.current_advice())
        if self._legal_sites is not None and self._legal_sites[0] == key:
            return self._legal_sites[1]
        current = self.expected_board
        sites = {site for s in self.successors.changing for site in changed_sites(current, s.board)}
        if self.successors.actor not in self.ai and self._public_legal_actions() is None:
            probe = random.Random(len(self.actions))
            for _ in range(PUBLIC_LED_SAMPLES):
                other = self.game.resample(self.state, None, probe)
                base = self.game.board(other)
                for action in self.game.legal_actions(other):
                    sites |= changed_sites(base, self.game.board(self.game.apply(other, action)))
        self._legal_sites = (key, sites)
        return sites

    def _public_legal_actions(self) -> list[str] | None:
        """The legal actions, unless they depend on hidden information (a hand): then None.

        Checked generically: redraw what the table cannot see a few times and compare.
        """
        if self.successors.chance or self.game.is_terminal(self.state):
            return []
        legal = self.game.legal_actions(self.state)
        probe = random.Random(len(self.actions))
        for _ in range(4):
            other = self.game.resample(self.state, None, probe)
            if self.game.legal_actions(other) != legal:
                return None
        return legal

    def _last_visible_action(self) -> str | None:
        for index in range(len(self.actions) - 1, -1, -1):
            if not self._is_hidden_chance_step(index):
                return self.actions[index]
        return None

    def _is_hidden_chance_step(self, index: int) -> bool:
        before = self.states[index]
        if self.game.actor(before) != CHANCE:
            return False
        return self.game.board(before) == self.game.board(self.states[index + 1])

    def _actions_back(self, steps: int) -> int:
        """How many actions lie between now and the ``steps``-th distinct earlier position."""
        current = self.expected_board
        seen = 0
        last = current
        for back, state in enumerate(reversed(self.states[:-1]), start=1):
            board = self.game.board(state)
            if board != current and board != last:
                seen += 1
                last = board
                if seen == steps:
                    return back
        return steps

    # -- the AI: its seats' moves and hints ------------------------------------------------
    def request_hint(self) -> str:
        """The hint button: ask the AI for the move of the player on turn."""
        seat = self._seat_for_a_hint()
        self._hint_for = self.state
        advice = self.current_advice()
        if advice is not None:
            return f"hint for {self.players[seat]}: {advice.action}"
        return f"thinking about a hint for {self.players[seat]}"

    def private_hint_request(self, seat: int, token: str) -> AdviceRequest:
        """A hint for one phone only: nothing is lit, logged or shown to the table."""
        self.private_view(seat, token)  # raises PermissionError for a phone without the seat
        if self._seat_for_a_hint() != seat:
            raise NothingToConfirm(f"it is not {self.players[seat]}'s turn")
        return AdviceRequest("hint", seat, self.state, self.options, self.hint_simulations,
                             self._seed())

    def _seat_for_a_hint(self) -> int:
        if not self.started or self.game.is_terminal(self.state):
            raise NothingToConfirm("no game is running: there is nothing to hint")
        seat = self.game.actor(self.state)
        if seat < 0:
            raise NothingToConfirm("no player is on turn: the table deals or draws now")
        if seat in self.ai:
            raise NothingToConfirm(f"{self.players[seat]} is played by the AI")
        return seat

    def _seed(self) -> int:
        return (self.game_id or 0) * 1_000_003 + len(self.actions)

    def advice_request(self) -> AdviceRequest | None:
        """What the AI should think about now, if anything (the service runs it off-loop)."""
        if not self.started or self.game.is_terminal(self.state):
            return None
        seat = self.game.actor(self.state)
        if seat < 0 or self.current_advice() is not None:
            return None
        seed = self._seed()
        if seat in self.ai:
            return AdviceRequest("ai", seat, self.state, self.options, self.ai[seat], seed)
        if self._hint_for is self.state:
            return AdviceRequest("hint", seat, self.state, self.options, self.hint_simulations,
                                 seed)
        return None

    def receive_advice(self, request: AdviceRequest, action: str, values: Mapping[str, float],
                       seconds: float, simulations: int) -> bool:
        """Keep the AI's answer if the table is still where it was asked; False if it moved on."""
        if not self.started or request.state is not self.state:
            return False
        if action not in self.game.legal_actions(self.state):
            raise ValueError(f"the AI chose {action!r}, which is not legal here")
        self.advice = Advice(request.kind, request.seat, request.state, action, dict(values),
                             seconds, simulations)
        who = self.players[request.seat]
        if request.kind == "ai":
            self.log("ai", f"{who} (AI) plays {action}: please make this move for them")
        else:
            self.log("hint", f"hint for {who}: {action}")
        return True

    def current_advice(self) -> Advice | None:
        advice = self.advice
        if advice is None or not self.started or advice.state is not self.state:
            return None
        return advice

    def advice_sites(self) -> set[str]:
        """The sites the advised move changes (lit in the advice colour)."""
        advice = self.current_advice()
        if advice is None:
            return set()
        every = self._all_successors
        for successor in every.changing:
            if successor.action == advice.action:
                return changed_sites(every.board, successor.board)
        return set()

    def _advice_status(self) -> dict[str, Any] | None:
        advice = self.current_advice()
        if advice is None:
            return None
        sites = self.advice_sites()
        return {
            "kind": advice.kind,
            "player": self.players[advice.seat],
            "action": advice.action,
            "sites": sorted(sites),
            "how": "make this move on the table" if sites else "press confirm",
            # How the other moves fared would show an AI seat's hand; a hint is the asker's.
            "values": dict(list(advice.values.items())[:5]) if advice.kind == "hint" else {},
            "seconds": round(advice.seconds, 3),
            "simulations": advice.simulations,
        }

    # -- private views: each player's phone -------------------------------------------------
    def claim_seat(self, seat: int) -> str:
        """A secret token for the first phone that asks for this seat's private view."""
        if not self.started or not 0 <= seat < len(self.players):
            raise NothingToConfirm(f"there is no seat {seat} in this game")
        if seat in self.seat_tokens:
            raise NothingToConfirm(
                f"{self.players[seat]}'s seat is taken; the table's owner can release it")
        token = secrets.token_urlsafe(16)
        self.seat_tokens[seat] = token
        self.log("seat", f"{self.players[seat]} joined on a phone")
        return token

    def private_view(self, seat: int, token: str) -> dict[str, Any]:
        held = self.seat_tokens.get(seat)
        if held is None or not secrets.compare_digest(held, token):
            raise PermissionError("this phone does not hold that seat")
        return self.game.view(self.state, seat)

    def release_seats(self) -> None:
        self.seat_tokens = {}
        self.log("seat", "all seats released")

    def abort(self) -> None:
        """End the running game as aborted; it stays in the journal."""
        if self.game_id is None or not self.started:
            raise NothingToConfirm("no game is running")
        self.journal.end(self.game_id, "aborted")
        self.log("game", "game aborted")
        self.states.clear()
        self.actions.clear()
        self.game_id = None
        self.decision = NoChange()
        self._successors = None

    def log(self, kind: str, text: str) -> None:
        self.events.append(Event(kind, text))
        del self.events[:-50]

    # -- status for the page and the API ----------------------------------------------------
    def status(self) -> dict[str, Any]:
        if not self.started:
            return {"game": self.game.id, "started": False, "phase": None, "to_act": None,
                    "events": [{"kind": e.kind, "text": e.text} for e in self.events[-12:]]}
        view = self.game.view(self.state, None)
        actor = self.game.actor(self.state)
        sheet = self.game.score(self.state)
        decision = self.decision
        status: dict[str, Any] = {
            "game": self.game.id,
            "game_id": self.game_id,
            "started": True,
            "players": list(self.players),
            "options": self.options,
            "phase": view.get("phase"),
            "to_act": view.get("to_act", self.players[actor] if actor >= 0 else None),
            "finished": self.game.is_terminal(self.state),
            "moves": len(self.actions),
            "last_action": self._last_visible_action(),
            "view": view,
            "expected_board": self.expected_board,
            "legal": self._public_legal_actions(),
            "scores": sheet.to_json(),
            "winners": [self.players[s] for s in self.game.winners(self.state)]
            if self.game.is_terminal(self.state) else [],
            "decision": type(decision).__name__,
            "discrepancy": None,
            "prompt": None,
            "progress": None,
            "ai_seats": [self.players[seat] for seat in sorted(self.ai)],
            "advice": self._advice_status(),
            "events": [{"kind": e.kind, "text": e.text} for e in self.events[-12:]],
        }
        if isinstance(decision, Discrepancy):
            status["discrepancy"] = {
                "message": decision.message,
                "wrong_sites": [w.site for w in decision.wrong],
                "sites": [{"site": w.site, "expected": w.expected, "seen": w.seen,
                           "advice": w.advice()} for w in decision.wrong],
            }
        elif isinstance(decision, Choose):
            status["prompt"] = {"kind": "choose",
                                "options": [s.action for s in decision.successors]}
        elif isinstance(decision, TakeBack):
            status["prompt"] = {"kind": "undo", "steps": decision.steps}
        elif isinstance(decision, InProgress):
            status["progress"] = {
                "targets": list(decision.targets),
                "active": list(decision.active),
                "actions": [s.action for s in decision.successors][:20],
                "message": f"go on: {', '.join(pretty(t) for t in decision.targets[:6])}",
            }
        return status


def _ai_seats(players: Sequence[str], ai: Mapping[str, int]) -> dict[int, int]:
    """Player names the AI plays to seats; refuses unknown names and bad strengths."""
    seats = {}
    for name, simulations in ai.items():
        if name not in players:
            raise BadSetup(f"the AI cannot play {name!r}: not among the players "
                           f"({', '.join(players)})")
        if not isinstance(simulations, int) or not 1 <= simulations <= MAX_SIMULATIONS:
            raise BadSetup(f"the AI's strength is 1 to {MAX_SIMULATIONS} simulations per move, "
                           f"not {simulations!r}")
        seats[list(players).index(name)] = simulations
    return seats


def _guidance(expected: Mapping[str, str], seen: Mapping[str, str]) -> Discrepancy:
    """Every site that differs from the expected board, as a discrepancy to put right."""
    sites = sorted(site for site in expected.keys() | seen.keys()
                   if expected.get(site) != seen.get(site))
    return Discrepancy(tuple(WrongSite(site, expected.get(site), seen.get(site))
                             for site in sites))
