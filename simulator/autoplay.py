"""Autoplay bots: whole games played with virtual hands on the virtual table.

A bot keeps its own engine state, picks a legal action at random (seeded), draws chance outcomes
itself where the table shows them (it really builds the stack, lays the drawn tile), and turns
each action into physical steps by comparing the board before and after: every changed site is
lifted first, then every new piece is put (a moved piece is a lift and a put). After each step
it awaits `settle()`, which the caller injects to wait until the controller has judged the table.

With `mistake_rate` > 0 some moves go wrong first, the way people get them wrong, and are then
put right after the table has had its say:

- ``wrong_site``: the move is made with a piece on a wrong site (two pieces swapped, or one on
  an empty site); then the piece is moved where it belongs.
- ``illegal_move``: before the real move, a move no rule allows (two pieces swapped, a piece
  moved to an empty site); it is then taken back and the real move made.
- ``stray_piece`` (only when asked for, ``mistake_kinds``): a piece from the box laid on an
  empty site no legal step changes; it is then lifted again and the real move made.

While a wrong board lies on the table (made, not yet being put right) ``wrong_board`` holds it:
a measurement tells the table's red light for a mistake from one on a right move.

With `slide_rate` > 0 that share of the steps ending with a piece laid end with it dragged to
its site over two wrong sites, the way a hand slides a piece across the table (`Drag`): the
table must not judge the board mid-way.

The bot never lets the table pass through a position the referee could read as a different
legal move or as an earlier position (that would be a different game, not a mistake): every
intermediate board is checked against the successors of the current state and reordered or
dropped if it would be. It knows no game: everything comes through the engine contract.

What the table cannot show (a secret deal, an action that moves nothing, a board several
actions explain) is settled through hooks: `hidden_chance(index)` returns what the controller
drew for action number `index` (else the bot draws), a silent action is confirmed with the
``confirm`` button, and an ambiguous board is resolved by `choose(action, candidates)` or, by
default, by playing the first candidate and pressing ``confirm`` (the referee's choice 0).
A seat whose moves are decided elsewhere (an AI seat: the table shows its move for a person
to carry out) gets them from `decide(seat)`; the bot then plays that move, by hand.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from games.core.game import CHANCE, PILE_JOIN, pile_pieces, pile_value
from simulator.steps import Drag, Lift, Press, Put, Step, perform
from simulator.virtual_table import VirtualTable

Board = Mapping[str, str]
Danger = set[frozenset[tuple[str, str]]]
"""Boards (as frozensets of their items) the table must not pass through."""
MistakeKind = Literal["wrong_site", "illegal_move", "stray_piece"]
MISTAKE_KINDS: tuple[MistakeKind, ...] = ("wrong_site", "illegal_move", "stray_piece")
Hook = Callable[..., Any]
"""A plain function or a coroutine function; the bot awaits the result when it is awaitable."""

ORDER_TRIES = 24
MISTAKE_TRIES = 24
EARLIER_BOARDS = 12


class AutoplayError(RuntimeError):
    """The bot cannot go on (a hook answered with an action that is not legal, ...)."""


@dataclass(frozen=True, slots=True)
class Mistake:
    kind: MistakeKind
    action_index: int
    """Index in the record of the action during which it happened."""
    steps: tuple[str, ...]
    """The wrong steps, in scenario text."""
    correction: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AutoplayResult:
    record: dict[str, Any]
    """The replay record: {"game", "players", "options", "revision", "actions"}."""
    finished: bool
    actions: int
    moves: int
    """Actions of players (not chance)."""
    steps: int
    """Physical steps made, mistakes and corrections included."""
    mistakes: tuple[Mistake, ...]
    unsafe_steps: int
    """Intermediate boards the bot could not keep clear of another legal reading."""
    board: dict[str, str]
    """The virtual table at the end."""
    expected_board: dict[str, str]
    """`board()` of the bot's final state: equal to `board` unless something went wrong."""
    scores: dict[str, int]
    winners: tuple[str, ...]

    def summary(self) -> dict[str, Any]:
        return {
            "finished": self.finished,
            "actions": self.actions,
            "moves": self.moves,
            "steps": self.steps,
            "mistakes": len(self.mistakes),
            "corrected": len(self.mistakes),
            "scores": self.scores,
            "winners": list(self.winners),
            "board_matches": self.board == self.expected_board,
        }


def choice_piece(game: Any, state: Any, action: str) -> str | None:
    """A piece that makes ``action`` when laid on the game's choice site, if any (the first
    by name: any tile of a shape names that shape)."""
    pieces = game.choice_pieces(state)
    return next((piece for piece in sorted(pieces) if pieces[piece] == action), None)


def plan_steps(
    before: Board, after: Board, stacking: Collection[str] = (),
    under: Mapping[str, str | None] | None = None, piles: Collection[str] = (),
) -> list[Step]:
    """Lift every site whose piece changes, then put every new piece. On a stacking site a new
    piece goes on top of the old one (a card over cards) unless the old one moves elsewhere,
    and the piece right under the top (``under``) comes back by lifting the top off it. On a
    pile site (a tower) the pieces above what both piles share come off, top first, and the
    new ones go on, bottom first."""
    under = under or {}
    lifts: list[Step] = []
    puts: list[Step] = []
    for site in sorted(set(before) | set(after)):
        old, new = before.get(site), after.get(site)
        if old == new:
            continue
        if site in piles:
            was = pile_pieces(old) if old is not None else ()
            will = pile_pieces(new) if new is not None else ()
            shared = 0
            while shared < min(len(was), len(will)) and was[shared] == will[shared]:
                shared += 1
            lifts += [Lift(site)] * (len(was) - shared)
            puts += [Put(piece, site) for piece in will[shared:]]
            continue
        if site in stacking and old is not None and new is not None:
            moves = any(piece == old and before.get(other) != old
                        for other, piece in after.items() if other != site)
            if moves or new == under.get(site):
                lifts.append(Lift(site))  # the top piece goes: the one under it shows
            if new != under.get(site):
                puts.append(Put(new, site))  # cover
            continue
        if old is not None:
            lifts.append(Lift(site))
        if new is not None:
            puts.append(Put(new, site))
    return lifts + puts


def board_after(board: Board, step: Step, piles: Collection[str] = ()) -> dict[str, str]:
    result = dict(board)
    pile = step.site in piles if isinstance(step, Put | Lift) else False
    if isinstance(step, Put):
        below = result.get(step.site) if pile else None
        result[step.site] = step.piece if below is None else below + PILE_JOIN + step.piece
    elif isinstance(step, Lift):
        rest = pile_pieces(result.pop(step.site))[:-1] if pile and step.site in result else ()
        if rest:
            result[step.site] = pile_value(rest)
        else:
            result.pop(step.site, None)
    return result


def unsafe_boards(board: Board, steps: Sequence[Step], danger: Danger,
                  piles: Collection[str] = ()) -> int:
    """How many boards on the way (the last one, the goal, not counted) are in `danger`."""
    count = 0
    for step in steps[:-1]:
        board = board_after(board, step, piles)
        count += _key(board) in danger
    return count


def safe_order(
    board: Board,
    steps: list[Step],
    danger: Danger,
    rng: random.Random,
    tries: int = ORDER_TRIES,
    piles: Collection[str] = (),
) -> tuple[list[Step], int]:
    """`steps` as planned (lifts, then puts) if that is safe, else the safest of some random
    orders a hand could really follow: a put only once its site is clear and once the piece it
    lays has been picked up (if it lay elsewhere on the table), and a pile's pieces in their
    order. Returns it and its unsafe count."""
    best, best_unsafe = steps, unsafe_boards(board, steps, danger, piles)
    needs = {
        index: {
            other for other, earlier in enumerate(steps)
            if (isinstance(earlier, Lift) and (earlier.site == step.site
                                               or board.get(earlier.site) == step.piece))
            or (isinstance(earlier, Put) and other < index and earlier.site == step.site)
        }
        for index, step in enumerate(steps) if isinstance(step, Put)
    }
    for _ in range(tries):
        if not best_unsafe:
            break
        done: list[int] = []
        while len(done) < len(steps):
            ready = [i for i in range(len(steps))
                     if i not in done and needs.get(i, set()) <= set(done)]
            done.append(rng.choice(ready))
        candidate = [steps[i] for i in done]
        unsafe = unsafe_boards(board, candidate, danger, piles)
        if unsafe < best_unsafe:
            best, best_unsafe = candidate, unsafe
    return best, best_unsafe


def _key(board: Board) -> frozenset[tuple[str, str]]:
    return frozenset(board.items())


async def _call(hook: Hook, *args: Any) -> Any:
    result = hook(*args)
    if inspect.isawaitable(result):
        result = await result
    return result


@dataclass
class _Turn:
    """What the bot knows about the current state's successors."""

    board: dict[str, str]
    successors: dict[str, dict[str, str]]
    danger: Danger = field(default_factory=set)


class AutoplayBot:
    def __init__(
        self,
        table: VirtualTable,
        players: Sequence[str],
        options: Mapping[str, str] | None = None,
        *,
        settle: Callable[[], Awaitable[Any] | Any],
        seed: int = 0,
        mistake_rate: float = 0.0,
        settle_every: Literal["step", "action"] = "step",
        hidden_chance: Callable[[int], Awaitable[str] | str] | None = None,
        choose: Callable[[str, tuple[str, ...]], Awaitable[Any] | Any] | None = None,
        decide: Callable[[int], Awaitable[str | None] | str | None] | None = None,
        confirm_button: str = "confirm",
        on_step: Callable[[Step], None] | None = None,
        show_secrets: bool = False,
        looks_further: Callable[[], Awaitable[bool] | bool] | None = None,
        slide_rate: float = 0.0,
        mistake_kinds: Sequence[MistakeKind] = ("wrong_site", "illegal_move"),
    ) -> None:
        for name, rate in (("mistake_rate", mistake_rate), ("slide_rate", slide_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{name} is a share 0..1, got {rate}")
        if settle_every not in ("step", "action"):
            raise ValueError(f"settle_every is 'step' or 'action', not {settle_every!r}")
        if not mistake_kinds or not set(mistake_kinds) <= set(MISTAKE_KINDS):
            raise ValueError(f"mistake_kinds are some of {', '.join(MISTAKE_KINDS)}, not "
                             f"{list(mistake_kinds)}")
        if confirm_button not in table.buttons.roles:
            raise ValueError(f"the table has no {confirm_button!r} button")
        self.table = table
        self.game = table.game
        self.state = self.game.initial(list(players), dict(options or {}))
        self.players = tuple(self.game.players(self.state))
        self.options = dict(self.game.check_options(options))
        self.settle = settle
        self.rng = random.Random(seed)
        self.mistake_rate = mistake_rate
        self.mistake_kinds = tuple(mistake_kinds)
        self.wrong_board: dict[str, str] | None = None
        """The wrong board a mistake left on the table, until the hand puts it right."""
        self.slide_rate = slide_rate
        self._slide_rng = random.Random(seed)
        """Its own: with slides or without, a seed plays the same game."""
        self.slides = 0
        self.settle_every = settle_every
        self.hidden_chance = hidden_chance
        self.choose = choose
        self.decide = decide
        """Given the seat on turn, the action that seat must make (the AI's), or None."""
        self.confirm_button = confirm_button
        self.on_step = on_step
        self.show_secrets = show_secrets
        """Players dealt from the box: lay secrets on the reveal site when the score needs them."""
        self.looks_further = looks_further
        """True when the table refused the legal board just made but offers to look further
        for a dealing that explains it: the players press confirm, they know it is right."""
        self._to_show: list[tuple[str, ...]] = []
        self.actions: list[str] = []
        self.mistakes: list[Mistake] = []
        self.steps = 0
        self.moves = 0
        self.unsafe_steps = 0
        self._history: list[dict[str, str]] = [self.game.board(self.state)]

    @property
    def record(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "players": list(self.players),
            "options": dict(self.options),
            "revision": self.game.revision,
            "actions": list(self.actions),
        }

    # -- the game ----------------------------------------------------------------------------

    async def play(self, max_actions: int = 100_000) -> AutoplayResult:
        """Play until the game ends (or `max_actions` more actions) and report."""
        for _ in range(max_actions):
            await self.show()
            if self.game.is_terminal(self.state):
                break
            await self.play_one()
        return self.result()

    def result(self) -> AutoplayResult:
        sheet = self.game.score(self.state)
        finished = self.game.is_terminal(self.state)
        return AutoplayResult(
            record=self.record,
            finished=finished,
            actions=len(self.actions),
            moves=self.moves,
            steps=self.steps,
            mistakes=tuple(self.mistakes),
            unsafe_steps=self.unsafe_steps,
            board=self.table.board(),
            expected_board=self.game.board(self.state),
            scores=dict(zip(sheet.players, sheet.totals, strict=True)),
            winners=tuple(self.players[s] for s in self.game.winners(self.state))
            if finished else (),
        )

    async def play_one(self) -> str:
        """Choose, show and record one action; returns it."""
        game, state = self.game, self.state
        actor = game.actor(state)
        turn = self._turn()
        if actor == CHANCE and all(b == turn.board for b in turn.successors.values()):
            action = await self._hidden(state)
            self._advance(action)
            return action
        decided = None
        if actor == CHANCE:
            action = game.sample_chance(state, self.rng)
        else:
            decided = None if self.decide is None else await _call(self.decide, actor)
            if decided is not None and decided not in turn.successors:
                raise AutoplayError(f"decide({actor}) gave {decided!r}, which is not legal")
            action = decided or self.rng.choice(self._expressible(turn))
            self.moves += 1
        after = turn.successors[action]
        same = tuple(a for a, b in turn.successors.items() if b == after)
        shown = self._choice_piece(action) if after == turn.board else None
        if decided is not None or shown is not None:
            same = (action,)  # the referee accepts only this action: nothing to pick
        elif len(same) > 1 and self.choose is None:
            action = same[0]  # the referee's first reading: the confirm button picks it
        turn.danger = {_key(b) for a, b in turn.successors.items() if b != after}
        turn.danger |= {_key(b) for b in self._history[-EARLIER_BOARDS:] if b != turn.board}
        if after != turn.board:
            made = None
            if self.rng.random() < self.mistake_rate:
                made = await self._mistake(turn, after)
            if made != "wrong_site":  # a wrong-site mistake ends with the move done
                await self._steps(turn.board, self._plan(turn.board, after), turn.danger)
            if self.settle_every == "action":
                await _call(self.settle)
            if self.looks_further is not None and await _call(self.looks_further):
                await self._do(Press(self.confirm_button))
                await _call(self.settle)
        if shown is not None:
            await self._show_choice(shown)
        elif len(same) > 1 or after == turn.board:
            await self._resolve(action, same)
        self._advance(action)
        return action

    def _choice_piece(self, action: str) -> str | None:
        return choice_piece(self.game, self.state, action)

    async def _show_choice(self, piece: str) -> None:
        """Make a choice the board cannot show the way players at the table do: lay a piece
        that names it on the choice site, let the table read it, take it off again."""
        site = self.game.choice_site
        assert site is not None
        await self._do(Put(piece, site))
        await _call(self.settle)
        await self._do(Lift(site))
        await _call(self.settle)

    def _turn(self) -> _Turn:
        board = self.game.board(self.state)
        successors = {
            action: self.game.board(self.game.apply(self.state, action))
            for action in self.game.legal_actions(self.state)
        }
        return _Turn(board, successors)

    def _expressible(self, turn: _Turn) -> list[str]:
        """Actions the table can show: a board of their own, or (with no `choose` hook) the
        first of several actions sharing a board, which confirm picks; the only silent
        action, which confirm plays; or a choice a piece shows. All legal actions if none is."""
        first: dict[frozenset[tuple[str, str]], str] = {}
        for action, board in turn.successors.items():
            first.setdefault(_key(board), action)
        silent = [a for a, b in turn.successors.items() if b == turn.board]
        shown = set(self.game.choice_pieces(self.state).values())
        good = [
            a for a, b in turn.successors.items()
            if (b != turn.board and (self.choose is not None or first[_key(b)] == a))
            or silent == [a] or a in shown
        ]
        return good or list(turn.successors)

    async def _hidden(self, state: Any) -> str:
        """A chance outcome the table cannot show: the controller's draw, or our own."""
        if self.hidden_chance is None:
            return self.game.sample_chance(state, self.rng)
        action = await _call(self.hidden_chance, len(self.actions))
        if action not in self.game.legal_actions(state):
            raise AutoplayError(
                f"hidden_chance({len(self.actions)}) gave {action!r}, not a possible outcome"
            )
        return str(action)

    async def _resolve(self, action: str, same: tuple[str, ...]) -> None:
        """Tell the controller which of several readings (or which silent action) it was."""
        if self.choose is not None and len(same) > 1:
            await _call(self.choose, action, same)
        else:
            await self._do(Press(self.confirm_button))
            await _call(self.settle)

    def _advance(self, action: str) -> None:
        before, self.state = self.state, self.game.apply(self.state, action)
        self.actions.append(action)
        if self.show_secrets:
            for seat in self.game.needs_secrets(before, self.state):
                if pieces := self.game.revealed_pieces(before, seat):
                    self._to_show.append(pieces)
        board = self.game.board(self.state)
        if board != self._history[-1]:
            self._history.append(board)

    async def show(self) -> None:
        """Secrets the score waits for, oldest first, each laid face up on the reveal site
        (one piece at a time), left until the table has read them, then taken off."""
        site = self.game.reveal_site
        while self._to_show and site is not None and site not in self.game.board(self.state):
            pieces = self._to_show.pop(0)
            for piece in pieces:
                await self._do(Put(piece, site))
            await _call(self.settle)
            for _ in pieces:
                await self._do(Lift(site))
            await _call(self.settle)

    # -- hands ---------------------------------------------------------------------------------

    def _plan(self, before: Board, after: Board) -> list[Step]:
        """plan_steps with what lies under the top pieces of the table's stacking sites now."""
        stacking = [site for site in set(before) | set(after) if self.table.stacks_here(site)]
        under = {site: self.table.piece_under(site) for site in stacking}
        return plan_steps(before, after, stacking, under, self.table.pile_sites)

    async def _do(self, step: Step) -> None:
        await perform(self.table, step)
        self.steps += 1
        if self.on_step is not None:
            self.on_step(step)

    async def _steps(
        self, board: Board, steps: list[Step], danger: Danger
    ) -> None:
        """Do `steps` in an order whose intermediate boards are all safe, if there is one."""
        ordered, unsafe = safe_order(board, steps, danger, self.rng,
                                     piles=self.table.pile_sites)
        self.unsafe_steps += unsafe
        puts = [step for step in ordered if isinstance(step, Put)]
        last = puts[-1] if puts and ordered[-1] is puts[-1] else None
        slide = last is not None and self.slide_rate > 0 and (
            self._slide_rng.random() < self.slide_rate)
        for planned in ordered:
            step: Step = planned
            if slide and planned is last and (over := self._wrong_sites(last, danger)):
                step = Drag(last.piece, last.site, over)
                self.slides += 1
            await self._do(step)
            if self.settle_every == "step":
                await _call(self.settle)

    def _wrong_sites(self, put: Put, danger: Danger) -> tuple[str, ...]:
        """Two empty sites nearest to ``put``'s, where the piece makes no board the table
        could take for a step or an earlier position (the table as it lies now, the piece
        not yet laid); the farther first (the hand comes from there). None if there are not
        two."""
        where = self.table.coordinates
        end = where.get(put.site)
        if end is None:
            return ()
        board = self.table.board()
        pads = {self.game.choice_site, self.game.reveal_site}
        wrong = [site for site in self.table.sites
                 if site != put.site and site not in board and site not in pads
                 and site in where and _key({**board, site: put.piece}) not in danger]
        wrong.sort(key=lambda site: (where[site].x - end.x) ** 2 + (where[site].y - end.y) ** 2)
        return tuple(reversed(wrong[:2])) if len(wrong) >= 2 else ()

    # -- mistakes ------------------------------------------------------------------------------

    async def _mistake(self, turn: _Turn, after: dict[str, str]) -> MistakeKind | None:
        """Make a mistake of some kind if a safe one exists; returns its kind."""
        kinds = list(self.mistake_kinds)
        self.rng.shuffle(kinds)
        for kind in kinds:
            for _ in range(MISTAKE_TRIES):
                wrong = self._wrong_board(kind, turn, after)
                if wrong is None:
                    break
                if self._acceptable(kind, turn, after, wrong):
                    await self._make(kind, turn, after, wrong)
                    return kind
        return None

    def _acceptable(self, kind: MistakeKind, turn: _Turn, after: Board, wrong: Board) -> bool:
        """A mistake is a board no rule explains, reached and left without passing one."""
        if wrong in (turn.board, after) or _key(wrong) in turn.danger:
            return False
        danger = turn.danger if kind == "wrong_site" else turn.danger | {_key(after)}
        target = after if kind == "wrong_site" else turn.board
        there, back = self._plan(turn.board, wrong), self._plan(wrong, target)
        piles = self.table.pile_sites
        return not (unsafe_boards(turn.board, there, danger, piles)
                    or unsafe_boards(wrong, back, danger, piles))

    async def _make(
        self, kind: MistakeKind, turn: _Turn, after: Board, wrong: dict[str, str]
    ) -> None:
        """Make the wrong board, let the table judge it, then put it right: a wrong site goes
        straight on to the intended board, an illegal move is taken back first."""
        there = self._plan(turn.board, wrong)
        await self._steps(turn.board, there, turn.danger)
        self.wrong_board = wrong
        if self.settle_every == "action":
            await _call(self.settle)
        target = after if kind == "wrong_site" else turn.board
        correction = self._plan(wrong, target)
        self.mistakes.append(
            Mistake(kind, len(self.actions), tuple(map(str, there)), tuple(map(str, correction)))
        )
        danger = turn.danger if kind == "wrong_site" else turn.danger | {_key(after)}
        await self._steps(wrong, correction, danger)
        self.wrong_board = None  # put right (a red judged on the way is still the mistake's)
        if self.settle_every == "action" and kind != "wrong_site":  # put back: judged first
            await _call(self.settle)

    def _wrong_board(self, kind: MistakeKind, turn: _Turn, after: Board
                     ) -> dict[str, str] | None:
        rng, board = self.rng, turn.board
        if kind == "stray_piece":
            changed = {site for step in turn.successors.values()
                       for site in step.keys() | board.keys() if step.get(site) != board.get(site)}
            pads = {self.game.choice_site, self.game.reveal_site}
            empty = [site for site in self.table.sites
                     if site not in board and site not in changed and site not in pads]
            box = self.table.in_box()
            if not empty or not box:
                return None
            return {**board, rng.choice(empty): rng.choice(box)}
        if kind == "wrong_site":  # a tower is never carried off whole by mistake
            moved = [site for site in after
                     if board.get(site) != after[site] and PILE_JOIN not in after[site]]
            empty = [s for s in self.table.sites if s not in after]
            options: list[str] = []
            if len(moved) >= 2:
                options.append("swap")
            if moved and empty:
                options.append("misplace")
            if not options:
                return None
            wrong = dict(after)
            if rng.choice(options) == "swap":
                a, b = _alike_pair(rng, moved, after)
                wrong[a], wrong[b] = after[b], after[a]
            else:
                site = rng.choice(moved)
                wrong[rng.choice(empty)] = wrong.pop(site)
            return wrong
        occupied = sorted(site for site, piece in board.items() if PILE_JOIN not in piece)
        empty = [s for s in self.table.sites if s not in board]
        options = []
        if len(occupied) >= 2:
            options.append("swap")
        if occupied and empty:
            options.append("move")
        if not options:
            return None
        wrong = dict(board)
        if rng.choice(options) == "swap":
            a, b = _alike_pair(rng, occupied, board)
            wrong[a], wrong[b] = board[b], board[a]
        else:
            wrong[rng.choice(empty)] = wrong.pop(rng.choice(occupied))
        return wrong


def _alike_pair(rng: random.Random, sites: list[str], board: Board) -> tuple[str, str]:
    """Two of `sites`, preferably holding the same kind of piece (two tikis, not a tiki and a
    card): the swap a person actually makes by mistake."""
    pairs = [(a, b) for a in sites for b in sites if a < b]
    alike = [(a, b) for a, b in pairs if board[a].split(":")[0] == board[b].split(":")[0]]
    return rng.choice(alike or pairs)
