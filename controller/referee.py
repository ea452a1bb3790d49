"""The referee: what does the settled board say happened? (DESIGN.md section 3)

Generic over games: it only compares boards. The successors of every legal action (and every
chance outcome the table can reveal) are computed once per state; a settled board is then
matched against them: exactly one match is accepted, several are asked about, a board on the
way to one or more of them is a step in progress, an earlier position is a take-back request,
and anything else is a discrepancy that names each wrong site.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.game import CHANCE, FACE_DOWN, PILE_JOIN, Game, pile_begins, pile_pieces

Board = Mapping[str, str]
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

    def advice(self) -> str:
        where = pretty(self.site)
        if self.expected is None:
            return f"take {pretty(self.seen)} off {where}"
        if self.seen is None:
            return f"put {pretty(self.expected)} back on {where}"
        if self.seen == self.expected:  # both face down: which one is the secret
            return f"{where} holds another face-down piece than the one that lay there"
        return f"{where} should hold {pretty(self.expected)}, not {pretty(self.seen)}"


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """No legal action explains the table. The game does not change; this says how to fix it.

    ``toward``: for a setup or draw the table shows (a stack built with one group split, say),
    the nearest legal outcome, when it is nearer than the position before; the wrong sites are
    then those that keep the table from it. Otherwise the advice puts the table back.
    """

    wrong: tuple[WrongSite, ...]
    toward: str | None = None
    why: str | None = None
    """Why the table cannot be right, when the sites alone do not say (a card no hand holds)."""

    @property
    def message(self) -> str:
        text = "; ".join(wrong.advice() for wrong in self.wrong)
        if self.toward:
            text = f"almost {self.toward}: {text}"
        if self.why:
            text = f"{self.why}: {text}"
        return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class SecretShown:
    """A seat's secrets lie face up on the reveal site. ``complete``: all of them, recorded
    (take them off); otherwise the table waits for the rest."""

    seat: int
    pieces: tuple[str, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class Considering:
    """No reading yet: the table is looking for a dealing of the unseen draws that explains
    the board (off the service's loop); it judges the board again when it has one or none."""


@dataclass(frozen=True, slots=True)
class NotRecorded(Discrepancy):
    """A legal step the journal could not record (its disk full, say): not taken, so the game
    does not move on. A discrepancy for the page and the LEDs (its sites lit as wrong), whose
    message says what to do (``why``: the journal's error); the table judges the board again
    on every change and retry, and takes the step once the journal records it."""

    @property
    def message(self) -> str:
        why = self.why or "the journal cannot record it"
        return (f"This move is not recorded: {why}. Leave it on the table: it is taken as soon "
                "as the journal can record it")


Decision = (NoChange | Accept | Choose | InProgress | TakeBack | Discrepancy | SecretShown
            | Considering)


def pretty(name: str | None) -> str:
    """``grid:2:3`` -> ``grid 2:3``; ``topiary:swan:4`` -> ``topiary swan 4``; a pile piece by
    piece (``stone yellow / stone blue``)."""
    if name is None:
        return "nothing"
    if name == FACE_DOWN:
        return "a face-down piece"
    if PILE_JOIN in name:
        return PILE_JOIN.join(map(pretty, pile_pieces(name)))
    kind, _, rest = name.partition(":")
    return f"{kind} {rest}" if rest else kind


class Successors:
    """Every successor of one state, indexed by the board it leaves on the table."""

    def __init__(self, game: Game[Any], state: Any) -> None:
        self.game = game
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
