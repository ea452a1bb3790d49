""""Do the next step for me": one legal step made on the virtual table by a virtual hand.

A newcomer on ``/sim`` who does not know the rules yet presses a button and watches one step
of the game happen the way a player makes it: pieces are lifted and put on the table (the
autoplay bots' hands: `plan_steps`, `safe_order`, `perform`), ``confirm`` is pressed when the
step leaves the table as it was, a draw from the box is drawn and laid, secrets the score
waits for are shown on the reveal site and taken off again. The referee then reads the table
exactly as it reads a person's hands.

The simulator never imports the controller: what the referee knows (its state, the move its
AI advises, a reading still to pick) reaches this module through a `Referee` the composition
(``tabletop sim``) hands in. Choosing and planning (`plan_next`) is pure, so it is tested
without a browser or a service; `NextStep` carries a plan out on a `VirtualTable`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from games.core.art import art_of, site_label
from games.core.errors import DataFileError
from games.core.game import CHANCE, Game, Sentence, listing, pile_pieces, pile_value
from simulator.autoplay import EARLIER_BOARDS, choice_piece, plan_steps, safe_order
from simulator.steps import Lift, Press, Put, Step, perform
from simulator.virtual_table import VirtualTable

Board = Mapping[str, str]
CONFIRM = "confirm"
"""The button a player presses when a step moves nothing (or to pick the first reading)."""
FROM_BOX = "Took {piece} from the box and put it on {site}."
MANY_FROM_BOX = 3
"""More pieces than this laid out from the box in one step are told as one line."""


class NothingToDo(RuntimeError):
    """No step can be made now; ``sentence`` says why, in words for the page."""

    def __init__(self, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


@dataclass(frozen=True, slots=True)
class Position:
    """What the referee knows now, as the composition hands it over (never a controller type).

    ``state`` is the referee's state: where players drew secrets from the box unseen, its
    working resolution, which explains everything the table showed, so any legal step from it
    is one the referee accepts.
    """

    game: Game[Any]
    state: Any
    earlier: tuple[dict[str, str], ...] = ()
    """Boards of recent earlier positions: the hand must not pass through one (an undo)."""
    advice: str | None = None
    """The AI's move for the player on turn, if an advisor gave one."""
    choice: tuple[str, ...] = ()
    """Actions the table's board (or a silent decision) could mean, waiting to be picked."""
    owed: tuple[int, tuple[str, ...]] | None = None
    """The first secrets the score waits for: the seat and the pieces it lays face up."""
    recorded: int = 0
    """Actions the referee has recorded so far (a confirm adds one when it is handled)."""


@dataclass(frozen=True, slots=True)
class Hands:
    """The virtual table as a hand finds it: what lies where, how its sites stack."""

    board: dict[str, str]
    stacking: frozenset[str] = frozenset()
    under: Mapping[str, str | None] = field(default_factory=dict)
    piles: frozenset[str] = frozenset()
    labels: Mapping[str, str] = field(default_factory=dict)
    """Site id to its label as the game gives it (English; `place` names it for a page)."""
    game_id: str = ""
    names: Mapping[str, Sentence] = field(default_factory=dict)
    """Piece id to its name as the box prints it (the game's art), translated on the page."""

    @classmethod
    def of(cls, table: VirtualTable, names: Mapping[str, Sentence] | None = None) -> Hands:
        board = table.board()
        stacking = frozenset(site for site in table.sites if table.stacks_here(site))
        return cls(board, stacking, {site: table.piece_under(site) for site in stacking},
                   frozenset(table.pile_sites),
                   {site: place.label for site, place in table.coordinates.items()},
                   table.game.id, names or {})

    def name(self, piece: str) -> str | Sentence:
        """A piece in words: its name from the art, else its id's parts."""
        return self.names.get(piece) or piece_words(piece, self.game_id)

    def place(self, site: str) -> str | Sentence:
        return site_words(site, self.labels.get(site))


def site_words(site: str, label: str | None) -> str | Sentence:
    """A site in words the page translates, as the board names it (``site_label``); a site
    without a label by its id."""
    return site_label(label) if label else site


def piece_names(game: Game[Any]) -> dict[str, Sentence]:
    """Every piece's name from the game's art file (none if it has no art yet)."""
    try:
        art = art_of(game)
    except (OSError, DataFileError):
        return {}
    return {piece: found.name for piece in game.pieces()
            if (found := art.piece(piece)) is not None}


Kind = Literal["move", "chance", "confirm", "choose", "show"]


@dataclass(frozen=True, slots=True)
class Plan:
    """One step to make: batches of physical steps (the table is read after each batch),
    then perhaps a reading to pick; and what it means, for the page."""

    kind: Kind
    action: str | None
    batches: tuple[tuple[Step, ...], ...]
    choose: str | None
    headline: Sentence
    lines: tuple[Sentence, ...]
    step: Sentence | None = None
    """The game's own sentence for the step made (``describe_step``), in the box's words."""

    def sentences(self) -> tuple[Sentence, ...]:
        return (*((self.step,) if self.step is not None else ()), self.headline, *self.lines)


def piece_words(piece: str, game_id: str = "") -> str:
    """A piece id in words: its parts, without the game's own name (``topiary:swan:4`` ->
    ``swan 4``, ``mission:27`` -> ``mission 27``); a pile's pieces joined bottom to top."""
    def words(part: str) -> str:
        names = part.split(":")
        return " ".join(names[1:] if len(names) > 1 and names[0] == game_id else names)

    return " / ".join(map(words, pile_pieces(piece)))


def plan_next(position: Position, hands: Hands, rng: random.Random) -> Plan:
    """Choose the next step and plan the hands' steps that make it.

    In this order: secrets the score waits for are shown first (the table asks for them);
    a reading the table waits for is picked (the advised action if it is one of them); at
    the game's end nothing is left (NothingToDo); else the player on turn makes the advised
    action or a random legal one, or a visible draw from the box is drawn at random.
    """
    game, state = position.game, position.state
    site = game.reveal_site
    expected = game.board(state)
    if position.owed is not None and site is not None and site not in expected:
        return _show(position.owed, site, game.players(state), hands)
    if position.choice:
        action = position.advice if position.advice in position.choice else rng.choice(
            position.choice)
        public = {"action": game.public_action(state, action)}
        unseen = all(game.board(game.apply(state, a)) == expected for a in position.choice)
        piece = choice_piece(game, state, action)
        if unseen and piece is not None and game.choice_site is not None:
            return _show_choice(game, state, action, piece, game.choice_site, hands)
        why = (Sentence("Picked {action} among the choices the page offers: the table cannot "
                        "see this one.", public) if unseen else
               Sentence("Picked {action} from the readings the table could mean.", public))
        return Plan("choose", action, (), action, _headline(game, state, action), (why,),
                    game.describe_step(state))
    if game.is_terminal(state):
        raise NothingToDo(Sentence("The game is over: there is no next step. "
                                   "Start a new game on the status page."))
    successors = {action: game.board(game.apply(state, action))
                  for action in game.legal_actions(state)}
    actor = game.actor(state)
    if actor == CHANCE:
        if all(board == expected for board in successors.values()):
            raise NothingToDo(Sentence("The table is still drawing in secret: "
                                       "try again in a moment."))
        action = game.sample_chance(state, rng)
    else:
        shown = _expressible(successors, expected)
        action = position.advice if position.advice in shown else rng.choice(shown)
    after = successors[action]
    same = tuple(a for a, board in successors.items() if board == after)
    danger = {frozenset(board.items()) for a, board in successors.items() if board != after}
    danger |= {frozenset(board.items()) for board in position.earlier[-EARLIER_BOARDS:]
               if board != expected}
    steps = plan_steps(hands.board, after, hands.stacking, hands.under, hands.piles)
    ordered, _ = safe_order(hands.board, steps, danger, rng, piles=hands.piles)
    batches: list[tuple[Step, ...]] = [tuple(ordered)] if ordered else []
    chosen = None
    if len(same) > 1 and actor != CHANCE:
        chosen = action  # the table shows a reading to pick: pick this one
    elif after == hands.board or len(same) > 1:
        batches.append((Press(CONFIRM),))  # nothing to see (or a draw's first reading)
    kind: Kind = "chance" if actor == CHANCE else "move" if ordered else "confirm"
    lines = tuple(_say(ordered, hands)) + ((Sentence("Pressed confirm."),)
                                          if batches and batches[-1] == (Press(CONFIRM),)
                                          else ())
    if chosen is not None:
        lines += (Sentence("Picked {action} from the readings the table could mean.",
                           {"action": game.public_action(state, action)}),)
    if action == position.advice:
        lines += (Sentence("It is the move the AI advises."),)
    return Plan(kind, action, tuple(batches), chosen, _headline(game, state, action), lines,
                game.describe_step(state))


def _expressible(successors: Mapping[str, Board], board: Board) -> list[str]:
    """Actions a hand can show the referee: a board of their own (several actions sharing
    one are picked on the page), or the only action that moves nothing (confirm makes it).
    Of several silent actions beside moving ones, confirm would not know which."""
    silent = [action for action, after in successors.items() if after == board]
    good = [action for action, after in successors.items()
            if after != board or silent == [action]]
    return sorted(good or successors)


def _headline(game: Game[Any], state: Any, action: str) -> Sentence:
    public = game.public_action(state, action)
    actor = game.actor(state)
    if actor == CHANCE:
        return Sentence("Drawn from the box: {action}.", {"action": public})
    return Sentence("{player} played {action}.",
                    {"player": game.players(state)[actor], "action": public})


def _show(owed: tuple[int, tuple[str, ...]], site: str, players: Sequence[str],
          hands: Hands) -> Plan:
    """The seat's secrets laid face up on the reveal site one by one, read, taken off."""
    seat, pieces = owed
    where = hands.place(site)
    return Plan(
        "show", None,
        (tuple(Put(piece, site) for piece in pieces), tuple(Lift(site) for _ in pieces)),
        None,
        Sentence("{player} showed their secrets for the score.", {"player": players[seat]}),
        (Sentence("Laid {pieces} face up on {site}, let the table read them, and took them "
                  "off again.", {"pieces": listing([hands.name(piece) for piece in pieces]),
                                 "site": where}),))


def _show_choice(game: Game[Any], state: Any, action: str, piece: str, site: str,
                 hands: Hands) -> Plan:
    """A choice the board cannot show, made as players make it: a piece that names it laid
    on the game's choice site, read, taken off."""
    return Plan(
        "show", action, ((Put(piece, site),), (Lift(site),)), None,
        _headline(game, state, action),
        (Sentence("Laid {piece} on {site} to choose {action}, let the table read it, and "
                  "took it off again.", {"piece": hands.name(piece), "site": hands.place(site),
                                          "action": game.public_action(state, action)}),),
        game.describe_step(state))


def _say(steps: Sequence[Step], hands: Hands) -> list[Sentence]:
    """The hands' steps in words, whatever order the hand made them in: a piece lifted and
    put elsewhere is one move (to several sites if it spans them, as a rhombus does with a
    tag in each half), pieces only lifted went into the box, pieces only put came out of it."""
    board = dict(hands.board)
    lifts: list[tuple[str, str]] = []  # (piece, site), in the order made
    puts: list[tuple[str, str]] = []
    for step in steps:
        if isinstance(step, Lift) and step.site in board:
            pieces = pile_pieces(board.pop(step.site)) if step.site in hands.piles else (
                (board.pop(step.site),))
            if len(pieces) > 1:
                board[step.site] = pile_value(pieces[:-1])
            lifts.append((pieces[-1], step.site))
        elif isinstance(step, Put):
            puts.append((step.piece, step.site))
            board[step.site] = step.piece
    name = hands.place
    off: list[Sentence] = []
    said: list[Sentence] = []
    # pieces are grouped by name: the halves of a rhombus are two tags of one piece
    for called in dict.fromkeys(str(hands.name(piece)) for piece, _ in puts + lifts):
        starts = [site for one, site in lifts if str(hands.name(one)) == called]
        ends = [site for one, site in puts if str(hands.name(one)) == called]
        piece = next(one for one, _ in puts + lifts if str(hands.name(one)) == called)
        words = {"piece": hands.name(piece)}
        if len(starts) == 1 and ends:
            said.append(Sentence("Moved {piece} from {start} to {site}.", {
                **words, "start": name(starts[0]),
                "site": listing([name(site) for site in ends])}))
            starts, ends = [], []
        for start, end in zip(starts, ends, strict=False):
            said.append(Sentence("Moved {piece} from {start} to {site}.", {
                **words, "start": name(start), "site": name(end)}))
        paired = min(len(starts), len(ends))
        off += [Sentence("Took {piece} off {site} and put it in the box.",
                         {**words, "site": name(site)}) for site in starts[paired:]]
        said += [Sentence(FROM_BOX, {**words, "site": name(site)}) for site in ends[paired:]]
    from_box = [line for line in said if line.template == FROM_BOX]
    if len(from_box) > MANY_FROM_BOX:  # a whole set laid out: one line, the board shows where
        first = said.index(from_box[0])
        said = [line for line in said if line.template != FROM_BOX]
        said.insert(first, Sentence("Took {count} pieces from the box and laid them out.",
                                    {"count": str(len(from_box))}))
    return off + said


class Referee(Protocol):
    """What the composition lets the simulator ask of the referee (never the controller)."""

    async def settle(self, recorded: int | None = None) -> None:
        """Return once the referee has judged exactly what lies on the virtual table (and,
        given ``recorded``, has recorded that many actions: a button press is handled a
        moment after the hand lets go; a press it refuses is waited for only briefly)."""

    async def position(self) -> Position | None:
        """What the referee knows now (call after `settle`); None while no game runs."""

    async def choose(self, action: str) -> None:
        """Pick ``action`` among the readings the table could mean, once they are asked."""


@dataclass(frozen=True, slots=True)
class Done:
    """A step made: its plan and the physical steps in scenario text."""

    plan: Plan
    steps: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        sentences = self.plan.sentences()
        return {
            "kind": self.plan.kind,
            "action": self.plan.action,
            "message": " ".join(map(str, sentences)),
            "sentences": [sentence_json(sentence) for sentence in sentences],
            "steps": list(self.steps),
        }


def sentence_json(sentence: Sentence) -> dict[str, Any]:
    """A sentence for the page's ``t()``: the English template and its filled-in fields."""
    return {"template": sentence.template,
            "args": {name: sentence_json(value) if isinstance(value, Sentence) else value
                     for name, value in sentence.args.items()}}


class NextStep:
    """The page's "do the next step for me": choose with `plan_next`, then make it by hand.

    Its own random choices (moves without an advisor, draws from the box) come from ``seed``.
    """

    def __init__(self, table: VirtualTable, referee: Referee, seed: int = 0) -> None:
        if CONFIRM not in table.buttons.roles:
            raise ValueError(f"the table has no {CONFIRM!r} button")
        self.table = table
        self.referee = referee
        self.rng = random.Random(seed)
        self.names = piece_names(table.game)
        self._hands_busy = asyncio.Lock()

    async def __call__(self) -> Done:
        """Make the next step; a second press (another tab) waits until this one is made."""
        async with self._hands_busy:
            return await self._make()

    async def _make(self) -> Done:
        for settings, hub in zip(self.table.profile.hubs, self.table.hubs, strict=True):
            if not hub.plugged:  # the referee is blind there: it could never judge the step
                raise NothingToDo(Sentence("Hub {hub} is unplugged: plug it back in, then try "
                                           "again.", {"hub": settings.name}))
        await self.referee.settle()
        position = await self.referee.position()
        if position is None:
            raise NothingToDo(Sentence("No game is running: start one on the status page."))
        plan = plan_next(position, Hands.of(self.table, self.names), self.rng)
        made: list[str] = []
        for batch in plan.batches:
            for step in batch:
                await perform(self.table, step)
                made.append(str(step))
            pressed = any(isinstance(step, Press) for step in batch)
            await self.referee.settle(position.recorded + 1 if pressed else None)
        if plan.choose is not None:
            await self.referee.choose(plan.choose)
            await self.referee.settle(position.recorded + 1)
        return Done(plan, tuple(made))
