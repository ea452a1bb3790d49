"""The Hanging Gardens rule engine: a turn is the steps a hand makes at the table.

A round starts with the card display dealt (chance, ``draw c17``). On a turn the player takes
one card and lays it into their garden (``place c17 2:3 up``), or, if it fits nowhere, puts it
back in the box (``discard c17``). A card that made a motif group eligible lets them build a
temple (``temple 3:4``, with all five out ``temple 3:4 from 1:2``, or ``no temple``), which
earns a score tile: perhaps a hidden extra one from the stack (chance, ``extra queen``), then
one from the display (``tile 2:1``, column:row), whose slot is refilled (chance,
``reveal king``). The engine knows every tile; views hide the stack and other players' hidden
extra tiles (the open tiles were taken in sight of everyone).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from games.core.action_text import look_up
from games.core.errors import IllegalAction
from games.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    Limits,
    OptionSpec,
    RuleChange,
    Secret,
    Sentence,
    Site,
    listing,
)
from games.core.scoresheet import ScoreSheet
from games.core.tuples import added, replaced

from . import actions as texts
from . import position as position_module
from .components import (
    CARD_COLS,
    CARD_ROWS,
    FIRST_MOTIF,
    GROUND,
    ORIENTATIONS,
    TABLE,
    Components,
    load_components,
)
from .limits import limits_for
from .scoring import rank_winners, score_sheet
from .state import (
    CHANCE_PHASES,
    EMPTY,
    TEMPLE_TAG,
    HangingGardensState,
    field_name,
    garden_rows,
    state_from_json,
    state_to_json,
)
from .words import columns, motif, tile_kind

FORMS = (
    "draw CARD, place CARD R:C up|down, discard CARD, temple R:C, temple R:C from R:C, "
    "no temple, take extra, extra KIND, tile COLUMN:ROW, reveal KIND"
)
NO_TEMPLE = texts.NO_TEMPLE
TAKE_EXTRA = texts.TAKE_EXTRA
PITCH = 10.0
"""Site drawing units per garden field."""


@cache
def _fraction(count: int, total: int) -> Fraction:
    return Fraction(count, total)


class HangingGardens(Game[HangingGardensState]):
    """One engine object serves every game: it holds the component data, the placement
    geometry and every action text, all built once."""

    id = "hanging_gardens"
    name = "The Hanging Gardens"
    players_deal = True  # see docs/games/hanging_gardens.md, "Who deals"
    min_players = 2
    max_players = 4
    secrets = (
        Secret("each player's hidden extra score tiles", "others"),
        Secret("the order of the score-tile stack", "everyone"),
    )
    options = (
        OptionSpec(
            "reading",
            ("box", "revision1"),
            "box: the hidden extra tile for a group of 6+ is optional, a temple needs a group "
            "that grew, the game ends with the round the score-tile stack runs out; "
            "revision1: our first reading (extra forced, re-covered groups re-offered, only a "
            "tile that cannot be had ends the game)",
        ),
        OptionSpec(
            "gates",
            ("guard", "series"),
            "guard: gate tiles score 3 each with the guard and nothing without it (the sheet); "
            "series: they also score as a series (rules revision 1)",
        ),
    )
    rule_changes = (
        RuleChange(2, "reading", {"box": "revision1"},
                   "optional extra tile, temples for groups that grew, the run-out"),
        RuleChange(2, "gates", {"guard": "series"}, "gates score only with the guard"),
    )

    def __init__(self, components: Components | None = None) -> None:
        c = self.components = components or load_components()
        self.rows, self.cols = c.rows, c.cols
        rows, cols = c.rows, c.cols
        self.anchors = texts.anchors(c)
        # footprint[orientation][anchor]: the garden field under each card field (row by row
        # as printed); ``down`` is turned by 180 degrees.
        self.footprint: dict[tuple[int, int], tuple[int, ...]] = {}
        for o, orientation in enumerate(ORIENTATIONS):
            for anchor in self.anchors:
                r0, c0 = divmod(anchor, cols)
                fields = []
                for k in range(CARD_ROWS * CARD_COLS):
                    i, j = divmod(k, CARD_COLS)
                    if orientation == "down":
                        i, j = CARD_ROWS - 1 - i, CARD_COLS - 1 - j
                    fields.append((r0 + i) * cols + c0 + j)
                self.footprint[o, anchor] = tuple(fields)
        self.motif_fields = tuple(
            tuple(k for k, code in enumerate(card) if code >= FIRST_MOTIF) for card in c.cards
        )
        self.neighbours = tuple(
            tuple(
                (r + dr) * cols + col + dc
                for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                if 0 <= r + dr < rows and 0 <= col + dc < cols
            )
            for r in range(rows)
            for col in range(cols)
        )
        start_r, start_c = c.start
        self.start_fields = tuple(
            (start_r + i) * cols + start_c + j for i in range(CARD_ROWS) for j in range(CARD_COLS)
        )
        self._tag_pieces = tuple(
            piece for card in range(len(c.cards)) for piece in c.card_pieces(card)
        )
        self._site_lists = {n: _sites(c, n) for n in range(self.min_players, self.max_players + 1)}
        self._build_texts()
        # place_masks[card]: (text, motif fields mask, footprint mask, orientation, anchor)
        self.place_masks = tuple(
            tuple(
                (
                    self.place_text[card, o, anchor],
                    _mask(self.footprint[o, anchor][k] for k in self.motif_fields[card]),
                    _mask(self.footprint[o, anchor]),
                    o,
                    anchor,
                )
                for o in range(len(ORIENTATIONS))
                for anchor in self.anchors
            )
            for card in range(len(c.cards))
        )

    def _build_texts(self) -> None:
        c = self.components
        names, fields = c.card_names, c.fields
        self.field_names = tuple(field_name(f, self.cols) for f in range(fields))
        self.draw_text = tuple(texts.draw_text(name) for name in names)
        self.discard_text = tuple(texts.discard_text(name) for name in names)
        self.place_text = {
            (card, o, anchor): texts.place_text(names[card], self.field_names[anchor], orientation)
            for card in range(len(names))
            for o, orientation in enumerate(ORIENTATIONS)
            for anchor in self.anchors
        }
        self.temple_text = tuple(texts.temple_text(name) for name in self.field_names)
        self.move_text = {
            (to, origin): texts.move_text(self.field_names[to], self.field_names[origin])
            for to in range(fields)
            for origin in range(fields)
            if to != origin
        }
        self.slot_names = texts.slot_names(c)
        self.tile_text = tuple(texts.tile_text(slot) for slot in self.slot_names)
        self.reveal_text = tuple(texts.reveal_text(kind) for kind in c.kinds)
        self.extra_text = tuple(texts.extra_text(kind) for kind in c.kinds)
        parsed: dict[str, tuple[Any, ...]] = {NO_TEMPLE: ("no_temple",),
                                              TAKE_EXTRA: ("take_extra",)}
        for card in range(len(names)):
            parsed[self.draw_text[card]] = ("draw", card)
            parsed[self.discard_text[card]] = ("discard", card)
        for (card, o, anchor), text in self.place_text.items():
            parsed[text] = ("place", card, o, anchor)
        for f, text in enumerate(self.temple_text):
            parsed[text] = ("temple", f, EMPTY)
        for (to, origin), text in self.move_text.items():
            parsed[text] = ("temple", to, origin)
        for slot, text in enumerate(self.tile_text):
            parsed[text] = ("tile", slot)
        for kind, text in enumerate(self.reveal_text):
            parsed[text] = ("reveal", kind)
        for kind, text in enumerate(self.extra_text):
            parsed[text] = ("extra", kind)
        self.parsed = parsed

    # -- setup ---------------------------------------------------------------------------------
    def initial(
        self, players: Sequence[str], options: Mapping[str, str] | None = None
    ) -> HangingGardensState:
        names = self.check_players(players)
        chosen = self.check_options(options)
        c = self.components
        n = len(names)
        top = [TABLE] * c.fields
        for f in self.start_fields:
            top[f] = GROUND
        return HangingGardensState(
            players=names,
            first_reading=chosen["reading"] == "revision1",
            gate_series=chosen["gates"] == "series",
            phase="setup",
            round=0,
            seat=0,
            deck=tuple(range(len(c.cards))),
            display=(EMPTY,) * c.display_cards[n],
            tile_slots=(EMPTY,) * (c.tile_columns * c.tile_rows),
            stack=c.kind_counts,
            tops=(tuple(top),) * n,
            tags=((EMPTY,) * c.fields,) * n,
            temples=((),) * n,
            collected=((0,) * len(c.kinds),) * n,
            extras=((0,) * len(c.kinds),) * n,
            missing=(0,) * n,
            built=(False,) * n,
            placed=(),
            columns=0,
            ending=False,
            offer=False,
        )

    def compute_limits(self, n_players: int, options: Mapping[str, str]) -> Limits:
        """The enumeration and the derivations of the bounds are in ``limits``."""
        return limits_for(self.components, n_players, options["gates"] == "series")

    # -- playing -------------------------------------------------------------------------------
    def actor(self, state: HangingGardensState) -> int:
        if state.phase in CHANCE_PHASES:
            return CHANCE
        if state.phase == "over":
            return TERMINAL
        return state.seat

    def legal_actions(self, state: HangingGardensState) -> list[str]:
        phase = state.phase
        if phase == "place":
            return self._place_actions(state)
        if phase == "temple":
            return sorted([NO_TEMPLE, *self._temple_actions(state)])
        if phase == "tile":
            tiles = [self.tile_text[slot] for slot in self._open_slots(state, state.columns)]
            return sorted([*tiles, TAKE_EXTRA]) if state.offer else tiles
        if phase == "deal":
            return [self.draw_text[card] for card in state.deck]
        if phase in ("setup", "refill", "extra"):
            texts = self.extra_text if phase == "extra" else self.reveal_text
            return [texts[kind] for kind, count in enumerate(state.stack) if count]
        return []

    def chance_outcomes(self, state: HangingGardensState) -> list[tuple[str, Fraction]]:
        phase = state.phase
        if phase == "deal":
            p = _fraction(1, len(state.deck))
            return [(self.draw_text[card], p) for card in state.deck]
        if phase in ("setup", "refill", "extra"):
            texts = self.extra_text if phase == "extra" else self.reveal_text
            total = sum(state.stack)
            return [
                (texts[kind], _fraction(count, total))
                for kind, count in enumerate(state.stack)
                if count
            ]
        return []

    def sample_chance(self, state: HangingGardensState, rng: random.Random) -> str:
        """Direct draws: a uniform card, or a tile weighted by how many are left."""
        if state.phase == "deal":
            return self.draw_text[rng.choice(state.deck)]
        texts = self.extra_text if state.phase == "extra" else self.reveal_text
        point = rng.randrange(sum(state.stack))
        for kind, count in enumerate(state.stack):
            point -= count
            if point < 0:
                return texts[kind]
        raise AssertionError("unreachable: the stack is not empty at a tile draw")

    def parse_action(self, text: str) -> str:
        return self._parse(text)[0]

    def _parse(self, text: str) -> tuple[str, tuple[Any, ...]]:
        return look_up(text, self.parsed, "Hanging Gardens", FORMS)

    def apply(self, state: HangingGardensState, action: str) -> HangingGardensState:
        parsed = self.parsed.get(action) if isinstance(action, str) else None
        if parsed is None:
            parsed = self._parse(action)[1]
        kind, phase = parsed[0], state.phase
        expected = _KIND_OF_PHASE.get(phase)
        if kind not in expected:
            raise IllegalAction(Sentence("not now: {step}", {"step": self.describe_step(state)}))
        if kind == "place":
            return self._place(state, *parsed[1:])
        if kind == "discard":
            return self._discard(state, parsed[1])
        if kind == "temple":
            return self._temple(state, parsed[1], parsed[2])
        if kind == "no_temple":
            return self._end_turn(state._replace(placed=()))
        if kind == "tile":
            return self._take_tile(state, parsed[1])
        if kind == "take_extra":
            if not state.offer:
                raise IllegalAction(Sentence(
                    "no extra tile is on offer: only a temple on a group of {size} or more "
                    "fields earns one", {"size": str(self.components.extra_from)}))
            return state._replace(phase="extra", offer=False)
        if kind == "draw":
            return self._draw(state, parsed[1])
        if kind == "extra":
            return self._extra(state, parsed[1])
        return self._reveal(state, parsed[1])

    def to_act(self, state: HangingGardensState) -> int | None:
        """The players draw from the box themselves: the round's start player deals the cards
        and, at the start, the score tiles; whoever took a score tile refills its place and
        draws their own hidden extra tile."""
        return None if state.phase == "over" else state.seat

    def describe_step(self, state: HangingGardensState) -> Sentence:
        """Who does what with which piece where, in the box's words (the page's headline,
        refusals)."""
        phase = state.phase
        if phase == "over":
            if state.ending:
                return Sentence("Game over: the score tiles ran out, so each missing tile "
                                "counts {points} points.",
                                {"points": str(self.components.missing_points)})
            return Sentence("Game over: every building card has been built.")
        who: dict[str, str | Sentence] = {"player": state.players[state.seat]}
        if phase in ("setup", "refill"):
            column, row = self.slot_names[state.tile_slots.index(EMPTY)].split(":")
            where = {**who, "column": column, "row": row}
            if phase == "setup":
                return Sentence("{player}: draw a score tile from the stack and lay it face up "
                                "on the score-tile display, column {column}, row {row}.", where)
            return Sentence("{player}: draw a score tile from the stack and lay it face up on "
                            "the empty place, column {column}, row {row}.", where)
        if phase == "deal":
            return Sentence("{player}: draw a building card from the deck and lay it face up "
                            "on place {place} of the card display.",
                            {**who, "place": str(state.display.index(EMPTY) + 1)})
        if phase == "place":
            if any(not action.startswith("discard ") for action in self._place_actions(state)):
                return Sentence("{player}: take a building card from the card display and lay "
                                "it in your garden, every motif on an earlier card.", who)
            return Sentence("{player}: no card on the card display fits in your garden: put "
                            "one of them back in the box.", who)
        if phase == "temple":
            return self._temple_step(state, who)
        if phase == "extra":
            return Sentence("{player}: draw a hidden extra score tile from the stack and keep "
                            "it face down in front of you.", who)
        if phase == "tile":
            where = {**who, "columns": columns(state.columns)}
            if state.offer:
                return Sentence("{player}: you may first draw a hidden extra score tile from "
                                "the stack (the confirm button); then take an open score tile "
                                "from {columns}.", where)
            return Sentence("{player}: take an open score tile from {columns} of the "
                            "score-tile display.", where)
        raise ValueError(f"unknown Hanging Gardens phase {phase!r}")

    def _temple_step(self, state: HangingGardensState,
                     who: dict[str, str | Sentence]) -> Sentence:
        """The temple choice names the group when there is one, and says when a temple moves."""
        groups = self._eligible_groups(state)
        full = len(state.temples[state.seat]) >= self.components.temples_per_player
        if len(groups) != 1:
            if full:
                return Sentence("{player}: all your temples are built: you may move the temple "
                                "of a smallest group onto one of your new groups, or build "
                                "none.", who)
            return Sentence("{player}: you may build a temple on one of your new groups, or "
                            "build none.", who)
        group = groups[0]
        code = state.tops[state.seat][next(iter(group))]
        named = {**who, "motif": motif(self.components.motifs[code - FIRST_MOTIF]),
                 "size": str(len(group))}
        if full:
            return Sentence("{player}: all your temples are built: you may move the temple of "
                            "a smallest group onto your new {motif} group of {size} fields, or "
                            "build none.", named)
        return Sentence("{player}: you may build a temple on your new {motif} group of {size} "
                        "fields, or build none.", named)

    def describe_result(self, state: HangingGardensState) -> Sentence:
        """Most points win; the sheet's tie-break is the number of score tiles held."""
        if state.phase != "over":
            return super().describe_result(state)
        totals = self.score(state).totals
        winners = sorted(self.winners(state))
        best = totals[winners[0]]
        tied = [seat for seat, total in enumerate(totals) if total == best]
        if len(tied) == 1:
            return super().describe_result(state)
        names = state.players
        held = str(sum(state.collected[winners[0]]))
        if len(winners) > 1:
            return Sentence("{players} share the win: a score of {points} each, and equally "
                            "many score tiles ({tiles}).",
                            {"players": listing([names[s] for s in winners]),
                             "points": str(best), "tiles": held})
        return Sentence("{player} wins: {tied} have a score of {points} each, and {player} "
                        "holds the most score tiles ({tiles}).",
                        {"player": names[winners[0]], "tied": listing([names[s] for s in tied]),
                         "points": str(best), "tiles": held})

    # -- placing cards ---------------------------------------------------------------------------
    def placements(self, state: HangingGardensState, card: int) -> list[tuple[int, int]]:
        """Every (orientation, anchor) where ``card`` fits in the acting player's garden."""
        covered, temples = self._masks(state)
        return [
            (o, anchor)
            for _, motif_mask, foot_mask, o, anchor in self.place_masks[card]
            if not motif_mask & ~covered and not foot_mask & temples
        ]

    def _masks(self, state: HangingGardensState) -> tuple[int, int]:
        """Bit masks of the acting player's covered fields and temple fields."""
        seat = state.seat
        covered = 0
        for f, code in enumerate(state.tops[seat]):
            if code:
                covered |= 1 << f
        temples = 0
        for f in state.temples[seat]:
            temples |= 1 << f
        return covered, temples

    def _place_actions(self, state: HangingGardensState) -> list[str]:
        covered, temples = self._masks(state)
        uncovered = ~covered
        actions = []
        for card in state.display:
            if card == EMPTY:
                continue
            found = [
                text
                for text, motif_mask, foot_mask, _, _ in self.place_masks[card]
                if not motif_mask & uncovered and not foot_mask & temples
            ]
            actions.extend(found or (self.discard_text[card],))
        actions.sort()
        return actions

    def _check_in_display(self, state: HangingGardensState, card: int) -> None:
        if card not in state.display:
            names = [self.components.card_names[c] for c in state.display if c != EMPTY]
            raise IllegalAction(Sentence(
                "{card} is not on the card display; the display shows {cards}",
                {"card": self.components.card_names[card],
                 "cards": listing(names) if names else Sentence("no cards")}))

    def _place(
        self, state: HangingGardensState, card: int, o: int, anchor: int
    ) -> HangingGardensState:
        self._check_in_display(state, card)
        seat = state.seat
        top, temples = state.tops[seat], state.temples[seat]
        fields = self.footprint[o, anchor]
        codes = self.components.cards[card]
        name = self.components.card_names[card]
        for f in fields:
            if f in temples:
                raise IllegalAction(Sentence(
                    "{card} would cover the temple on {field}: temples are never built over",
                    {"card": name, "field": self.field_names[f]}))
        for k in self.motif_fields[card]:
            if top[fields[k]] == TABLE:
                raise IllegalAction(Sentence(
                    "{card} would leave its {motif} on {field} on the bare table: every motif "
                    "field must lie on an earlier card",
                    {"card": name, "field": self.field_names[fields[k]],
                     "motif": motif(self.components.motifs[codes[k] - FIRST_MOTIF])}))
        new_top = list(top)
        for k, f in enumerate(fields):
            new_top[f] = codes[k]
        new_tags = list(state.tags[seat])
        new_tags[fields[0]] = 2 * card
        new_tags[fields[-1]] = 2 * card + 1
        # a temple needs a group that grew: the fields this card turned to a motif (in the
        # first reading, every motif field of the card, so a re-covered group came back)
        placed = tuple(sorted(
            fields[k] for k in self.motif_fields[card]
            if state.first_reading or top[fields[k]] != codes[k]
        ))
        after = state._replace(
            display=_without_card(state.display, card),
            tops=replaced(state.tops, seat, tuple(new_top)),
            tags=replaced(state.tags, seat, tuple(new_tags)),
            placed=placed,
        )
        if not state.built[seat] and self._eligible_groups(after):
            return after._replace(phase="temple")
        return self._end_turn(after._replace(placed=()))

    def _discard(self, state: HangingGardensState, card: int) -> HangingGardensState:
        self._check_in_display(state, card)
        found = self.placements(state, card)
        if found:
            o, anchor = found[0]
            raise IllegalAction(Sentence(
                "{card} fits in your garden (for example {action}): only a card that fits "
                "nowhere leaves the game",
                {"card": self.components.card_names[card],
                 "action": self.place_text[card, o, anchor]}))
        return self._end_turn(state._replace(display=_without_card(state.display, card)))

    # -- temples ---------------------------------------------------------------------------------
    def groups(self, top: tuple[int, ...]) -> list[tuple[int, frozenset[int]]]:
        """The motif groups of a garden: (motif code, fields), orthogonally connected."""
        return _groups(top, self.neighbours)

    def _eligible_groups(self, state: HangingGardensState) -> list[frozenset[int]]:
        """Groups of 3+ fields that the card just placed added to and that hold no temple
        (only groups through the new card's motif fields can qualify: search from those)."""
        seat = state.seat
        top, temples = state.tops[seat], state.temples[seat]
        found: list[frozenset[int]] = []
        for start in state.placed:
            if any(start in group for group in found):
                continue
            group = _group_at(top, start, self.neighbours)
            if len(group) >= 3 and not any(t in group for t in temples):
                found.append(group)
        return found

    def _movable_temples(self, state: HangingGardensState) -> list[int]:
        """With every temple out: the temples standing on the smallest groups."""
        top = state.tops[state.seat]
        sizes = {t: len(_group_at(top, t, self.neighbours)) for t in state.temples[state.seat]}
        smallest = min(sizes.values())
        return sorted(t for t, size in sizes.items() if size == smallest)

    def _temple_actions(self, state: HangingGardensState) -> list[str]:
        targets = sorted(f for fields in self._eligible_groups(state) for f in fields)
        if len(state.temples[state.seat]) < self.components.temples_per_player:
            return [self.temple_text[f] for f in targets]
        origins = self._movable_temples(state)
        return [self.move_text[to, origin] for to in targets for origin in origins]

    def _temple(self, state: HangingGardensState, to: int, origin: int) -> HangingGardensState:
        seat = state.seat
        where = self.field_names[to]
        temples = state.temples[seat]
        group = next((g for g in self._eligible_groups(state) if to in g), None)
        if group is None:
            raise IllegalAction(Sentence(
                "no temple on {field}: a temple goes on a group of 3 or more fields of one "
                "motif that your new card added to and that has no temple yet", {"field": where}))
        full = len(temples) >= self.components.temples_per_player
        if full and origin == EMPTY:
            movable = [self.field_names[t] for t in self._movable_temples(state)]
            raise IllegalAction(Sentence(
                "all your temples are built: move one from a smallest group (temple {field} "
                "from {origins})", {"field": where, "origins": _either(movable)}))
        if not full and origin != EMPTY:
            raise IllegalAction(Sentence(
                "you still have temples in your supply: build one (temple {field}); temples "
                "are moved only once all are out", {"field": where}))
        if origin != EMPTY and origin not in self._movable_temples(state):
            if origin not in temples:
                raise IllegalAction(Sentence("there is no temple of yours on {field}",
                                             {"field": self.field_names[origin]}))
            raise IllegalAction(Sentence(
                "the temple on {field} is not on one of your smallest groups: the temple that "
                "moves comes from a smallest group", {"field": self.field_names[origin]}))
        # the card tags stay under a temple (it stands on the card): a temple moved away
        # uncovers the tag it stood on
        kept = tuple(t for t in temples if t != origin)
        size = len(group)
        c = self.components
        after = state._replace(
            temples=replaced(state.temples, seat, tuple(sorted((*kept, to)))),
            built=replaced(state.built, seat, True),
            placed=(),
            columns=min(size - 2, c.tile_columns),
        )
        if size >= c.extra_from:
            if not state.first_reading:
                # optional ("darf"); none left in the stack: none on offer
                return self._to_tile(after._replace(offer=bool(sum(state.stack))))
            if sum(state.stack):
                return after._replace(phase="extra")
            after = _lose_tile(after)
        return self._to_tile(after)

    # -- score tiles -----------------------------------------------------------------------------
    def _open_slots(self, state: HangingGardensState, columns: int) -> list[int]:
        limit = columns * self.components.tile_rows
        return [slot for slot in range(limit) if state.tile_slots[slot] != EMPTY]

    def _to_tile(self, state: HangingGardensState) -> HangingGardensState:
        if self._open_slots(state, state.columns):
            return state._replace(phase="tile")
        return self._end_turn(_lose_tile(state))

    def _take_tile(self, state: HangingGardensState, slot: int) -> HangingGardensState:
        kind = state.tile_slots[slot]
        rows = self.components.tile_rows
        if slot // rows >= state.columns:
            raise IllegalAction(Sentence(
                "your temple's group lets you take from {columns} only, not from column "
                "{column}", {"columns": columns(state.columns), "column": str(slot // rows + 1)}))
        if kind == EMPTY:
            raise IllegalAction(Sentence("there is no score tile on {slot}",
                                         {"slot": self.slot_names[slot]}))
        seat = state.seat
        after = state._replace(
            tile_slots=replaced(state.tile_slots, slot, EMPTY),
            collected=replaced(state.collected, seat, added(state.collected[seat], kind, 1)),
            offer=False,
        )
        if sum(state.stack):
            return after._replace(phase="refill")
        return self._end_turn(after)

    def _extra(self, state: HangingGardensState, kind: int) -> HangingGardensState:
        if not state.stack[kind]:
            raise IllegalAction(Sentence("no {kind} tile is left in the stack",
                                         {"kind": tile_kind(self.components.kinds[kind])}))
        seat = state.seat
        after = state._replace(
            stack=added(state.stack, kind, -1),
            collected=replaced(state.collected, seat, added(state.collected[seat], kind, 1)),
            extras=replaced(state.extras, seat, added(state.extras[seat], kind, 1)),
        )
        return self._to_tile(self._run_out(after))

    def _reveal(self, state: HangingGardensState, kind: int) -> HangingGardensState:
        if not state.stack[kind]:
            raise IllegalAction(Sentence("no {kind} tile is left in the stack",
                                         {"kind": tile_kind(self.components.kinds[kind])}))
        slot = state.tile_slots.index(EMPTY)
        after = self._run_out(state._replace(
            stack=added(state.stack, kind, -1), tile_slots=replaced(state.tile_slots, slot, kind)
        ))
        if state.phase == "setup":
            if EMPTY in after.tile_slots and sum(after.stack):
                return after
            return after._replace(phase="deal")
        return self._end_turn(after)

    @staticmethod
    def _run_out(state: HangingGardensState) -> HangingGardensState:
        """The last tile has left the stack: the round is played to its end, then the game
        ends (the sheet). The first reading waited for a tile that could not be had."""
        if state.first_reading or sum(state.stack):
            return state
        return state._replace(ending=True)

    # -- rounds ----------------------------------------------------------------------------------
    def _draw(self, state: HangingGardensState, card: int) -> HangingGardensState:
        if card not in state.deck:
            raise IllegalAction(Sentence("{card} is not in the deck any more",
                                         {"card": self.components.card_names[card]}))
        slot = state.display.index(EMPTY)
        deck = tuple(c for c in state.deck if c != card)
        display = replaced(state.display, slot, card)
        if EMPTY in display and deck:
            return state._replace(deck=deck, display=display)
        return state._replace(phase="place", deck=deck, display=display)

    def _end_turn(self, state: HangingGardensState) -> HangingGardensState:
        n = len(state.players)
        if any(card != EMPTY for card in state.display):
            return state._replace(phase="place", seat=(state.seat + 1) % n)
        if state.ending or not state.deck:
            return state._replace(phase="over")
        next_round = state.round + 1
        return state._replace(
            phase="deal", round=next_round, seat=next_round % n, built=(False,) * n
        )

    # -- scoring -------------------------------------------------------------------------------
    def score(self, state: HangingGardensState) -> ScoreSheet:
        """At the end every tile; during the game only what the whole table has seen (hidden
        extra tiles would otherwise show through the running score)."""
        if state.phase == "over" or not any(any(e) for e in state.extras):
            return self._score_cached(state.players, state.collected, state.missing,
                                      state.gate_series)
        seen = tuple(
            tuple(h - e for h, e in zip(held, hidden, strict=True))
            for held, hidden in zip(state.collected, state.extras, strict=True)
        )
        return self._score_cached(state.players, seen, state.missing, state.gate_series)

    @lru_cache(maxsize=1024)  # noqa: B019 (one engine object lives for the whole process)
    def _score_cached(
        self,
        players: tuple[str, ...],
        collected: tuple[tuple[int, ...], ...],
        missing: tuple[int, ...],
        gate_series: bool,
    ) -> ScoreSheet:
        """Every view and the referee ask for the same score: compute it once per position."""
        return score_sheet(players, collected, missing, self.components, gate_series)

    def winners(self, state: HangingGardensState) -> list[int]:
        totals = self.score(state).totals
        return rank_winners(totals, [sum(c) for c in state.collected])

    def score_position(self, position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
        return position_module.score_position(position, self.components)

    # -- what people and sensors see ----------------------------------------------------------
    def players(self, state: HangingGardensState) -> tuple[str, ...]:
        return state.players

    def public_action(self, state: HangingGardensState, action: str) -> str:
        """A hidden extra score tile is drawn face down: only that it was is told."""
        return "extra (face down)" if action.startswith("extra ") else action

    def action_sentence(self, state: HangingGardensState, action: str) -> Sentence:
        """A step told in words for the events list; a hidden extra tile stays unnamed."""
        kind, *args = self._parse(action)[1]
        who: dict[str, str | Sentence] = {"player": state.players[state.seat]}
        names = self.components.card_names
        if kind == "draw":
            return Sentence("{player} deals building card {card} to the card display.",
                            {**who, "card": names[args[0]]})
        if kind == "place":
            card, o, anchor = args
            laid = {**who, "card": names[card], "field": self.field_names[anchor]}
            if ORIENTATIONS[o] == "up":
                return Sentence("{player} lays building card {card} in their garden at {field}, "
                                "as printed.", laid)
            return Sentence("{player} lays building card {card} in their garden at {field}, "
                            "turned round.", laid)
        if kind == "discard":
            return Sentence("{player} puts building card {card} back in the box: it fits "
                            "nowhere.", {**who, "card": names[args[0]]})
        if kind == "temple":
            to, origin = args
            if origin == EMPTY:
                return Sentence("{player} builds a temple on {field}.",
                                {**who, "field": self.field_names[to]})
            return Sentence("{player} moves the temple from {origin} to {field}.",
                            {**who, "field": self.field_names[to],
                             "origin": self.field_names[origin]})
        if kind == "no_temple":
            return Sentence("{player} builds no temple.", who)
        if kind == "take_extra":
            return Sentence("{player} chooses to draw a hidden extra score tile first.", who)
        if kind == "extra":
            return Sentence("{player} draws a hidden extra score tile.", who)
        kinds = self.components.kinds
        if kind == "tile":
            column, row = self.slot_names[args[0]].split(":")
            held = state.tile_slots[args[0]]
            return Sentence("{player} takes the score tile {kind} from column {column}, row "
                            "{row}.", {**who, "column": column, "row": row,
                                       "kind": tile_kind(kinds[held]) if held != EMPTY else "?"})
        column, row = self.slot_names[state.tile_slots.index(EMPTY)].split(":")
        return Sentence("{player} lays the score tile {kind} face up in column {column}, row "
                        "{row}.", {**who, "column": column, "row": row,
                                   "kind": tile_kind(kinds[args[0]])})

    def view(self, state: HangingGardensState, player: int | None) -> dict[str, Any]:
        c = self.components
        over = state.phase == "over"
        actor = self.actor(state)
        names = c.card_names
        return {
            "game": self.id,
            "players": list(state.players),
            "you": None if player is None else state.players[player],
            "phase": state.phase,
            "step": str(self.describe_step(state)),
            "to_act": state.players[actor] if actor >= 0 else None,
            "round": state.round + 1,
            "start_player": state.players[state.round % len(state.players)],
            "deck": len(state.deck),
            "display": [
                None if card == EMPTY else {"card": names[card], "fields": self.card_rows(card)}
                for card in state.display
            ],
            "score_tiles": {
                name: None if kind == EMPTY else c.kinds[kind]
                for name, kind in zip(self.slot_names, state.tile_slots, strict=True)
            },
            "stack": sum(state.stack),
            "gardens": {
                name: {
                    "rows": garden_rows(state.tops[seat], state.temples[seat], c),
                    "temples": [self.field_names[t] for t in state.temples[seat]],
                    "temples_left": c.temples_per_player - len(state.temples[seat]),
                    "temple_this_round": state.built[seat],
                }
                for seat, name in enumerate(state.players)
            },
            "score_tiles_held": {
                name: {
                    "open": _kind_list(
                        tuple(
                            h - e
                            for h, e in zip(state.collected[seat], state.extras[seat], strict=True)
                        ),
                        c.kinds,
                    ),
                    "hidden": (
                        _kind_list(state.extras[seat], c.kinds)
                        if over or seat == player
                        else {"count": sum(state.extras[seat])}
                    ),
                }
                for seat, name in enumerate(state.players)
            },
            "missing_tiles": dict(zip(state.players, state.missing, strict=True)),
            "tiles_ran_out": state.ending,
            "score": self.score(state).to_json(),
        }

    def card_rows(self, card: int) -> list[str]:
        """A card as printed, top row first (``t.`` = terrace, blank ground)."""
        letters = [
            "." if code == GROUND else self.components.motifs[code - FIRST_MOTIF][0]
            for code in self.components.cards[card]
        ]
        return ["".join(letters[i : i + CARD_COLS]) for i in range(0, len(letters), CARD_COLS)]

    def render(self, state: HangingGardensState, player: int | None) -> str:
        view = self.view(state, player)
        lines = [f"The Hanging Gardens, round {view['round']}: {view['step']}"]
        shown = [f"{d['card']} {'/'.join(d['fields'])}" for d in view["display"] if d is not None]
        lines.append("display: " + (", ".join(shown) or "empty"))
        tiles = ", ".join(f"{slot} {kind or '-'}" for slot, kind in view["score_tiles"].items())
        lines.append(f"score tiles: {tiles} (stack {view['stack']})")
        for name, garden in view["gardens"].items():
            lines.append(f"{name}'s garden ({garden['temples_left']} temples left):")
            lines.extend(f"  {row}" for row in garden["rows"])
        return "\n".join(lines)

    def resample(
        self, state: HangingGardensState, player: int | None, rng: random.Random
    ) -> HangingGardensState:
        """Redeal the score tiles ``player`` cannot see: the stack and the other players'
        hidden extra tiles (each keeps as many as before). All are shown at the end."""
        if state.phase == "over":
            return state
        hidden = [seat for seat in range(len(state.players)) if seat != player]
        pool: list[int] = []
        for kind, count in enumerate(state.stack):
            pool.extend([kind] * count)
        for seat in hidden:
            for kind, count in enumerate(state.extras[seat]):
                pool.extend([kind] * count)
        pool.sort()  # the redraw depends only on what is seen, not on who held which tile
        rng.shuffle(pool)
        collected, extras = list(state.collected), list(state.extras)
        kinds = len(self.components.kinds)
        for seat in hidden:
            drawn = [0] * kinds
            for _ in range(sum(state.extras[seat])):
                drawn[pool.pop()] += 1
            extras[seat] = tuple(drawn)
            collected[seat] = tuple(
                held - old + new
                for held, old, new in zip(
                    state.collected[seat], state.extras[seat], drawn, strict=True
                )
            )
        stack = [0] * kinds
        for kind in pool:
            stack[kind] += 1
        return state._replace(collected=tuple(collected), extras=tuple(extras), stack=tuple(stack))

    def sites(self, n_players: int) -> tuple[Site, ...]:
        if n_players not in self._site_lists:
            raise ValueError(f"{self.name} is for 2 to 4 players, not {n_players}")
        return self._site_lists[n_players]

    def board(self, state: HangingGardensState) -> dict[str, str]:
        """Display cards by their top-left tag, open score tiles, and in each garden the top of
        every field: a temple, else the newest card tag there (a card's two tags; the tags it
        covers stay under it, and under a temple)."""
        c = self.components
        board = {}
        for slot, card in enumerate(state.display):
            if card != EMPTY:
                board[f"display:{slot + 1}"] = self._tag_pieces[2 * card]
        for slot, kind in enumerate(state.tile_slots):
            if kind != EMPTY:
                board[f"tiles:{self.slot_names[slot]}"] = f"hg:tile:{c.kinds[kind]}"
        for seat, tags in enumerate(state.tags):
            temple = f"hg:temple:{c.colours[seat]}"
            temples = state.temples[seat]
            for f, tag in enumerate(tags):
                site = f"garden:{seat + 1}:{self.field_names[f]}"
                if f in temples or tag == TEMPLE_TAG:  # TEMPLE_TAG: a state of an older version
                    board[site] = temple
                elif tag != EMPTY:
                    board[site] = self._tag_pieces[tag]
        return board

    def pieces(self) -> tuple[str, ...]:
        c = self.components
        return (
            *self._tag_pieces,
            *(f"hg:tile:{kind}" for kind in c.kinds),
            *(f"hg:temple:{colour}" for colour in c.colours[:4]),
        )

    # -- hidden extra tiles drawn from the box: shown on the reveal pad at the end ----------
    reveal_site = "pad:reveal"

    def revealed_pieces(self, state: HangingGardensState, seat: int) -> tuple[str, ...]:
        kinds = self.components.kinds
        return tuple(f"hg:tile:{kinds[kind]}" for kind, count in enumerate(state.extras[seat])
                     for _ in range(count))

    def withhold(self, view: dict[str, Any], seats: Sequence[int]) -> dict[str, Any]:
        """Until shown, a seat's hidden tiles are only a count, even at the end."""
        names = [view["players"][seat] for seat in seats] if "players" in view else []
        held = {name: {**tiles, "hidden": {"count": len(tiles["hidden"])}
                       if name in names and isinstance(tiles["hidden"], list)
                       else tiles["hidden"]}
                for name, tiles in view["score_tiles_held"].items()}
        return {**super().withhold(view, seats), "score_tiles_held": held}

    def needs_secrets(self, before: HangingGardensState, after: HangingGardensState
                      ) -> tuple[int, ...]:
        """The final score counts the hidden extra tiles."""
        if after.phase != "over" or before.phase == "over":
            return ()
        return tuple(seat for seat, extras in enumerate(before.extras) if any(extras))

    def copies(self) -> dict[str, int]:
        c = self.components
        tiles = {f"hg:tile:{kind}": count for kind, count in zip(c.kinds, c.kind_counts,
                                                                 strict=True)}
        return {**tiles, **{f"hg:temple:{colour}": c.temples_per_player
                            for colour in c.colours[:4]}}

    # -- serialisation -------------------------------------------------------------------------
    def state_to_json(self, state: HangingGardensState) -> dict[str, Any]:
        return state_to_json(state, self.components)

    def state_from_json(self, data: Mapping[str, Any]) -> HangingGardensState:
        return state_from_json(data, self.components)


_KIND_OF_PHASE = {
    "setup": ("reveal",),
    "deal": ("draw",),
    "place": ("place", "discard"),
    "temple": ("temple", "no_temple"),
    "extra": ("extra",),
    "tile": ("tile", "take_extra"),
    "refill": ("reveal",),
    "over": (),
}


def _sites(components: Components, n_players: int) -> tuple[Site, ...]:
    """The card display and score-tile display in the middle, a garden per seat around it:
    seats 1 and 2 on the left (bottom, top), 3 and 4 on the right (top, bottom)."""
    c = components
    width, height = c.cols * PITCH, c.rows * PITCH
    middle = width + 2 * PITCH
    sites = [
        Site(
            f"display:{slot + 1}", middle + PITCH * (1.5 * slot + 1), PITCH * 2, f"card {slot + 1}"
        )
        for slot in range(c.display_cards[n_players])
    ]
    for col in range(c.tile_columns):
        for row in range(c.tile_rows):
            sites.append(
                Site(
                    f"tiles:{col + 1}:{row + 1}",
                    middle + PITCH * (1.5 * col + 1),
                    PITCH * (5 + 1.5 * row),
                    f"score tile column {col + 1} row {row + 1}",
                )
            )
    right = middle + 7 * PITCH
    corners = [(0.0, height + 2 * PITCH), (0.0, 0.0), (right, 0.0), (right, height + 2 * PITCH)]
    for seat in range(n_players):
        x0, y0 = corners[seat]
        for f in range(c.fields):
            row, col = divmod(f, c.cols)
            sites.append(
                Site(
                    f"garden:{seat + 1}:{row}:{col}",
                    x0 + PITCH * (col + 0.5),
                    y0 + PITCH * (row + 0.5),
                    f"garden {seat + 1} field {row}:{col}",
                    stacks=True,  # a card laid over cards: the covered tags stay there
                )
            )
    sites.append(Site("pad:reveal", middle + PITCH * 2.5, PITCH * (6.5 + 1.5 * c.tile_rows),
                      "reveal pad: hidden extra tiles, face up, at the end",
                      stacks=True, pile=True))
    return tuple(sites)


def _groups(
    top: tuple[int, ...], neighbours: tuple[tuple[int, ...], ...]
) -> list[tuple[int, frozenset[int]]]:
    seen = [False] * len(top)
    groups = []
    for start, code in enumerate(top):
        if code < FIRST_MOTIF or seen[start]:
            continue
        seen[start] = True
        stack, members = [start], [start]
        while stack:
            f = stack.pop()
            for g in neighbours[f]:
                if not seen[g] and top[g] == code:
                    seen[g] = True
                    stack.append(g)
                    members.append(g)
        groups.append((code, frozenset(members)))
    return groups


def _group_at(
    top: tuple[int, ...], start: int, neighbours: tuple[tuple[int, ...], ...]
) -> frozenset[int]:
    """The fields orthogonally connected to ``start`` showing the same motif."""
    code = top[start]
    seen = {start}
    stack = [start]
    while stack:
        for g in neighbours[stack.pop()]:
            if g not in seen and top[g] == code:
                seen.add(g)
                stack.append(g)
    return frozenset(seen)


def _mask(fields: Iterable[int]) -> int:
    mask = 0
    for f in fields:
        mask |= 1 << f
    return mask


def _lose_tile(state: HangingGardensState) -> HangingGardensState:
    """A score tile that could not be had: it counts as missing and the game ends this round."""
    seat = state.seat
    return state._replace(missing=added(state.missing, seat, 1), ending=True)


def _either(items: list[str]) -> str | Sentence:
    """Fields to choose from: ``1:2``, ``1:2 or 3:4``, ``1:2, 3:4 or 5:6``."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return Sentence("{first} or {second}", {"first": items[0], "second": items[1]})
    return Sentence("{first}, {rest}", {"first": items[0], "rest": _either(items[1:])})


def _kind_list(counts: tuple[int, ...], kinds: tuple[str, ...]) -> list[str]:
    return [kind for kind, count in zip(kinds, counts, strict=True) for _ in range(count)]


def _without_card(display: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(EMPTY if c == card else c for c in display)

