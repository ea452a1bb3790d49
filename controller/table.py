"""One game at the table: the state, its history, the journal, and what the referee decided.

Synchronous and free of I/O except the journal, so it is tested directly; the service feeds
it settled boards and commands. Every accepted action is committed to the journal before the
state (and so the LEDs) moves on. Beside it: the positions so far (``history``), what may be
shown while a hand is secret (``secrecy``), the AI's seats and advice (``advice``) and the
phones' seat claims (``seats``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core.game import CHANCE, Game

from . import secrecy
from . import status as report
from .advice import Advice, AdviceBook, AdviceRequest, ai_seats
from .errors import NoGameRunning, NothingToConfirm
from .history import History
from .journal import Journal, StoredGame
from .referee import (
    Accept,
    Choose,
    Decision,
    Discrepancy,
    NoChange,
    Successors,
    TakeBack,
    decide,
    guidance,
)
from .seats import SeatClaims

MAX_TAKE_BACK = 12
"""How many positions back a restored table is recognised as a take-back request."""


class Table:
    def __init__(self, game: Game[Any], journal: Journal, rng: random.Random | None = None):
        self.game = game
        self.journal = journal
        self.rng = rng or random.Random()
        self.game_id: int | None = None
        self.players: tuple[str, ...] = ()
        self.options: dict[str, str] = {}
        self.history = History(game)
        self.decision: Decision = NoChange()
        self.events: list[report.Event] = []
        self.last_board: dict[str, str] = {}
        self.seats = SeatClaims()
        """Who holds which seat's private view; cleared with every new game."""
        self.book = AdviceBook(game)
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
        seats = ai_seats(players, ai or {})
        self.game_id = self.journal.start(self.game.id, list(players), options, seats,
                                          self.game.revision)
        self._begin(tuple(players), options, state, seats)
        names = [f"{name} (AI)" if seat in seats else name for seat, name in enumerate(players)]
        self.log("game", f"new game of {self.game.name}: {', '.join(names)}")
        self._draw_hidden_chance()
        self.decision = self._unseen_choice()

    def resume(self, stored: StoredGame) -> None:
        """Replay a journalled game (after a restart or a power cut), under the rules it was
        started with (an upgrade in between does not change a game under way)."""
        options = self.game.options_at(stored.options, stored.revision)
        state = self.game.initial(stored.players, options)
        self.game_id = stored.id
        self._begin(stored.players, options, state, stored.ai)
        for action in stored.actions:
            self._advance(action, self.game.apply(self.state, action))
        self.log("game", f"resumed after {len(stored.actions)} actions")
        self._draw_hidden_chance()
        self.decision = self._unseen_choice()

    def _begin(self, players: tuple[str, ...], options: dict[str, str], state: Any,
               ai: Mapping[int, int]) -> None:
        self.players, self.options = players, options
        self.seats.release_all()
        self.book.reset(ai)
        self.history.start(state)
        self.decision = NoChange()
        self._successors = None

    @property
    def states(self) -> list[Any]:
        return self.history.states

    @property
    def actions(self) -> list[str]:
        """The game's actions so far, secret draws included (as in the journal)."""
        return self.history.actions

    @property
    def started(self) -> bool:
        return bool(self.states)

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def ai(self) -> dict[int, int]:
        """Seats the AI plays, with its strength (simulations per move)."""
        return self.book.seats

    @property
    def all_successors(self) -> Successors:
        """Every legal step from here, made once per position."""
        if self._successors is None:
            self._successors = Successors(self.game, self.state)
        return self._successors

    @property
    def successors(self) -> Successors:
        """What the referee may accept now: on an AI seat's turn, only the AI's move."""
        every = self.all_successors
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
                self.decision = guidance(self.expected_board, board)
                return self.decision
            self._held_board = None
        for _ in range(64):  # a table a few steps ahead: accept them one by one
            decision = decide(self.successors, board, self.history.earlier_boards(MAX_TAKE_BACK))
            if not isinstance(decision, Accept):
                break
            self._accept(decision.successor.action, decision.successor.state, "table")
        else:  # pragma: no cover - only a game whose actions never change the board
            decision = NoChange()
        if isinstance(decision, NoChange):
            decision = self._unseen_choice()
        if decision != self.decision:
            self._report(decision)
        self.decision = decision
        return decision

    def _unseen_choice(self) -> Decision:
        """A player's decision the table cannot see (every legal action leaves the board as it
        is, and there are several: which shape to put back in the box, say) is a choice on the
        page; confirm takes the first. One such action alone is the confirm button's."""
        if not self.started or self.game.is_terminal(self.state):
            return NoChange()
        successors = self.successors
        if successors.chance or successors.changing or len(successors.silent) < 2:
            return NoChange()
        return Choose(tuple(successors.silent))

    def _report(self, decision: Decision) -> None:
        if isinstance(decision, Discrepancy):
            self.log("wrong", decision.message)
        elif isinstance(decision, Choose):
            options = " or ".join(s.action for s in decision.successors)
            self.log("choose", f"the table could mean {options}: press confirm to pick")
        elif isinstance(decision, TakeBack):
            self.log("undo", f"the table is back {decision.steps} step(s): confirm to undo")

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
        self.decision = self._unseen_choice()
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
        self.history.push(action, state)
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
        self._require_game()
        if isinstance(self.decision, TakeBack):
            return self._drop(self.history.actions_back(self.decision.steps))
        if isinstance(self.decision, Choose):
            return self.choose(0)
        silent = self.successors.silent if self.started else []
        if len(silent) == 1 and not self.successors.chance:
            self._accept(silent[0].action, silent[0].state, "button")
            return silent[0].action
        raise NothingToConfirm("nothing is waiting for a confirmation")

    def choose(self, index: int) -> str:
        self._require_game()
        if not isinstance(self.decision, Choose):
            raise NothingToConfirm("there is no choice to make")
        if not 0 <= index < len(self.decision.successors):
            raise NothingToConfirm(f"pick a number from 0 to {len(self.decision.successors) - 1}")
        chosen = self.decision.successors[index]
        self._accept(chosen.action, chosen.state, "choice")
        return chosen.action

    def undo(self, steps: int = 1) -> str:
        """Take back ``steps`` visible steps (with the secret draws that followed them)."""
        self._require_game()
        return self._drop(self.history.actions_in_steps(steps))

    def _drop(self, actions: int) -> str:
        if self.game_id is None or actions < 1 or actions > len(self.actions):
            raise NothingToConfirm("there is nothing to take back")
        taken = self.journal.take_back(self.game_id, actions)
        self._held_board = dict(self.last_board)
        self.history.drop(actions)
        self._successors = None
        self.decision = NoChange()
        self.log("undo", f"took back {', '.join(reversed(taken))}")
        return taken[-1]

    def legal_sites(self) -> set[str]:
        """Sites some legal step could change, lit for everyone (a secret hand stays secret)."""
        key = (len(self.actions), self.state, self.current_advice())
        if self._legal_sites is None or self._legal_sites[0] != key:
            sites = secrecy.legal_sites(self.game, self.state, self.successors, len(self.actions),
                                        hand_known=self.successors.actor in self.ai)
            self._legal_sites = (key, sites)
        return self._legal_sites[1]

    # -- the AI: its seats' moves and hints ------------------------------------------------
    def request_hint(self) -> str:
        """The hint button: ask the AI for the move of the player on turn."""
        self._require_game()
        return self.book.ask_hint(self.state, self.players)

    def private_hint_request(self, seat: int, token: str) -> AdviceRequest:
        """A hint for one phone only: nothing is lit, logged or shown to the table."""
        self.private_view(seat, token)  # raises SeatNotHeld for a phone without the seat
        return self.book.private_hint_request(self.state, self.players, seat, self.options,
                                              self._seed())

    def _seed(self) -> int:
        return (self.game_id or 0) * 1_000_003 + len(self.actions)

    def advice_request(self) -> AdviceRequest | None:
        """What the AI should think about now, if anything (the service runs it off-loop)."""
        if not self.started:
            return None
        return self.book.request(self.state, self.options, self._seed())

    def receive_advice(self, request: AdviceRequest, action: str, values: Mapping[str, float],
                       seconds: float, simulations: int) -> bool:
        """Keep the AI's answer if the table is still where it was asked; False if it moved on."""
        if not self.started or not self.book.receive(self.state, request, action, values,
                                                     seconds, simulations):
            return False
        who = self.players[request.seat]
        if request.kind == "ai":
            self.log("ai", f"{who} (AI) plays {action}: please make this move for them")
        else:
            self.log("hint", f"hint for {who}: {action}")
        return True

    def current_advice(self) -> Advice | None:
        return self.book.current(self.state) if self.started else None

    def advice_sites(self) -> set[str]:
        """The sites the advised move changes (lit in the advice colour)."""
        return self.book.sites(self.state, self.all_successors) if self.started else set()

    # -- private views: each player's phone -------------------------------------------------
    def claim_seat(self, seat: int) -> str:
        """A secret token for the first phone that asks for this seat's private view."""
        self._require_game()
        token = self.seats.claim(seat, self.players)
        self.log("seat", f"{self.players[seat]} joined on a phone")
        return token

    def private_view(self, seat: int, token: str) -> dict[str, Any]:
        self._require_game()
        self.seats.check(seat, token)
        return self.game.view(self.state, seat)

    def release_seats(self) -> None:
        self.seats.release_all()
        self.log("seat", "all seats released")

    def _require_game(self) -> None:
        if not self.started:
            raise NoGameRunning("no game is running")

    def abort(self) -> None:
        """End the running game as aborted; it stays in the journal."""
        if self.game_id is None or not self.started:
            raise NoGameRunning("no game is running")
        self.journal.end(self.game_id, "aborted")
        self.log("game", "game aborted")
        self.history.clear()
        self.game_id = None
        self.decision = NoChange()
        self._successors = None

    def log(self, kind: str, text: str) -> None:
        self.events.append(report.Event(kind=kind, text=text))
        del self.events[:-50]

    # -- status for the page and the API ----------------------------------------------------
    def status(self) -> report.GameStatus:
        return report.game_status(self)
