"""The Topiary rule engine: setup as chance, turns as the three steps a hand makes.

A turn is ``visitor`` (stand a visitor on a free spot), then, if that visitor's line holds
face-down tiles, ``take`` (one of them into the hand) and ``place`` (any hand tile face up
into the gap). The engine knows every tile (on the table the tags under the grid say which
tile lies where); views hide face-down tiles and other players' hands.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from games.core.errors import IllegalAction
from games.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    Limits,
    OptionSpec,
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
from .actions import BOX, NO_TAKE, PICK, Action, action_texts, parse
from .components import Components, load_components
from .limits import build_limits
from .scoring import EMPTY, Scoring, rank_winners, score_table
from .spots import PAD_SITE, all_spots, cell_site, centre_cell, table_sites
from .state import CHANCE_PHASES, TopiaryState, state_from_json, state_to_json


@cache
def _probability(count: int) -> Fraction:
    return Fraction(1, count)


class Topiary(Game[TopiaryState]):
    """One engine object serves every game; all it holds is the component data and the
    action texts built from it."""

    id = "topiary"
    name = "Topiary"
    players_deal = True  # see docs/games/topiary.md, "Who deals"
    choice_site = PAD_SITE
    """The shape put back in the box is shown by laying one of its tiles on the deal pad."""
    min_players = 2
    max_players = 4
    secrets = (
        Secret("each player's hand of tiles", "others"),
        Secret("face-down tiles in the garden and the tiles left in the box", "everyone"),
        Secret("the tile face down on the deal pad", "others"),
    )
    options = (
        OptionSpec(
            "draft",
            ("off", "on"),
            "on: after the deal the last player takes the rest of the tiles, keeps 3 and passes "
            "the others to the right, and so on round the table; the start player's extra "
            "tiles go back in the box",
        ),
        OptionSpec(
            "take",
            ("must", "may"),
            "must: after placing a visitor the player takes a face-down tile from its line (the "
            "sheet); may: as some printings, they may leave it (no take: the confirm button)",
        ),
    )

    def __init__(self, components: Components | None = None) -> None:
        self.components = components or load_components()
        self.size = self.components.size
        self.spots = all_spots(self.size)
        self.texts = action_texts(self.components)
        self.centre = centre_cell(self.size)
        """limits() per (player count, options): the OpenSpiel bridge asks for them often."""

    # -- setup ---------------------------------------------------------------------------------
    def initial(
        self, players: Sequence[str], options: Mapping[str, str] | None = None
    ) -> TopiaryState:
        names = self.check_players(players)
        chosen = self.check_options(options)
        n = len(names)
        cells = self.size * self.size
        return TopiaryState(
            players=names,
            draft=chosen["draft"] == "on",
            optional_take=chosen["take"] == "may",
            phase="remove" if self.components.removed_shapes[n] else "lay",
            removed="",
            grid=(EMPTY,) * cells,
            face_up=(False,) * cells,
            supply=tuple(range(len(self.components.tiles))),
            hands=((),) * n,
            visitors=(),
            seat=0,
            gap=EMPTY,
            pad=EMPTY,
        )

    # -- playing -------------------------------------------------------------------------------
    def actor(self, state: TopiaryState) -> int:
        phase = state.phase
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase == "over":
            return TERMINAL
        return state.seat

    def legal_actions(self, state: TopiaryState) -> list[str]:
        texts = self.texts
        phase = state.phase
        if phase == "visitor":
            taken = {spot for spot, _ in state.visitors}
            return [text for spot, text in enumerate(texts.visitor) if spot not in taken]
        if phase == "take":
            line = self.spots[state.visitors[-1][0]].line
            grid, up = state.grid, state.face_up
            takes = [texts.take[c] for c in line if grid[c] != EMPTY and not up[c]]
            return sorted([*takes, NO_TAKE] if state.optional_take else takes)
        if phase == "place":
            row = texts.place[state.gap]
            return [row[tile] for tile in state.hands[state.seat]]
        if phase == "lay":
            row = texts.lay[state.grid.index(EMPTY)]
            return [row[tile] for tile in state.supply]
        if phase == "deal":
            return [texts.deal[tile] for tile in state.supply]
        if phase in ("collect", "receive"):
            return [PICK]
        if phase == "draft":
            return [texts.passing[tile] for tile in state.hands[state.seat]]
        if phase == "return":
            return [BOX]
        if phase == "remove":
            return list(texts.remove)
        return []

    def chance_outcomes(self, state: TopiaryState) -> list[tuple[str, Fraction]]:
        if state.phase not in CHANCE_PHASES:
            return []
        outcomes = self.legal_actions(state)
        probability = _probability(len(outcomes))
        return [(outcome, probability) for outcome in outcomes]

    def sample_chance(self, state: TopiaryState, rng: random.Random) -> str:
        """Every chance step here is uniform, so draw directly (playouts spend most time here)."""
        if state.phase == "lay":
            return self.texts.lay[state.grid.index(EMPTY)][rng.choice(state.supply)]
        if state.phase == "deal":
            return self.texts.deal[rng.choice(state.supply)]
        return rng.choice(self.legal_actions(state))

    def parse_action(self, text: str) -> str:
        return parse(text, self.texts)[0]

    def apply(self, state: TopiaryState, action: str) -> TopiaryState:
        parsed = self.texts.parsed.get(action) if isinstance(action, str) else None
        if parsed is None:
            parsed = parse(action, self.texts)[1]
        phase = state.phase
        if parsed.kind == "no_take" and phase == "take":
            if not state.optional_take:
                raise IllegalAction(Sentence(
                    "the sheet makes the take compulsory: take a face-down tile from the "
                    "visitor's line (option take=may makes it optional)"))
            return self._end_turn(state, state.visitors)
        if parsed.kind != _KIND_OF_PHASE.get(phase):
            raise IllegalAction(Sentence("not now: {step}", {"step": self.describe_step(state)}))
        if phase == "visitor":
            return self._place_visitor(state, parsed)
        if phase == "take":
            return self._take(state, parsed)
        if phase == "place":
            return self._place_tile(state, parsed)
        if phase == "lay":
            return self._lay(state, parsed)
        if phase == "deal":
            return self._deal(state, parsed)
        if phase == "collect":
            return self._collect(state)
        if phase == "draft":
            return self._pass(state, parsed)
        if phase == "receive":
            return self._receive(state)
        if phase == "return":
            return self._return(state)
        return self._remove(state, parsed)

    def to_act(self, state: TopiaryState) -> int | None:
        """The start player lays out the garden and deals the hand tiles; otherwise the
        player whose step it is."""
        if state.phase in CHANCE_PHASES:
            return 0
        if state.phase == "over":
            return None
        return state.seat

    def describe_step(self, state: TopiaryState) -> Sentence:
        """What the table is waiting for, in the box's words (the page's headline, refusals):
        who does it, with which tile or visitor, where. It tells only what everyone may know."""
        names = state.players
        player = names[state.seat]
        phase = state.phase
        size = self.size
        if phase == "remove":
            return Sentence("{player}: choose a shape to put back in the box: lay one of its "
                            "tiles on the deal pad, then put all five of its tiles in the box.",
                            {"player": player})
        if phase == "lay":
            cell = state.grid.index(EMPTY)
            where = words.square(cell, size)
            if cell == self.centre:
                return Sentence("{player}: lay a tile face up on {square}, the centre of the "
                                "garden.", {"player": names[0], "square": where})
            return Sentence("{player}: lay a face-down tile on {square}.",
                            {"player": names[0], "square": where})
        if phase == "deal":
            if state.seat == 0:
                return Sentence("{player}: lay a face-down tile from the supply on the deal pad "
                                "for yourself.", {"player": names[0]})
            return Sentence("{dealer}: lay a face-down tile from the supply on the deal pad for "
                            "{player}.", {"dealer": names[0], "player": player})
        if phase in ("collect", "receive"):
            return Sentence("{player}: take the tile from the deal pad into your hand without "
                            "showing it.", {"player": player})
        if phase == "draft":
            keep = str(self.components.hand_size)
            if state.seat == 0:
                return Sentence("{player}: lay a tile you do not keep face down on the deal pad; "
                                "it goes back in the box. You keep {keep}.",
                                {"player": player, "keep": keep})
            return Sentence("{player}: lay a tile for {next} face down on the deal pad. You "
                            "keep {keep}.",
                            {"player": player, "next": names[state.seat - 1], "keep": keep})
        if phase == "return":
            return Sentence("{player}: put the tile from the deal pad back in the box, unseen.",
                            {"player": player})
        if phase == "visitor":
            per_player = self.components.visitors_per_player[len(names)]
            left = per_player - sum(1 for _, seat in state.visitors if seat == state.seat)
            return Sentence("{player}: stand one of your visitors ({count} left) at the edge of "
                            "the garden, looking along a row, a column or a diagonal.",
                            {"player": player, "count": str(left)})
        if phase == "take":
            line = words.line(self.spots[state.visitors[-1][0]], size)
            if state.optional_take:
                return Sentence("{player}: take a face-down tile from {line} into your hand, "
                                "or press confirm to take none.",
                                {"player": player, "line": line})
            return Sentence("{player}: take a face-down tile from {line} into your hand.",
                            {"player": player, "line": line})
        if phase == "place":
            return Sentence("{player}: put a tile from your hand face up into the gap on "
                            "{square}.",
                            {"player": player, "square": words.square(state.gap, size)})
        return Sentence("Game over.")

    def action_sentence(self, state: TopiaryState, action: str) -> Sentence:
        """A step told for the list of events, naming no tile laid face down, dealt or
        passed."""
        parsed = self.texts.parsed.get(action) or parse(action, self.texts)[1]
        names = state.players
        player = names[state.seat]
        size = self.size
        kind = parsed.kind
        if kind == "remove":
            return Sentence("{player} puts the {shape} set back in the box.",
                            {"player": player, "shape": words.shape(parsed.shape)})
        if kind == "lay":
            if parsed.cell == self.centre:
                return Sentence("{tile} lies face up on {square}, the centre of the garden.", {
                    "tile": words.tile(*self.components.tiles[parsed.tile]),
                    "square": words.square(parsed.cell, size)})
            return Sentence("A face-down tile lies on {square}.",
                            {"square": words.square(parsed.cell, size)})
        if kind == "deal":
            return Sentence("A face-down tile is dealt to {player}.", {"player": player})
        if kind == "pick":
            return Sentence("{player} takes the tile from the deal pad into their hand.",
                            {"player": player})
        if kind == "pass":
            if state.seat == 0:
                return Sentence("{player} gives up a face-down tile.", {"player": player})
            return Sentence("{player} passes a face-down tile to {next}.",
                            {"player": player, "next": names[state.seat - 1]})
        if kind == "box":
            return Sentence("{player} puts the tile from the deal pad back in the box.",
                            {"player": player})
        if kind == "visitor":
            spot = words.looking(self.spots[parsed.spot], size)
            return Sentence("{player} stands a visitor at {spot}.",
                            {"player": player, "spot": spot})
        if kind == "take":
            return Sentence("{player} takes the face-down tile from {square}.",
                            {"player": player, "square": words.square(parsed.cell, size)})
        if kind == "no_take":
            return Sentence("{player} takes no tile.", {"player": player})
        return Sentence("{player} puts {tile} face up on {square}.", {
            "player": player, "tile": words.tile(*self.components.tiles[parsed.tile]),
            "square": words.square(parsed.cell, size)})

    def describe_result(self, state: TopiaryState) -> Sentence:
        """The winner, and at a tie which of the sheet's two tie-breaks decided: more points
        from hand tiles, then the tied player who moved last."""
        if not self.is_terminal(state):
            return super().describe_result(state)
        result = self.scoring(state)
        totals, hand = result.sheet.totals, result.hand_points
        winner = self.winners(state)[0]
        best = totals[winner]
        rivals = [seat for seat, total in enumerate(totals) if total == best and seat != winner]
        if not rivals:
            return super().describe_result(state)
        names = state.players
        same_hand = [seat for seat in rivals if hand[seat] == hand[winner]]
        told: dict[str, str | Sentence] = {"player": names[winner], "points": str(best),
                                           "hand": str(hand[winner])}
        if not same_hand:
            return Sentence("{player} wins the tie with {others} at {points} points by scoring "
                            "more from hand tiles ({hand}).",
                            {**told, "others": listing([names[seat] for seat in rivals])})
        return Sentence("{player} wins the tie with {others} at {points} points and {hand} from "
                        "hand tiles by having moved last.",
                        {**told, "others": listing([names[seat] for seat in same_hand])})

    # -- the steps -----------------------------------------------------------------------------
    def _remove(self, state: TopiaryState, action: Action) -> TopiaryState:
        out = set(self.components.tiles_of(action.shape))
        supply = tuple(tile for tile in state.supply if tile not in out)
        return state._replace(phase="lay", removed=action.shape, supply=supply)

    def _lay(self, state: TopiaryState, action: Action) -> TopiaryState:
        cell = state.grid.index(EMPTY)
        tile = action.tile
        if action.cell != cell:
            raise IllegalAction(Sentence(
                "the layout is laid row by row from the north-west corner: the next tile goes "
                "on {square}, not {given}", {"square": cell_name(cell, self.size),
                                             "given": cell_name(action.cell, self.size)}))
        if tile not in state.supply:
            raise IllegalAction(Sentence("{tile} is not in the supply any more",
                                         {"tile": self._tile(tile)}))
        grid = replaced(state.grid, cell, tile)
        face_up = state.face_up
        if cell == self.centre:
            face_up = replaced(face_up, cell, True)
        supply = removed(state.supply, tile)
        phase = "deal" if EMPTY not in grid else "lay"
        return state._replace(phase=phase, grid=grid, face_up=face_up, supply=supply)

    def _deal(self, state: TopiaryState, action: Action) -> TopiaryState:
        if action.tile not in state.supply:
            raise IllegalAction(Sentence("{tile} is not in the supply any more",
                                         {"tile": self._tile(action.tile)}))
        supply = removed(state.supply, action.tile)
        return state._replace(phase="collect", supply=supply, pad=action.tile)

    def _collect(self, state: TopiaryState) -> TopiaryState:
        seat, n = state.seat, len(state.players)
        hands = replaced(state.hands, seat, tuple(sorted((*state.hands[seat], state.pad))))
        dealt = state._replace(hands=hands, pad=EMPTY)
        if seat < n - 1 or len(hands[seat]) < self.components.hand_size:
            return dealt._replace(phase="deal", seat=(seat + 1) % n)
        if not state.draft or not state.supply:
            return dealt._replace(phase="visitor", seat=0)
        # Draft: the last player dealt to takes the rest of the supply and passes first.
        last = tuple(sorted(hands[seat] + state.supply))
        return dealt._replace(phase="draft", hands=replaced(hands, seat, last), supply=())

    def _pass(self, state: TopiaryState, action: Action) -> TopiaryState:
        seat = state.seat
        if action.tile not in state.hands[seat]:
            raise IllegalAction(Sentence("{player} does not hold {tile}", {
                "player": state.players[seat], "tile": self._tile(action.tile)}))
        hands = replaced(state.hands, seat, removed(state.hands[seat], action.tile))
        if seat == 0:  # the start player chooses last: what they pass goes back in the box
            return state._replace(phase="return", hands=hands, pad=action.tile)
        return state._replace(phase="receive", hands=hands, pad=action.tile, seat=seat - 1)

    def _receive(self, state: TopiaryState) -> TopiaryState:
        seat = state.seat
        hands = replaced(state.hands, seat, tuple(sorted((*state.hands[seat], state.pad))))
        passer = seat + 1
        done = len(hands[passer]) == self.components.hand_size
        return state._replace(phase="draft", hands=hands, pad=EMPTY, seat=seat if done else passer)

    def _return(self, state: TopiaryState) -> TopiaryState:
        supply = tuple(sorted((*state.supply, state.pad)))
        done = len(state.hands[0]) == self.components.hand_size
        return state._replace(
            phase="visitor" if done else "draft", supply=supply, pad=EMPTY, seat=0
        )

    def _place_visitor(self, state: TopiaryState, action: Action) -> TopiaryState:
        spot = action.spot
        for taken, seat in state.visitors:
            if taken == spot:
                raise IllegalAction(Sentence("spot {spot} is taken by {player}'s visitor", {
                    "spot": words.spot_short(self.spots[spot]), "player": state.players[seat]}))
        visitors = (*state.visitors, (spot, state.seat))
        grid, up = state.grid, state.face_up
        if any(grid[c] != EMPTY and not up[c] for c in self.spots[spot].line):
            return state._replace(phase="take", visitors=visitors)
        return self._end_turn(state, visitors)

    def _take(self, state: TopiaryState, action: Action) -> TopiaryState:
        cell = action.cell
        spot = self.spots[state.visitors[-1][0]]
        where = cell_name(cell, self.size)
        if cell not in spot.line:
            raise IllegalAction(Sentence("{square} is not in the line of the visitor at {spot}",
                                         {"square": where, "spot": words.spot_short(spot)}))
        tile = state.grid[cell]
        if tile == EMPTY or state.face_up[cell]:
            raise IllegalAction(Sentence("the tile on {square} is not face down: take a "
                                         "face-down tile", {"square": where}))
        seat = state.seat
        hands = replaced(state.hands, seat, tuple(sorted((*state.hands[seat], tile))))
        grid = replaced(state.grid, cell, EMPTY)
        return state._replace(phase="place", grid=grid, hands=hands, gap=cell)

    def _place_tile(self, state: TopiaryState, action: Action) -> TopiaryState:
        cell, tile = action.cell, action.tile
        if cell != state.gap:
            raise IllegalAction(Sentence("the tile goes into the gap on {gap}, not on {given}", {
                "gap": cell_name(state.gap, self.size), "given": cell_name(cell, self.size)}))
        seat = state.seat
        if tile not in state.hands[seat]:
            raise IllegalAction(Sentence("{player} does not hold {tile}", {
                "player": state.players[seat], "tile": self._tile(tile)}))
        hands = replaced(state.hands, seat, removed(state.hands[seat], tile))
        grid = replaced(state.grid, cell, tile)
        face_up = replaced(state.face_up, cell, True)
        placed = state._replace(grid=grid, face_up=face_up, hands=hands, gap=EMPTY)
        return self._end_turn(placed, state.visitors)

    def _end_turn(self, state: TopiaryState, visitors: tuple[tuple[int, int], ...]) -> TopiaryState:
        n = len(state.players)
        if len(visitors) == n * self.components.visitors_per_player[n]:
            return state._replace(phase="over", visitors=visitors)
        return state._replace(phase="visitor", visitors=visitors, seat=(state.seat + 1) % n)

    def _tile(self, tile: int) -> Sentence:
        """A tile by its name, ``swan 4``, its shape translatable."""
        return words.tile(*self.components.tiles[tile])

    # -- scoring -------------------------------------------------------------------------------
    def scoring(self, state: TopiaryState) -> Scoring:
        """Visitors always; hand tiles only at the end, when hands are shown (a running score
        that counted them would tell everyone what is in a hand)."""
        hands = state.hands if state.phase == "over" else None
        return self._score_cached(state.players, state.visitors, state.grid, state.face_up, hands)

    @lru_cache(maxsize=512)  # noqa: B019 (one engine object lives for the whole process)
    def _score_cached(
        self,
        players: tuple[str, ...],
        visitors: tuple[tuple[int, int], ...],
        grid: tuple[int, ...],
        face_up: tuple[bool, ...],
        hands: tuple[tuple[int, ...], ...] | None,
    ) -> Scoring:
        """Views of every player show the same score: compute it once per position."""
        spots = [(self.spots[spot], seat) for spot, seat in visitors]
        return score_table(players, spots, grid, face_up, hands, self.components)

    def score(self, state: TopiaryState) -> ScoreSheet:
        return self.scoring(state).sheet

    def winners(self, state: TopiaryState) -> list[int]:
        result = self.scoring(state)
        last_mover = state.visitors[-1][1] if state.visitors else None
        return rank_winners(result.sheet.totals, result.hand_points, last_mover)

    def score_position(self, position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
        return position_module.score_position(position, self.components)

    # -- what people and sensors see ----------------------------------------------------------
    def players(self, state: TopiaryState) -> tuple[str, ...]:
        return state.players

    def view(self, state: TopiaryState, player: int | None) -> dict[str, Any]:
        names = self.components.tile_names
        size = self.size
        n = len(state.players)
        shown = state.phase == "over"
        grid = []
        for row in range(size):
            cells: list[dict[str, Any] | None] = []
            for col in range(size):
                tile = state.grid[row * size + col]
                if tile == EMPTY:
                    cells.append(None)
                elif state.face_up[row * size + col]:
                    cells.append({"face_up": True, "tile": names[tile]})
                else:
                    cells.append({"face_up": False})
            grid.append(cells)
        per_player = self.components.visitors_per_player[n]
        placed = [sum(1 for _, s in state.visitors if s == seat) for seat in range(n)]
        actor = self.actor(state)
        return {
            "game": self.id,
            "players": list(state.players),
            "you": None if player is None else state.players[player],
            "colours": dict(zip(state.players, self.components.colours, strict=False)),
            "draft": state.draft,
            "phase": state.phase,
            "step": str(self.describe_step(state)),
            "to_act": state.players[actor] if actor >= 0 else None,
            "removed_shape": state.removed or None,
            "grid": grid,
            "gap": None if state.gap == EMPTY else cell_name(state.gap, size),
            "visitors": [
                {"player": state.players[seat], "spot": self.spots[spot].name}
                for spot, seat in state.visitors
            ],
            "visitors_left": {
                name: per_player - placed[seat] for seat, name in enumerate(state.players)
            },
            "hands": {
                name: (
                    [names[tile] for tile in hand]
                    if shown or seat == player
                    else {"count": len(hand)}
                )
                for seat, (name, hand) in enumerate(zip(state.players, state.hands, strict=True))
            },
            "supply": len(state.supply),
            "pad": self._pad_view(state, player),
            "score": self.score(state).to_json(),
        }

    def render(self, state: TopiaryState, player: int | None) -> str:
        """The view as text for terminal play: the grid (``##`` face down), visitors, hands."""
        view = self.view(state, player)
        width = max(len(name) for name in self.components.tile_names) + 2
        lines = [
            f"Topiary{' (draft)' if view['draft'] else ''}: {view['step']}",
            "     " + "".join(f"{col:<{width}}" for col in range(self.size)).rstrip(),
        ]
        for row, cells in enumerate(view["grid"]):
            shown = [
                ".." if cell is None else cell["tile"] if cell["face_up"] else "##"
                for cell in cells
            ]
            lines.append(f"{row:<5}" + "".join(f"{text:<{width}}" for text in shown).rstrip())
        visitors = ", ".join(f"{v['player']} {v['spot']}" for v in view["visitors"]) or "none"
        lines.append(f"visitors: {visitors}")
        hands = [
            f"{name}: " + (", ".join(hand) if isinstance(hand, list) else f"{hand['count']} tiles")
            for name, hand in view["hands"].items()
        ]
        lines.append("hands: " + "; ".join(hands))
        if view["pad"] is not None:
            known = f" ({view['pad']['tile']}, passed by you)" if "tile" in view["pad"] else ""
            lines.append(f"deal pad: a face-down tile{known}")
        scores = view["score"]["scores"]
        lines.append("score: " + ", ".join(f"{name} {total}" for name, total in scores.items()))
        return "\n".join(lines)

    def _pad_view(self, state: TopiaryState, player: int | None) -> dict[str, Any] | None:
        """The tile on the deal pad lies face down; only a player who passed it knows it."""
        if state.pad == EMPTY:
            return None
        if player is not None and player == _passer(state):
            return {"face_up": False, "tile": self.components.tile_names[state.pad]}
        return {"face_up": False}

    def resample(self, state: TopiaryState, player: int | None, rng: random.Random) -> TopiaryState:
        """Redeal every tile ``player`` cannot see: face-down grid tiles, the supply, the tile
        on the deal pad (unless they passed it) and the other players' hands (all hands are
        shown at the end). What a player passed on earlier in the draft is not remembered: it
        is no longer in sight."""
        hidden_seats = (
            []
            if state.phase == "over"
            else [seat for seat in range(len(state.players)) if seat != player]
        )
        down = [c for c, tile in enumerate(state.grid) if tile != EMPTY and not state.face_up[c]]
        pool = [state.grid[c] for c in down] + list(state.supply)
        pad_hidden = state.pad != EMPTY and (player is None or player != _passer(state))
        if pad_hidden:
            pool.append(state.pad)
        for seat in hidden_seats:
            pool.extend(state.hands[seat])
        pool.sort()  # the redraw depends only on what is seen, not on where the tiles were
        rng.shuffle(pool)
        grid = list(state.grid)
        for cell in down:
            grid[cell] = pool.pop()
        pad = pool.pop() if pad_hidden else state.pad
        hands = list(state.hands)
        for seat in hidden_seats:
            hands[seat] = tuple(sorted(pool.pop() for _ in state.hands[seat]))
        return state._replace(
            grid=tuple(grid), hands=tuple(hands), supply=tuple(sorted(pool)), pad=pad
        )

    def sites(self, n_players: int) -> tuple[Site, ...]:
        return table_sites(self.size)

    def face_down(self, state: TopiaryState) -> frozenset[str]:
        """Face-down garden tiles and the tile on the deal pad (only its passer knows it)."""
        size = self.size
        down = {cell_site(cell, size) for cell, tile in enumerate(state.grid)
                if tile != EMPTY and not state.face_up[cell]}
        return frozenset(down | {PAD_SITE}) if state.pad != EMPTY else frozenset(down)

    def public_action(self, state: TopiaryState, action: str) -> str:
        """A tile laid face down, dealt or passed is not named (the shape put back in the
        box is chosen in the open)."""
        verb, _, rest = action.partition(" ")
        if verb == "lay":
            return f"lay {rest.split()[0]} face down"
        if verb in ("deal", "pass"):
            return f"{verb} a face-down tile"
        return action

    def choice_pieces(self, state: TopiaryState) -> dict[str, str]:
        """While the start player chooses the shape to put back in the box (2-3 players),
        any tile of a shape names that shape: laid on the deal pad, it tells the table."""
        if state.phase != "remove":
            return {}
        components = self.components
        remove = dict(zip(components.shapes, self.texts.remove, strict=True))
        return {components.tile_pieces[tile]: remove[components.tiles[tile][0]]
                for tile in state.supply}

    def board(self, state: TopiaryState) -> dict[str, str]:
        """Tiles are sensed by their tags whether face up or down; a taken tile has left."""
        pieces = self.components.tile_pieces
        size = self.size
        board = {
            cell_site(cell, size): pieces[tile]
            for cell, tile in enumerate(state.grid)
            if tile != EMPTY
        }
        if state.pad != EMPTY:
            board[PAD_SITE] = pieces[state.pad]
        colours = self.components.colours
        for spot, seat in state.visitors:
            board[self.spots[spot].site] = f"visitor:{colours[seat]}"
        return board

    def renamed(self) -> dict[str, str]:
        return dict(self.components.former_names)

    def pieces(self) -> tuple[str, ...]:
        colours = tuple(f"visitor:{colour}" for colour in self.components.colours)
        return (*self.components.tile_pieces, *colours)

    # -- bounds --------------------------------------------------------------------------------
    def compute_limits(self, n_players: int, options: Mapping[str, str]) -> Limits:
        """Built from the data; the derivations are in ``limits``."""
        return build_limits(self.components, self.texts, n_players, options["draft"] == "on",
                            options["take"] == "may")

    # -- serialisation -------------------------------------------------------------------------
    def state_to_json(self, state: TopiaryState) -> dict[str, Any]:
        return state_to_json(state, self.components)

    def state_from_json(self, data: Mapping[str, Any]) -> TopiaryState:
        return state_from_json(data, self.components)


_KIND_OF_PHASE = {
    "remove": "remove",
    "lay": "lay",
    "deal": "deal",
    "collect": "pick",
    "draft": "pass",
    "receive": "pick",
    "return": "box",
    "visitor": "visitor",
    "take": "take",
    "place": "place",
}


def _passer(state: TopiaryState) -> int | None:
    """Who laid the tile now on the deal pad (None: it was dealt, nobody has seen it)."""
    if state.phase == "receive":
        return state.seat + 1
    if state.phase == "return":
        return state.seat
    return None


