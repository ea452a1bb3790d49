"""The conformance check every registered engine must pass (docs/engines.md, The conformance check).

It plays seeded random games and, at every step, checks the contract: legal actions sorted,
unique and non-empty until the end and all within the game's declared limits (action
numbering, game length, score range); exact chance probabilities summing to 1; ``apply`` pure
and refusing illegal actions with a reason; JSON round-trips; score lines adding up; a step
sentence, phase and seat to act; at the end a result sentence naming every winner; declared
secrets that match ``resample``; and views that do not change when what they hide is redrawn
(so they cannot leak it).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import BadActionText, IllegalAction
from .game import CHANCE, TERMINAL, Game, Secret, Sentence, pile_pieces
from .playout import random_step, seat_names


class ConformanceError(AssertionError):
    """An engine broke the contract; the message says where and how to replay it."""


@dataclass(frozen=True, slots=True)
class ConformanceReport:
    games: int
    steps: int
    hidden_checks: int


def check_game(
    game: Game[Any],
    games: int = 50,
    seed: int = 0,
    player_counts: Sequence[int] | None = None,
    options: Sequence[Mapping[str, str]] = ({},),
) -> ConformanceReport:
    """Play ``games`` random games per player count and option set; raise ConformanceError."""
    counts = player_counts or range(game.min_players, game.max_players + 1)
    steps = hidden = played = 0
    for count in counts:
        for option_set in options:
            for number in range(games):
                game_seed = seed * 1_000_003 + count * 1009 + number
                run = _Run(game, seat_names(count), dict(option_set), game_seed)
                run.play()
                steps += run.steps
                hidden += run.hidden_checks
                played += 1
    return ConformanceReport(played, steps, hidden)


def _well_formed(sentence: Sentence) -> bool:
    """Every arg, at every depth, is a str or a Sentence (what a catalogue can render)."""
    return isinstance(sentence.template, str) and all(
        isinstance(value, str) or (isinstance(value, Sentence) and _well_formed(value))
        for value in sentence.args.values())


class _Run:
    def __init__(self, game: Game[Any], players: list[str], options: dict[str, str], seed: int):
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.rng = random.Random(seed)
        self.history: list[str] = []
        self.seen_actions: dict[str, None] = {}
        """Every action seen legal so far, in first-seen order (a dict keeps runs seeded)."""
        self.steps = 0
        self.hidden_checks = 0
        self.limits = game.limits(len(players), options)
        self.numbered = frozenset(self.limits.actions)

    def fail(self, message: str) -> None:
        raise ConformanceError(
            f"{self.game.id} ({len(self.players)} players, options {self.options}, "
            f"seed {self.seed}) after {len(self.history)} actions "
            f"{self.history[-5:]}: {message}"
        )

    def play(self) -> None:
        game = self.game
        self.check_limits()
        self.check_secrets()
        state = game.initial(self.players, self.options)
        if game.players(state) != tuple(self.players):
            self.fail("players() does not return the names given to initial()")
        twin: Any = None
        """The state had the last draw that ``limits_play`` says decides nothing come out
        otherwise: while the same actions stay possible, its players may do the same."""
        while True:
            self.check_state(state)
            if game.actor(state) == TERMINAL:
                return
            action = random_step(game, state, self.rng)
            twin = self.check_twin(state, twin, action)
            before = self.snapshot(state)
            after = game.apply(state, action)
            if self.snapshot(state) != before:
                self.fail(f"apply({action!r}) changed its input state")
            if after == state:
                self.fail(f"apply({action!r}) returned an equal state")
            self.history.append(action)
            self.steps += 1
            state = after
            if self.steps > self.limits.max_steps:
                self.fail(f"the game is longer than limits().max_steps = {self.limits.max_steps}")

    def check_twin(self, state: Any, twin: Any, action: str) -> Any:
        """A draw ``limits_play`` calls free of consequence for play (a mission card) must
        leave every player's legal actions as another outcome would: the twin, dealt
        otherwise, follows the game and is compared at each player's step. Returns the
        twin after ``action`` (a new one at such a draw; None once a later draw's outcome is
        not possible for it)."""
        game = self.game
        actor = game.actor(state)
        if twin is not None and actor != CHANCE and (
                game.legal_actions(twin) != game.legal_actions(state)):
            self.fail("limits_play() said a draw decides nothing for play, but dealt "
                      "otherwise the player on turn has other legal actions")
        if actor == CHANCE and not game.limits_play(state):
            others = [outcome for outcome in game.legal_actions(state) if outcome != action]
            if others:
                self.hidden_checks += 1
                return game.apply(state, self.rng.choice(others))
        if twin is None or action not in game.legal_actions(twin):
            return None
        return game.apply(twin, action)

    def check_secrets(self) -> None:
        """What a game hides is declared, and only a game that hides something redraws it."""
        secrets = self.game.secrets
        if any(not isinstance(s, Secret) or not s.what.strip() for s in secrets):
            self.fail("secrets must be Secret(what, hidden_from) with a description")
        redraws = type(self.game).resample is not Game.resample
        if secrets and not redraws:
            self.fail("the game declares secrets but does not override resample() to redraw them")
        if redraws and not secrets:
            self.fail("the game overrides resample() but declares no secrets: say what it hides")

    def check_step(self, state: Any, actor: int) -> None:
        """The page's headline: a sentence that formats, a phase, and whose hands act."""
        sentence = self.game.describe_step(state)
        if not isinstance(sentence, Sentence):
            self.fail(f"describe_step() returned {type(sentence).__name__}, not a Sentence")
        try:
            text = str(sentence)
        except (KeyError, IndexError, ValueError) as error:
            self.fail(f"describe_step()'s template does not format with its args: {error!r}")
        if not text.strip() or not _well_formed(sentence):
            self.fail(f"describe_step() must say something, with str or Sentence args: "
                      f"{sentence!r}")
        phase = self.game.phase(state)
        if not isinstance(phase, str) or not phase:
            self.fail(f"phase() returned {phase!r}")
        seat = self.game.to_act(state)
        if seat is not None and not 0 <= seat < len(self.players):
            self.fail(f"to_act() returned {seat!r}")
        if actor >= 0 and seat != actor:
            self.fail(f"to_act() is {seat!r} while seat {actor} is to act")

    def check_result(self, state: Any, winners: list[int]) -> None:
        """The game-over headline: a sentence that formats and names every winner."""
        result = self.game.describe_result(state)
        if not isinstance(result, Sentence) or not _well_formed(result):
            self.fail(f"describe_result() must return a Sentence with str or Sentence args: "
                      f"{result!r}")
        try:
            text = str(result)
        except (KeyError, IndexError, ValueError) as error:
            self.fail(f"describe_result()'s template does not format with its args: {error!r}")
        missing = [self.players[seat] for seat in winners
                   if not re.search(rf"(?<!\w){re.escape(self.players[seat])}(?!\w)", text)]
        if not text.strip() or missing:
            self.fail(f"describe_result() {text!r} does not name the winners {missing}")

    def check_limits(self) -> None:
        actions = self.limits.actions
        if any(a >= b for a, b in itertools.pairwise(actions)):
            self.fail("limits().actions are not sorted and unique")
        if self.limits.min_score > self.limits.max_score:
            self.fail("limits() has min_score above max_score")

    def snapshot(self, state: Any) -> str:
        return json.dumps(self.game.state_to_json(state), sort_keys=True)

    def check_state(self, state: Any) -> None:
        game = self.game
        actor = game.actor(state)
        n = len(self.players)
        if actor not in (CHANCE, TERMINAL) and not 0 <= actor < n:
            self.fail(f"actor() returned {actor}")
        legal = game.legal_actions(state)
        if actor == TERMINAL:
            if legal:
                self.fail(f"legal actions at the end: {legal[:5]}")
            winners = game.winners(state)
            if not winners or sorted(set(winners)) != sorted(winners):
                self.fail(f"winners() returned {winners}")
            if any(not 0 <= seat < n for seat in winners):
                self.fail(f"winners() returned seats out of range: {winners}")
            self.check_result(state, winners)
        else:
            self.check_actions(state, legal)
        if actor == CHANCE:
            self.check_chance(state, legal)
        self.check_step(state, actor)
        self.check_json(state)
        self.check_score(state)
        self.check_board(state)
        self.check_views(state, actor, legal)
        self.check_public(state, legal)

    def check_actions(self, state: Any, legal: list[str]) -> None:
        if not legal:
            self.fail("no legal actions before the end")
        if any(not isinstance(action, str) for action in legal):
            self.fail("actions must be their text form (str)")
        if any(a >= b for a, b in itertools.pairwise(legal)):
            self.fail(f"legal actions not sorted and unique: {legal[:8]}")
        self.check_parsing(legal)
        for action in legal:
            if action not in self.numbered:
                self.fail(f"legal action {action!r} is missing from limits().actions")
            if action not in self.seen_actions:
                self.seen_actions[action] = None
        self.check_refusals(state, legal)

    def check_parsing(self, legal: list[str]) -> None:
        """A sample of the legal actions parses to itself, typed in any case and spacing."""
        for action in self.rng.sample(legal, min(20, len(legal))):
            if self.game.parse_action(action) != action:
                self.fail(f"parse_action({action!r}) is not the action itself")
            if self.game.parse_action(f"  {action.upper()} ") != action:
                self.fail(f"parse_action does not accept {action.upper()!r}")

    def check_refusals(self, state: Any, legal: list[str]) -> None:
        """An action legal elsewhere but not here is refused with a reason, and text that is
        no action at all with ``BadActionText``."""
        game = self.game
        known = list(self.seen_actions)
        legal_set = set(legal)
        candidates = {self.rng.choice(known) for _ in range(6)} - legal_set
        for action in sorted(candidates)[:3]:
            try:
                game.apply(state, action)
            except IllegalAction as error:
                if not str(error):
                    self.fail(f"IllegalAction for {action!r} has no message")
            else:
                self.fail(f"apply accepted {action!r}, which is not among the legal actions")
        try:
            game.apply(state, "no such action 42")
        except IllegalAction as error:
            if not str(error):
                self.fail("the refusal of nonsense text has no message")
            if not isinstance(error, BadActionText):
                self.fail("nonsense text must raise BadActionText, not a plain IllegalAction")
        else:
            self.fail("apply accepted nonsense text")

    def check_chance(self, state: Any, legal: list[str]) -> None:
        outcomes = self.game.chance_outcomes(state)
        if [action for action, _ in outcomes] != legal:
            self.fail("chance outcomes differ from legal actions")
        if any(probability <= 0 for _, probability in outcomes):
            self.fail("a chance outcome has probability <= 0")
        tally = Counter(probability for _, probability in outcomes)
        if sum(probability * count for probability, count in tally.items()) != 1:
            self.fail("chance probabilities do not sum to exactly 1")

    def check_json(self, state: Any) -> None:
        game = self.game
        text = json.dumps(game.state_to_json(state))
        if game.state_from_json(json.loads(text)) != state:
            self.fail("state does not survive a JSON round-trip")

    def check_score(self, state: Any) -> None:
        sheet = self.game.score(state)
        if sheet.players != tuple(self.players):
            self.fail("score sheet players differ from the game's")
        low, high = self.limits.min_score, self.limits.max_score
        for name, total, lines in zip(sheet.players, sheet.totals, sheet.lines, strict=True):
            if not low <= total <= high:
                self.fail(f"{name}'s total {total} is outside limits() {low}..{high}")
            if sum(line.points for line in lines) != total:
                self.fail(f"{name}'s score lines do not add up to {total}")
        json.dumps(sheet.to_json())

    def check_board(self, state: Any) -> None:
        sites = {site.id: site for site in self.game.sites(len(self.players))}
        pieces = set(self.game.pieces())
        for site, value in self.game.board(state).items():
            if site not in sites:
                self.fail(f"board() names site {site!r}, which sites() does not list")
            where = sites.get(site)
            laid = pile_pieces(value) if where is not None and where.pile else (value,)
            for piece in laid:
                if piece not in pieces:
                    self.fail(f"board() puts {piece!r} on {site}, which pieces() does not list")

    def check_views(self, state: Any, actor: int, legal: list[str]) -> None:
        game = self.game
        for player in [None, *range(len(self.players))]:
            view = game.view(state, player)
            json.dumps(view)
            other = game.resample(state, player, self.rng)
            if game.view(other, player) != view:
                self.fail(
                    f"view of {self.who(player)} changed when only what it may not see was "
                    "redrawn: it leaks hidden information (or resample() is wrong)"
                )
            if other != state:
                self.hidden_checks += 1
                seed = self.rng.randrange(1 << 30)
                if game.resample(other, player, random.Random(seed)) != game.resample(
                        state, player, random.Random(seed)):
                    self.fail(f"resample() for {self.who(player)} depends on what they cannot "
                              "see (shuffle a sorted pool): the table's public redraws would "
                              "differ between hands it cannot tell apart")
            if player is not None and player == actor and game.legal_actions(other) != legal:
                self.fail(f"{self.who(player)}'s legal actions depend on what they cannot see")

    def check_public(self, state: Any, legal: list[str]) -> None:
        """The public board hides what lies face down, and actions whose results nobody but
        their owner can tell apart read the same to everyone (the table logs and shows
        ``public_action``, and the page tells ``action_sentence``)."""
        game = self.game
        other = game.resample(state, None, self.rng)
        if game.public_board(other) != game.public_board(state):
            self.fail("public_board() changed when only what the table hides was redrawn: "
                      "face_down() misses a face-down site")
        texts: dict[str, tuple[str, str]] = {}
        said: dict[str, str] = {}
        before = self.snapshot(state)
        tried = legal if len(legal) <= 8 else self.rng.sample(legal, 8)
        for action in tried:
            after = game.apply(state, action)
            seen = json.dumps([sorted(game.public_board(after).items()), game.view(after, None)],
                              sort_keys=True)
            text = game.public_action(state, action)
            first, first_text = texts.setdefault(seen, (action, text))
            if first_text != text:
                self.fail(f"{first!r} and {action!r} leave the public table alike, but "
                          f"public_action() tells them apart ({first_text!r}, {text!r})")
            sentence = game.action_sentence(state, action)
            if not isinstance(sentence, Sentence) or not _well_formed(sentence):
                self.fail(f"action_sentence({action!r}) is not a Sentence with str or "
                          f"Sentence args: {sentence!r}")
            told = str(sentence)
            first_told = said.setdefault(seen, told)
            if first_told != told:
                self.fail(f"{first!r} and {action!r} leave the public table alike, but "
                          f"action_sentence() tells them apart ({first_told!r}, {told!r})")
        if self.snapshot(state) != before:
            self.fail(f"apply() of one of {tried} changed its input state")

    def who(self, player: int | None) -> str:
        return "the public table" if player is None else self.players[player]
