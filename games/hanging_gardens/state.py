"""The game state (a NamedTuple of tuples: cheap to copy, hashable, never mutated) and its JSON
form. JSON names cards, fields and tile kinds by their text so a journal stays readable."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from games.core.errors import BadState
from games.core.state_fields import entries, flag, one_of, player_names, whole, wholes

from .components import FIRST_MOTIF, GROUND, TABLE, Components

EMPTY = -1
"""An empty display slot, score-tile slot or garden field without a tag."""
TEMPLE_TAG = -2
"""The newest tag on a garden field is its owner's temple."""

PHASES = ("setup", "deal", "place", "temple", "extra", "tile", "refill", "over")
CHANCE_PHASES = frozenset({"setup", "deal", "extra", "refill"})


class HangingGardensState(NamedTuple):
    players: tuple[str, ...]
    first_reading: bool
    """Option reading=revision1: the extra tile is forced, temples are offered for a group
    re-covered without growing, only a score tile that cannot be had ends the game."""
    gate_series: bool
    """Option gates=series: gate tiles also score as a series (rules revision 1)."""
    phase: str
    round: int
    """0-based; the start player of round r is seat r mod n."""
    seat: int
    """Whose turn it is (also during the chance steps of that turn)."""
    deck: tuple[int, ...]
    """Building cards not yet dealt, sorted."""
    display: tuple[int, ...]
    """The card display, slot by slot (EMPTY: taken)."""
    tile_slots: tuple[int, ...]
    """Open score tiles, column by column, top row first (EMPTY: none)."""
    stack: tuple[int, ...]
    """Face-down score tiles left, counted per kind."""
    tops: tuple[tuple[int, ...], ...]
    """Per seat, per garden field: what shows (TABLE, GROUND or a motif code)."""
    tags: tuple[tuple[int, ...], ...]
    """Per seat, per garden field: the newest card tag on it (card * 2 + side, or EMPTY), a
    temple standing on it or not (TEMPLE_TAG only in states written before temples kept the
    tag under them)."""
    temples: tuple[tuple[int, ...], ...]
    """Per seat: the fields holding their temples, sorted."""
    collected: tuple[tuple[int, ...], ...]
    """Per seat: score tiles held, counted per kind (hidden extra tiles included)."""
    extras: tuple[tuple[int, ...], ...]
    """Per seat: the hidden extra tiles among them (everyone saw the open tiles taken)."""
    missing: tuple[int, ...]
    built: tuple[bool, ...]
    """Per seat: has built a temple this round."""
    placed: tuple[int, ...]
    """Fields of the card just placed (a new temple needs a group that grew)."""
    columns: int
    """Score-tile columns the temple just built may take from."""
    ending: bool
    """Score tiles have run out: the game ends with this round."""
    offer: bool
    """The temple's group has 6+ fields: the player may take a hidden extra tile before the
    open one (``take extra``) or go straight to an open tile (box reading)."""


def field_name(field: int, cols: int) -> str:
    return f"{field // cols}:{field % cols}"


def _motif_letter(code: int, components: Components) -> str:
    if code == TABLE:
        return "_"
    if code == GROUND:
        return "."
    return components.motifs[code - FIRST_MOTIF][0]


def garden_rows(
    top: tuple[int, ...], temples: tuple[int, ...], components: Components
) -> list[str]:
    """One text per row: ``_`` bare table, ``.`` blank ground, a motif's initial (upper case
    under a temple)."""
    cols = components.cols
    rows = []
    for row in range(components.rows):
        letters = []
        for col in range(cols):
            field = row * cols + col
            letter = _motif_letter(top[field], components)
            letters.append(letter.upper() if field in temples else letter)
        rows.append("".join(letters))
    return rows


def state_to_json(state: HangingGardensState, components: Components) -> dict[str, Any]:
    names = components.card_names
    return {
        "game": "hanging_gardens",
        "players": list(state.players),
        "reading": "revision1" if state.first_reading else "box",
        "gates": "series" if state.gate_series else "guard",
        "phase": state.phase,
        "round": state.round,
        "seat": state.seat,
        "deck": [names[card] for card in state.deck],
        "display": [None if card == EMPTY else names[card] for card in state.display],
        "tile_slots": [None if k == EMPTY else components.kinds[k] for k in state.tile_slots],
        "stack": dict(zip(components.kinds, state.stack, strict=True)),
        "tops": [list(top) for top in state.tops],
        "tags": [list(tags) for tags in state.tags],
        "temples": [list(temples) for temples in state.temples],
        "collected": [dict(zip(components.kinds, c, strict=True)) for c in state.collected],
        "extras": [dict(zip(components.kinds, c, strict=True)) for c in state.extras],
        "missing": list(state.missing),
        "built": list(state.built),
        "placed": list(state.placed),
        "columns": state.columns,
        "ending": state.ending,
        "extra_offered": state.offer,
    }


def state_from_json(data: Mapping[str, Any], components: Components) -> HangingGardensState:
    """Rebuild a state, refusing anything malformed with a message naming the field."""
    if not isinstance(data, Mapping) or data.get("game") != "hanging_gardens":
        raise BadState("not a Hanging Gardens state")
    try:
        players = player_names(data["players"])
        n = len(players)
        card_of = {name: number for number, name in enumerate(components.card_names)}
        kind_of = {name: number for number, name in enumerate(components.kinds)}
        fields = components.fields
        phase = one_of(data["phase"], "phase", PHASES)
        deck = tuple(card_of[name] for name in data["deck"])
        display = tuple(EMPTY if c is None else card_of[c] for c in data["display"])
        slots = tuple(EMPTY if k is None else kind_of[k] for k in data["tile_slots"])
        if len(slots) != components.tile_columns * components.tile_rows:
            raise BadState("tile_slots has the wrong length")
        box = dict(zip(components.kinds, components.kind_counts, strict=True))
        stack = _tile_counts(data["stack"], "stack", components)
        tops = _per_seat(data, "tops", TABLE, 99)
        tags = _per_seat(data, "tags", TEMPLE_TAG, 2 * len(components.cards) - 1)
        temples = _per_seat(data, "temples", 0, fields - 1)
        collected = tuple(_tile_counts(c, f"collected[{seat}]", components)
                          for seat, c in enumerate(entries(data["collected"], "collected")))
        extras = tuple(_tile_counts(c, f"extras[{seat}]", components)
                       for seat, c in enumerate(entries(data["extras"], "extras")))
        if len(extras) != len(collected) or any(
            e > h
            for held, hidden in zip(collected, extras, strict=True)
            for h, e in zip(held, hidden, strict=True)
        ):
            raise BadState("extras must be among the collected tiles")
        missing = wholes(data["missing"], "missing", 0, 999)
        built = tuple(flag(b, f"built[{seat}]")
                      for seat, b in enumerate(entries(data["built"], "built")))
        placed = wholes(data["placed"], "placed", 0, fields - 1)
        for what, per_seat in (("tops", tops), ("tags", tags)):
            if len(per_seat) != n or any(len(row) != fields for row in per_seat):
                raise BadState(f"{what} must give {fields} fields for each player")
        if any(len(x) != n for x in (temples, collected, missing, built)):
            raise BadState("every per-player list must have one entry per player")
        # states written before these options existed were played under rules revision 1
        reading = one_of(data.get("reading", "revision1"), "reading", ("box", "revision1"))
        gates = one_of(data.get("gates", "series"), "gates", ("guard", "series"))
        offer = flag(data.get("extra_offered", False), "extra_offered")
        state = HangingGardensState(
            players=players,
            first_reading=reading == "revision1",
            gate_series=gates == "series",
            phase=phase,
            round=whole(data["round"], "round", 0, _most_rounds(components, n)),
            seat=whole(data["seat"], "seat", 0, n - 1),
            deck=deck,
            display=display,
            tile_slots=slots,
            stack=stack,
            tops=tops,
            tags=tags,
            temples=temples,
            collected=collected,
            extras=extras,
            missing=missing,
            built=built,
            placed=placed,
            columns=whole(data["columns"], "columns", 0, components.tile_columns),
            ending=flag(data["ending"], "ending"),
            offer=offer,
        )
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise BadState(f"malformed Hanging Gardens state: {error!r}") from None
    for kind, number in zip(components.kinds, range(len(components.kinds)), strict=True):
        held = (state.stack[number] + state.tile_slots.count(number)
                + sum(tiles[number] for tiles in state.collected))
        if held != box[kind]:
            raise BadState(f"the box holds {box[kind]} {kind} tile(s), but the stack, the "
                           f"display and the players hold {held}")
    return state


def _most_rounds(components: Components, n_players: int) -> int:
    """As ``limits.rounds``: each round deals the display full while the deck lasts."""
    return math.ceil(len(components.cards) / components.display_cards[n_players])


def _per_seat(
    data: Mapping[str, Any], key: str, low: int, high: int
) -> tuple[tuple[int, ...], ...]:
    """``tops``, ``tags``, ``temples``: a list of numbers from ``low`` to ``high`` per seat."""
    return tuple(wholes(row, f"{key}[{seat}]", low, high)
                 for seat, row in enumerate(entries(data[key], key)))


def _tile_counts(value: Any, what: str, components: Components) -> tuple[int, ...]:
    """Score tiles counted per kind (``{"guard": 1, ...}``), none more than the box holds."""
    if not isinstance(value, Mapping):
        raise BadState(f"{what} must map each score-tile kind to a count, not {value!r}")
    return tuple(whole(value[kind], f"{what}.{kind}", 0, count)
                 for kind, count in zip(components.kinds, components.kind_counts, strict=True))
