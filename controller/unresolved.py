"""Secret draws the players make themselves: written down as unresolved, never guessed at.

Players shuffle and deal their own cards. A chance step that leaves the board as it was (a
mission dealt face down, a card drawn into a hand) is one the table cannot see: the journal
writes ``?`` for it, and every outcome consistent with all that was seen since stays possible.

The referee still needs one concrete state to compute successors from, so the table keeps a
*working resolution*: some outcome for every ``?`` that explains everything seen so far. It is
never shown as knowledge. When the table shows something it cannot explain (a card the working
hand lacks), ``Search.run`` looks for another resolution that does: a limited-discrepancy search
(``search_dealings``) that replays the history with candidate outcomes, changing as few working ones
as it can, latest first, pruned as soon as a known step is illegal, an unseen draw would have
changed the board, or a secret shown since disagrees. Two draws that swap the same pieces
(``Game.dealt_piece``: a red card dealt and a red card drawn) count as one change: a card one
player holds is one another did not draw from the shared pile. None within the budget means no
way of dealing the box explains the table, and the step is refused. It uses only the engine contract
(``legal_actions``, ``apply``, ``board``, ``view`` and the reveal hooks), so it works the same
for every game; the service runs it off its event loop.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core.errors import GameError
from games.core.game import Game

from .referee import Accept, Choose, Discrepancy, Successors, decide, one_step

UNRESOLVED = "?"
"""A chance step whose outcome the table did not see (the journal's text for it)."""
SEARCH_BUDGET = 80_000
"""Engine ``apply`` calls all the searches for one board may make together (figures in
docs/performance.md); past it the search gives up and the step is refused, until a player
confirms the board (then ``PATIENCE``)."""
PATIENCE = 600_000
"""Engine ``apply`` calls for a board a player confirmed after the first searches gave up on
it (a payment the player knows their hand allows): 20 s on the development machine, a minute
or more on a Pi Zero 2 W; a board that changes meanwhile stops it."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """Seat ``seat`` showed ``pieces`` on the reveal pad: its secrets as they were before step
    ``step`` (``Game.revealed_pieces`` of that state)."""

    step: int
    seat: int
    pieces: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", tuple(sorted(self.pieces)))

    def holds_in(self, game: Game[Any], state: Any) -> bool:
        return tuple(sorted(game.revealed_pieces(state, self.seat))) == self.pieces

    def may_hold_later(self, game: Game[Any], state: Any) -> bool:
        """Before ``step``: the seat holds no secret that is not among the pieces shown (a
        seat's revealed pieces only grow until they are scored: ``Game.revealed_pieces``)."""
        return within(game.revealed_pieces(state, self.seat), self.pieces)

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "seat": self.seat, "pieces": list(self.pieces)}


@dataclass(frozen=True, slots=True)
class Resolution:
    """One outcome for every ``?``: the full actions and the states they pass through."""

    actions: tuple[str, ...]
    states: tuple[Any, ...]
    """``states[0]`` is the state before ``actions[0]``; one more state than actions."""


@dataclass(slots=True)
class SearchCost:
    """What one search spent (``tabletop bench referee-search`` reports it)."""

    applies: int = 0
    gave_up: bool = False
    seconds: float = 0.0
    whole_step: bool = False
    """It looked for a dealing under which the board is a whole step (``worth_patience``)."""


@dataclass(slots=True)
class _Frame:
    index: int
    state: Any
    allowance: int
    """How many more draws may differ from the working resolution below this frame."""
    owed: tuple[tuple[str, str, bool], ...] = ()
    """(taken, displaced, to_changeable) for each draw above that took the piece ``taken``
    (``Game.dealt_piece``) where the working resolution had ``displaced``, sorted: a later
    draw of ``taken`` may give ``displaced`` back for free (a changeable one, if
    ``to_changeable``)."""
    options: list[str] | None = None
    preferred: bool = False
    """``options[0]`` is the working resolution's outcome."""
    free: int = 1
    """``options[:free]`` cost nothing: the working outcome, then the ones that give back
    what a draw above displaced (the two draws swapped, one change in all)."""
    back: dict[str, tuple[str, str, bool]] = field(default_factory=dict)
    """The free outcomes after the first: the ``owed`` entry each gives back."""
    tried: int = 0
    board: Mapping[str, str] | None = None
    """Before an unseen draw: the board, which its outcome must leave as it is."""


@dataclass(slots=True)
class _Walk:
    game: Game[Any]
    steps: Sequence[str]
    reveals: Mapping[int, list[Reveal]]
    goal: Callable[[Any], bool] | None
    windows: Sequence[tuple[int, Reveal]]
    """(first step, reveal): from that step on the seat's pieces only grow into the reveal's,
    so a draw that gives it another piece is cut off at once, not when the reveal comes."""
    prefer: Sequence[str] | None
    changeable: Collection[int] | None
    """The ``?`` steps whose working outcome may change (None: every one)."""
    swaps: bool
    """Another ``?`` step may change too, if a changeable one below gives back what it took:
    a card the player on turn holds was another player's in the working resolution."""
    rng: random.Random
    budget: int
    stop: Callable[[], bool]
    cost: SearchCost = field(default_factory=SearchCost)
    last_changeable: int = field(init=False)
    """Past it, a swap still waiting for a changeable draw cannot complete."""
    failed: dict[tuple[int, Any, Any], int] = field(default_factory=dict)
    """(step, state, owed) -> the largest allowance that found nothing from there."""

    def __post_init__(self) -> None:
        self.last_changeable = max(self.changeable, default=-1) if self.changeable else -1

    def changeable_at(self, index: int) -> bool:
        return self.changeable is None or index in self.changeable

    def fits(self, index: int, state: Any) -> bool:
        """Does this state agree with what was seen at ``index`` (the secrets shown)?"""
        if not all(reveal.holds_in(self.game, state) for reveal in self.reveals.get(index, ())):
            return False
        return all(reveal.may_hold_later(self.game, state)
                   for first, reveal in self.windows if first <= index < reveal.step)

    def options(self, frame: _Frame) -> list[str]:
        step = self.steps[frame.index]
        if step != UNRESOLVED:
            return [step]
        outcomes = list(self.game.legal_actions(frame.state))
        self.rng.shuffle(outcomes)
        frame.board = self.game.board(frame.state)
        preferred = self.prefer[frame.index] if self.prefer is not None else None
        if preferred is None:
            frame.free = len(outcomes)
            return outcomes
        changeable = self.changeable_at(frame.index)
        if frame.owed:  # what a draw above displaced may come back here
            piece = self.game.dealt_piece
            giving = {piece(outcome): outcome for outcome in outcomes}
            for entry in sorted(frame.owed, key=lambda entry: not entry[2]):  # theirs first
                taken, displaced, to_changeable = entry
                if taken == piece(preferred) and displaced in giving and (
                        changeable or not to_changeable):
                    frame.back.setdefault(giving[displaced], entry)
        if preferred not in outcomes:  # a draw above took it: this one changes, for free
            frame.free = len(outcomes)
            return [*frame.back, *(outcome for outcome in outcomes if outcome not in frame.back)]
        frame.preferred = True
        frame.free = 1 + len(frame.back)
        if not (changeable or self.swaps):
            return [preferred, *frame.back]
        rest = [outcome for outcome in outcomes
                if outcome != preferred and outcome not in frame.back]
        return [preferred, *frame.back, *rest]  # keep what already explained the table

    def _goal_cost(self, state: Any) -> int:
        """A goal check builds the state's successors: one apply each."""
        return 1 if self.game.is_terminal(state) else len(self.game.legal_actions(state))

    def charge(self, applies: int) -> bool:
        self.cost.applies += applies
        if self.cost.applies > self.budget or self.stop():
            self.cost.gave_up = True
        return not self.cost.gave_up

    def run(self, start: int, state: Any, allowance: int) -> Resolution | None:
        """Depth first from ``start``, changing at most ``allowance`` working outcomes."""
        frames = [_Frame(start, state, allowance)]
        while frames and not self.cost.gave_up:
            frame = frames[-1]
            key = _key(frame.index, frame.state, frame.owed)
            if frame.options is None:
                if (key is not None and self.failed.get(key, -1) >= frame.allowance) or not (
                        self.fits(frame.index, frame.state)) or (
                        frame.index > self.last_changeable and any(
                            to_changeable for *_, to_changeable in frame.owed)):
                    frames.pop()
                    continue
                if frame.index == len(self.steps):
                    if self.goal is None or (self.charge(self._goal_cost(frame.state))
                                             and self.goal(frame.state)):
                        return Resolution(
                            tuple(f.options[f.tried - 1] for f in frames[:-1] if f.options),
                            tuple(f.state for f in frames))
                    self._fail(key, frame.allowance)
                    frames.pop()
                    continue
                frame.options = self.options(frame)
            cost = int(frame.tried >= frame.free)
            if frame.tried == len(frame.options) or frame.allowance < cost:
                self._fail(key, frame.allowance)
                frames.pop()
                continue
            action = frame.options[frame.tried]
            frame.tried += 1
            owed = frame.owed
            if cost:
                piece = self.game.dealt_piece
                owed = tuple(sorted((*owed, (piece(action), piece(frame.options[0]),
                                             not self.changeable_at(frame.index)))))
            elif action in frame.back:
                rest = list(owed)
                rest.remove(frame.back[action])
                owed = tuple(rest)
            if not self.charge(1):
                break
            try:
                after = self.game.apply(frame.state, action)
            except GameError:
                continue  # this world's hand could not have made that step
            if frame.board is not None and self.game.board(after) != frame.board:
                continue  # an unseen draw leaves the table as it was
            frames.append(_Frame(frame.index + 1, after, frame.allowance - cost, owed))
        return None

    def _fail(self, key: tuple[int, Any, Any] | None, allowance: int) -> None:
        if key is not None:
            self.failed[key] = max(allowance, self.failed.get(key, -1))


def secrets_owed(game: Game[Any], states: Sequence[Any], reveals: Sequence[Reveal]
                 ) -> list[tuple[int, int]]:
    """(step, seat) of the secrets a score waits for and nobody has shown yet, oldest first:
    each step whose ``needs_secrets`` names a seat holding ``revealed_pieces`` then."""
    shown = {(reveal.step, reveal.seat) for reveal in reveals}
    return [(step, seat) for step in range(len(states) - 1)
            for seat in game.needs_secrets(states[step], states[step + 1])
            if (step, seat) not in shown and game.revealed_pieces(states[step], seat)]


def _window(game: Game[Any], states: Sequence[Any], reveal: Reveal) -> int:
    """The first step from which the seat holds pieces up to the reveal without a gap (how
    many it holds is public, so any resolution tells)."""
    first = reveal.step
    while first > 0 and game.revealed_pieces(states[first - 1], reveal.seat):
        first -= 1
    return first


def within(part: Sequence[str], whole: Sequence[str]) -> bool:
    """Is ``part`` a sub-multiset of ``whole``?"""
    rest = list(whole)
    for piece in part:
        if piece not in rest:
            return False
        rest.remove(piece)
    return True


def _key(index: int, state: Any, owed: Any) -> tuple[int, Any, Any] | None:
    try:
        hash(state)
    except TypeError:
        return None
    return (index, state, owed)


def search_dealings(
    game: Game[Any],
    initial: Any,
    steps: Sequence[str],
    *,
    reveals: Sequence[Reveal] = (),
    goal: Callable[[Any], bool] | None = None,
    working: Resolution | None = None,
    prefer: Sequence[str | None] | None = None,
    rng: random.Random | None = None,
    budget: int = SEARCH_BUDGET,
    max_changes: int | None = None,
    changeable: Collection[int] | None = None,
    swaps: bool = False,
    stop: Callable[[], bool] = lambda: False,
) -> tuple[Resolution | None, SearchCost]:
    """Some outcome for every ``?`` in ``steps`` that explains everything seen.

    ``reveals``: secrets shown since; ``goal``: what the final state must also satisfy (the
    board on the table now is one of its steps). ``working``: the resolution that explained
    the table so far. The search is a limited-discrepancy search around it: first every
    resolution that changes one of its outcomes (the latest draws first), then two, and so
    on; a new card on the table usually needs one draw to have been another. A draw that
    gives back the piece an earlier change displaced costs nothing: the two are one swap.
    ``prefer``: the outcomes to keep without a working resolution (a restart reads the
    journal's); ``max_changes``: change no more of them than this; ``changeable``: only the
    outcomes of these steps; ``swaps``: others too, if a changeable one below gives back what
    they took; ``stop``: asked at every apply, True gives up (the answer is no longer wanted).
    Returns None (and the cost) if there is none or the budget ran out.
    """
    began = time.perf_counter()
    rng = rng or random.Random(0)
    by_step: dict[int, list[Reveal]] = {}
    for reveal in reveals:
        by_step.setdefault(reveal.step, []).append(reveal)
    if reveals and working is None:  # windows need one resolution: any, ignoring the reveals
        working, cost = search_dealings(game, initial, steps, prefer=prefer, rng=rng, budget=budget)
        if working is None:
            return None, cost
        budget -= cost.applies
    windows = [(_window(game, working.states, reveal), reveal) for reveal in reveals
               ] if working is not None else []
    outcomes = working.actions if working is not None else prefer
    walk = _Walk(game, steps, by_step, goal, windows, outcomes, changeable, swaps, rng,
                     budget, stop)
    start, state = 0, initial
    if working is not None:
        start = next((i for i, step in enumerate(steps) if step == UNRESOLVED), len(steps))
        start = min([start, *by_step])
        state = working.states[start]
    found = None
    most = steps.count(UNRESOLVED) if max_changes is None else max_changes
    for allowance in range(most + 1 if outcomes is not None else 1):
        found = walk.run(start, state, allowance)
        if found is not None or walk.cost.gave_up:
            break
    if found is not None and working is not None:
        found = Resolution(working.actions[:start] + found.actions,
                           working.states[:start] + found.states)
    walk.cost.seconds = time.perf_counter() - began
    return found, walk.cost


WORLD_BUDGET = SEARCH_BUDGET // 8
"""Engine applies for finding one world for a hint (``UnseenDraws.worlds``)."""


@dataclass(frozen=True, slots=True)
class UnseenDraws:
    """A game with draws the table did not see, as a hint needs it: pure data, so the worlds
    are sampled in the AI's worker thread, not on the service's loop."""

    initial: Any
    known: tuple[str, ...]
    """The actions as the journal has them, ``?`` for each unseen draw."""
    reveals: tuple[Reveal, ...]

    def worlds(self, game: Game[Any], count: int, seed: int,
               budget: int = WORLD_BUDGET) -> list[Any]:
        """Up to ``count`` different states the table may be in now: the last states of
        resolutions found by replaying the history with the outcomes shuffled afresh each
        time. Each explains all that was seen; they are varied, not drawn uniformly. Empty
        only if no resolution was found within the budget."""
        found: list[Any] = []
        for attempt in range(2 * count):
            if len(found) == count:
                break
            resolution, _ = search_dealings(game, self.initial, self.known, reveals=self.reveals,
                                            rng=random.Random(seed * 7919 + attempt),
                                            budget=budget)
            if resolution is not None and resolution.states[-1] not in found:
                found.append(resolution.states[-1])
        return found


@dataclass(frozen=True, slots=True)
class Seen:
    """A board and where in the game it was judged: what a search's answer is good for."""

    steps: int
    """The actions so far, each known or ``?``."""
    reveals: int
    """The secrets shown so far."""
    board: frozenset[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Search:
    """A board the working resolution cannot explain, with all a search needs: pure data, so
    the service can solve it off its event loop (``Search.run``) while the hubs are read on."""

    game: Game[Any]
    known: tuple[str, ...]
    reveals: tuple[Reveal, ...]
    working: Resolution
    board: Mapping[str, str]
    earlier: tuple[Mapping[str, str], ...]
    under_way: bool
    """The working resolution reads the board as a step under way or an earlier position (a
    take-back offer), not as a mistake: a short search, once the board has stayed still."""
    mine: frozenset[int]
    """The unseen draws that went to the player on turn (``owners``): tried first."""
    seed: int
    patient: bool = False
    """A player confirmed a board the first searches gave up on: search up to ``PATIENCE``."""

    @property
    def seen(self) -> Seen:
        return Seen(len(self.known), len(self.reveals), frozenset(self.board.items()))

    @property
    def key(self) -> tuple[Seen, bool]:
        """Tells two searches apart: a patient one is another question."""
        return self.seen, self.patient

    def run(self, stop: Callable[[], bool] = lambda: False
            ) -> tuple[Resolution | None, list[SearchCost]]:
        """Is there a way of dealing under which the board is a whole step? First among the draws
        of the player on turn (their hand is what their move shows), two changed at most; then
        swaps of theirs with anyone's (the pile is shared); then any change of any draw: briefly
        if the board reads as a step under way (which it may well just be), and failing a whole
        step, a short search for any reading but a mistake (a step under way, a take-back).

        A ``patient`` puzzle (a player confirmed the board): the swaps and the search of any
        change take turns, each twice the budget of its last turn, until ``PATIENCE`` is spent or
        one has seen every dealing it may change. ``stop``: the answer is no longer wanted."""
        game = self.game

        def reading(state: Any) -> Any:
            if game.is_terminal(state):
                return None
            return decide(Successors(game, state), self.board, self.earlier)

        def whole_step(state: Any) -> bool:
            return isinstance(reading(state), (Accept, Choose))

        def no_mistake(state: Any) -> bool:
            found = reading(state)
            return found is not None and not isinstance(found, Discrepancy)

        mine = {"goal": whole_step, "max_changes": 2, "changeable": self.mine}
        short = SEARCH_BUDGET // 8
        searches: list[dict[str, Any]] = [{**mine, "budget": short}]
        if self.patient:  # 20k, 40k, ... 160k each: 600k in all
            searches, budget, total = [], SEARCH_BUDGET // 4, 0
            while total + 2 * budget <= PATIENCE:
                searches += [{**mine, "swaps": True, "budget": budget},
                             {"goal": whole_step, "budget": budget}]
                total, budget = total + 2 * budget, budget * 2
        elif self.under_way:
            searches += [{**mine, "swaps": True, "budget": short},
                         {"goal": whole_step, "budget": short, "max_changes": 2}]
        else:
            searches += [{**mine, "swaps": True, "budget": SEARCH_BUDGET * 3 // 8},
                         {"goal": whole_step, "budget": SEARCH_BUDGET * 3 // 8},
                         {"goal": no_mistake, "budget": short, "max_changes": 1}]
        costs: list[SearchCost] = []
        exhausted: set[bool] = set()
        for limits in searches:
            swapping = "swaps" in limits
            if stop() or (self.patient and swapping in exhausted):
                continue
            found, cost = search_dealings(game, self.working.states[0], self.known,
                                          reveals=self.reveals, working=self.working,
                                          rng=random.Random(self.seed), stop=stop, **limits)
            cost.whole_step = limits["goal"] is whole_step
            costs.append(cost)
            if found is not None:
                return found, costs
            if not cost.gave_up:
                exhausted.add(swapping)  # it saw every dealing it may change: none will do
        return None, costs


EARLY_LOOK_BUDGET = 10_000
"""Engine applies for each part of an early search (``EarlySearch.run``): in the bench's Trapper
games a payment with a card the working guess gave another hand took 150-3,000 among the player's
own draws, 6,000-8,000 more with swaps; about 30 us an apply on the development machine."""
UNDER_WAY_LOOK_BUDGET = 5_000
"""The same for a board the working guess reads as a step under way, among the player's own
draws only: most such boards are just a hand mid-step, which no dealing explains, and an early
search that finds nothing spends its whole budget. In Trapper (a trapper landed before its card, at
every position of six random games) 82 of 266 such boards were a step under another dealing;
81 were found among the player's own draws, in at most 3,844 applies."""


@dataclass(frozen=True, slots=True, eq=False)
class EarlySearch:
    """A still board that the working guess reads as a mistake (or a step under way), and what
    an early search for another dealing needs: pure data, so the service runs it off its event
    loop a scan after the board changed, not after the whole settle time."""

    game: Game[Any]
    state: Any
    """The table's state when asked: the answer counts only while it still is."""
    board: frozenset[tuple[str, str]]
    known: tuple[str, ...]
    reveals: tuple[Reveal, ...]
    working: Resolution
    mine: frozenset[int]
    """The unseen draws that went to the player on turn: only these may be dealt otherwise
    (two at most), and swapped with others' draws."""
    seed: int
    under_way: bool = False
    """The working guess reads the board as a step under way: a shorter look, no swaps
    (``UNDER_WAY_LOOK_BUDGET``)."""

    def asks(self, state: Any, reveals: int, board: frozenset[tuple[str, str]]) -> bool:
        """Is this the search for ``board`` at ``state``, with ``reveals`` secrets shown?"""
        return self.state is state and len(self.reveals) == reveals and self.board == board

    def run(self, stop: Callable[[], bool] = lambda: False) -> Resolution | None:
        """The nearest dealing under which the board is a legal step, as the search after the
        settle time would find it, if under it the board is exactly one step (None: none found,
        or several steps: wait for the settle time)."""
        game, board = self.game, dict(self.board)
        budget = UNDER_WAY_LOOK_BUDGET if self.under_way else EARLY_LOOK_BUDGET

        def a_step(state: Any) -> bool:
            return not game.is_terminal(state) and bool(Successors(game, state).matching(board))

        for swaps in (False,) if self.under_way else (False, True):
            found, _ = search_dealings(game, self.working.states[0], self.known,
                                       reveals=self.reveals, goal=a_step, working=self.working,
                                       rng=random.Random(self.seed), budget=budget,
                                       max_changes=2, changeable=self.mine, swaps=swaps,
                                       stop=stop)
            if found is not None:
                return found if one_step(Successors(game, found.states[-1]), board) else None
            if stop():
                return None
        return None


def owners(game: Game[Any], state: Any) -> frozenset[int]:
    """The seats that see the outcome of the draw at ``state`` (their private view differs
    between two outcomes): a card drawn into a hand is its owner's."""
    outcomes = game.legal_actions(state)
    if len(outcomes) < 2:
        return frozenset()
    one, other = (game.apply(state, outcome) for outcome in outcomes[:2])
    return frozenset(seat for seat in range(len(game.players(state)))
                     if game.view(one, seat) != game.view(other, seat))


def worth_patience(costs: Sequence[SearchCost]) -> bool:
    """Did a search for a whole step run out of budget before it saw every dealing it may
    change (the last, for any reading but a mistake, aside)? Then a longer one might still
    find a dealing: a player who confirms the board gets it. (The search of any change of
    any draw nearly always runs out: ``Table`` offers it only where a hand could show the
    board, never for a plain mistake.)"""
    return any(cost.gave_up for cost in costs if cost.whole_step)
