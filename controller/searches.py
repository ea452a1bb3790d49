"""One table's searches for another dealing of the draws it did not see: when to ask one, what
they answered at this position, and the cheap filters that keep them off plain mistakes.

The search itself is ``unresolved`` (pure, run off the service's loop). This is its
bookkeeping, apart from the game and its journal: it reads the positions (``History``) and,
at each judgement, what the referee may accept there (``Position``); what an answer changes
(the working dealing, the journal's guesses, the log) stays the ``Table``'s.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from games.core.game import Game

from .history import MAX_TAKE_BACK, History
from .referee import (
    Decision,
    Discrepancy,
    InProgress,
    Successors,
    TakeBack,
    decide,
    piece_kinds,
)
from .unresolved import (
    UNRESOLVED,
    EarlySearch,
    Resolution,
    Reveal,
    Search,
    SearchCost,
    Seen,
    owners,
    search_dealings,
    worth_patience,
)

HANDS_SAMPLED = 8
"""Other dealings of the hand on turn whose legal steps are looked at, at a position where a
change of a kind no step has made is seen (``Searches.a_hand_could_show``; the kinds they show
are kept for the rest of the game)."""
COSTS_KEPT = 50


@dataclass(frozen=True, slots=True)
class Position:
    """What the searches read of the table at one judgement."""

    state: Any
    successors: Successors
    """What the referee may accept here (on an AI seat's turn, only the AI's move)."""
    reveals: tuple[Reveal, ...]
    seed: int
    """For the searches' and the samples' random choices: the same at the same position."""


class Searches:
    def __init__(self, game: Game[Any], history: History) -> None:
        self.game, self.history = game, history
        self.asked: Search | None = None
        """A board waiting for a search: a judgement never runs one. The service's worker runs
        it off the loop and hands the answer to ``Table.searched``; a caller on one thread
        runs it with ``Table.search_now``."""
        self.costs: list[SearchCost] = []
        """The last searches' costs (``bench referee-search``)."""
        self._unexplained: set[Any] = set()
        """The searches that found nothing at this position (not asked again)."""
        self._insist: dict[Seen, Search] = {}
        """The boards the searches gave up on at this position (not ones they proved wrong):
        confirm asks for a patient search while one lies on the table, the player vouching
        for the step."""
        self._patient: Search | None = None
        """That patient search, while the board stays as it was."""
        self._here: Seen | None = None
        """The position and board last judged."""
        self._early_answered: EarlySearch | None = None
        """The last early search that answered (``early_answer``) ..."""
        self._early_dealing: Resolution | None = None
        """... and the dealing it found (None: none)."""
        self._owners: list[frozenset[int]] = []
        """Who saw each unseen draw that may decide play (``draws_seen_by``), by action."""
        self._limiting: tuple[Any, bool] | None = None
        self._made: tuple[Any, set[Any], bool] | None = None
        """The kinds of change this game's steps have made, or could make under some dealing,
        so far, and whether other dealings were sampled at this position
        (``a_hand_could_show``)."""

    def begin(self) -> None:
        """A game begun or resumed: nothing learnt of another game holds."""
        self._owners, self._made = [], None
        self.forget()

    def forget(self) -> None:
        """A step taken or taken back: what the searches found out at the old position goes."""
        self._unexplained.clear()
        self._insist, self._patient = {}, None

    def taken_back(self, first: int) -> None:
        """Actions from ``first`` on are taken back: who saw their draws is asked again."""
        del self._owners[first:]

    def keep(self, costs: Sequence[SearchCost]) -> None:
        self.costs.extend(costs)
        del self.costs[:-COSTS_KEPT]

    def working(self) -> Resolution:
        return Resolution(tuple(self.history.actions), tuple(self.history.states))

    # -- asking ------------------------------------------------------------------------------
    def ask(self, at: Position, board: Mapping[str, str], decision: Decision) -> Search | None:
        """What the table cannot explain now, if a search might: only with unseen draws, and
        once per board and position (and once more, patiently, when a player confirms it)."""
        here = self._here = Seen(len(self.history.known), len(at.reveals),
                                 frozenset(board.items()))
        if self._patient is not None and self._patient.seen != here:
            self._patient = None  # the board changed: the patient search stops (``wants``)
        if self._patient is not None and self._patient.key not in self._unexplained:
            return self._patient
        if not isinstance(decision, (Discrepancy, InProgress, TakeBack)) or not (
                self.unseen_limits_play(at.state)) or not self.a_hand_could_show(at, board):
            return None  # no dealing can matter, or no hand makes such a change
        search = Search(self.game, tuple(self.history.known), at.reveals, self.working(),
                        dict(board), tuple(self.history.earlier_boards(MAX_TAKE_BACK)),
                        not isinstance(decision, Discrepancy),
                        self.draws_seen_by(self.game.actor(at.state)), at.seed)
        return None if search.key in self._unexplained else search

    def early(self, at: Position, board: Mapping[str, str]) -> EarlySearch | None:
        """What an early search at ``board`` needs, if one may help and none was taken for it
        yet: some unseen draws are the player on turn's, and the working guess reads the board
        as a mistake, or as a step under way with a piece laid (a trapper moved and the pad
        showing the colour it showed: a joker pair begun, under a guess that gave that player
        no card of the trapper's colour; another dealing may make it a whole step, taken
        provisionally)."""
        if not self.unseen_limits_play(at.state) or self.game.is_terminal(at.state):
            return None
        seen = frozenset(board.items())
        answered = self._early_answered
        if answered is not None and answered.asks(at.state, len(at.reveals), seen):
            return None
        decision = decide(at.successors, board, self.history.earlier_boards(MAX_TAKE_BACK))
        if not isinstance(decision, Discrepancy) and not (isinstance(decision, InProgress) and any(
                board.get(site) is not None for site in decision.active)):
            return None  # a take-back, or pieces only lifted (a hand mid-step): once settled
        actor = self.game.actor(at.state)
        mine = self.draws_seen_by(actor) if actor >= 0 else frozenset()
        if not mine or not self.a_hand_could_show(at, board):
            return None
        return EarlySearch(self.game, at.state, seen, tuple(self.history.known), at.reveals,
                           self.working(), mine, at.seed, isinstance(decision, InProgress))

    def explain_reveals(self, reveals: Sequence[Reveal], seed: int) -> Resolution | None:
        """A dealing that explains everything seen and the secrets shown, ``reveals``."""
        found, cost = search_dealings(self.game, self.history.states[0], self.history.known,
                                      reveals=reveals, working=self.working(),
                                      rng=random.Random(seed))
        self.keep([cost])
        return found

    # -- answers -----------------------------------------------------------------------------
    def early_answer(self, early: EarlySearch, state: Any, found: Resolution | None) -> None:
        """Keep an early search's answer while the table is where it was asked (``state``)."""
        if early.state is state:
            self._early_answered, self._early_dealing = early, found

    def early_found(self, at: Position, board: Mapping[str, str]) -> Resolution | None:
        """The dealing an early search found under which ``board`` is one legal step."""
        answered = self._early_answered
        if answered is None or not answered.asks(at.state, len(at.reveals),
                                                 frozenset(board.items())):
            return None
        return self._early_dealing

    def answered(self, search: Search, found: Resolution | None, costs: Sequence[SearchCost],
                 stopped: bool, at: Position | None) -> bool:
        """Learn from a search's answer; True if the table (``at``; None: no game) is still
        where it was asked, so that a dealing ``found`` is to be taken. ``stopped``: the search
        was told to stop (its board was judged anew meanwhile, even if it is back now): it
        proved nothing."""
        self.keep(costs)
        if self.asked is not None and self.asked.key == search.key:
            self.asked = None
        if at is None or (len(self.history.known), len(at.reveals)) != (
                search.seen.steps, search.seen.reveals):
            return False
        stopped = stopped or not self.wants(search)  # the board changed: nothing learnt
        if found is None and not stopped:
            self._unexplained.add(search.key)
            if not search.patient and worth_patience(costs) and self.a_hand_could_show(
                    at, search.board):
                self._insist[search.seen] = search
            elif search.patient:  # it looked as far as it may: the board stays refused
                self._insist.pop(search.seen, None)
        if search.patient and not stopped:
            self._patient = None
        return True

    def wants(self, search: Search) -> bool:
        """Is the answer to this search still wanted? Only while its board is the one last
        judged (a wrong piece lifted, a hand going on: the search stops at its next apply),
        and a patient one while the player's confirm stands. Asked from the search's thread."""
        if search.patient:
            return self._patient is search
        return self._here == search.seen

    # -- confirm: looking further ------------------------------------------------------------
    @property
    def gave_up_here(self) -> bool:
        """The searches gave up on the board last judged and no patient search runs: confirm
        may ask one."""
        return self._here in self._insist and self._patient is None

    def insist(self) -> None:
        """The player vouches for the board the searches gave up on: the next judgement asks a
        patient search for it."""
        assert self._here is not None
        self._patient = dataclasses.replace(self._insist[self._here], patient=True)

    # -- the filters -------------------------------------------------------------------------
    def draws_seen_by(self, seat: int) -> frozenset[int]:
        """The unseen draws that went to ``seat`` (into its hand) and may decide what it can
        play (``Game.limits_play``: not a mission card), worked out once each."""
        history, seen = self.history, self._owners
        del seen[len(history.actions):]
        for index in range(len(seen), len(history.actions)):
            state = history.states[index]
            unseen = history.known[index] == UNRESOLVED and self.game.limits_play(state)
            seen.append(owners(self.game, state) if unseen else frozenset())
        return frozenset(index for index, seats in enumerate(seen) if seat in seats)

    def unseen_limits_play(self, state: Any) -> bool:
        """Is there an unseen draw whose outcome may decide what is legal (a card in a hand)?
        Without one no other dealing can make a board legal: nothing is searched."""
        cached = self._limiting
        if cached is None or cached[0] is not state:
            history = self.history
            cached = self._limiting = (state, any(
                step == UNRESOLVED and self.game.limits_play(history.states[index])
                for index, step in enumerate(history.known)))
        return cached[1]

    def a_hand_could_show(self, at: Position, board: Mapping[str, str]) -> bool:
        """Could some hand make ``board`` a step? A cheap filter before any search: each
        change it shows is of a kind this game's steps have made, or a legal step now makes:
        pieces of that kind laid on (or taken off) a site of that family (the first part of its
        name: a card on a pad, a trapper onto a square; never a tiki on a pad). A kind none of
        those made is looked for, only then, among the legal steps under ``HANDS_SAMPLED``
        other dealings of the hand on turn (the first Toast of a game empties a place, which no
        step before it did). The searches decide; this keeps them, and the confirm offer, off
        plain mistakes, whatever hand the player holds. The families are coarse on purpose: a
        finer one (``bank:bonus`` apart from ``bank:species``) would make the first bonus chip
        of a Trapper game a new kind, refused for good if no sampled hand could take it; a
        card on the reveal pad during play is searched for nothing, which costs only time."""
        def change(site: str, value: str | None) -> tuple[str, tuple[str, ...]]:
            return site.split(":")[0], piece_kinds(value)  # coarse on purpose (see above)

        def changes(before: Mapping[str, str], after: Mapping[str, str]) -> set[Any]:
            return {change(site, after.get(site)) for site in before.keys() | after.keys()
                    if before.get(site) != after.get(site)}

        def made_by(successors: Successors) -> set[Any]:
            return set().union(*(changes(successors.board, successor.board)
                                 for successor in successors.changing))

        if self._made is None or self._made[0] is not at.successors:  # an AI seat's too
            boards = [self.game.board(state) for state in self.history.states]
            kept = self._made[1] if self._made is not None else set()  # earlier samples'
            self._made = (at.successors, kept.union(
                *(changes(before, after) for before, after in pairwise(boards)),
                made_by(at.successors)), False)
        shown = changes(self.game.board(at.state), board)
        if shown <= self._made[1] or self._made[2]:
            return shown <= self._made[1]
        actor = self.game.actor(at.state)  # a new kind: might another hand on turn make it?
        if actor >= 0 and self.draws_seen_by(actor):
            rng = random.Random(at.seed)
            self._made[1].update(*(made_by(Successors(self.game, self.game.resample(
                at.state, None, rng))) for _ in range(HANDS_SAMPLED)))
        self._made = (self._made[0], self._made[1], True)
        return shown <= self._made[1]
