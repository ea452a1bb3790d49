"""One game at the table: the state, its history, the journal, and what the referee decided.

Synchronous and free of I/O except the journal, so it is tested directly; the service feeds
it settled boards and commands. Every accepted action is committed to the journal before the
state (and so the LEDs) moves on. Beside it: the positions so far (``history``), a step
judged early until it stands (``provisional``), the searches for another dealing
(``searches``), what lies on the reveal and choice pads (``pads``), what may be shown while a
hand is secret (``secrecy``), the AI's seats and advice (``advice``) and the phones' seat
claims (``seats``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from games.core.errors import BadSetup
from games.core.game import CHANCE, Game, Sentence, face_down_board, listing
from games.core.translation import Catalogue

from . import lighting, secrecy
from . import status as report
from .advice import Advice, AdviceBook, AdviceRequest, ai_seats
from .errors import NoGameRunning, NothingToConfirm, WrongSeatCode
from .history import MAX_TAKE_BACK, History
from .journal import Journal, JournalError, StoredGame
from .language import ENGLISH, piece_namer, site_namer
from .pads import Pads
from .provisional import Provisional, ProvisionalStep
from .referee import (
    Accept,
    Choose,
    Decision,
    Discrepancy,
    InProgress,
    NoChange,
    NotRecorded,
    SecretShown,
    Successor,
    Successors,
    TakeBack,
    WrongSite,
    decide,
    guidance,
)
from .searches import Position, Searches
from .seats import MAX_WRONG_CODES, SeatClaims, SeatRecord
from .unresolved import (
    SEARCH_BUDGET,
    UNRESOLVED,
    EarlySearch,
    Resolution,
    Reveal,
    Search,
    SearchCost,
    UnseenDraws,
    search_dealings,
    secrets_owed,
)

Dealer = Literal["players", "digital"]
DEALERS: tuple[Dealer, ...] = ("players", "digital")
"""``players``: they shuffle and draw from the box, the table writes ``?`` for what it cannot
see; ``digital``: the service draws the secrets and shows them on the players' phones."""
RESUME_BUDGET = 10 * SEARCH_BUDGET
"""A restart may search longer: it resolves a whole game's unseen draws at once."""
CONFIRM_TO_LOOK_FURTHER = Sentence("no way of dealing found so far explains this; if it is "
                                   "right, press confirm and the table looks further")
LOOKING_FURTHER = Sentence("the table looks further for a way of dealing that explains the "
                           "board")


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
        self.events: list[report.Logged] = []
        self.logged = 0
        """Events logged so far (``events`` keeps the last 50): what a reader has not seen."""
        self.last_board: dict[str, str] = {}
        self.seats = SeatClaims()
        """Who holds which seat's private view; kept in the journal, new codes each game."""
        self.book = AdviceBook(game)
        self._restricted: tuple[Any, str | None, Successors] | None = None
        self._held_board: dict[str, str] | None = None
        """After an undo: the board as it was, not to be read again until the table changes."""
        self._successors: Successors | None = None
        self._legal_sites: tuple[Any, set[str]] | None = None
        self.dealer: Dealer = "players"
        self.reveals: list[Reveal] = []
        """Secrets shown on the reveal site: they narrow the unseen draws for good."""
        self.service_draws = 0
        """Chance outcomes the service chose itself (the digital dealer) in this game."""
        self.searches = Searches(game, self.history)
        """What the searches for another dealing of the unseen draws asked and found here."""
        self._dealt: dict[int, str] = {}
        """Secret draws taken back, by the step they were drawn at: dealt again there, never
        anew (a take-back must not let anyone re-draw a mission they dislike)."""
        self._hidden: tuple[Any, frozenset[str]] | None = None
        self._public_legal: tuple[Any, list[str] | None] | None = None
        self.pads = Pads(game)
        """What the table took in on the reveal and choice sites, until it comes off."""
        self.provisional = ProvisionalStep(game, self.history)
        """The last step judged early, until the hand that made it has been still for the
        settle time."""
        self._pending: tuple[Any, tuple[Reveal, ...], list[tuple[int, int]]] | None = None
        self._judged: frozenset[tuple[str, str]] = frozenset()
        """The board ``decision`` was judged on (a search's answer withdraws only its red)."""
    # -- starting and resuming ---------------------------------------------------------------
    def new_game(self, players: Sequence[str], options: Mapping[str, str] | None = None,
                 ai: Mapping[str, int] | None = None, dealer: str = "players") -> None:
        """Start a game; ``ai`` names the players the AI plays, with its strength; ``dealer``
        says who deals the secrets (``DEALERS``). An AI seat needs its cards known, so a game
        with one has the digital dealer."""
        state = self.game.initial(players, options)  # refuses bad input before touching disk
        options = self.game.check_options(options)
        seats = ai_seats(players, ai or {})
        if dealer not in DEALERS:
            raise BadSetup(Sentence("the dealer is one of {dealers}, not {given}",
                                    {"dealers": ", ".join(DEALERS), "given": repr(dealer)}))
        digital = bool(seats and self.game.secrets) or not self.game.players_can_deal(options)
        chosen: Dealer = "digital" if digital else dealer  # type: ignore[assignment]
        self.game_id = self.journal.start(self.game.id, list(players), options, seats,
                                          self.game.revision, chosen)
        try:
            self._begin(tuple(players), options, state, seats)
        except JournalError:  # its seats could not be kept: no half-started game
            with contextlib.suppress(JournalError):
                self.journal.end(self.game_id, "aborted")
            self.game_id = None
            self.history.clear()
            raise
        self.dealer = chosen
        names = [f"{name} (AI)" if seat in seats else name for seat, name in enumerate(players)]
        self.log("game", Sentence("new game of {game}: {players}",
                                  {"game": Sentence(self.game.name),
                                   "players": ", ".join(names)}))
        if chosen != dealer:
            self.log("game", Sentence("the table deals the secrets (an AI seat, these options "
                                      "or this game need it)"))
        self._draw_hidden_chance()
        self.decision = self._unseen_choice()

    def resume(self, stored: StoredGame) -> None:
        """Replay a journalled game (after a restart or a power cut), under the rules it was
        started with (an upgrade in between does not change a game under way)."""
        options = self.game.options_at(stored.options, stored.revision)
        state = self.game.initial(stored.players, options)
        self.game_id = stored.id
        self._begin(stored.players, options, state, stored.ai)
        self.dealer = "digital" if stored.dealer == "digital" else "players"
        self.reveals = list(stored.reveals)
        self._dealt = dict(stored.taken_back)
        actions: Sequence[str] = stored.actions
        if UNRESOLVED in actions:
            found, cost = search_dealings(self.game, state, actions, reveals=self.reveals,
                                          prefer=stored.guesses or None,
                                          rng=random.Random(stored.id), budget=RESUME_BUDGET)
            self.searches.keep([cost])
            if found is None:
                raise NoGameRunning(Sentence("game {game}: no way of dealing explains its "
                                             "unseen draws within the search budget",
                                             {"game": str(stored.id)}))
            actions = found.actions
        for action, known in zip(actions, stored.actions, strict=True):
            self._advance(action, self.game.apply(self.state, action), known)
        self.pads.choice = stored.shown  # still on the choice site: waited for to come off
        self.log("game", Sentence("resumed after {count} actions",
                                  {"count": str(len(stored.actions))}))
        self._draw_hidden_chance()
        self.decision = self._unseen_choice()

    def _begin(self, players: tuple[str, ...], options: dict[str, str], state: Any,
               ai: Mapping[int, int]) -> None:
        self.players, self.options = players, options
        self._open_seats()
        self.book.reset(ai)
        self.history.start(state)
        self._left_the_position()
        self.reveals, self.service_draws = [], 0
        self.pads.clear()
        self._dealt = {}
        self.searches.begin()

    def _left_the_position(self) -> None:
        """A step taken or taken back, or a game begun or ended: what was judged at the old
        position goes. (The caches of what a position allows, ``_successors`` and the like,
        are kept with the state they were made for and renew when it is another.)"""
        self.searches.forget()
        self.provisional.step = None
        self.decision = NoChange()

    @property
    def states(self) -> list[Any]:
        return self.history.states

    @property
    def actions(self) -> list[str]:
        """The game's actions so far, as the table knows them (as in the journal): ``?`` for
        a draw it did not see."""
        return self.history.known

    @property
    def unseen(self) -> int:
        """Draws the table did not see (still open, or narrowed by what was shown since)."""
        return self.history.known.count(UNRESOLVED)

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
        """Every legal step from here, made once per position (the state itself is the key:
        a reader between two judgements may have made them for the position before)."""
        if self._successors is None or self._successors.state is not self.state:
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
    def observe(self, board: Mapping[str, str], early: bool = False,
                window: tuple[float, float] | None = None) -> Decision:
        """Judge a settled board; accept what it shows, as many steps as it shows. ``early``:
        the board has not been still for the settle time yet, so a step taken stays
        ``provisional`` (the hand may go on to a bigger step that begins with it); ``window``:
        the board's last change and when such a step stands (``Provisional``)."""
        self.last_board = dict(board)
        amendable, self.provisional.step = self.provisional.step, None
        if not self.started:
            self.decision = NoChange()
        elif self.game.is_terminal(self.state):  # only secrets shown for the final score
            try:
                self.decision = self._secrets_laid(board)[1] or NoChange()
            except JournalError as error:
                self.decision = self._not_recorded(board, error)
        elif self._held_board is not None and dict(board) == self._held_board and (
                board != self.expected_board):  # after an undo: not read until it changes
            self.decision = guidance(self.expected_board, board)
        else:
            self._held_board = None
            self._observe_play(board, amendable, early)
            if window is not None:
                self.provisional.judged_at(*window)
        return self.decision

    def _observe_play(self, board: Mapping[str, str], amendable: Provisional | None,
                      early: bool) -> None:
        """``observe`` during play: secrets and choices laid on their pads, then the steps the
        board shows (from before a provisional step, if the hand went on), then what a search
        for another dealing answered or is asked."""
        self.searches.asked = None
        dealt, dealt_before = self.service_draws, None
        before = len(self.actions)
        try:
            self._draw_hidden_chance()  # one the journal could not record before
            board, shown = self._secrets_laid(board)
            board = self._choice_shown(board)
            before = len(self.actions)
            decision = self._judge(board)
            if amendable is not None and len(self.actions) == before and not isinstance(
                    decision, NoChange | Choose) and self._amend(board, amendable):
                before, decision = amendable.start, self._judge(board)
            at = self._position()
            search = self.searches.ask(at, board, decision)
            if search is not None and (answer := self.searches.early_found(at, board)) is not None:
                dealt_before = self.provisional.dealing_to(before)
                self.searched(search, answer, ())  # the early search found it: no search again
                decision, search = self._judge(board), None
            self.searches.asked = search  # the likely verdict stands while it runs
            if type(decision) is Discrepancy and self.searches.gave_up_here:
                decision = dataclasses.replace(decision, why=CONFIRM_TO_LOOK_FURTHER)
        except JournalError as error:  # the journal is written first: nothing has moved on
            decision, shown = self._not_recorded(board, error), None
            if amendable is not None and len(self.actions) > amendable.start:
                self.provisional.step = amendable  # an amend the journal refused: asked again
        if shown is not None and isinstance(decision, NoChange):
            decision = shown
        if isinstance(decision, NoChange):
            decision = self._unseen_choice()
        if decision != self.decision:
            self._report(decision)
        self.decision = decision
        self._judged = frozenset(board.items())
        if early and len(self.actions) > before and self.service_draws == dealt and (
                not self.game.is_terminal(self.state)) and (  # a card shown on a phone stays
                self.game.actor(self.states[before]) not in self.ai):  # the AI's move is its
            self.provisional.step = Provisional(before, dealing_before=dealt_before)
        elif len(self.actions) == before and isinstance(decision, NoChange) and (
                amendable is not None and amendable.start < before):  # the step as it was
            self.provisional.step = amendable  # (a fidget)

    def _amend(self, board: Mapping[str, str], step: Provisional) -> bool:
        """The provisional step was the beginning of a bigger one, which the hand finished
        before it had been still for the settle time: take it back (with the secret draws
        that followed it), so that the board is judged from the position before it, under the
        dealing that makes the bigger step legal."""
        dealing = self.provisional.amendment(board, step)
        if dealing is None:
            return False
        start = step.start
        taken = self._public(self.actions[start], start)
        self._take_back(len(self.actions) - start)
        self._adopt(dealing)
        self.provisional.amended += 1
        self.log("move", Sentence("{action}: the hand was not done yet, judged again",
                                  {"action": taken}))
        return True

    def _not_recorded(self, board: Mapping[str, str], error: JournalError) -> NotRecorded:
        """A step the journal could not record (its disk full, say) is refused: lit as wrong,
        with what to do, until a later judgement (the next board, the service's retry) records
        and takes it."""
        return NotRecorded(guidance(self.expected_board, board).wrong,
                           why=error.sentence or str(error))

    def not_recorded(self, error: JournalError) -> None:
        """The last board judged shows what the journal could not record (a dealing found
        off the loop, say): refused until judged again."""
        self.decision = self._not_recorded(self.last_board, error)

    def _judge(self, board: Mapping[str, str]) -> Decision:
        for _ in range(64):  # a table a few steps ahead: accept them one by one
            decision = decide(self.successors, board, self.history.earlier_boards(MAX_TAKE_BACK))
            if not isinstance(decision, Accept):
                return decision
            self._accept(decision.successor.action, decision.successor.state, "table")
        return NoChange()  # pragma: no cover - only a game whose actions never change the board

    # -- what the table did not see --------------------------------------------------------
    def _adopt(self, found: Resolution) -> None:
        """Another resolution of the unseen draws explains the table: work from it."""
        if list(found.actions) != self.history.actions:
            assert self.game_id is not None
            self.journal.keep_guesses(self.game_id, [
                guess if known == UNRESOLVED else None
                for guess, known in zip(found.actions, self.history.known, strict=True)])
            self.history.rebase(found.actions, found.states)  # new states: caches renew

    @property
    def search_asked(self) -> Search | None:
        """A board waiting for a search for another dealing (``Searches.asked``)."""
        return self.searches.asked

    def _position(self) -> Position:
        return Position(self.state, self.successors, tuple(self.reveals), self._seed())

    def early_search(self, board: Mapping[str, str]) -> EarlySearch | None:
        """What an early search at ``board`` needs, if one may help (``Searches.early``)."""
        return self.searches.early(self._position(), board) if self.started else None

    def early_searched(self, early: EarlySearch, found: Resolution | None) -> None:
        """Keep an early search's answer while the table is where it was asked."""
        if self.started:
            self.searches.early_answer(early, self.state, found)

    def early_search_found(self, board: Mapping[str, str]) -> bool:
        """Did an early search find another dealing of the player on turn's unseen draws under
        which ``board`` is exactly one legal step? The service then judges a card the working
        guess had set aside as soon as any other step, not after the whole settle time."""
        return self.started and self.searches.early_found(self._position(), board) is not None

    def searched(self, search: Search, found: Resolution | None, costs: Sequence[SearchCost],
                 stopped: bool = False) -> bool:
        """Take a search's answer, if the table is still where it was asked; True if it is
        (judge the board again then)."""
        at = self._position() if self.started else None
        if not self.searches.answered(search, found, costs, stopped, at):
            return False
        if found is not None:
            if isinstance(self.decision, Discrepancy) and self._judged == search.seen.board:
                self.log("move", Sentence("a way of dealing the box explains the board after "
                                          "all: the red light is withdrawn"))
            self._adopt(found)
        return True

    def search_now(self) -> None:
        """Run the search the last judgement asked, here, and judge the board again with its
        answer: what the service's worker does off its loop, on one thread (the box players
        of the benches and the club's quick tables, tests)."""
        for _ in range(8):  # a search answered is not asked again: two or three at most
            search = self.search_asked
            if search is None or not self.searched(search, *search.run()):
                return
            self.observe(self.last_board)

    @property
    def may_look_further(self) -> bool:
        """The searches gave up on the board now on the table (refused, or read as a step
        under way): confirm searches longer."""
        return (self.searches.gave_up_here and self.search_asked is None
                and isinstance(self.decision, (Discrepancy, InProgress)))

    def pending_reveals(self) -> list[tuple[int, int]]:
        """(step, seat) of secrets the score waits for, oldest first: the table asks for the
        first. Only when players deal: the digital dealer knows every secret."""
        if self.dealer != "players" or not self.started:
            return []
        # The state itself, not the count of actions: an amend or a new working dealing
        # changes the states at the same length, and a reader between two judgements (the
        # status page, the club link) must not keep the old answer for the new states.
        reveals = tuple(self.reveals)
        if (self._pending is None or self._pending[0] is not self.state
                or self._pending[1] != reveals):
            self._pending = (self.state, reveals,
                             secrets_owed(self.game, self.states, self.reveals))
        return self._pending[2]

    @property
    def score_known(self) -> bool:
        """False while the score waits for secrets to be shown (never guessed)."""
        return not self.pending_reveals()

    def _secrets_laid(self, board: Mapping[str, str]
                      ) -> tuple[Mapping[str, str], SecretShown | Discrepancy | None]:
        """Pieces on the reveal site while the score waits for secrets: judged as the first
        pending seat's secrets, and left out of the board the referee judges."""
        laid = self.pads.on_reveal_site(board, self.expected_board)
        if laid is None:
            return board, None
        pieces = laid.pieces
        if laid.taken_in:  # shown and recorded: waiting for them to be taken off
            return laid.rest, SecretShown(self.reveals[-1].seat, pieces, complete=True)
        pending = self.pending_reveals()
        if not pending or not isinstance(decide(self.successors, board), Discrepancy):
            return board, None  # nothing asked for, or a legal step uses that site
        step, seat = pending[0]
        wanted = len(self.game.revealed_pieces(self.states[step], seat))
        if len(pieces) < wanted:
            return laid.rest, SecretShown(seat, pieces, complete=False)
        reveal = Reveal(step, seat, pieces)
        found = None if len(pieces) > wanted else self.searches.explain_reveals(
            [*self.reveals, reveal], self._seed())
        if found is None:
            name = self.players[seat]
            why = Sentence("{piece} cannot be {player}'s: no way the box could have been "
                           "dealt gives {player} that",
                           {"piece": piece_namer(self.game)(laid.value), "player": name})
            return laid.rest, Discrepancy((WrongSite(laid.site, None, laid.value),), why=why)
        self._adopt(found)
        assert self.game_id is not None
        self.journal.reveal(self.game_id, reveal)
        self.reveals.append(reveal)
        self.pads.secrets = pieces
        self.log("reveal", Sentence("{player} showed {pieces}",
                                    {"player": self.players[seat],
                                     "pieces": listing([piece_namer(self.game)(piece)
                                                        for piece in pieces])}))
        if self.game.is_terminal(self.state) and self.score_known:
            self._log_end()
        return laid.rest, SecretShown(seat, pieces, complete=True)

    def _choice_shown(self, board: Mapping[str, str]) -> Mapping[str, str]:
        """A piece laid on the game's choice site, at a choice the board cannot show (which
        shape goes back in the box), makes that choice: the players need not use the page. It
        is then left out of the board the referee judges until it is taken off."""
        laid = self.pads.on_choice_site(board, self.expected_board)
        if laid is None:
            return board
        if laid.taken_in:
            return laid.rest  # chosen: waiting for it to be taken off
        action = self.game.choice_pieces(self.state).get(laid.value)
        chosen = next((s for s in self._silent_choices() if s.action == action), None)
        if chosen is None or laid.rest != self.expected_board:
            return board  # judged as it lies: a wrong piece there is a mistake
        self._accept(chosen.action, chosen.state, "shown", laid.value)
        self.pads.choice = laid.value
        return laid.rest

    def _silent_choices(self) -> list[Successor]:
        """The choices a piece on the choice site may make now: the silent steps (only the
        AI's own, on an AI seat's turn), when there is no other kind of step."""
        if not self.started or self.game.is_terminal(self.state):
            return []
        successors = self.successors
        return [] if successors.chance or successors.changing else list(successors.silent)

    def board_to_judge(self, board: Mapping[str, str]) -> Mapping[str, str]:
        """``board`` without the pieces the table waits to see taken off, changing nothing."""
        return self.pads.to_judge(board, self.expected_board)

    def _unseen_choice(self) -> Decision:
        """A player's decision the table cannot see (every legal action leaves the board as it
        is, and there are several: which shape to put back in the box, say) is a choice on the
        page; confirm takes the first. One such action alone is the confirm button's."""
        silent = self._silent_choices()
        return Choose(tuple(silent)) if len(silent) > 1 else NoChange()

    def _report(self, decision: Decision) -> None:
        decision = self.public(decision)
        if isinstance(decision, Discrepancy):
            self.log("wrong", decision.told(piece_namer(self.game), site_namer(self.game)))
        elif isinstance(decision, Choose):
            options = " or ".join(self._public(s.action) for s in decision.successors)
            self.log("choose", Sentence("the table could mean {options}: press confirm to pick",
                                        {"options": options}))
        elif isinstance(decision, TakeBack):
            self.log("undo", Sentence("the table is back {steps} step(s): confirm to undo",
                                      {"steps": str(decision.steps)}))

    # -- accepting ------------------------------------------------------------------------
    def _accept(self, action: str, state: Any, source: str, shown: str | None = None) -> None:
        assert self.game_id is not None
        known = UNRESOLVED if source == "unseen" else action
        self.journal.append(self.game_id, known,  # committed before anything shows it
                            action if source == "unseen" else None, shown)
        self._advance(action, state, known)
        if source == "chance":  # a secret: the public log says only that it happened
            self.service_draws += 1
            self.log("deal", Sentence("the table dealt a secret card"))
        elif source == "unseen":
            self.log("deal", Sentence("a secret draw from the box (the table learns it when "
                                      "it is played or shown)"))
        else:
            # the engine's sentence names who acts (``Game.action_sentence``: "anna: ...")
            self.log("move", self.game.action_sentence(self.states[-2], action))
        try:
            self._draw_hidden_chance()
        except JournalError as error:  # this move is recorded; the draw is made at the next look
            self.log("journal", Sentence("a secret draw is not recorded yet: {error}",
                                         {"error": error.sentence or str(error)}))
        self.decision = self._unseen_choice()
        if self.game.is_terminal(self.state):
            try:
                self.journal.end(self.game_id)
            except JournalError as error:  # every move is recorded: a restart replays to the end
                self.log("journal", Sentence("the game's end is not recorded: {error}",
                                             {"error": error.sentence or str(error)}))
            if self.score_known:
                self._log_end()
            else:
                self.log("end", Sentence("game over: the score waits for the secrets to be "
                                         "shown"))

    def _log_end(self) -> None:
        winners = [self.players[seat] for seat in self.game.winners(self.state)]
        self.log("end", Sentence("game over; {players} won", {"players": listing(winners)}))

    def _advance(self, action: str, state: Any, known: str | None = None) -> None:
        self.history.push(action, state, known)
        self._left_the_position()

    def _draw_hidden_chance(self) -> None:
        """A draw the table cannot see: the digital dealer draws it here (shown only on the
        owner's phone); when players draw from the box it is written down as ``?``, with an
        outcome in the working resolution that nobody may take for knowledge."""
        while self.game.actor(self.state) == CHANCE and self.successors.hidden_chance:
            action = self._dealt.get(len(self.actions), "")
            if action not in self.game.legal_actions(self.state):
                action = self.game.sample_chance(self.state, self.rng)
            source = "chance" if self.dealer == "digital" else "unseen"
            self._accept(action, self.game.apply(self.state, action), source)

    # -- players' inputs (buttons and the page) --------------------------------------------
    def confirm(self) -> str | Sentence:
        """The confirm button: take back, pick the first reading, or do a silent action."""
        self._require_game()
        if isinstance(self.decision, TakeBack):
            return self._drop(self.history.actions_back(self.decision.steps))
        if isinstance(self.decision, Choose):
            return self.choose(0)
        if self.may_look_further:  # before a silent action: the board shows a step
            self.searches.insist()
            self.observe(self.last_board)  # asks the patient search
            return LOOKING_FURTHER
        silent = self.successors.silent if self.started else []
        if len(silent) == 1 and not self.successors.chance:
            text = self._public(silent[0].action)  # the reply shows on the shared page
            self._accept(silent[0].action, silent[0].state, "button")
            return text
        raise NothingToConfirm(Sentence("nothing is waiting for a confirmation"))

    def choose(self, index: int) -> str:
        self._require_game()
        if not isinstance(self.decision, Choose):
            raise NothingToConfirm(Sentence("there is no choice to make"))
        if not 0 <= index < len(self.decision.successors):
            raise NothingToConfirm(Sentence("pick a number from 0 to {last}",
                                            {"last": str(len(self.decision.successors) - 1)}))
        chosen = self.decision.successors[index]
        text = self._public(chosen.action)  # the reply shows on the shared page
        self._accept(chosen.action, chosen.state, "choice")
        return text

    def undo(self, steps: int = 1) -> str:
        """Take back ``steps`` visible steps (with the secret draws that followed them)."""
        self._require_game()
        return self._drop(self.history.actions_in_steps(steps))

    def _drop(self, actions: int) -> str:
        if self.game_id is None or actions < 1 or actions > len(self.actions):
            raise NothingToConfirm(Sentence("there is nothing to take back"))
        first = len(self.actions) - actions
        named = [self._public(self.history.known[index], index)
                 for index in range(first, len(self.actions))
                 if self.history.known[index] != UNRESOLVED
                 and not self.history.is_hidden_chance_step(index)]
        self._take_back(actions)
        self._held_board = dict(self.last_board)
        self.log("undo", Sentence("took back {actions}", {"actions": ", ".join(reversed(named))})
                 if named else Sentence("took back a secret draw"))
        return named[0] if named else "a secret draw"

    def _take_back(self, actions: int) -> None:
        assert self.game_id is not None
        first = len(self.actions) - actions
        self.journal.take_back(self.game_id, actions)
        self._dealt.update(enumerate(self.history.actions[first:], start=first))
        self.searches.taken_back(first)
        self.history.drop(actions)
        self.reveals = [reveal for reveal in self.reveals if reveal.step < len(self.actions)]
        self._left_the_position()

    def _public(self, action: str, index: int | None = None) -> str:
        """Action ``index`` (by default: one from the current state) as everyone may read it."""
        state = self.state if index is None else self.states[index]
        return self.game.public_action(state, action)

    # -- what everyone may see -----------------------------------------------------------------
    def hidden_sites(self) -> frozenset[str]:
        """Sites whose piece the public table is not told: face down now, or once a step
        that may come next is made (a tile being laid face down)."""
        if not self.started:
            return frozenset()
        if self._hidden is None or self._hidden[0] is not self.state:
            self._hidden = (self.state, secrecy.hidden_sites(self.game, self.state,
                                                             self.all_successors))
        return self._hidden[1]

    def public_board(self, board: Mapping[str, str]) -> dict[str, str]:
        """A board (observed or expected) as everyone may see it."""
        return face_down_board(board, self.hidden_sites())

    @property
    def public_decision(self) -> Decision:
        """The decision as the page, the LEDs and the log show it (``public``)."""
        return self.public(self.decision)

    def public(self, decision: Decision) -> Decision:
        """``decision`` with no face-down piece named, and a step under way lit as widely
        as the legal sites when the hand is secret."""
        if not self.started:
            return decision
        legal_public = self.public_legal() is not None
        return secrecy.public_decision(decision, self.game, self.state, self.hidden_sites(),
                                       legal_public,
                                       self.legal_sites() if not legal_public else set())

    def public_legal(self) -> list[str] | None:
        """The legal actions, unless they would show a secret hand (then None)."""
        if self._public_legal is None or self._public_legal[0] is not self.state:
            self._public_legal = (self.state, secrecy.public_legal_actions(
                self.game, self.state, self.successors, len(self.actions)))
        return self._public_legal[1]

    def led_roles(self) -> dict[str, str]:
        """The role of every lit site (lighting.py) for the decision everyone may see."""
        if not self.started:
            return {}
        roles = lighting.plan(self.public_decision, self.successors, self.legal_sites(),
                              self.advice_sites())
        for site in self.open_pads():
            # lay the secrets the score waits for here; a piece laid here makes the choice
            roles[site] = "legal" if site == self.game.reveal_site else "choice"
        return roles

    def open_pads(self) -> set[str]:
        """The pads that take pieces in now: the reveal site while the score waits for
        secrets, the choice site while a piece laid there makes the choice the page offers."""
        pads = set()
        site = self.game.reveal_site
        if site is not None and self.pending_reveals():
            pads.add(site)
        site = self.game.choice_site
        made = set(self.game.choice_pieces(self.state).values()) if site is not None else set()
        if site is not None and made & {s.action for s in self._silent_choices()}:
            pads.add(site)
        return pads

    def legal_sites(self) -> set[str]:
        """Sites some legal step could change, lit for everyone (a secret hand stays secret)."""
        key = (len(self.actions), self.state, self.current_advice())
        if self._legal_sites is None or self._legal_sites[0] != key:
            sites = secrecy.legal_sites(self.game, self.state, self.successors, len(self.actions),
                                        hand_known=self.successors.actor in self.ai)
            self._legal_sites = (key, sites)
        return self._legal_sites[1]

    # -- the AI: its seats' moves and hints ------------------------------------------------
    def request_hint(self) -> Sentence:
        """The hint button: ask the AI for the move of the player on turn."""
        self._require_game()
        return self.book.ask_hint(self.state, self.players)

    def private_hint_request(self, seat: int, token: str) -> AdviceRequest:
        """A hint for one phone only: nothing is lit, logged or shown to the table."""
        self.private_view(seat, token)  # raises SeatNotHeld for a phone without the seat
        return self._weighing_unseen(self.book.private_hint_request(
            self.state, self.players, seat, self.options, self._seed()))

    def unseen_hint_request(self) -> AdviceRequest:
        """A hint for the person on turn that nobody is shown (the simulator's "do the next
        step for me" plays it): nothing is lit or logged, a hidden hand stays hidden."""
        self._require_game()
        seat = self.book.seat_for_a_hint(self.state, self.players)
        return self._weighing_unseen(self.book.private_hint_request(
            self.state, self.players, seat, self.options, self._seed()))

    def _seed(self) -> int:
        return (self.game_id or 0) * 1_000_003 + len(self.actions)

    def advice_request(self) -> AdviceRequest | None:
        """What the AI should think about now, if anything (the service runs it off-loop)."""
        if not self.started:
            return None
        request = self.book.request(self.state, self.options, self._seed())
        return None if request is None else self._weighing_unseen(request)

    def _weighing_unseen(self, request: AdviceRequest) -> AdviceRequest:
        """A hint in a game with draws the table did not see weighs the states it may be in
        (``AdviceRequest.unseen``), not the working guess: the table knows no one's secrets."""
        known = self.history.known
        if request.kind != "hint" or UNRESOLVED not in known:
            return request
        return dataclasses.replace(request, unseen=UnseenDraws(
            self.states[0], tuple(known), tuple(self.reveals)))

    def receive_advice(self, request: AdviceRequest, action: str, values: Mapping[str, float],
                       seconds: float, simulations: int) -> bool:
        """Keep the AI's answer if the table is still where it was asked; False if it moved on."""
        if not self.started or not self.book.receive(self.state, request, action, values,
                                                     seconds, simulations):
            return False
        who = self.players[request.seat]
        if request.kind == "ai":
            self.log("ai", Sentence("{player} (AI) plays {action}: please make this move for "
                                    "them", {"player": who, "action": action}))
        else:
            self.log("hint", Sentence("hint for {player}: {action}",
                                      {"player": who, "action": action}))
        return True

    def current_advice(self) -> Advice | None:
        return self.book.current(self.state) if self.started else None

    def advice_sites(self) -> set[str]:
        """The sites the advised move changes (lit in the advice colour)."""
        return self.book.sites(self.state, self.all_successors) if self.started else set()

    # -- private views: each player's phone -------------------------------------------------
    def claim_seat(self, seat: int, code: str, held: str | None = None) -> str:
        """A secret token for the phone that gives this seat's code (``held``: the token the
        phone already has, if any: one phone holds one seat). Enough wrong codes give the
        seat a new one, so that nobody guesses it."""
        self._require_game()
        try:
            token, record = self.seats.claim(seat, code, self.players, held)
        except WrongSeatCode:
            if self.seats.renew_due(seat):
                self._keep_seats([self.seats.renew(seat)])
                self.log("seat", Sentence("{player}'s seat has a new code after {count} wrong "
                                          "ones (the table's owner sees it)",
                                          {"player": self.players[seat],
                                           "count": str(MAX_WRONG_CODES)}))
            raise
        self._keep_seats([record])  # journalled before the phone has its token
        self.log("seat", Sentence("{player} joined on a phone", {"player": self.players[seat]}))
        return token

    def seat_codes(self) -> list[SeatRecord]:
        """Each seat's code and whether a phone holds it: for the table's owner only."""
        self._require_game()
        return self.seats.records()

    def release_seat(self, seat: int) -> None:
        """Free one seat, with a new code (the phone that held it must ask again)."""
        self._require_game()
        self._keep_seats([self.seats.release(seat)])
        self.log("seat", Sentence("{player}'s seat released", {"player": self.players[seat]}))

    def _open_seats(self) -> None:
        """The seats of the game just started or resumed: the journal's codes and claims
        (a restart keeps them), a new code for every other seat."""
        assert self.game_id is not None
        fresh = self.seats.open(len(self.players), self.journal.seats(self.game_id))
        if fresh:
            self.journal.keep_seats(self.game_id, fresh)

    def _keep_seats(self, records: list[SeatRecord]) -> None:
        """A change of seats: into the journal first, then in force."""
        assert self.game_id is not None
        self.journal.keep_seats(self.game_id, records)
        self.seats.keep(records)

    def private_view(self, seat: int, token: str) -> dict[str, Any]:
        """The seat's view; while draws the table did not see are open, it knows no more of
        the seat's secrets than anyone: the public view (its working guess is no knowledge)."""
        self._require_game()
        self.seats.check(seat, token)
        return self.game.view(self.state, None if self.unseen else seat)

    def release_seats(self) -> None:
        """Free every seat, each with a new code."""
        self._require_game()
        self._keep_seats(self.seats.release_all())
        self.log("seat", Sentence("all seats released"))

    def _require_game(self) -> None:
        if not self.started:
            raise NoGameRunning(Sentence("no game is running"))

    def abort(self) -> None:
        """End the running game as aborted; it stays in the journal."""
        if self.game_id is None or not self.started:
            raise NoGameRunning(Sentence("no game is running"))
        self.journal.end(self.game_id, "aborted")
        self.log("game", Sentence("game aborted"))
        self.history.clear()
        self.game_id = None
        self._left_the_position()

    def rematch_setup(self) -> tuple[list[str], dict[str, str], dict[str, int], Dealer]:
        """The last game's players, options, AI seats (name to strength) and dealer, for a
        rematch. Refused while that game is still being played: a rematch must not end it."""
        if not self.players:
            raise NoGameRunning(Sentence("no game has been played here yet: start one with its "
                                         "players"))
        if self.started and not self.game.is_terminal(self.state):
            raise NothingToConfirm(Sentence("the game is still running: finish it, or abort it "
                                            "first"))
        ai = {self.players[seat]: strength for seat, strength in self.ai.items()}
        return list(self.players), dict(self.options), ai, self.dealer

    def log(self, kind: str, message: Sentence | str) -> None:
        """An event for the page's list: a Sentence is rendered in each reader's language, a
        str (a text from outside, a hub's words) is shown as written."""
        self.events.append(report.Logged(kind, message))
        del self.events[:-50]
        self.logged += 1

    # -- status for the page and the API ----------------------------------------------------
    def status(self, catalogue: Catalogue = ENGLISH) -> report.GameStatus:
        """The game's side of the status, its texts in the catalogue's language."""
        return report.game_status(self, catalogue)

