"""The referee: what does the settled board say happened? (docs/architecture.md, The walk)

Generic over games: it only compares boards. The successors of every legal action (and every
chance outcome the table can reveal) are computed once per state; a settled board is then
matched against them: exactly one match is accepted, several are asked about, a board on the
way to one or more of them is a step in progress, an earlier position is a take-back request,
and anything else is a discrepancy that names each wrong site.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.game import (
    CHANCE,
    FACE_DOWN,
    PILE_JOIN,
    Game,
    Sentence,
    pile_begins,
    pile_pieces,
)

Board = Mapping[str, str]
Namer = Callable[[str | None], Sentence]
"""A piece's id to its name for people (``named``, or the game's art names)."""
MAX_CHANCE_TWO_STEPS = 64
"""Chance nodes with more outcomes than this are not searched two steps deep (cost)."""


@dataclass(frozen=True, slots=True)
class Successor:
    action: str
    state: Any
    board: dict[str, str]


@dataclass(frozen=True, slots=True)
class NoChange:
    """The table shows the current position."""


@dataclass(frozen=True, slots=True)
class Accept:
    successor: Successor


@dataclass(frozen=True, slots=True)
class Choose:
    """Several legal actions leave the table like this: the players pick one."""

    successors: tuple[Successor, ...]


@dataclass(frozen=True, slots=True)
class InProgress:
    """The table is on the way to these actions; ``targets`` still have to change."""

    successors: tuple[Successor, ...]
    targets: tuple[str, ...]
    active: tuple[str, ...]
    """Sites already changed by the step under way."""


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The table shows the position ``steps`` actions ago: undo, once a player confirms."""

    steps: int


@dataclass(frozen=True, slots=True)
class WrongSite:
    site: str
    expected: str | None
    seen: str | None

    def sentence(self, piece_name: Namer | None = None,
                 site_name: Namer | None = None) -> Sentence:
        """What to do about this site, with the piece and the place as nested names
        (``piece_name``, ``site_name``: the game's names for them; by default ``named``)."""
        name = piece_name or named
        where = (site_name or named)(self.site)
        if self.expected is None:
            return Sentence("take {piece} off {site}", {"piece": name(self.seen), "site": where})
        if self.seen is None:
            return Sentence("put {piece} back on {site}",
                            {"piece": name(self.expected), "site": where})
        if self.seen == self.expected:  # both face down: which one is the secret
            return Sentence("{site} holds another face-down piece than the one that lay there",
                            {"site": where})
        return Sentence("{site} should hold {expected}, not {seen}",
                        {"site": where, "expected": name(self.expected),
                         "seen": name(self.seen)})


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """No legal action explains the table. The game does not change; this says how to fix it.

    ``toward``: for a setup or draw the table shows (a stack built with one group split, say),
    the nearest legal outcome, when it is nearer than the position before; the wrong sites are
    then those that keep the table from it. Otherwise the advice puts the table back.
    """

    wrong: tuple[WrongSite, ...]
    toward: str | None = None
    why: str | Sentence | None = None
    """Why the table cannot be right, when the sites alone do not say (a card no hand holds)."""

    @property
    def message(self) -> str:
        """The advice in English, as one sentence."""
        return capitalised(str(self.sentence))

    @property
    def sentence(self) -> Sentence | str:
        """The advice for a catalogue: every wrong site's, joined; a page capitalises it."""
        return self.told()

    def told(self, piece_name: Namer | None = None,
             site_name: Namer | None = None) -> Sentence | str:
        """``sentence`` with pieces and sites named as the game names them."""
        advice: Sentence | str = ""
        for wrong in reversed(self.wrong):
            said = wrong.sentence(piece_name, site_name)
            advice = said if advice == "" else Sentence("{first}; {rest}",
                                                        {"first": said, "rest": advice})
        if self.toward:
            advice = Sentence("almost {outcome}: {advice}",
                              {"outcome": self.toward, "advice": advice})
        if self.why:
            advice = Sentence("{why}: {advice}", {"why": self.why, "advice": advice})
        return advice


@dataclass(frozen=True, slots=True)
class SecretShown:
    """A seat's secrets lie face up on the reveal site. ``complete``: all of them, recorded
    (take them off); otherwise the table waits for the rest."""

    seat: int
    pieces: tuple[str, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class NotRecorded(Discrepancy):
    """A legal step the journal could not record (its disk full, say): not taken, so the game
    does not move on. A discrepancy for the page and the LEDs (its sites lit as wrong), whose
    message says what to do (``why``: the journal's error); the table judges the board again
    on every change and retry, and takes the step once the journal records it."""

    def told(self, piece_name: Namer | None = None,
             site_name: Namer | None = None) -> Sentence | str:
        return Sentence("This move is not recorded: {why}. Leave it on the table: it is taken "
                        "as soon as the journal can record it",
                        {"why": self.why or Sentence("the journal cannot record it")})


Decision = NoChange | Accept | Choose | InProgress | TakeBack | Discrepancy | SecretShown


def capitalised(text: str) -> str:
    """A message standing alone begins with a capital, in any language."""
    return text[:1].upper() + text[1:]


def named(name: str | None) -> Sentence:
    """A piece or a site by its id, readably (``grid:2:3`` -> "grid 2:3", a pile piece by
    piece): the kind is a msgid the game's catalogue may translate ("swan" -> "Schwan");
    numbers and coordinates stay as they are."""
    if name is None:
        return Sentence("nothing")
    if name == FACE_DOWN:
        return Sentence("a face-down piece")
    if PILE_JOIN in name:
        below, _, above = name.partition(PILE_JOIN)
        return Sentence("{below} / {above}", {"below": named(below), "above": named(above)})
    kind, _, rest = name.partition(":")
    if not rest:
        return Sentence(kind)
    return Sentence("{kind} {rest}", {"kind": Sentence(kind), "rest": rest})


class Successors:
    """Every successor of one state, indexed by the board it leaves on the table."""

    def __init__(self, game: Game[Any], state: Any) -> None:
        self.game = game
        self.state = state
        self.board = game.board(state)
        self.actor = game.actor(state)
        self.chance = self.actor == CHANCE
        self.changing: list[Successor] = []
        self.silent: list[Successor] = []
        self._by_board: dict[frozenset[tuple[str, str]], list[Successor]] = {}
        for action in game.legal_actions(state):
            after = game.apply(state, action)
            successor = Successor(action, after, game.board(after))
            if successor.board == self.board:
                self.silent.append(successor)
            else:
                self.changing.append(successor)
                key = frozenset(successor.board.items())
                self._by_board.setdefault(key, []).append(successor)

    def only(self, actions: Collection[str]) -> Successors:
        """The same position with only these actions allowed (an AI seat's chosen move)."""
        kept = copy.copy(self)
        kept.changing = [s for s in self.changing if s.action in actions]
        kept.silent = [s for s in self.silent if s.action in actions]
        kept._by_board = {}
        for successor in kept.changing:
            kept._by_board.setdefault(frozenset(successor.board.items()), []).append(successor)
        return kept

    @property
    def hidden_chance(self) -> bool:
        """A chance node the table cannot see (a secret deal): the service must draw it."""
        return self.chance and not self.changing

    def matching(self, observed: Board) -> list[Successor]:
        return self._by_board.get(frozenset(observed.items()), [])

    def matching_two_steps(self, observed: Board) -> list[Successor]:
        """First steps of two steps by the same actor that together leave ``observed``.

        A quick hand takes a tile and puts another in its place within one settle time. Only
        first steps whose every change shows on the table are tried, which keeps this cheap.
        """
        if self.chance and len(self.changing) > MAX_CHANCE_TWO_STEPS:
            return []  # e.g. a whole stack built at once: one step, never two
        changed = changed_sites(self.board, observed)
        wanted = dict(observed)
        found = []
        for first in self.changing:
            if not changed_sites(self.board, first.board) <= changed:
                continue
            if self.game.is_terminal(first.state) or self.game.actor(first.state) != self.actor:
                continue
            for action in self.game.legal_actions(first.state):
                if self.game.board(self.game.apply(first.state, action)) == wanted:
                    found.append(first)
                    break
        return found


def decide(
    successors: Successors, observed: Board, earlier_boards: Sequence[Board] = ()
) -> Decision:
    """What the settled ``observed`` board means. ``earlier_boards``: newest first."""
    current = successors.board
    if dict(observed) == current:
        return NoChange()
    matches = successors.matching(observed)
    if len(matches) == 1:
        return Accept(matches[0])
    if matches:
        return Choose(tuple(matches))
    two_steps = successors.matching_two_steps(observed)
    if len(two_steps) == 1:
        return Accept(two_steps[0])  # the caller judges the same board again for step two
    changed = changed_sites(current, observed)
    on_the_way = [
        s for s in successors.changing if _on_the_way(s.board, current, observed, changed)
    ]
    # Pieces only lifted, on the way to a move: the move has begun (a drawn piece lifted off
    # its pad may briefly restore an earlier board). Otherwise an earlier position is offered
    # as a take-back: only an offer, which a player confirms.
    lifted_only = all(observed.get(site) is None for site in changed)
    if not (on_the_way and lifted_only):
        for steps, board in enumerate(earlier_boards, start=1):
            if dict(observed) == dict(board):
                return TakeBack(steps)
    if on_the_way:
        targets = sorted(
            {
                site
                for s in on_the_way
                for site in s.board.keys() | observed.keys()
                if s.board.get(site) != observed.get(site)
            }
        )
        return InProgress(tuple(on_the_way), tuple(targets), tuple(sorted(changed)))
    # A setup or a draw the table shows (a stack built, tiles laid): guide toward the nearest
    # legal outcome. A player's move that went wrong is simply put back, as on a chess board.
    nearest = None
    if successors.chance:
        nearest = min(successors.changing, default=None,
                      key=lambda s: len(changed_sites(s.board, observed)))
    if nearest is not None and len(changed_sites(nearest.board, observed)) < len(changed):
        return Discrepancy(
            tuple(WrongSite(site, nearest.board.get(site), observed.get(site))
                  for site in sorted(changed_sites(nearest.board, observed))),
            toward=nearest.action,
        )
    return Discrepancy(
        tuple(WrongSite(site, current.get(site), observed.get(site)) for site in sorted(changed))
    )


def one_step(successors: Successors, observed: Board) -> bool:
    """Is ``observed`` exactly one legal step's result? Only such a board is judged before the
    settle time. It may still be the beginning of a bigger step (in Trapper a trapper moved is
    a whole step, and the first part of the same move paid with a joker pair), so the step is
    taken provisionally (``controller.provisional``) until the hand has been still that long."""
    return len(successors.matching(observed)) == 1


def piece_kinds(value: str | None) -> tuple[str, ...]:
    """The kinds of the pieces on a site (a card, a tile, a tiki: each name up to its first
    colon), bottom first; none for an empty site."""
    return tuple(piece.split(":")[0] for piece in pile_pieces(value)) if value else ()


def begins(target: Board, current: Board, observed: Board) -> bool:
    """Is every change from ``current`` to ``observed`` part of the step to ``target``?"""
    return _on_the_way(target, current, observed, changed_sites(current, observed))


def _on_the_way(target: Board, current: Board, observed: Board, changed: set[str]) -> bool:
    """Every change so far is part of this action: a piece lifted that it moves, a site
    already showing what it will show, or a pile built so far in the right order."""
    for site in changed:
        seen, wanted = observed.get(site), target.get(site)
        if seen is not None and seen == wanted:
            continue
        if seen is None and wanted != current.get(site):
            continue
        if seen is not None and wanted is not None and pile_begins(wanted, seen):
            continue
        return False
    return True


def changed_sites(before: Board, after: Board) -> set[str]:
    """Sites whose piece differs between two boards (a site missing from one is empty)."""
    return {site for site in before.keys() | after.keys() if before.get(site) != after.get(site)}


def guidance(expected: Mapping[str, str], seen: Mapping[str, str]) -> Discrepancy:
    """Every site that differs from the expected board, as a discrepancy to put right."""
    sites = sorted(site for site in expected.keys() | seen.keys()
                   if expected.get(site) != seen.get(site))
    return Discrepancy(tuple(WrongSite(site, expected.get(site), seen.get(site))
                             for site in sites))
