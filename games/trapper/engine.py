"""The Trapper rule engine (Kramer & Kiesling): trappers shared by all, prey into canoes.

A turn is a series of steps of one trapper, each paid with a card of its colour or two cards of
one other colour: it takes a face-up tile next to it (not across the tile's water side), or, if
it cannot, jumps to any face-up tile; the tile goes straight into the player's display, where a
full canoe is sold at once. The turn ends with ``pass`` (nothing played) or ``done``, and two
cards are drawn. The engine knows every tile (on the table the tags under the grid say which
tile lies where); views hide face-down tiles, hands and the draw pile.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

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
from games.core.grid import cell_name
from games.core.scoresheet import ScoreSheet
from games.core.tuples import removed, replaced

from . import position as position_module
from . import words
from .actions import DONE, PASS, RETIRE, SETUP, Action, action_texts, parse
from .components import STEPS, Components, load_components
from .display import (
    NONE,
    Display,
    attach,
    auto_target,
    bonus_chip,
    species_of_sold,
    targets,
    trade_loads,
)
from .limits import enumerate_actions, trapper_limits
from .scoring import rank_winners, score_table
from .state import (
    CHANCE_PHASES,
    EMPTY,
    TrapperState,
    display_to_json,
    state_from_json,
    state_to_json,
)

PAD_SITES = ("pad:play:1", "pad:play:2")
OUT_PIECE = "marker:out:{}"
"""Each seat has its own out marker (``marker:out:1``), laid when its player ends."""
TURN_PIECE = "marker:turn"
PITCH = 100.0


class Trapper(Game[TrapperState]):
    """One engine object serves every game; it holds the component data and tables built
    from it (neighbours, action texts)."""

    id = "trapper"
    name = "Trapper"
    players_deal = True  # see docs/games/trapper.md, "Who deals"
    min_players = 2
    max_players = 4
    secrets = (
        Secret("each player's hand of cards", "others"),
        Secret("face-down landscape tiles, the tiles not laid and the draw pile", "everyone"),
    )
    options = (
        OptionSpec(
            "placement",
            ("auto", "choose"),
            "where a taken tile goes when several canoes would take it: auto lays it at the "
            "canoe with the fewest free places (the table needs no button), choose lets the "
            "player say (onto CANOE; the table asks on the page)",
        ),
        OptionSpec(
            "values",
            ("printed", "first_guess"),
            "what herbs and mushrooms are worth: printed (6 each, so the bonus chips up to 36 "
            "can be won) or first_guess (1 each, rules revision 1); see the data file",
        ),
        OptionSpec(
            "reading",
            ("box", "revision1"),
            "box: a canoe laid alone takes the matching tiles taken after it, passing never "
            "ends the game, it ends when everyone has ended for themselves; revision1: the "
            "first reading (a lone canoe stays loose, passes in a row end the game)",
        ),
    )
    rule_changes = (
        RuleChange(2, "values", {"printed": "first_guess"},
                   "herbs and mushrooms are worth 6, not 1 (the bonus chips up to 36)"),
        RuleChange(2, "reading", {"box": "revision1"},
                   "a lone canoe fills; the game ends when every player has ended"),
    )

    def __init__(self, components: Components | None = None) -> None:
        self.components = c = components or load_components()
        self.size = size = c.size
        self.texts = action_texts(c)
        self.cells = size * size
        self.centre = frozenset(c.starts)
        self.layout = tuple(cell for cell in range(self.cells) if cell not in self.centre)
        """Cells the layout fills, in reading order."""
        neighbours = []
        for cell in range(self.cells):
            row, col = divmod(cell, size)
            found = []
            for side, (dr, dc) in enumerate(STEPS):
                r, q = row + dr, col + dc
                if 0 <= r < size and 0 <= q < size:
                    # entering (r, q) from ``cell`` crosses its side opposite to ``side``
                    found.append((r * size + q, (side + 2) % 4))
            neighbours.append(tuple(found))
        self.neighbours = tuple(neighbours)
        self.water = tuple(tile.water for tile in c.tiles)
        self.colour_order = sorted(range(len(c.colours)), key=lambda i: c.colours[i])
        """Colours in the order of their names (the order of ``deal``/``draw`` actions)."""
        self.tile_pieces = tuple(tile.piece for tile in c.tiles)
        self.bonus_sites = tuple(f"bank:bonus:{v}" for v in c.bonus_chips)
        self.species_sites = tuple(f"bank:species:{v}" for v in c.species_chips)
        self.valued = {name: c.with_values(name) for name in c.worths}
        """The components per value set (option values): only herbs and mushrooms differ."""

    # -- setup ---------------------------------------------------------------------------------
    def initial(
        self, players: Sequence[str], options: Mapping[str, str] | None = None
    ) -> TrapperState:
        names = self.check_players(players)
        chosen = self.check_options(options)
        n = len(names)
        c = self.components
        colours = len(c.colours)
        return TrapperState(
            players=names,
            choose=chosen["placement"] == "choose",
            values=chosen["values"],
            first_reading=chosen["reading"] == "revision1",
            phase="setup",
            grid=(EMPTY,) * self.cells,
            face_up=(False,) * self.cells,
            supply=tuple(range(len(c.tiles))),
            trappers=(EMPTY,) * colours,
            hands=((0,) * colours,) * n,
            draw=(c.per_colour,) * colours,
            discard=(0,) * colours,
            pad=(),
            seat=0,
            marker=EMPTY,
            trapper=EMPTY,
            traded=False,
            draws_left=0,
            passes=0,
            retired=(False,) * n,
            displays=(Display(),) * n,
            sales=((),) * n,
            bonus=(EMPTY,) * len(c.bonus_chips),
            species=(EMPTY,) * len(c.species_chips),
        )

    # -- bounds --------------------------------------------------------------------------------
    def compute_limits(self, n_players: int, options: Mapping[str, str]) -> Limits:
        """Every action that can ever be legal and provable bounds (see ``limits``)."""
        choose = options["placement"] == "choose"
        return trapper_limits(self.valued[options["values"]], self._every_action(choose),
                              len(self.layout), n_players, options["reading"] == "revision1")

    @lru_cache(maxsize=2)  # noqa: B019 (one engine object lives for the whole process)
    def _every_action(self, choose: bool) -> tuple[str, ...]:
        """The player count does not change the actions: one tuple per placement option."""
        return enumerate_actions(self.texts, self.layout, choose)

    # -- playing -------------------------------------------------------------------------------
    def actor(self, state: TrapperState) -> int:
        phase = state.phase
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase == "over":
            return TERMINAL
        return state.seat

    def legal_actions(self, state: TrapperState) -> list[str]:
        phase = state.phase
        if phase == "turn":
            return self._turn_actions(state)
        if phase == "lay":
            row = self.texts.lay[self._next_layout_cell(state)]
            return [row[tile] for tile in state.supply]
        if phase in ("deal", "draw"):
            texts = self.texts.deal if phase == "deal" else self.texts.draw
            return [texts[c] for c in self.colour_order if state.draw[c]]
        if phase == "setup":
            return [SETUP]
        return []

    def _turn_actions(self, state: TrapperState) -> list[str]:
        actions = self._steps(state)
        actions.extend(self._trades(state))
        if state.trapper == EMPTY:
            if self._may_pass(state):
                actions.append(PASS)
            if not state.traded:
                actions.append(RETIRE)
        else:
            actions.append(DONE)
        actions.sort()
        return actions

    @staticmethod
    def _may_pass(state: TrapperState) -> bool:
        """A pass is drawing two cards: with no card left to draw (draw pile and discard pile
        empty) there is nothing to pass for, and the player plays or ends (the box reading;
        without it a table of passers would never end)."""
        return state.first_reading or bool(sum(state.draw) or sum(state.discard))

    def _payments(self, hand: tuple[int, ...], colour: int) -> list[int]:
        """0: one card of the trapper's colour; 1 + d: two cards of another colour d."""
        pays = [0] if hand[colour] else []
        pays.extend(1 + d for d, count in enumerate(hand) if d != colour and count >= 2)
        return pays

    def reachable(self, state: TrapperState, colour: int) -> tuple[list[int], bool]:
        """The cells the trapper may take a tile from, and whether it must jump (isolated:
        no neighbouring tile it can enter)."""
        grid, water = state.grid, self.water
        near = [
            cell for cell, crossing in self.neighbours[state.trappers[colour]]
            if grid[cell] != EMPTY and state.face_up[cell] and water[grid[cell]] != crossing
        ]
        if near:
            return near, False
        return [
            cell for cell, tile in enumerate(grid) if tile != EMPTY and state.face_up[cell]
        ], True

    def _steps(self, state: TrapperState) -> list[str]:
        """Every step the player may pay for, as text (with ``onto`` where there is a choice)."""
        hand = state.hands[state.seat]
        display = state.displays[state.seat]
        colours = range(len(hand)) if state.trapper == EMPTY else (state.trapper,)
        found: list[str] = []
        onto = self.texts.onto
        for colour in colours:
            pays = self._payments(hand, colour)
            if not pays:
                continue
            cells, _ = self.reachable(state, colour)
            per_cell = self.texts.step[colour]
            for cell in cells:
                places = self._places(state, display, state.grid[cell])
                for pay in pays:
                    base = per_cell[cell][pay]
                    if len(places) > 1:
                        found.extend(base + onto[place] for place in places)
                    else:
                        found.append(base)
        return found

    def _places(self, state: TrapperState, display: Display, tile: int) -> tuple[int, ...]:
        """The canoes the player may choose for ``tile``: with placement auto at most one."""
        if state.choose:
            return targets(display, tile, self.components)
        target = auto_target(display, tile, self.components)
        return () if target == NONE else (target,)

    def _trades(self, state: TrapperState) -> list[str]:
        if state.traded:
            return []
        kinds = len(species_of_sold(state.displays[state.seat], self.components))
        values = self.components.species_chips
        return [
            self.texts.trade[values[i]] for i, owner in enumerate(state.species)
            if owner == EMPTY and values[i] <= kinds
        ]

    def chance_outcomes(self, state: TrapperState) -> list[tuple[str, Fraction]]:
        phase = state.phase
        if phase == "lay":
            outcomes = self.legal_actions(state)
            probability = Fraction(1, len(outcomes))
            return [(outcome, probability) for outcome in outcomes]
        if phase in ("deal", "draw"):
            total = sum(state.draw)
            texts = self.texts.deal if phase == "deal" else self.texts.draw
            return [
                (texts[c], Fraction(state.draw[c], total)) for c in self.colour_order
                if state.draw[c]
            ]
        return []

    def sample_chance(self, state: TrapperState, rng: random.Random) -> str:
        """Draw directly (playouts spend much of their time here)."""
        if state.phase == "lay":
            return self.texts.lay[self._next_layout_cell(state)][rng.choice(state.supply)]
        texts = self.texts.deal if state.phase == "deal" else self.texts.draw
        point = rng.randrange(sum(state.draw))
        for colour, count in enumerate(state.draw):
            if point < count:
                return texts[colour]
            point -= count
        raise AssertionError("no card to draw")  # pragma: no cover

    def parse_action(self, text: str) -> str:
        return parse(text, self.texts)[0]

    def apply(self, state: TrapperState, action: str) -> TrapperState:
        parsed = self.texts.parsed.get(action) if isinstance(action, str) else None
        if parsed is None:
            parsed = parse(action, self.texts)[1]
        phase = state.phase
        kind = parsed.kind
        if phase == "turn" and kind in ("step", "trade", "pass", "done", "retire"):
            return getattr(self, f"_{kind}")(state, parsed)
        if phase == "lay" and kind == "lay":
            return self._lay(state, parsed)
        if phase in ("deal", "draw") and kind == phase:
            return self._card(state, parsed)
        if phase == "setup" and kind == "setup":
            return self._setup(state)
        raise IllegalAction(Sentence("not now: {step}", {"step": self.describe_step(state)}))

    def to_act(self, state: TrapperState) -> int | None:
        """The start player sets out the chips and the trappers and lays the landscape; cards
        dealt and drawn leave the board as it is (the table writes them as unseen at once), so
        nobody is named for them."""
        if state.phase in ("setup", "lay", "turn"):
            return state.seat
        return None

    def describe_step(self, state: TrapperState) -> Sentence:
        """Who does what with which piece where, in the box's words (the page's headline,
        refusals)."""
        phase = state.phase
        who: dict[str, str | Sentence] = {"player": state.players[state.seat]}
        if phase == "setup":
            return Sentence("{player}: lay the bonus chips and the species chips into the bank "
                            "and stand the four trappers on the four centre squares.", who)
        if phase == "lay":
            cell = self._next_layout_cell(state)
            where = {**who, "square": cell_name(cell, self.size)}
            if any(other in self.centre for other, _ in self.neighbours[cell]):
                return Sentence("{player}: lay the next prey tile face up on square {square}, "
                                "next to a trapper, its butterfly towards the butterfly "
                                "corner.", where)
            return Sentence("{player}: lay the next prey tile face down on square {square}.",
                            where)
        if phase == "deal":
            return Sentence("The table deals {player} a trapper card: it shows on their player "
                            "page.", who)
        if phase == "draw":
            if state.draws_left == 1:
                return Sentence("{player} draws 1 more trapper card: it shows on their player "
                                "page.", who)
            return Sentence("{player} draws {count} trapper cards: they show on their player "
                            "page.", {**who, "count": str(state.draws_left)})
        if phase == "turn":
            step = self._turn_step(state, who)
            if self._trades(state):
                return Sentence("{step} You may also trade sold loads for a species chip.",
                                {"step": step})
            return step
        if all(tile == EMPTY for tile in state.grid):
            return Sentence("Game over: the last prey tile has been taken.")
        if all(state.retired):
            return Sentence("Game over: every player has ended the game.")
        return Sentence("Game over: every player passed in a row.")

    def _turn_step(self, state: TrapperState, who: dict[str, str | Sentence]) -> Sentence:
        """A turn: move a trapper (the first one, or the same again), pass, or end. Told from
        what everyone sees: whether the hand can pay is the player's secret."""
        if state.trapper != EMPTY:
            moving = words.trapper(self.components.colours[state.trapper])
            return Sentence("{player}: move {trapper} again with another card onto the play "
                            "pad, or end your turn and draw 2 cards.", {**who, "trapper": moving})
        if self._may_pass(state):
            return Sentence("{player}: play a trapper card onto the play pad and move the "
                            "trapper of its colour onto a face-up prey tile next to it (two "
                            "cards of one colour pay for any trapper); or pass and draw 2 "
                            "cards.", who)
        return Sentence("{player}: play a trapper card onto the play pad and move the "
                        "trapper of its colour onto a face-up prey tile next to it (two "
                        "cards of one colour pay for any trapper); or, with no card left to "
                        "draw, end the game for yourself.", who)

    def describe_result(self, state: TrapperState) -> Sentence:
        """The most money wins; the sheet has no tie-break, so a tie is a shared win."""
        if state.phase != "over":
            return super().describe_result(state)
        totals = self.score(state).totals
        winners = self.winners(state)
        money = str(totals[winners[0]])
        if len(winners) > 1:
            return Sentence("{players} share the win with {money} money each: the rules "
                            "break no tie.",
                            {"players": listing([state.players[s] for s in winners]),
                             "money": money})
        return Sentence("{player} wins with the most money: {money}.",
                        {"player": state.players[winners[0]], "money": money})

    # -- the steps -----------------------------------------------------------------------------
    def _setup(self, state: TrapperState) -> TrapperState:
        return state._replace(phase="lay", trappers=self.components.starts, marker=0)

    def _next_layout_cell(self, state: TrapperState) -> int:
        laid = len(self.components.tiles) - len(state.supply)
        return self.layout[laid]

    def _lay(self, state: TrapperState, action: Action) -> TrapperState:
        cell = self._next_layout_cell(state)
        if action.cell != cell:
            raise IllegalAction(Sentence(
                "the layout is laid row by row from the north-west corner, leaving out the "
                "centre: the next tile goes on {square}, not {given}",
                {"square": cell_name(cell, self.size),
                 "given": cell_name(action.cell, self.size)}))
        if action.tile not in state.supply:
            raise IllegalAction(Sentence("{tile} is already laid",
                                         {"tile": self._tile(action.tile)}))
        grid = replaced(state.grid, cell, action.tile)
        near_trapper = any(other in self.centre for other, _ in self.neighbours[cell])
        face_up = replaced(state.face_up, cell, True) if near_trapper else state.face_up
        supply = removed(state.supply, action.tile)
        done = len(supply) == len(self.components.tiles) - len(self.layout)
        return state._replace(phase="deal" if done else "lay", grid=grid, face_up=face_up,
                              supply=supply)

    def _card(self, state: TrapperState, action: Action) -> TrapperState:
        colour = action.colour
        if not state.draw[colour]:
            raise IllegalAction(Sentence("no {colour} card is left to draw",
                                         {"colour": words.colour(self.components.colours[colour])}))
        seat = state.seat
        draw = replaced(state.draw, colour, state.draw[colour] - 1)
        hand = state.hands[seat]
        hands = replaced(state.hands, seat, replaced(hand, colour, hand[colour] + 1))
        state = state._replace(draw=draw, hands=hands)
        if state.phase == "deal":
            n = len(state.players)
            if sum(hands[-1]) == self.components.hand_size:
                return state._replace(phase="turn", seat=0)
            return state._replace(seat=(seat + 1) % n)
        return self._drawn(state._replace(draws_left=state.draws_left - 1))

    def _drawn(self, state: TrapperState) -> TrapperState:
        """After a draw: reshuffle an empty draw pile; next player when the draws are done
        (or no card is left anywhere)."""
        if state.draws_left and not sum(state.draw):
            if sum(state.discard):
                state = state._replace(draw=state.discard, discard=(0,) * len(state.discard))
            else:
                state = state._replace(draws_left=0)
        if state.draws_left:
            return state
        return self._next_player(state)

    def _next_active(self, state: TrapperState) -> int:
        """The next seat after the current one still in the game (EMPTY if none)."""
        n = len(state.players)
        for offset in range(1, n + 1):
            seat = (state.seat + offset) % n
            if not state.retired[seat]:
                return seat
        return EMPTY

    def _next_player(self, state: TrapperState) -> TrapperState:
        """The turn marker already stands before the next player: their turn begins."""
        return state._replace(phase="turn", seat=state.marker, trapper=EMPTY, traded=False,
                              draws_left=0)

    def _end_turn(self, state: TrapperState) -> TrapperState:
        """The play pad is cleared onto the discard pile, the turn marker goes to the next
        player, then two cards are drawn (both hand movements the table sees)."""
        discard = list(state.discard)
        for colour in state.pad:
            discard[colour] += 1
        return self._drawn(state._replace(
            phase="draw", draws_left=self.components.draw_per_turn, trapper=EMPTY,
            discard=tuple(discard), pad=(), marker=self._next_active(state)))

    def _pass(self, state: TrapperState, action: Action) -> TrapperState:
        if state.trapper != EMPTY:
            raise IllegalAction(Sentence("you have moved a trapper this turn: end it with done"))
        if not self._may_pass(state):
            raise IllegalAction(Sentence("no card is left to draw, so there is nothing to pass "
                                         "for: move a trapper or end the game for yourself "
                                         "(retire)"))
        if not state.first_reading:
            return self._end_turn(state)
        passes = state.passes + 1
        if passes >= state.retired.count(False):
            return state._replace(phase="over", passes=passes, marker=EMPTY)
        return self._end_turn(state._replace(passes=passes))

    def _done(self, state: TrapperState, action: Action) -> TrapperState:
        if state.trapper == EMPTY:
            raise IllegalAction(Sentence("you have not moved a trapper this turn: pass instead"))
        return self._end_turn(state)

    def _retire(self, state: TrapperState, action: Action) -> TrapperState:
        if state.trapper != EMPTY or state.traded:
            raise IllegalAction(Sentence("you may end the game for yourself only instead of a "
                                         "turn, before moving a trapper or trading"))
        seat = state.seat
        hand = state.hands[seat]
        discard = tuple(a + b for a, b in zip(state.discard, hand, strict=True))
        hands = replaced(state.hands, seat, (0,) * len(hand))
        retired = replaced(state.retired, seat, True)
        state = state._replace(discard=discard, hands=hands, retired=retired)
        marker = self._next_active(state)
        passed_out = state.first_reading and state.passes >= retired.count(False)
        if marker == EMPTY or passed_out:
            return state._replace(phase="over", marker=EMPTY)
        return self._next_player(state._replace(marker=marker))

    def _trade(self, state: TrapperState, action: Action) -> TrapperState:
        if state.traded:
            raise IllegalAction(Sentence("only one species chip may be traded a turn"))
        values = self.components.species_chips
        index = values.index(action.k)
        if state.species[index] != EMPTY:
            holder = state.players[state.species[index]]
            raise IllegalAction(Sentence("the species chip {chip} is taken (by {player})",
                                         {"chip": str(action.k), "player": holder}))
        seat = state.seat
        display = state.displays[seat]
        kinds = len(species_of_sold(display, self.components))
        if kinds < action.k:
            raise IllegalAction(Sentence(
                "the species chip {chip} needs sold loads of {chip} different species; you "
                "hold {count}", {"chip": str(action.k), "count": str(kinds)}))
        displays = replaced(state.displays, seat, trade_loads(display, action.k, self.components))
        return state._replace(
            displays=displays, species=replaced(state.species, index, seat), traded=True)

    def _step(self, state: TrapperState, action: Action) -> TrapperState:
        colours = self.components.colours
        colour, cell = action.colour, action.cell
        if state.trapper not in (EMPTY, colour):
            raise IllegalAction(Sentence(
                "only one trapper moves in a turn: this turn it is the {colour}",
                {"colour": words.colour(colours[state.trapper])}))
        seat = state.seat
        paid = self._payment(state.hands[seat], action)
        cells, jump = self.reachable(state, colour)
        if cell not in cells:
            raise IllegalAction(self._why_not_cell(state, colour, cell, jump))
        tile = state.grid[cell]
        display = state.displays[seat]
        onto = self._onto(state, tile, self._places(state, display, tile), action.onto)
        hand = state.hands[seat]
        for paid_colour in paid:
            hand = replaced(hand, paid_colour, hand[paid_colour] - 1)
        discard = list(state.discard)
        for old in state.pad:
            discard[old] += 1
        display, sold = attach(display, tile, onto, self.valued[state.values],
                               state.first_reading)
        sales, bonus = state.sales, state.bonus
        if sold is not None:
            sales = replaced(sales, seat, (*sales[seat], sold))
            chip = bonus_chip(sold.amount, bonus, self.components.bonus_chips)
            if chip >= 0:
                bonus = replaced(bonus, chip, seat)
        grid, face_up = self._taken(state, cell)
        state = state._replace(
            grid=grid, face_up=face_up, trappers=replaced(state.trappers, colour, cell),
            hands=replaced(state.hands, seat, hand), discard=tuple(discard), pad=paid,
            trapper=colour, passes=0, displays=replaced(state.displays, seat, display),
            sales=sales, bonus=bonus,
        )
        if all(t == EMPTY for t in grid):
            return state._replace(phase="over", trapper=EMPTY)
        return state

    def _payment(self, hand: tuple[int, ...], action: Action) -> tuple[int, ...]:
        """The colours of the cards a step costs: one of the trapper's colour, or two of one
        colour (the joker)."""
        colours = self.components.colours
        name = colours[action.colour]
        if action.joker == EMPTY:
            if not hand[action.colour]:
                raise IllegalAction(Sentence(
                    "you hold no {colour} card (two cards of one colour will do)",
                    {"colour": words.colour(name)}))
            return (action.colour,)
        if hand[action.joker] < 2:
            raise IllegalAction(Sentence(
                "you need {cards} to pay for {trapper}",
                {"cards": words.cards(colours[action.joker], 2),
                 "trapper": words.trapper(name)}))
        return (action.joker, action.joker)

    def _onto(self, state: TrapperState, tile: int, places: tuple[int, ...], onto: int) -> int:
        """The canoe the taken tile goes onto (NONE: it lies loose): the one place it has, or
        the one the player named when it has several; naming one without a choice is refused."""
        if len(places) > 1 and onto not in places:
            raise IllegalAction(Sentence(
                "say which canoe {tile} goes onto: {canoes}",
                {"tile": self._tile(tile),
                 "canoes": words.tiles([self.components.tiles[p] for p in places],
                                       self.components.species)}))
        if len(places) <= 1 and onto != NONE:
            why = (Sentence("there is no choice to make") if state.choose
                   else Sentence("placement is auto"))
            if not places:
                raise IllegalAction(Sentence("{tile} lies loose: {why}",
                                             {"tile": self._tile(tile), "why": why}))
            raise IllegalAction(Sentence("{tile} goes onto {canoe}: {why}",
                                         {"tile": self._tile(tile), "why": why,
                                          "canoe": self._tile(places[0])}))
        return places[0] if len(places) == 1 else onto

    def _taken(self, state: TrapperState, cell: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """The grid and its faces once the tile on ``cell`` is taken: the tiles next to the
        gap turn face up."""
        grid = replaced(state.grid, cell, EMPTY)
        face_up = list(state.face_up)
        face_up[cell] = False
        for other, _ in self.neighbours[cell]:
            if grid[other] != EMPTY:
                face_up[other] = True
        return grid, tuple(face_up)

    def _why_not_cell(self, state: TrapperState, colour: int, cell: int, jump: bool
                      ) -> Sentence:
        where = {"square": cell_name(cell, self.size),
                 "trapper": words.trapper(self.components.colours[colour])}
        tile = state.grid[cell]
        if tile == EMPTY:
            return Sentence("there is no tile on {square}: a trapper never moves onto an empty "
                            "square", where)
        if not state.face_up[cell]:
            return Sentence("the tile on {square} is face down: only face-up tiles may be "
                            "taken", where)
        if jump:  # pragma: no cover - every face-up tile is reachable by a jump
            return Sentence("{square} is out of reach for {trapper}", where)
        for other, crossing in self.neighbours[state.trappers[colour]]:
            if other == cell and self.water[tile] == crossing:
                return Sentence("water blocks the way: {square} has its water side towards the "
                                "trapper", where)
        return Sentence("{square} is not next to {trapper} (it may jump only when it can take "
                        "no tile next to it)", where)

    def _tile(self, tile: int) -> Sentence:
        """A tile's name to translate (``bear-2a``, German ``Bär-2a``)."""
        return words.tile(self.components.tiles[tile], self.components.species)

    # -- scoring -------------------------------------------------------------------------------
    def score(self, state: TrapperState) -> ScoreSheet:
        return self._score_cached(state.players, state.sales, state.displays, state.bonus,
                                  state.species, state.phase == "over", state.values)

    @lru_cache(maxsize=512)  # noqa: B019 (one engine object lives for the whole process)
    def _score_cached(
        self,
        players: tuple[str, ...],
        sales: tuple[Any, ...],
        displays: tuple[Display, ...],
        bonus: tuple[int, ...],
        species: tuple[int, ...],
        final: bool,
        values: str,
    ) -> ScoreSheet:
        """Money from sales during play; the final scoring once the game is over."""
        components = self.valued[values]
        return score_table(players, components.start_money, sales, displays, bonus,
                           species, final, components)

    def winners(self, state: TrapperState) -> list[int]:
        return rank_winners(self.score(state).totals)

    def score_position(self, position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
        return position_module.score_position(position, self.components)

    # -- what people and sensors see ----------------------------------------------------------
    def players(self, state: TrapperState) -> tuple[str, ...]:
        return state.players

    def view(self, state: TrapperState, player: int | None) -> dict[str, Any]:
        c = self.components
        size = self.size
        at = {cell: c.colours[colour] for colour, cell in enumerate(state.trappers)
              if cell != EMPTY}
        grid = []
        for row in range(size):
            cells: list[Any] = []
            for col in range(size):
                cell = row * size + col
                tile = state.grid[cell]
                if cell in at:
                    cells.append({"trapper": at[cell]})
                elif tile == EMPTY:
                    cells.append(None)
                elif state.face_up[cell]:
                    info = c.tiles[tile]
                    cells.append({"face_up": True, "tile": info.name,
                                  "water": "NESW"[info.water]})
                else:
                    cells.append({"face_up": False})
            grid.append(cells)
        actor = self.actor(state)
        hands = {
            name: (dict(zip(c.colours, hand, strict=True)) if seat == player
                   else {"count": sum(hand)})
            for seat, (name, hand) in enumerate(zip(state.players, state.hands, strict=True))
        }
        return {
            "game": self.id,
            "players": list(state.players),
            "you": None if player is None else state.players[player],
            "phase": state.phase,
            "step": str(self.describe_step(state)),
            "to_act": state.players[actor] if actor >= 0 else None,
            "grid": grid,
            "moving": None if state.trapper == EMPTY else c.colours[state.trapper],
            "traded": state.traded,
            "hands": hands,
            "draw_pile": sum(state.draw),
            "discard": dict(zip(c.colours, state.discard, strict=True)),
            "pad": [c.colours[colour] for colour in state.pad],
            "retired": [name for name, out in zip(state.players, state.retired, strict=True)
                        if out],
            "displays": {name: display_to_json(d, c)
                         for name, d in zip(state.players, state.displays, strict=True)},
            "bonus_chips": {str(v): None if o == EMPTY else state.players[o]
                            for v, o in zip(c.bonus_chips, state.bonus, strict=True)},
            "species_chips": {str(v): None if o == EMPTY else state.players[o]
                              for v, o in zip(c.species_chips, state.species, strict=True)},
            "score": self.score(state).to_json(),
        }

    def render(self, state: TrapperState, player: int | None) -> str:
        """The grid as text (``##`` face down, ``..`` empty, a trapper by its colour)."""
        view = self.view(state, player)
        lines = [f"Trapper: {view['step']}"]
        for row in view["grid"]:
            shown = []
            for cell in row:
                if cell is None:
                    shown.append("..")
                elif "trapper" in cell:
                    shown.append(cell["trapper"].upper())
                elif cell["face_up"]:
                    shown.append(f"{cell['tile']}/{cell['water']}")
                else:
                    shown.append("##")
            lines.append(" ".join(f"{text:<16}" for text in shown).rstrip())
        lines.append("hands: " + "; ".join(f"{k}: {v}" for k, v in view["hands"].items()))
        scores = view["score"]["scores"]
        lines.append("money: " + ", ".join(f"{k} {v}" for k, v in scores.items()))
        return "\n".join(lines)

    def resample(self, state: TrapperState, player: int | None, rng: random.Random) -> TrapperState:
        """Redraw what ``player`` cannot see: face-down tiles with the unlaid or boxed ones, and
        the other players' hands with the draw pile (hand sizes stay)."""
        down = [cell for cell, tile in enumerate(state.grid)
                if tile != EMPTY and not state.face_up[cell]]
        pool = sorted([state.grid[cell] for cell in down] + list(state.supply))
        rng.shuffle(pool)  # from sorted pools: the redraw depends only on what is seen
        grid = list(state.grid)
        for cell in down:
            grid[cell] = pool.pop()
        hidden = [seat for seat in range(len(state.players)) if seat != player]
        cards = [colour for colour, count in enumerate(state.draw) for _ in range(count)]
        for seat in hidden:
            cards += [colour for colour, count in enumerate(state.hands[seat])
                      for _ in range(count)]
        cards.sort()
        rng.shuffle(cards)
        hands = list(state.hands)
        colours = len(state.draw)
        for seat in hidden:
            size = sum(hands[seat])
            dealt, cards = cards[:size], cards[size:]
            hands[seat] = tuple(dealt.count(colour) for colour in range(colours))
        draw = tuple(cards.count(colour) for colour in range(colours))
        return state._replace(grid=tuple(grid), supply=tuple(sorted(pool)), hands=tuple(hands),
                              draw=draw)

    def sites(self, n_players: int) -> tuple[Site, ...]:
        size = self.size
        found = [
            Site(f"grid:{row}:{col}", PITCH * col, PITCH * row, f"square {row}:{col}")
            for row in range(size) for col in range(size)
        ]
        right = PITCH * (size + 0.5)
        found += [Site(site, right, PITCH * number, f"play pad {number + 1}")
                  for number, site in enumerate(PAD_SITES)]
        for number, (site, value) in enumerate(zip(self.bonus_sites,
                                                   self.components.bonus_chips, strict=True)):
            found.append(Site(site, right + PITCH * (1 + number % 2), PITCH * (number // 2),
                              f"bonus chip {value}"))
        for number, (site, value) in enumerate(zip(self.species_sites,
                                                   self.components.species_chips, strict=True)):
            found.append(Site(site, right + PITCH * 3, PITCH * number,
                              f"species chip {value}"))
        found += [Site(f"seat:{seat + 1}", PITCH * (seat * 2 + 0.5), PITCH * (size + 0.5),
                       f"player {seat + 1}: turn or out marker") for seat in range(n_players)]
        return tuple(found)

    def face_down(self, state: TrapperState) -> frozenset[str]:
        """Landscape tiles lying face down (a trapper standing on one hides it anyway)."""
        size = self.size
        return frozenset(f"grid:{cell // size}:{cell % size}"
                         for cell, tile in enumerate(state.grid)
                         if tile != EMPTY and not state.face_up[cell]
                         and cell not in state.trappers)

    def dealt_piece(self, outcome: str) -> str:
        """A card dealt and a card drawn of one colour are the same card from the pile."""
        verb, _, colour = outcome.partition(" ")
        return f"card {colour}" if verb in ("deal", "draw") else outcome

    def public_action(self, state: TrapperState, action: str) -> str:
        """A tile laid face down and a card dealt or drawn into a hand are not named."""
        verb, _, rest = action.partition(" ")
        if verb == "lay":
            return f"lay {rest.split()[0]} face down"
        if verb in ("deal", "draw") and state.phase in ("deal", "draw"):
            return f"{verb} a card"
        return action

    def action_sentence(self, state: TrapperState, action: str) -> Sentence:
        """A step told in words for the events list: laid tiles and dealt cards unnamed, as
        in ``public_action``."""
        parsed = parse(action, self.texts)[1]
        c = self.components
        who: dict[str, str | Sentence] = {"player": state.players[state.seat]}
        kind = parsed.kind
        if kind == "setup":
            return Sentence("{player} lays the chips into the bank and stands the trappers on "
                            "the centre squares.", who)
        if kind == "lay":
            return Sentence("A prey tile is laid on square {square}.",
                            {"square": cell_name(parsed.cell, self.size)})
        if kind == "deal":
            return Sentence("{player} is dealt a trapper card.", who)
        if kind == "draw":
            return Sentence("{player} draws a trapper card.", who)
        if kind == "step":
            tile = state.grid[parsed.cell]
            paid = (words.cards(c.colours[parsed.colour], 1) if parsed.joker == NONE
                    else words.cards(c.colours[parsed.joker], 2))
            named = {**who, "cards": paid, "trapper": words.trapper(c.colours[parsed.colour]),
                     "square": cell_name(parsed.cell, self.size),
                     "tile": words.tile(c.tiles[tile], c.species) if tile != EMPTY else "?"}
            if parsed.onto != NONE:
                named["canoe"] = words.tile(c.tiles[parsed.onto], c.species)
                return Sentence("{player} plays {cards} and moves {trapper} to {square}, "
                                "taking {tile} onto {canoe}.", named)
            return Sentence("{player} plays {cards} and moves {trapper} to {square}, taking "
                            "{tile}.", named)
        if kind == "trade":
            return Sentence("{player} trades sold loads of {count} species for the species "
                            "chip {count}.", {**who, "count": str(parsed.k)})
        if kind == "pass":
            return Sentence("{player} passes.", who)
        if kind == "done":
            return Sentence("{player} ends their turn.", who)
        return Sentence("{player} ends the game for themselves.", who)

    def board(self, state: TrapperState) -> dict[str, str]:
        """Tiles and trappers on the grid (face up or down, the tags say the same), the last
        payment on the play pad, the chips still in the bank, the out markers."""
        size = self.size
        pieces = self.tile_pieces
        board = {f"grid:{cell // size}:{cell % size}": pieces[tile]
                 for cell, tile in enumerate(state.grid) if tile != EMPTY}
        if state.phase == "setup":
            return board
        colours = self.components.colours
        for colour, cell in enumerate(state.trappers):
            board[f"grid:{cell // size}:{cell % size}"] = f"trapper:{colours[colour]}"
        for site, colour in zip(PAD_SITES, state.pad, strict=False):
            board[site] = f"card:{colours[colour]}"
        for site, owner in zip(self.bonus_sites, state.bonus, strict=True):
            if owner == EMPTY:
                board[site] = site.replace("bank:", "chip:")
        for site, owner in zip(self.species_sites, state.species, strict=True):
            if owner == EMPTY:
                board[site] = site.replace("bank:", "chip:")
        for seat, out in enumerate(state.retired):
            if out:
                board[f"seat:{seat + 1}"] = OUT_PIECE.format(seat + 1)
        if state.marker != EMPTY:
            board[f"seat:{state.marker + 1}"] = TURN_PIECE
        return board

    def pieces(self) -> tuple[str, ...]:
        colours = self.components.colours
        return (
            *self.tile_pieces,
            *(f"trapper:{colour}" for colour in colours),
            *(f"card:{colour}" for colour in colours),
            *(site.replace("bank:", "chip:") for site in self.bonus_sites),
            *(site.replace("bank:", "chip:") for site in self.species_sites),
            *(OUT_PIECE.format(seat + 1) for seat in range(self.max_players)),
            TURN_PIECE,
        )

    # -- serialisation -------------------------------------------------------------------------
    def state_to_json(self, state: TrapperState) -> dict[str, Any]:
        return state_to_json(state, self.components)

    def state_from_json(self, data: Mapping[str, Any]) -> TrapperState:
        return state_from_json(data, self.components)

