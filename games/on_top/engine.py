"""The On Top rule engine: a turn is draw (chance, seen on the draw pad), place, then the
black triangles and the stones the placement calls for, each one change on the table.

Closing a circle decides its tower at once (who has the majority, who is second, whose stones
are left); the ``tower`` steps only have the players build what was decided, so the stones
used and the score never depend on how fast hands are.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from games.core.action_text import normalised, not_an_action
from games.core.errors import BadSetup, BadState, IllegalAction
from games.core.game import (
    CHANCE,
    TERMINAL,
    Game,
    Limits,
    OptionSpec,
    RuleChange,
    Sentence,
    Site,
    listing,
    pile_value,
)
from games.core.scoresheet import ScoreSheet
from games.core.state_fields import flag, one_of, player_names, whole

from . import words
from .actions import FILL, START, draw_text, place_text, tower_text
from .components import Components, load_components
from .geometry import PAD_SITE, circle_site, table_sites, triangle_site
from .limits import limits_for
from .position import score_position
from .scoring import Tower, best, score_towers
from .state import BLACK, EMPTY, NEUTRAL, PHASES, OnTopState

FORMS = "start, draw NN, place R:C R:C (half a, half b), fill, tower R:C"
HALVES = "ab"
PARTNERS_NEED_FOUR = Sentence("the partner game is for 4 players")
"""The refusal of ``partners=on`` with fewer or more than four players."""


@cache
def _probability(count: int) -> Fraction:
    return Fraction(1, count)


class OnTop(Game[OnTopState]):
    """One engine object serves every game: it holds the components and the tables derived
    from the board (placements, wedges, action texts)."""

    id = "on_top"
    name = "On Top"
    players_deal = True  # see docs/games/on_top.md, "Who deals"
    min_players = 2
    max_players = 4
    options = (
        OptionSpec(
            "partners",
            ("off", "on"),
            "on (4 players only): seats 1 and 3 play against seats 2 and 4; partners add up "
            "their scores and win or lose together",
        ),
        OptionSpec(
            "reading",
            ("box", "revision1"),
            "box: every rhombus shows each colour once, 20 stones a player; revision1: our "
            "first piece data (16 rhombi lacked a colour) and all 21 stones",
        ),
        OptionSpec(
            "neutral",
            ("on", "off"),
            "on (2-3 players): the colours nobody plays count in circles and place neutral "
            "stones, which score for nobody; off: those colours count for nobody",
        ),
        OptionSpec(
            "sudden_win",
            ("off", "last_stone"),
            "last_stone (ASSUMED, not in our rule text): the first player to place their last "
            "stone wins at once",
        ),
    )
    rule_changes = (
        RuleChange(2, "reading", {"box": "revision1"},
                   "rhombi show each colour once; 20 stones a player"),
        RuleChange(3, "neutral", {"on": "off"},
                   "with 2-3 players the colours nobody plays place neutral stones"),
    )

    def __init__(self, components: Components | None = None) -> None:
        self.components = components = components or load_components()
        self.read = {reading: components.as_read(reading) for reading in ("box", "revision1")}
        """The components per option reading (piece colourings and stones differ)."""
        geometry = self.geometry = components.geometry
        names = geometry.triangle_names
        self.draw_texts = tuple(draw_text(piece) for piece in components.piece_ids)
        self.tower_texts = tuple(tower_text(name) for name in geometry.circle_names)
        placements = []
        for a, neighbours in enumerate(geometry.neighbours):
            for b in neighbours:
                touching = tuple(sorted(set(neighbours + geometry.neighbours[b]) - {a, b}))
                text = place_text(names[a], names[b])
                placements.append((text, a, b, touching, self._segment_slots(a, b)))
        placements.sort()
        self.placements = tuple(placements)
        self.place_index = {text: number for number, (text, *_) in enumerate(placements)}
        self.draw_index = {text: piece for piece, text in enumerate(self.draw_texts)}
        self.tower_index = {text: circle for circle, text in enumerate(self.tower_texts)}
        self.sites_cache = table_sites(*components.sides)

    def _segment_slots(self, a: int, b: int) -> tuple[int, ...]:
        """The wedge index (triangle * 3 + corner) of each of a piece's six segments when its
        half a lies on triangle ``a`` and half b on ``b`` (order: see the data file)."""
        corners_a, corners_b = self.geometry.triangles[a], self.geometry.triangles[b]
        shared = [p for p in corners_a if p in corners_b]
        apex_a = next(p for p in corners_a if p not in shared)
        apex_b = next(p for p in corners_b if p not in shared)

        def xy(point: tuple[int, int]) -> tuple[float, float]:
            i, j = point
            return j + i / 2, -i * math.sqrt(3) / 2  # y up: counterclockwise as seen

        (x0, y0), (x1, y1), (x2, y2) = xy(apex_a), xy(shared[0]), xy(apex_b)
        cross = (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1)
        wide1, wide2 = (shared[0], shared[1]) if cross > 0 else (shared[1], shared[0])

        def slot(triangle: int, corners: tuple[tuple[int, int], ...], point: Any) -> int:
            return triangle * 3 + corners.index(point)

        return (
            slot(a, corners_a, apex_a),
            slot(a, corners_a, wide1),
            slot(b, corners_b, wide1),
            slot(b, corners_b, apex_b),
            slot(b, corners_b, wide2),
            slot(a, corners_a, wide2),
        )

    # -- setup ---------------------------------------------------------------------------------
    def initial(
        self, players: Sequence[str], options: Mapping[str, str] | None = None
    ) -> OnTopState:
        names = self.check_players(players)
        chosen = self.check_options(options)
        partners = chosen["partners"] == "on"
        if partners and len(names) != 4:
            raise BadSetup(PARTNERS_NEED_FOUR)
        components = self.read[chosen["reading"]]
        cells = (EMPTY,) * len(self.geometry.triangles)
        counted = self._counted(len(names), chosen)
        return OnTopState(
            players=names,
            partners=partners,
            first_reading=chosen["reading"] == "revision1",
            neutral=counted > len(names),
            sudden_win=chosen["sudden_win"] == "last_stone",
            phase="setup",
            seat=0,
            bag=tuple(range(len(components.piece_ids))),
            drawn=EMPTY,
            cells=cells,
            wedges=(NEUTRAL,) * (3 * len(cells)),
            black_left=components.black_triangles,
            towers=(),
            built=0,
            stones_left=(components.stones_per_player,) * counted,
        )

    def _counted(self, n_players: int, options: Mapping[str, str]) -> int:
        """How many colours count in circles: the players', or all of them with neutral=on."""
        return len(self.components.colours) if options["neutral"] == "on" else n_players

    def compute_limits(self, n_players: int, options: Mapping[str, str]) -> Limits:
        """The derivations are in ``limits``."""
        if options["partners"] == "on" and n_players != 4:
            raise BadSetup(PARTNERS_NEED_FOUR)
        return limits_for(self.read[options["reading"]], self._counted(n_players, options))

    # -- playing -------------------------------------------------------------------------------
    def actor(self, state: OnTopState) -> int:
        if state.phase == "draw":
            return CHANCE
        if state.phase == "over":
            return TERMINAL
        return state.seat

    def legal_actions(self, state: OnTopState) -> list[str]:
        phase = state.phase
        if phase == "draw":
            return [self.draw_texts[piece] for piece in state.bag]
        if phase == "place":
            open_, near = self._frontier(state.cells)
            return [
                text
                for text, a, b, _, _ in self.placements
                if open_[a] and open_[b] and (near[a] or near[b])
            ]
        if phase == "fill":
            return [FILL]
        if phase == "setup":
            return [START]
        if phase == "tower":
            return [self.tower_texts[state.towers[state.built][0]]]
        return []

    def chance_outcomes(self, state: OnTopState) -> list[tuple[str, Fraction]]:
        if state.phase != "draw":
            return []
        probability = _probability(len(state.bag))
        return [(self.draw_texts[piece], probability) for piece in state.bag]

    def sample_chance(self, state: OnTopState, rng: random.Random) -> str:
        """Every draw is uniform over the bag: pick directly."""
        return self.draw_texts[rng.choice(state.bag)]

    def parse_action(self, text: str) -> str:
        canonical = normalised(text)
        if (
            canonical in self.place_index
            or canonical in self.draw_index
            or canonical in self.tower_index
            or canonical in (FILL, START)
        ):
            return canonical
        raise not_an_action(text, "On Top", FORMS)

    def apply(self, state: OnTopState, action: str) -> OnTopState:
        if not (
            action in self.place_index
            or action in self.draw_index
            or action in self.tower_index
            or action in (FILL, START)
        ):
            action = self.parse_action(action)
        phase = state.phase
        if phase == "place" and action in self.place_index:
            return self._place(state, self.place_index[action])
        if phase == "draw" and action in self.draw_index:
            piece = self.draw_index[action]
            if piece not in state.bag:
                raise IllegalAction(Sentence("{rhombus} is not in the bag", {
                    "rhombus": words.rhombus(self.components.piece_ids[piece])}))
            bag = tuple(p for p in state.bag if p != piece)
            return state._replace(phase="place", bag=bag, drawn=piece)
        if phase == "fill" and action == FILL:
            return self._fill(state)
        if phase == "setup" and action == START:
            cells = list(state.cells)
            for triangle in self.components.start:
                cells[triangle] = BLACK
            black_left = state.black_left - len(self.components.start)
            return state._replace(phase="draw", cells=tuple(cells), black_left=black_left)
        if phase == "tower" and action in self.tower_index:
            circle = state.towers[state.built][0]
            if self.tower_index[action] != circle:
                raise IllegalAction(Sentence(
                    "the stones go on circle {name} first (circles are built in the order "
                    "they were closed)", {"name": self.geometry.circle_names[circle]}))
            return self._after_closing(state._replace(built=state.built + 1))
        raise IllegalAction(Sentence("not now: {step}", {"step": self.describe_step(state)}))

    def to_act(self, state: OnTopState) -> int | None:
        """The player whose turn it is also draws the rhombus from the bag."""
        return None if state.phase == "over" else state.seat

    def describe_step(self, state: OnTopState) -> Sentence:
        """What the table is waiting for, in the box's words (the page's headline, refusals):
        who does it, with which piece, where."""
        phase = state.phase
        player = state.players[state.seat]
        names = self.geometry.triangle_names
        if phase == "setup":
            starts = [names[t] for t in self.components.start]
            return Sentence("{player}: lay a black triangle on each start triangle: "
                            "{triangles}.", {"player": player,
                                             "triangles": words.triangles(starts)})
        if phase == "draw":
            return Sentence("{player}: draw a rhombus from the bag and lay it on the draw pad.",
                            {"player": player})
        if phase == "place":
            return Sentence("{player}: lay {piece} from the draw pad on two empty triangles "
                            "beside a piece on the board.",
                            {"player": player,
                             "piece": words.rhombus(self.components.piece_ids[state.drawn])})
        if phase == "fill":
            holes = [names[t] for t in self._holes(state.cells)[: state.black_left]]
            if len(holes) == 1:
                return Sentence("{player}: lay a black triangle into the hole on {triangles}, "
                                "where no rhombus fits.",
                                {"player": player, "triangles": holes[0]})
            return Sentence("{player}: lay black triangles into the holes on {triangles}, "
                            "where no rhombus fits.",
                            {"player": player, "triangles": words.triangles(holes)})
        if phase == "tower":
            circle, stones = state.towers[state.built]
            return Sentence("{player}: stack the stones on {circle}, bottom to top: {order}.",
                            {"player": player, "circle": self._circle(circle),
                             "order": self._stones(state, stones)})
        return Sentence("Game over.")

    def action_sentence(self, state: OnTopState, action: str) -> Sentence:
        """A step told for the list of events: which rhombus went where, which tower stands."""
        player = state.players[state.seat]
        names = self.geometry.triangle_names
        if action == START:
            starts = [names[t] for t in self.components.start]
            return Sentence("{player} lays black triangles on the start triangles {triangles}.",
                            {"player": player, "triangles": words.triangles(starts)})
        if action in self.draw_index:
            return Sentence("{player} draws {piece} from the bag.",
                            {"player": player, "piece": words.rhombus(action.split()[1])})
        if action in self.place_index:
            _, a, b, _, _ = self.placements[self.place_index[action]]
            return Sentence("{player} lays {piece} on the triangles {a} and {b}.", {
                "player": player, "piece": words.rhombus(self.components.piece_ids[state.drawn]),
                "a": names[a], "b": names[b]})
        if action == FILL:
            holes = [names[t] for t in self._holes(state.cells)[: state.black_left]]
            if len(holes) == 1:
                return Sentence("{player} fills the hole on {triangles} with a black triangle.",
                                {"player": player, "triangles": holes[0]})
            return Sentence("{player} fills the holes on {triangles} with black triangles.",
                            {"player": player, "triangles": words.triangles(holes)})
        circle, stones = state.towers[state.built]
        return Sentence("The tower on {circle} stands, bottom to top: {order}.",
                        {"circle": self._circle(circle), "order": self._stones(state, stones)})

    def describe_result(self, state: OnTopState) -> Sentence:
        """The winners and why: the last stone placed first (option sudden_win), partners'
        added scores, or the highest total (all tied players win: our reading)."""
        if not self.is_terminal(state):
            return super().describe_result(state)
        names = state.players
        winners = self.winners(state)
        emptied = self._emptied(state)
        if emptied:
            first = listing([names[seat] for seat in emptied])
            if state.partners:
                return Sentence("{players} win together: {player} placed the last stone first.",
                                {"players": listing([names[seat] for seat in winners]),
                                 "player": first})
            if len(emptied) == 1:
                return Sentence("{player} wins by placing the last stone first.",
                                {"player": first})
            return Sentence("{players} share the win: they placed their last stones at the "
                            "same time.", {"players": first})
        if not state.partners:
            return super().describe_result(state)
        totals = self.score(state).totals
        team = str(totals[winners[0]] + totals[(winners[0] + 2) % 4])
        if len(winners) == 2:
            return Sentence("{players} win together as partners with {points} points.",
                            {"players": listing([names[seat] for seat in winners]),
                             "points": team})
        return Sentence("Both teams ({first}; {second}) share the win with {points} points "
                        "each.", {"first": listing([names[0], names[2]]),
                                  "second": listing([names[1], names[3]]), "points": team})

    def _circle(self, circle: int) -> Sentence:
        return words.circle(self.geometry.circle_names[circle], self.geometry.gold[circle])

    def _stones(self, state: OnTopState, stones: Sequence[int]) -> str | Sentence:
        """A tower's stones bottom to top, each with its owner (or neutral)."""
        colours, n = self.components.colours, len(state.players)
        return words.then_list([
            words.stone(colours[seat], state.players[seat] if seat < n else None)
            for seat in stones])

    # -- the steps -----------------------------------------------------------------------------
    def _place(self, state: OnTopState, number: int) -> OnTopState:
        text, a, b, touching, slots = self.placements[number]
        cells = state.cells
        names = self.geometry.triangle_names
        for triangle in (a, b):
            if cells[triangle] != EMPTY:
                raise IllegalAction(Sentence("triangle {name} is already covered",
                                             {"name": names[triangle]}))
        if not any(cells[t] != EMPTY for t in touching):
            raise IllegalAction(Sentence(
                "{triangles}: a rhombus must share a side with a piece already on the board "
                "(the first one with a start triangle)", {"triangles": text[6:]}))
        piece = state.drawn
        new_cells = list(cells)
        new_cells[a] = piece * 2
        new_cells[b] = piece * 2 + 1
        wedges = list(state.wedges)
        n = len(state.stones_left)  # the colours that count
        for slot, colour in zip(slots, self._segments(state)[piece], strict=True):
            wedges[slot] = colour if colour < n else NEUTRAL
        placed = state._replace(cells=tuple(new_cells), wedges=tuple(wedges), drawn=EMPTY)
        placed = self._close(placed, (a, b))
        if placed.black_left and self._new_hole(placed.cells, a, b):
            return placed._replace(phase="fill")
        return self._after_closing(placed)

    def _fill(self, state: OnTopState) -> OnTopState:
        holes = self._holes(state.cells)[: state.black_left]
        cells = list(state.cells)
        for hole in holes:
            cells[hole] = BLACK
        filled = state._replace(cells=tuple(cells), black_left=state.black_left - len(holes))
        return self._after_closing(self._close(filled, holes))

    def _new_hole(self, cells: tuple[int, ...], a: int, b: int) -> bool:
        """Did covering a and b leave a hole? Only their neighbours can have become one (an
        older hole was filled then, unless the black triangles ran out)."""
        neighbours = self.geometry.neighbours
        return any(
            cells[t] == EMPTY and all(cells[u] != EMPTY for u in neighbours[t])
            for t in (*neighbours[a], *neighbours[b])
        )

    def _holes(self, cells: tuple[int, ...]) -> list[int]:
        """Empty triangles without an empty neighbour: no rhombus can ever cover them."""
        neighbours = self.geometry.neighbours
        return [
            t
            for t, cell in enumerate(cells)
            if cell == EMPTY and all(cells[u] != EMPTY for u in neighbours[t])
        ]

    def _close(self, state: OnTopState, changed: Sequence[int]) -> OnTopState:
        """Decide the tower of every circle the changed triangles just closed, in circle
        order: majority on top, the second place (all of it if tied) below; a tie for first,
        or no counted colour at all, gives no tower; a colour without stones places none.
        Neutral colours (option neutral) take part like players."""
        geometry = self.geometry
        cells = state.cells
        closed = sorted(
            {
                circle
                for t in changed
                for circle in geometry.circles_of_triangle[t]
                if all(cells[u] != EMPTY for u, _ in geometry.circle_wedges[circle])
            }
        )
        if not closed:
            return state
        n = len(state.stones_left)
        towers = list(state.towers)
        left = list(state.stones_left)
        wedges = state.wedges
        for circle in closed:
            counts = [0] * n
            for triangle, corner in geometry.circle_wedges[circle]:
                colour = wedges[triangle * 3 + corner]
                if colour != NEUTRAL:
                    counts[colour] += 1
            first = max(counts)
            leaders = [seat for seat in range(n) if counts[seat] == first]
            if first == 0 or len(leaders) > 1 or not left[leaders[0]]:
                continue
            rest = [c for c in counts if c < first]
            second = max(rest) if rest else 0
            seconds = [
                seat for seat in range(n) if second and counts[seat] == second and left[seat]
            ]
            stones = (*seconds, leaders[0])
            for seat in stones:
                left[seat] -= 1
            towers.append((circle, stones))
        return state._replace(towers=tuple(towers), stones_left=tuple(left))

    def _after_closing(self, state: OnTopState) -> OnTopState:
        if state.built < len(state.towers):
            return state._replace(phase="tower")
        seat = (state.seat + 1) % len(state.players)
        if not state.bag or not self._can_place(state.cells) or self._emptied(state):
            return state._replace(phase="over", seat=seat)
        return state._replace(phase="draw", seat=seat)

    def _frontier(self, cells: tuple[int, ...]) -> tuple[list[bool], list[bool]]:
        """Per triangle: is it empty, and does it share a side with a covered triangle? A
        rhombus may go on two empty neighbours if either of them touches a covered one."""
        open_ = [cell == EMPTY for cell in cells]
        near = [False] * len(cells)
        neighbours = self.geometry.neighbours
        for t, cell in enumerate(cells):
            if cell != EMPTY:
                for u in neighbours[t]:
                    near[u] = True
        return open_, near

    def _can_place(self, cells: tuple[int, ...]) -> bool:
        open_, near = self._frontier(cells)
        return any(
            open_[a] and open_[b] and (near[a] or near[b]) for _, a, b, _, _ in self.placements
        )

    # -- scoring -------------------------------------------------------------------------------
    def _towers(self, state: OnTopState) -> list[Tower]:
        geometry = self.geometry
        return [
            Tower(
                stones,
                geometry.gold[circle],
                geometry.circle_names[circle],
                (circle_site(geometry.circle_names[circle]),),
            )
            for circle, stones in state.towers
        ]

    def score(self, state: OnTopState) -> ScoreSheet:
        """Towers always (decided when their circle closes); unplaced stones at the end.
        A tower topped by a neutral stone scores for nobody."""
        n = len(state.players)
        unplaced = state.stones_left[:n] if state.phase == "over" else None
        colours = [words.colour(colour) for colour in self.components.colours]
        return score_towers(state.players, colours, self._towers(state), unplaced)

    def _emptied(self, state: OnTopState) -> list[int]:
        """With sudden_win=last_stone: the players who have placed their last stone."""
        if not state.sudden_win:
            return []
        return [seat for seat in range(len(state.players)) if not state.stones_left[seat]]

    def winners(self, state: OnTopState) -> list[int]:
        """The highest total; with sudden_win=last_stone whoever placed their last stone
        first (several at once all win); partners win together."""
        emptied = self._emptied(state)
        if emptied and state.phase == "over":
            if state.partners:
                return sorted({s for seat in emptied for s in (seat, (seat + 2) % 4)})
            return emptied
        return best(self.score(state).totals, state.partners)

    def _segments(self, state: OnTopState) -> tuple[tuple[int, ...], ...]:
        return self.read["revision1" if state.first_reading else "box"].segments

    def score_position(self, position: Mapping[str, Any]) -> tuple[ScoreSheet, list[int]]:
        components = self.components
        geometry = components.geometry
        stones = {reading: read.stones_per_player for reading, read in self.read.items()}
        return score_position(position, components.colours, stones,
                              len(geometry.circle_names), sum(geometry.gold))

    # -- what people and sensors see ----------------------------------------------------------
    def players(self, state: OnTopState) -> tuple[str, ...]:
        return state.players

    def view(self, state: OnTopState, player: int | None) -> dict[str, Any]:
        """Nothing is hidden: the bag's contents follow from what is on the board."""
        geometry = self.geometry
        components = self.components
        colours = components.colours
        names = geometry.triangle_names
        triangles: dict[str, Any] = {}
        for t, cell in enumerate(state.cells):
            if cell == BLACK:
                triangles[names[t]] = "black"
            elif cell != EMPTY:
                corners = [state.wedges[t * 3 + k] for k in range(3)]
                triangles[names[t]] = {
                    "piece": components.piece_ids[cell // 2],
                    "half": HALVES[cell % 2],
                    "corners": [None if c == NEUTRAL else colours[c] for c in corners],
                }
        n = len(state.players)
        towers = [
            {
                "circle": geometry.circle_names[circle],
                "gold": geometry.gold[circle],
                "stones": [colours[seat] for seat in stones],
                "neutral_top": stones[-1] >= n,
                "built": number < state.built,
            }
            for number, (circle, stones) in enumerate(state.towers)
        ]
        actor = self.actor(state)
        sheet = self.score(state)
        result: dict[str, Any] = {
            "game": self.id,
            "players": list(state.players),
            "you": None if player is None else state.players[player],
            "colours": dict(zip(state.players, colours, strict=False)),
            "partners": state.partners,
            "phase": state.phase,
            "step": str(self.describe_step(state)),
            "to_act": state.players[actor] if actor >= 0 else None,
            "triangles": triangles,
            "drawn": None
            if state.drawn == EMPTY
            else {
                "piece": components.piece_ids[state.drawn],
                "segments": [colours[c] for c in self._segments(state)[state.drawn]],
            },
            "bag": len(state.bag),
            "black_left": state.black_left,
            "stones_left": dict(zip(state.players, state.stones_left, strict=False)),
            "neutral_stones_left": {
                colours[seat]: left for seat, left in enumerate(state.stones_left) if seat >= n
            },
            "towers": towers,
            "score": sheet.to_json(),
        }
        if state.partners:
            totals = sheet.totals
            result["teams"] = {
                f"{state.players[s]} + {state.players[s + 2]}": totals[s] + totals[s + 2]
                for s in (0, 1)
            }
        return result

    def render(self, state: OnTopState, player: int | None) -> str:
        """The board as text for terminal play: strip by strip, ``..`` empty, ``##`` black,
        ``07a`` half a of rhombus 07; then towers, stones, the drawn rhombus and the score."""
        view = self.view(state, player)
        names = self.geometry.triangle_names
        strips: dict[str, list[str]] = {}
        for name in names:
            cell = view["triangles"].get(name)
            text = (
                " .." if cell is None
                else " ##" if cell == "black"
                else f"{cell['piece']}{cell['half']}"
            )
            strips.setdefault(name.split(":")[0], []).append(text)
        widest = max(len(cells) for cells in strips.values())
        lines = [f"On Top{' (partners)' if view['partners'] else ''}: {view['step']}"]
        for strip, cells in strips.items():
            indent = " " * (2 * (widest - len(cells)))
            lines.append(f"{strip}  {indent}{' '.join(cells)}")
        for tower in view["towers"]:
            gold = " (gold)" if tower["gold"] else ""
            lines.append(f"tower {tower['circle']}{gold}: {', '.join(tower['stones'])} (top last)")
        if view["drawn"]:
            drawn = view["drawn"]
            lines.append(f"drawn: rhombus {drawn['piece']}: {', '.join(drawn['segments'])}")
        left = ", ".join(f"{name} {count}" for name, count in view["stones_left"].items())
        lines.append(f"stones left: {left}; rhombi in the bag: {view['bag']}")
        scores = view["score"]["scores"]
        lines.append("score: " + ", ".join(f"{name} {total}" for name, total in scores.items()))
        return "\n".join(lines)

    def sites(self, n_players: int) -> tuple[Site, ...]:
        return self.sites_cache

    def board(self, state: OnTopState) -> dict[str, str]:
        """Every triangle shows its half (a rhombus carries a tag in each half) or a black
        triangle; the drawn rhombus lies on the draw pad a-half down; a built tower shows its
        stones, bottom to top, on its circle's reader (a pile: ``stone:yellow / stone:blue``)."""
        names = self.geometry.triangle_names
        ids = self.components.piece_ids
        board = {}
        for t, cell in enumerate(state.cells):
            if cell == BLACK:
                board[triangle_site(names[t])] = "black"
            elif cell != EMPTY:
                board[triangle_site(names[t])] = f"rhombus:{ids[cell // 2]}:{HALVES[cell % 2]}"
        if state.drawn != EMPTY:
            board[PAD_SITE] = f"rhombus:{ids[state.drawn]}:a"
        colours = self.components.colours
        for circle, stones in state.towers[: state.built]:
            board[circle_site(self.geometry.circle_names[circle])] = pile_value(
                [f"stone:{colours[seat]}" for seat in stones])
        return board

    def pieces(self) -> tuple[str, ...]:
        halves = tuple(
            f"rhombus:{piece}:{half}" for piece in self.components.piece_ids for half in HALVES
        )
        return (*halves, "black", *(f"stone:{colour}" for colour in self.components.colours))

    def copies(self) -> Mapping[str, int]:
        """Each colour's stones (the most any reading has: 21 in revision 1)."""
        most = max(read.stones_per_player for read in self.read.values())
        return {f"stone:{colour}": most for colour in self.components.colours}

    # -- serialisation -------------------------------------------------------------------------
    def state_to_json(self, state: OnTopState) -> dict[str, Any]:
        geometry = self.geometry
        names = geometry.triangle_names
        ids = self.components.piece_ids
        where: dict[int, list[str]] = {}
        for t, cell in enumerate(state.cells):
            if cell >= 0:
                where.setdefault(cell // 2, ["", ""])[cell % 2] = names[t]
        return {
            "players": list(state.players),
            "partners": state.partners,
            "reading": "revision1" if state.first_reading else "box",
            "neutral": state.neutral,
            "sudden_win": state.sudden_win,
            "phase": state.phase,
            "seat": state.seat,
            "bag": [ids[piece] for piece in state.bag],
            "drawn": None if state.drawn == EMPTY else ids[state.drawn],
            "rhombi": [
                {"piece": ids[piece], "a": a, "b": b} for piece, (a, b) in sorted(where.items())
            ],
            "black": [names[t] for t, cell in enumerate(state.cells) if cell == BLACK],
            "towers": [
                {
                    "circle": geometry.circle_names[circle],
                    "stones": [self._stone_owner(state.players, seat) for seat in stones],
                }
                for circle, stones in state.towers
            ],
            "built": state.built,
        }

    def _stone_owner(self, players: Sequence[str], seat: int) -> str:
        """A player's name, or ``neutral <colour>`` for a neutral stone."""
        return players[seat] if seat < len(players) else f"neutral {self.components.colours[seat]}"

    def state_from_json(self, data: Mapping[str, Any]) -> OnTopState:
        if not isinstance(data, Mapping):
            raise BadState("an On Top state is a JSON object")
        try:
            return self._from_json(data)
        except (TypeError, KeyError, ValueError, AttributeError, IllegalAction) as error:
            raise BadState(f"malformed On Top state: {error}") from None

    def _from_json(self, data: Mapping[str, Any]) -> OnTopState:
        players = player_names(data["players"])
        n = len(players)
        # states written before the option existed were played under rules revision 1
        reading = one_of(data.get("reading", "revision1"), "reading", tuple(self.read))
        components = self.read[reading]
        partners = flag(data["partners"], "partners")
        if partners and n != 4:
            raise ValueError("partners is true only with 4 players")
        # states written before rules revision 3 had no neutral stones and no sudden win
        neutral = flag(data.get("neutral", False), "neutral") and n < len(components.colours)
        sudden_win = flag(data.get("sudden_win", False), "sudden_win")
        counted = len(components.colours) if neutral else n
        phase = one_of(data["phase"], "phase", PHASES)
        seat = whole(data["seat"], "seat", 0, n - 1)
        ids = components.piece_ids
        bag = tuple(sorted(ids.index(piece) for piece in data["bag"]))
        drawn = EMPTY if data["drawn"] is None else ids.index(data["drawn"])
        cells, wedges = self._rhombi_from_json(
            data["rhombi"], components, counted, set(bag) | ({drawn} if drawn != EMPTY else set()))
        cells = self._black_from_json(data["black"], cells)
        black_left = components.black_triangles - cells.count(BLACK)
        if black_left < 0:
            raise ValueError("more black triangles than the box holds")
        owners = [self._stone_owner(players, seat) for seat in range(counted)]
        towers, left = self._towers_from_json(data["towers"], owners, components)
        built = whole(data["built"], "built", 0, len(towers))
        unbuilt = built < len(towers)
        towers_fit = phase == "fill" or unbuilt == (phase == "tower")  # fill: either way
        if (phase == "place") != (drawn != EMPTY) or not towers_fit:
            raise ValueError(f"phase {phase} does not fit the drawn rhombus or the towers")
        return OnTopState(
            players, partners, reading == "revision1", neutral, sudden_win, phase, seat, bag,
            drawn, cells, wedges, black_left, towers, built, left,
        )

    def _rhombi_from_json(
        self, rhombi: Any, components: Components, counted: int, off_board: set[int]
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The triangles and wedges the laid rhombi cover; every rhombus is laid once or is
        ``off_board`` (in the bag, or drawn)."""
        ids = components.piece_ids
        cells = [EMPTY] * len(self.geometry.triangles)
        wedges = [NEUTRAL] * (3 * len(cells))
        used = set(off_board)
        for entry in rhombi:
            piece = ids.index(entry["piece"])
            text = place_text(entry["a"], entry["b"])
            if piece in used or text not in self.place_index:
                raise ValueError(f"rhombus {entry['piece']} twice or not on two neighbours")
            used.add(piece)
            _, a, b, _, slots = self.placements[self.place_index[text]]
            if cells[a] != EMPTY or cells[b] != EMPTY:
                raise ValueError(f"two pieces on one triangle ({text[6:]})")
            cells[a], cells[b] = piece * 2, piece * 2 + 1
            for slot, colour in zip(slots, components.segments[piece], strict=True):
                wedges[slot] = colour if colour < counted else NEUTRAL
        if len(used) != len(ids):
            raise ValueError("rhombi are missing")
        return tuple(cells), tuple(wedges)

    def _black_from_json(self, names: Any, cells: tuple[int, ...]) -> tuple[int, ...]:
        """``cells`` with the black triangles ``names`` laid (on free triangles only)."""
        covered = list(cells)
        for name in names:
            t = self.geometry.triangle(name)
            if covered[t] != EMPTY:
                raise ValueError(f"triangle {name} holds two pieces")
            covered[t] = BLACK
        return tuple(covered)

    def _towers_from_json(
        self, raw: Any, owners: list[str], components: Components
    ) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...]]:
        """The towers (circle, seats bottom to top) and the stones each seat has left."""
        towers = []
        left = [components.stones_per_player] * len(owners)
        for entry in raw:
            circle = self.geometry.circle_names.index(entry["circle"])
            stones = tuple(owners.index(name) for name in entry["stones"])
            for s in stones:
                left[s] -= 1
            towers.append((circle, stones))
        if min(left) < 0:
            raise ValueError("too many stones in the towers")
        return tuple(towers), tuple(left)
