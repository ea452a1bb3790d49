"""The rule-engine contract (docs/engines.md, The whole contract).

An engine is a stateless object of pure functions over immutable states. Actions are their own
short text form (``"up2 lokahi"``): that makes them hashable, sortable, loggable and
JSON-ready with no extra machinery, and a replay record is just a list of them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from .errors import BadSetup
from .sentence import VERBATIM as VERBATIM  # re-exported: engines import them from here
from .sentence import Sentence as Sentence
from .sentence import comma_list as comma_list
from .sentence import listing as listing
from .sentence import verbatim as verbatim
from .whole_numbers import is_whole

if TYPE_CHECKING:
    from .scoresheet import ScoreSheet

CHANCE = -1
"""``actor()`` at a chance node: the table (or a random draw) decides."""
TERMINAL = -2
"""``actor()`` once the game is over."""

State = TypeVar("State")


@dataclass(frozen=True, slots=True)
class Site:
    """A place a sensor can see, with coordinates for drawing it (arbitrary units, y down)."""

    id: str
    x: float
    y: float
    label: str = ""
    stacks: bool = False
    """Pieces laid here cover the ones before (a card over cards): the reader hears them all,
    the top one is what ``board()`` shows, and lifting it uncovers the one below."""
    pile: bool = False
    """The whole pile counts, in order (a tower of coloured stones): ``board()`` names every
    piece here bottom to top, joined by ``PILE_JOIN`` (``pile_value``). Implies ``stacks``."""

    def __post_init__(self) -> None:
        if self.pile and not self.stacks:
            raise ValueError(f"site {self.id}: a pile site stacks (stacks=True)")


FACE_DOWN = "face-down"
"""What the public table shows on a site whose piece lies face down (``Game.face_down``)."""
PILE_JOIN = " / "
"""Between the pieces of a pile in a board value: ``stone:yellow / stone:blue``."""


def pile_value(pieces: Sequence[str]) -> str:
    """A pile's board value, bottom to top."""
    return PILE_JOIN.join(pieces)


def pile_pieces(value: str) -> tuple[str, ...]:
    """The pieces of a pile's board value, bottom to top (one piece: itself)."""
    return tuple(value.split(PILE_JOIN))


def pile_begins(pile: str, part: str) -> bool:
    """Is ``part`` the bottom of ``pile``: a tower with its first stones laid, more to come?"""
    pieces, begun = pile_pieces(pile), pile_pieces(part)
    return len(begun) < len(pieces) and pieces[:len(begun)] == begun


def face_down_board(board: Mapping[str, str], hidden: frozenset[str] | set[str]
                    ) -> dict[str, str]:
    """``board`` with the pieces on ``hidden`` sites shown only as ``FACE_DOWN``."""
    return {site: FACE_DOWN if site in hidden else piece for site, piece in board.items()}


@dataclass(frozen=True, slots=True)
class Secret:
    """Information hidden at the table: what it is, and from whom.

    ``hidden_from`` is ``"others"`` (its owner sees it: a hand, a mission card) or
    ``"everyone"`` (nobody does until it is revealed: a face-down tile, a set-aside card).
    """

    what: str
    hidden_from: Literal["others", "everyone"]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A game option: its allowed values (the first is the default) and what it means."""

    name: str
    choices: tuple[str, ...]
    help: str

    @property
    def default(self) -> str:
        return self.choices[0]


@dataclass(frozen=True, slots=True)
class RuleChange:
    """A correction of an engine's reading of the rules, made at ``revision``.

    Records and journals name the revision they were written at. A record from before this
    change replays with ``option`` read through ``was`` (its value then, filled in with the
    defaults of today -> the value that keeps the old reading), so a kept game still ends as
    it ended at the table.
    """

    revision: int
    option: str
    was: Mapping[str, str]
    why: str


@dataclass(frozen=True, slots=True)
class Limits:
    """The finite bounds of a game for one player count and option set.

    Search and OpenSpiel need them up front: a fixed numbering of every action (the index in
    ``actions``), a cap on the length of a game and the range of a player's total.
    """

    actions: tuple[str, ...]
    """Every action and chance outcome that can ever be legal, sorted and unique."""
    max_steps: int
    """No game has more steps (player actions and chance outcomes together)."""
    min_score: int
    """No player's total, running or final, is ever lower ..."""
    max_score: int
    """... or higher."""


class Game(ABC, Generic[State]):
    """Base class of every rule engine; see docs/engines.md for the contract."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    secrets: ClassVar[tuple[Secret, ...]] = ()
    """What the game hides from whom. A game with secrets overrides ``resample`` (the
    conformance check holds the two to each other)."""
    rule_changes: ClassVar[tuple[RuleChange, ...]] = ()
    """Corrections of the rules since revision 1, each with the option value that keeps the
    reading before it (see ``options_at``)."""

    @property
    def revision(self) -> int:
        """The revision of the rules this engine plays: 1 plus one per batch of corrections."""
        return max((change.revision for change in self.rule_changes), default=1)

    # -- setup ---------------------------------------------------------------------------------
    @abstractmethod
    def initial(self, players: Sequence[str], options: Mapping[str, str] | None = None) -> State:
        """The state before setup (the first steps are usually chance: shuffles and deals)."""

    def check_player_count(self, n_players: int) -> int:
        if not is_whole(n_players) or not self.min_players <= n_players <= self.max_players:
            raise BadSetup(Sentence("{game} is for {least} to {most} players, not {count}", {
                "game": Sentence(self.name), "least": str(self.min_players),
                "most": str(self.max_players), "count": repr(n_players)}))
        return n_players

    def check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        names = tuple(players)
        self.check_player_count(len(names))
        for name in names:
            if not isinstance(name, str) or not name.strip() or name != name.strip():
                raise BadSetup(Sentence("player names must be non-empty words, got {name}",
                                        {"name": repr(name)}))
        if len(set(names)) != len(names):
            raise BadSetup(Sentence("player names must differ: {names}",
                                    {"names": ", ".join(names)}))
        return names

    def check_options(self, options: Mapping[str, str] | None) -> dict[str, str]:
        """Fill in defaults and refuse unknown options or values, naming what is allowed."""
        given = dict(options or {})
        specs = {spec.name: spec for spec in self.options}
        for key in given:
            if key not in specs:
                known: str | Sentence = ", ".join(specs) or Sentence("none")
                raise BadSetup(Sentence("{game} has no option {option} (options: {known})", {
                    "game": Sentence(self.name), "option": repr(key), "known": known}))
        result = {}
        for spec in self.options:
            value = given.get(spec.name, spec.default)
            if value not in spec.choices:
                raise BadSetup(Sentence(
                    "option {option} must be one of {choices}, not {value}",
                    {"option": spec.name, "choices": ", ".join(spec.choices),
                     "value": repr(value)}))
            result[spec.name] = value
        return result

    def options_at(self, options: Mapping[str, str] | None, revision: int) -> dict[str, str]:
        """The options that replay a game written at rules ``revision`` as it was played then.

        Defaults are filled in first; each later rule change then maps its option back to the
        value that keeps the old reading. Refuses a revision this engine does not know.
        """
        if not is_whole(revision) or not 1 <= revision <= self.revision:
            raise BadSetup(Sentence("{game} knows rules revisions 1 to {newest}, not {given}", {
                "game": Sentence(self.name), "newest": str(self.revision),
                "given": repr(revision)}))
        chosen = self.check_options(options)
        newest_first = sorted(self.rule_changes, key=lambda change: -change.revision)
        for change in newest_first:
            if change.revision > revision:
                value = chosen[change.option]
                chosen[change.option] = change.was.get(value, value)
        return chosen

    # -- playing -------------------------------------------------------------------------------
    @abstractmethod
    def actor(self, state: State) -> int:
        """The seat to act, or CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_actions(self, state: State) -> list[str]:
        """The actor's legal actions, sorted and unique; the outcomes at a chance node."""

    @abstractmethod
    def chance_outcomes(self, state: State) -> list[tuple[str, Fraction]]:
        """At a chance node: the outcomes (as in ``legal_actions``) with exact probabilities."""

    @abstractmethod
    def apply(self, state: State, action: str) -> State:
        """The successor state; raises IllegalAction with a reason. Never mutates ``state``."""

    @abstractmethod
    def parse_action(self, text: str) -> str:
        """The canonical text of an action typed by a person; raises BadActionText."""

    def sample_chance(self, state: State, rng: random.Random) -> str:
        """Draw one chance outcome with its exact probability."""
        outcomes = self.chance_outcomes(state)
        point = rng.random()
        for action, probability in outcomes:
            point -= float(probability)
            if point < 0:
                return action
        return outcomes[-1][0]

    def is_terminal(self, state: State) -> bool:
        return self.actor(state) == TERMINAL

    # -- what the current step is -------------------------------------------------------------
    def phase(self, state: State) -> str:
        """A short id of the part of the game (``setup``, ``play``, ``scoring``, ``over``)."""
        phase = self.view(state, None).get("phase")
        if isinstance(phase, str):
            return phase
        return "over" if self.is_terminal(state) else "play"

    def to_act(self, state: State) -> int | None:
        """The seat whose hands make the next step, or None when it is nobody's in particular.

        Usually the actor; a game whose chance steps a player performs at the table (the start
        player building the stack, the dealer dealing) names that player.
        """
        actor = self.actor(state)
        return actor if actor >= 0 else None

    def describe_step(self, state: State) -> Sentence:
        """One sentence for the current step: who does what, where. Games say it better."""
        if self.is_terminal(state):
            return Sentence("Game over.")
        seat = self.to_act(state)
        if seat is None:
            return Sentence("Set out what the table asks for.")
        return Sentence("{player}: your turn.", {"player": self.players(state)[seat]})

    # -- scoring -------------------------------------------------------------------------------
    @abstractmethod
    def score(self, state: State) -> ScoreSheet:
        """The running (or final) score sheet."""

    def winners(self, state: State) -> list[int]:
        """Seats with the highest total; games with tie-breaks override this."""
        totals = self.score(state).totals
        best = max(totals)
        return [seat for seat, total in enumerate(totals) if total == best]

    def describe_result(self, state: State) -> Sentence:
        """At game end, one sentence naming the winner(s) and why: the headline of the
        game-over screen. The default names the winners with their points, says when the win
        is shared, and when the winners' total was matched by someone the game's tie-break
        left behind; games with tie-breaks override it to say which rule decided."""
        if not self.is_terminal(state):
            return Sentence("The game is not over yet.")
        names = self.players(state)
        totals = self.score(state).totals
        winners = sorted(self.winners(state))
        points = totals[winners[0]]
        if len(winners) > 1:
            together = {"players": listing([names[seat] for seat in winners]),
                        "points": str(points)}
            if points == 1:
                return Sentence("{players} share the win with 1 point each.", together)
            return Sentence("{players} share the win with {points} points each.", together)
        alone = {"player": names[winners[0]], "points": str(points)}
        if sum(1 for total in totals if total == points) > 1:
            if points == 1:
                return Sentence("{player} wins the tie-break with 1 point.", alone)
            return Sentence("{player} wins the tie-break with {points} points.", alone)
        if points == 1:
            return Sentence("{player} wins with 1 point.", alone)
        return Sentence("{player} wins with {points} points.", alone)

    @abstractmethod
    def score_position(self, position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
        """Score a position given as JSON (``tabletop score``); raises BadPosition."""

    # -- what people and sensors see ----------------------------------------------------------
    @abstractmethod
    def players(self, state: State) -> tuple[str, ...]:
        """Player names in seat order."""

    @abstractmethod
    def view(self, state: State, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: the public table), JSON-ready."""

    def resample(self, state: State, player: int | None, rng: random.Random) -> State:
        """A state drawn from those ``player`` cannot tell apart from ``state``.

        Used by the conformance check (a view must not change when what it hides changes)
        and by AI players. Games without hidden information return the state itself.
        """
        return state

    # -- choices the board cannot see, shown with a piece (controller/table.py) -------------
    choice_site: ClassVar[str | None] = None
    """Where a player lays a piece to make a choice that leaves the board as it is (which
    shape goes back in the box): the piece names the choice, then comes off again."""

    def choice_pieces(self, state: State) -> Mapping[str, str]:
        """Piece id -> the legal action that laying it on ``choice_site`` makes, at a choice
        among actions that all leave the board as it is. Empty where there is none."""
        return {}

    # -- secrets the players deal themselves (controller/unresolved.py) --------------------
    reveal_site: ClassVar[str | None] = None
    """Where a player lays secrets face up when the table asks for them (one of ``sites``)."""

    def revealed_pieces(self, state: State, seat: int) -> tuple[str, ...]:
        """The pieces ``seat`` lays on the reveal site when asked: its scored secrets (a
        mission card, hidden score tiles), as piece ids. Games whose secrets are never scored
        return nothing."""
        return ()

    def dealt_piece(self, outcome: str) -> str:
        """What an unseen chance outcome gives: two outcomes that give the same piece (a red
        card dealt, a red card drawn) are the same card from the box, so the search for another
        dealing may swap them between two draws. By default the outcome itself."""
        return outcome

    def limits_play(self, state: State) -> bool:
        """At a chance node the table cannot see: may its outcome decide which steps are
        legal later (a card dealt into a hand)? False for a draw that only scores (a mission
        card): the table never searches for another outcome of it to explain a board, and a
        board no step explains under the working guess is then a mistake whatever it was.
        The conformance check holds a game to its answer. By default True."""
        return True

    players_deal: ClassVar[bool] = False
    """The players may deal from the box: every draw the table cannot see is either never
    scored or shown when ``needs_secrets`` asks for it. A game that has not said so gets the
    digital dealer (a score is never computed from a guess)."""

    def players_can_deal(self, options: Mapping[str, str]) -> bool:
        """Can the players deal the secrets from the box with these options? Not where what
        the table does next depends on a secret at once (then the digital dealer deals)."""
        return self.players_deal

    def needs_secrets(self, before: State, after: State) -> tuple[int, ...]:
        """Seats whose ``revealed_pieces(before, seat)`` the score of ``after`` depends on (the
        step scored a round or ended the game). Until they are shown the score is unknown."""
        return ()

    def withhold(self, view: dict[str, Any], seats: Sequence[int]) -> dict[str, Any]:
        """The public ``view`` while the secrets of ``seats`` are yet to be shown: what
        depends on them is not known, and the table never shows a guess. By default the
        score; games whose view shows more that depends on them override this."""
        return {key: None if key in ("score", "scores") else value
                for key, value in view.items()}

    # -- what everyone may know (controller/secrecy.py; checked by the conformance check) ---
    def face_down(self, state: State) -> frozenset[str]:
        """Sites whose piece lies face down: the readers know which piece it is, the players
        do not, so the public table shows only that something lies there (``FACE_DOWN``)."""
        return frozenset()

    def public_action(self, state: State, action: str) -> str:
        """``action``, made from ``state``, as everyone may read it: a tile laid face down or a
        card dealt into a hand is not named. Actions whose results nobody but their owner can
        tell apart must read the same. By default the action itself."""
        return action

    def action_sentence(self, state: State, action: str) -> Sentence:
        """``action``, made from ``state``, told as a whole sentence for the page's list of
        events: who did what (a chance step names nobody, or the player it dealt to). It tells
        no more than ``public_action``. The action text itself stays as it is, since records
        parse it back; by default this is that text after the actor's name, untranslated."""
        text = self.public_action(state, action)
        actor = self.actor(state)
        if actor >= 0:
            return Sentence("{player}: {text}", {"player": self.players(state)[actor],
                                                 "text": text})
        return verbatim(text)

    @abstractmethod
    def sites(self, n_players: int) -> tuple[Site, ...]:
        """Every sensed site of the table for this many players."""

    @abstractmethod
    def board(self, state: State) -> dict[str, str]:
        """What the physical table must show: site id to piece id, empty sites left out."""

    def public_board(self, state: State) -> dict[str, str]:
        """``board`` as everyone may see it: face-down pieces are only ``FACE_DOWN``."""
        return face_down_board(self.board(state), self.face_down(state))

    @abstractmethod
    def pieces(self) -> tuple[str, ...]:
        """Every tagged piece id in the box (interchangeable pieces share one id)."""

    def renamed(self) -> Mapping[str, str]:
        """Words of earlier data renamed since (old -> new: a shape given its name in the box).
        Records, positions and states with the old words still read; so do enrolled tags whose
        piece ids use them (``current_piece``)."""
        return {}

    def current_piece(self, piece: str | None) -> str | None:
        """Today's id of a piece an older tag registry knows by an earlier name."""
        renamed = self.renamed()
        if piece is None or not renamed:
            return piece
        return ":".join(renamed.get(part, part) for part in piece.split(":"))

    def copies(self) -> Mapping[str, int]:
        """How many of an interchangeable piece the box holds, where it is more than one and
        known from the data (the simulator prints that many tags)."""
        return {}

    def render(self, state: State, player: int | None) -> str:
        """A plain-text picture of the view, for terminal play."""
        import json

        return json.dumps(self.view(state, player), indent=2)

    # -- bounds --------------------------------------------------------------------------------
    def limits(self, n_players: int, options: Mapping[str, str] | None = None) -> Limits:
        """The action numbering and bounds for this many players and these options.

        Checked like ``initial``; made once per engine, player count and options (search and
        the OpenSpiel bridge ask often).
        """
        chosen = self.check_options(options)
        self.check_player_count(n_players)
        key = (n_players, tuple(sorted(chosen.items())))
        cache: dict[Any, Limits] = self.__dict__.setdefault("_limits_cache", {})
        if key not in cache:
            cache[key] = self.compute_limits(n_players, chosen)
        return cache[key]

    @abstractmethod
    def compute_limits(self, n_players: int, options: Mapping[str, str]) -> Limits:
        """``limits`` for a checked player count and options filled in with their defaults.

        Enumerate the actions from the game's data (never by sampling games) and prove the
        bounds in the docstring of whatever computes them.
        """

    # -- serialisation -------------------------------------------------------------------------
    @abstractmethod
    def state_to_json(self, state: State) -> dict[str, Any]:
        """A JSON-ready dict that ``state_from_json`` turns back into an equal state."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Raises BadState for anything that is not a state of this game."""
