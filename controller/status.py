"""What the page, the SSE stream and the API report, as typed models.

One model per shape, shared by everyone who reads it: the service builds them, the web layer
returns them (so ``/openapi.json`` documents them), the page and the tests read the same fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from weakref import WeakKeyDictionary

from pydantic import BaseModel, ConfigDict, Field

from games.core.game import CHANCE, Sentence
from games.core.translation import Catalogue

from .language import ENGLISH, piece_namer, site_namer
from .referee import (
    Choose,
    Decision,
    Discrepancy,
    InProgress,
    Namer,
    SecretShown,
    TakeBack,
    capitalised,
    named,
)

if TYPE_CHECKING:
    from .table import Table

Board = dict[str, str]
"""Site id to piece id; empty sites are left out."""
Translate = Callable[[Sentence | str], str]
"""A catalogue's ``text``: a sentence (or msgid) in the reader's language."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Event(Model):
    """A line of the page's list of last events."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Logged:
    """An event as the table logs it: kept as a sentence, rendered per reader's language."""

    kind: str
    message: Sentence | str
    """A ``str`` is shown as written (a text from outside: an OS error, a hub's words)."""

    @property
    def text(self) -> str:
        """The event in English."""
        return str(self.message)

    def event(self, translate: Translate) -> Event:
        """The line for a page, in the language ``translate`` words it."""
        if isinstance(self.message, Sentence):
            return Event(kind=self.kind, text=translate(self.message))
        return Event(kind=self.kind, text=self.message)


class Step(Model):
    """The current step in one sentence; ``template`` and ``args`` let a page translate it."""

    text: str
    template: str
    args: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def of(cls, sentence: Sentence | str, translate: Translate = str) -> Step:
        """``text`` in the reader's language; ``args`` with nested names translated too."""
        if isinstance(sentence, Sentence):
            return cls(text=translate(sentence), template=sentence.template,
                       args={name: translate(value) if isinstance(value, Sentence) else value
                             for name, value in sentence.args.items()})
        return cls(text=translate(sentence), template=sentence)


class SweepAt(Model):
    """Where the end-of-game LED sweep is now: this player's score line is lit on the table."""

    player: str
    line: int
    """Index into the player's ``Scores.lines``."""


class LegalMove(Model):
    """One legal step as the table will look after it, on the sites it changes."""

    action: str
    """As everyone may read it (``Game.public_action``)."""
    changes: dict[str, str | None]
    """Site to what lies there afterwards (a piece, a pile, ``face-down``); None: emptied."""


MAX_LEGAL_MOVES = 60
"""A page shows this many legal steps at most (a chance node may have hundreds)."""


_LEGAL_MOVES: WeakKeyDictionary[Table, tuple[Any, Any, list[LegalMove] | None]] = (
    WeakKeyDictionary())
"""Per table, its last ``legal_moves``, with the state and the successors it was made from."""


def legal_moves(table: Table) -> list[LegalMove] | None:
    """The public legal steps that change the table, each with its changed sites, for the page
    to draw as pictures; None when the legal steps would tell a secret hand.

    The same in every language, so made once per position (and per AI choice, which narrows
    the successors), not once per rendering: comparing the public boards of all successors is
    the costly part of a status, and every language and SSE client asks again.
    """
    state, successors = table.state, table.successors
    cached = _LEGAL_MOVES.get(table)
    if cached is None or cached[0] is not state or cached[1] is not successors:
        cached = (state, successors, _legal_moves(table))
        _LEGAL_MOVES[table] = cached
    moves = cached[2]
    return None if moves is None else list(moves)


def _legal_moves(table: Table) -> list[LegalMove] | None:
    """``legal_moves`` made anew."""
    legal = table.public_legal()
    if legal is None:
        return None
    allowed, successors = set(legal), table.successors
    before = table.public_board(successors.board)
    moves = []
    for successor in successors.changing:
        if successor.action not in allowed:
            continue
        after = table.public_board(successor.board)
        changes = {site: after.get(site) for site in sorted(before.keys() | after.keys())
                   if before.get(site) != after.get(site)}
        if changes:
            moves.append(LegalMove(action=table.game.public_action(table.state, successor.action),
                                   changes=changes))
        if len(moves) >= MAX_LEGAL_MOVES:
            break
    return moves


class Scores(Model):
    scores: dict[str, int]
    """Player name to running (or final) total."""
    lines: dict[str, list[str]]
    """Player name to the lines the total is made of."""
    sweep: SweepAt | None = None
    """The line the end-of-game sweep lights now (None: no sweep running)."""


class WrongSiteReport(Model):
    site: str
    expected: str | None
    seen: str | None
    advice: str


class DiscrepancyReport(Model):
    message: str
    wrong_sites: list[str]
    sites: list[WrongSiteReport]

    @classmethod
    def of(cls, decision: Decision, translate: Translate = str, piece_name: Namer | None = None,
           site_name: Namer | None = None) -> DiscrepancyReport | None:
        """``piece_name``, ``site_name``: the game's names for its pieces and sites (default:
        their ids, readably)."""
        if not isinstance(decision, Discrepancy):
            return None
        return cls(message=capitalised(translate(decision.told(piece_name, site_name))),
                   wrong_sites=[w.site for w in decision.wrong],
                   sites=[WrongSiteReport(site=w.site, expected=w.expected, seen=w.seen,
                                          advice=translate(w.sentence(piece_name, site_name)))
                          for w in decision.wrong])


class Prompt(Model):
    """A question only a person can answer: which reading (``choose``) or take back (``undo``)."""

    kind: Literal["choose", "undo"]
    options: list[str] = Field(default_factory=list)
    steps: int | None = None

    @classmethod
    def of(cls, decision: Decision, public: Callable[[str], str] = str) -> Prompt | None:
        """``public``: an action as everyone may read it, in the reader's language."""
        if isinstance(decision, Choose):
            return cls(kind="choose", options=[public(s.action) for s in decision.successors])
        if isinstance(decision, TakeBack):
            return cls(kind="undo", steps=decision.steps)
        return None


class Progress(Model):
    """A step under way: the sites still to change."""

    targets: list[str]
    active: list[str]
    actions: list[str]
    message: str

    @classmethod
    def of(cls, decision: Decision, public: Callable[[str], str] = str,
           translate: Translate = str, site_name: Namer = named) -> Progress | None:
        """``public``: an action as everyone may read it; ``site_name``: a site in words."""
        if not isinstance(decision, InProgress):
            return None
        sites = ", ".join(translate(site_name(t)) for t in decision.targets[:6])
        return cls(targets=list(decision.targets), active=list(decision.active),
                   actions=list(dict.fromkeys(public(s.action)
                                              for s in decision.successors))[:20],
                   message=translate(Sentence("go on: {sites}", {"sites": sites})))


class AdviceReport(Model):
    """The AI's move for an AI seat (``ai``) or a hint (``hint``)."""

    kind: Literal["ai", "hint"]
    player: str
    action: str
    sites: list[str]
    how: str
    values: dict[str, float]
    seconds: float
    simulations: int


class Seat(Model):
    seat: int
    player: str
    ai: int | None = None
    """The AI's strength (simulations per move) when the AI plays this seat."""
    on_a_phone: bool = False
    """A phone holds this seat's private view."""


class SecretsWanted(Model):
    """The first of the secrets the score waits for (the page's headline asks for it)."""

    player: str
    pieces: int
    """How many pieces to lay (their names are the secret)."""
    site: str
    waiting: list[str]
    """Every player whose secrets the score still waits for, in the order asked."""


class GameStatus(Model):
    """What the table knows about the game: the referee's side of the status."""

    game: str
    started: bool
    game_id: int | None = None
    players: list[str] = Field(default_factory=list)
    options: dict[str, str] = Field(default_factory=dict)
    phase: str | None = None
    to_act: str | None = None
    """The player whose hands make the next step (None: nobody in particular, or no game)."""
    drawing: bool = False
    """The next step is a draw or a deal from the box (a chance step): ``to_act`` makes it by
    hand, but there is nothing to choose (no hint)."""
    step: Step | None = None
    finished: bool = False
    moves: int = 0
    last_action: str | None = None
    view: dict[str, Any] = Field(default_factory=dict)
    """The game's public view (nothing any player hides)."""
    expected_board: Board = Field(default_factory=dict)
    legal: list[str] | None = None
    """The legal actions now; None when they depend on a secret hand."""
    legal_moves: list[LegalMove] | None = None
    """The legal steps that change the table, as pictures can show them (None like ``legal``)."""
    scores: Scores | None = None
    """None while the score waits for secrets to be shown (never a guess)."""
    winners: list[str] = Field(default_factory=list)
    result: str | None = None
    """Once the game is over and scored: who won and why (the game's ``describe_result``)."""
    dealer: str = "players"
    """Who deals the secrets: ``players`` (from the box) or ``digital`` (the service)."""
    unseen_draws: int = 0
    """Draws the players made from the box that the table did not see."""
    secrets_wanted: SecretsWanted | None = None
    """The secrets the score waits for: who lays what where, now."""
    decision: str = "NoChange"
    discrepancy: DiscrepancyReport | None = None
    prompt: Prompt | None = None
    progress: Progress | None = None
    seats: list[Seat] = Field(default_factory=list)
    ai_seats: list[str] = Field(default_factory=list)
    advice: AdviceReport | None = None
    events: list[Event] = Field(default_factory=list)


class UnknownTag(Model):
    site: str
    uid: str


class Thinking(Model):
    kind: Literal["ai", "hint"]
    player: str


class Sweep(Model):
    """The end-of-game score sweep: the line being lit now."""

    player: str
    text: str
    points: int
    sites: list[str]


class Heartbeat(Model):
    uptime_ms: int
    scan_cycles: int
    crc_errors: int
    missed_reads: int
    cycle_us: int


class HubHealth(Model):
    name: str
    url: str
    connected: bool
    blind: bool
    """Its region of the board is not seen now (down, or no snapshot since it came back)."""
    unique_id: str | None
    """What it said in its hello (the profile's, before it has)."""
    readers: int
    frames: int
    crc_errors: int
    dropped: int
    gaps: int
    reconnects: int
    last_error: str | None
    firmware: str | None
    scan_ms: float | None
    """One scan of all its readers, measured from its heartbeats."""
    heartbeat: Heartbeat | None
    byte_errors: float | None = None
    """Share of bytes its cable damages or loses, estimated from the frames of the last 5 s."""
    too_noisy: str | None = None
    """Set when the cable damages more than the link can make good: what to check."""


class ReaderHealth(Model):
    reader: int
    site: str | None
    status: str
    version: int | None = None


class LedHealth(Model):
    count: int
    pushes: int | None


class Hardware(Model):
    hubs: list[HubHealth]
    readers: list[ReaderHealth]
    blind_sites: list[str]
    """Sites of hubs that are down: the table is not judged until they are seen again."""
    leds: LedHealth


class Club(Model):
    """The table's line to a club's MQTT broker (``tabletop run --mqtt``)."""

    broker: str
    """The broker's address, without a password."""
    table: str
    """The table's name in the club's topics."""
    connected: bool
    waiting: int
    """Finished games' results kept until the club confirms it has them."""
    problem: str | None = None


class Status(GameStatus):
    """Everything the page shows: the game, what the sensors see, the LEDs, the hardware."""

    observed_board: Board
    unknown_tags: list[UnknownTag]
    leds: dict[str, str]
    """Site to the colour it shows now, as ``#rrggbb``."""
    roles: dict[str, str]
    """Site to its role in the LED language (legal, active, wrong, ...)."""
    thinking: Thinking | None
    ai_available: bool
    sweep: Sweep | None = None
    palette: dict[str, str] = Field(default_factory=dict)
    """LED role to the colour the table shows it in, as ``#rrggbb`` (the page's legend)."""
    hardware: Hardware
    club: Club | None = None


class SiteInfo(Model):
    id: str
    x: float
    y: float
    label: str


class Sites(Model):
    game: str
    name: str
    sites: list[SiteInfo]


class GameInfo(Model):
    id: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, list[str]]
    labels: dict[str, str] = Field(default_factory=dict)
    """Each option's name and choice (the ids ``options`` holds; an option's name and one of
    its choices may be the same word only if they mean the same) as the reader's language
    says it, for the page's form (the ids are what a new game is sent)."""
    help: dict[str, str] = Field(default_factory=dict)
    """What each option's choices mean, in the reader's language (its msgid is the game's
    English ``OptionSpec.help``)."""


class Done(Model):
    ok: bool
    message: str


class SeatToken(Model):
    seat: int
    token: str


class PrivateHint(Model):
    action: str
    values: dict[str, float]
    seconds: float
    simulations: int


def game_status(table: Table, catalogue: Catalogue = ENGLISH) -> GameStatus:
    """The referee's side of the status, read off the table, every text for people in the
    catalogue's language."""
    translate = catalogue.text
    events = [logged.event(translate) for logged in table.events[-12:]]
    if not table.started:
        return GameStatus(game=table.game.id, started=False, events=events)
    state, players, game = table.state, table.players, table.game
    finished = game.is_terminal(state)
    seat = game.to_act(state)
    decision = table.public_decision

    def public(action: str) -> str:
        return game.public_action(state, action)

    def told(action: str) -> str:
        return translate(game.action_sentence(state, action))

    pending = table.pending_reveals()
    view = game.view(state, None)
    step = Step.of(game.describe_step(state), translate)
    wanted = None
    if pending:
        view = game.withhold(view, sorted({seat for _, seat in pending}))
        first_step, first = pending[0]
        wanted = SecretsWanted(player=players[first],
                               pieces=len(game.revealed_pieces(table.states[first_step], first)),
                               site=game.reveal_site or "",
                               waiting=list(dict.fromkeys(players[s] for _, s in pending)))
        if finished or not isinstance(decision, (InProgress, Discrepancy)):
            step = Step.of(Sentence(
                "{player}: lay your secret pieces face up on the {site} to be scored.",
                {"player": wanted.player, "site": site_namer(game)(wanted.site)}), translate)
    if isinstance(decision, SecretShown):
        whose: dict[str, str | Sentence] = {"player": players[decision.seat],
                                            "site": site_namer(game)(game.reveal_site)}
        step = Step.of(Sentence("{player}'s secrets are recorded: take them off the {site}.",
                                whose) if decision.complete else
                       Sentence("{player}: lay the rest of your secret pieces on the {site}.",
                                whose), translate)
    scored = finished and not pending
    advice = table.book.report(state, players, table.all_successors)
    return GameStatus(
        game=table.game.id,
        game_id=table.game_id,
        started=True,
        players=list(players),
        options=table.options,
        phase=table.game.phase(state),
        to_act=players[seat] if seat is not None else None,
        drawing=game.actor(state) == CHANCE,
        step=step,
        finished=finished,
        moves=len(table.actions),
        last_action=table.history.last_visible_action(),
        view=view,
        expected_board=table.public_board(table.expected_board),
        legal=table.public_legal(),
        legal_moves=legal_moves(table),
        scores=None if pending else Scores(**game.score(state).to_json(translate)),
        winners=[players[s] for s in game.winners(state)] if scored else [],
        result=translate(game.describe_result(state)) if scored else None,
        dealer=table.dealer,
        unseen_draws=table.unseen,
        secrets_wanted=wanted,
        decision=type(decision).__name__,
        discrepancy=DiscrepancyReport.of(decision, translate, piece_namer(game),
                                         site_namer(game)),
        prompt=Prompt.of(decision, told),
        progress=Progress.of(decision, public, translate, site_namer(game)),
        seats=[Seat(seat=n, player=name, ai=table.ai.get(n), on_a_phone=table.seats.held(n))
               for n, name in enumerate(players)],
        ai_seats=[players[n] for n in sorted(table.ai)],
        advice=None if advice is None else advice.model_copy(
            update={"how": translate(advice.how)}),
        events=events,
    )
