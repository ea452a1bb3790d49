"""The interactive simulator page: play on the virtual table with the mouse.

A small web app of the simulator's own (it drives the virtual table, never the controller):
drag a piece from the box onto a site, from one site to another, or back into the box; press
the table's buttons; watch the LEDs; pull a hub's cable and plug it back in. ``tabletop sim``
mounts it at ``/sim`` beside the service's status page, so one browser tab shows the table and
another the referee.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel

from games.core.art import art_json
from games.core.game import Sentence
from games.core.translation import (
    CORE_LOCALE,
    Catalogue,
    cached_catalogue,
    choose_language,
    package_locale,
)

from .next_step import Done, NothingToDo, piece_names, piece_words, sentence_json, site_words
from .virtual_buttons import UnknownButton
from .virtual_table import TableError, VirtualTable

log = logging.getLogger(__name__)
PAGE = Path(__file__).parent / "static" / "sim.html"
LOCALE = Path(__file__).parent / "locale"
"""The simulator page's German texts (simulator/locale/de.po)."""
GUIDE = Path(__file__).parent / "static" / "guide.js"
NextStepHook = Callable[[], Awaitable[Done]]
"""Makes one legal step on the table by hand (the composition knows the referee)."""


class Put(BaseModel):
    piece: str
    site: str


class Lift(BaseModel):
    site: str


class Move(BaseModel):
    start: str
    end: str


class Press(BaseModel):
    role: str


class Cable(BaseModel):
    hub: str
    plugged: bool


def box_left(table: VirtualTable) -> dict[str, int]:
    """Per piece of the box, how many are left in it: what the box holds minus every copy on
    the table, covered ones and a pile's pieces included (``board()`` names only a stack's top,
    and a pile as one value, so counting its values missed them)."""
    on_table = Counter(piece for stack in table.stacks().values() for piece in stack)
    return {piece: table.tags.held(piece) - on_table[piece] for piece in table.tags.pieces}


def simulator_router(table: VirtualTable, status_url: str = "/",
                     next_step: NextStepHook | None = None) -> APIRouter:
    """``next_step``: the page's "do the next step for me" (None: the button is hidden)."""
    router = APIRouter(prefix="/sim", tags=["simulator"])
    _add_page(router, status_url)
    _add_next_step(router, table, next_step)
    _add_reading(router, table, next_step is not None)
    _add_hands(router, table)
    return router


def _words(table: VirtualTable, request: Request) -> Catalogue:
    """The catalogue of whoever asks (``?lang=``, cookie, Accept-Language, the profile's
    language): the shared words, the game's names and the simulator page's texts."""
    language = choose_language(request.query_params.get("lang"), request.cookies.get("lang"),
                               request.headers.get("accept-language"), table.profile.language)
    folders = (CORE_LOCALE, package_locale(type(table.game).__module__), LOCALE)
    return cached_catalogue(language, folders)


def _said(table: VirtualTable, request: Request, sentence: Sentence) -> dict[str, str]:
    """What a hand did, in the reader's language."""
    return {"message": _words(table, request).text(sentence)}


def _add_page(router: APIRouter, status_url: str) -> None:
    """The page itself and its first-run script."""

    @router.get("", response_class=HTMLResponse, include_in_schema=False)
    def page() -> str:
        return PAGE.read_text(encoding="utf-8").replace("{{STATUS_URL}}", status_url)

    @router.get("/guide.js", include_in_schema=False)
    def guide() -> Response:
        """The first run: the guided start and the next-step button's script."""
        return Response(GUIDE.read_text(encoding="utf-8"), media_type="text/javascript")


def _add_next_step(router: APIRouter, table: VirtualTable,
                   next_step: NextStepHook | None) -> None:
    """The "do the next step for me" button's request."""

    @router.post("/api/next")
    async def next_for_me(request: Request) -> dict[str, Any]:
        """Make one legal step by hand, as a player would, and say what was done (a refusal
        in the reader's language: the page shows its detail as it is)."""
        def refused(status: int, sentence: Sentence) -> HTTPException:
            return HTTPException(status, _words(table, request).text(sentence))

        if next_step is None:
            raise refused(404, Sentence("This simulator has no referee to ask for the next "
                                        "step."))
        try:
            done = await next_step()
        except NothingToDo as reason:  # said as an answer, not an error: the page translates it
            return {"kind": "nothing", "action": None, "message": str(reason.sentence),
                    "sentences": [sentence_json(reason.sentence)], "steps": []}
        except TimeoutError as error:
            log.warning("next step: %s", error)
            raise refused(503, Sentence("The referee did not settle in time: try again in a "
                                        "moment.")) from None
        except TableError as error:  # the table's own words (a piece, a site) are kept as said
            raise refused(409, Sentence("The table refused the step: {error}",
                                        {"error": str(error)})) from None
        return done.to_json()


def _add_reading(router: APIRouter, table: VirtualTable, has_next_step: bool) -> None:
    """What the page reads: its dictionary, the game's art, the table as it lies."""

    @router.get("/api/texts", response_model=dict[str, str])
    def texts(request: Request) -> JSONResponse:
        """The /sim page's dictionary: English msgid to its text in the reader's language
        (``Content-Language`` names it)."""
        catalogue = _words(table, request)
        return JSONResponse(catalogue.messages(), headers={
            "Content-Language": catalogue.language, "Vary": "Accept-Language, Cookie"})

    @router.get("/api/art")
    def art(request: Request) -> dict[str, Any]:
        """Every piece's picture and name (in the reader's language) and how each site is
        drawn: the game's data/art.toml, for board.js."""
        return art_json(table.game, _words(table, request).text)

    @router.get("/api/table")
    def state() -> dict[str, Any]:
        """Sites with coordinates, what lies where, the LEDs, the buttons, the box."""
        return _table_json(table, has_next_step)


def _table_json(table: VirtualTable, has_next_step: bool) -> dict[str, Any]:
    """The virtual table as the page draws it (``has_next_step``: show the next-step button)."""
    board = table.board()
    box = [{"piece": piece, "left": left} for piece, left in box_left(table).items() if left > 0]
    coordinates = table._coordinates
    return {
        "game": table.game.id,
        "name": table.game.name,
        "sites": [{"id": site, "x": coordinates[site].x, "y": coordinates[site].y,
                   "label": coordinates[site].label}
                  for site in table.sites if site in coordinates],
        "board": board,
        "leds": table.strip.colours(0.6),
        "palette": {name: "#{:02x}{:02x}{:02x}".format(*colour)
                    for name, colour in table.strip.palette.items()},
        "buttons": list(table.buttons.roles),
        "next_step": has_next_step,
        "box": box,
        "hubs": [{"name": settings.name, "plugged": hub.plugged,
                  "readers": len(settings.readers)}
                 for settings, hub in zip(table.profile.hubs, table.hubs, strict=True)],
    }


@dataclass(frozen=True)
class _Naming:
    """Pieces and sites as a hand's sentence names them."""

    table: VirtualTable

    @cached_property
    def names(self) -> dict[str, Sentence]:  # on first use: the router is built before any request
        return piece_names(self.table.game)

    def piece(self, piece: str) -> str | Sentence:
        return self.names.get(piece) or piece_words(piece, self.table.game.id)

    def site(self, site: str) -> str | Sentence:
        place = self.table.coordinates.get(site)
        return site_words(site, place.label if place is not None else None)


def _add_hands(router: APIRouter, table: VirtualTable) -> None:
    """What a hand does at the table: put, lift and slide pieces, press buttons, pull cables."""
    naming = _Naming(table)

    def done(request: Request, step: Callable[[], object], sentence: Sentence) -> dict[str, str]:
        try:
            step()
        except TableError as error:
            raise HTTPException(409, str(error)) from None
        return _said(table, request, sentence)

    @router.post("/api/put")
    def put(body: Put, request: Request) -> dict[str, str]:
        return done(request, lambda: table.put(body.piece, body.site), Sentence(
            "Put {piece} on {site}.", {"piece": naming.piece(body.piece),
                                       "site": naming.site(body.site)}))

    @router.post("/api/lift")
    def lift(body: Lift, request: Request) -> dict[str, str]:
        return done(request, lambda: table.lift(body.site), Sentence(
            "Took the piece off {site}.", {"site": naming.site(body.site)}))

    @router.post("/api/move")
    async def move(body: Move, request: Request) -> dict[str, str]:
        try:
            piece = await table.slide(body.start, body.end)
        except TableError as error:
            raise HTTPException(409, str(error)) from None
        return _said(table, request, Sentence("Slid {piece} from {start} to {site}.", {
            "piece": naming.piece(piece), "start": naming.site(body.start),
            "site": naming.site(body.end)}))

    @router.post("/api/press")
    async def press(body: Press, request: Request) -> dict[str, str]:
        try:
            await table.press(body.role)
        except UnknownButton as error:
            raise HTTPException(404, str(error)) from None
        # the button as the page names it ("confirm" and the rest are the page's msgids)
        return _said(table, request, Sentence("Pressed {button}.",
                                              {"button": Sentence(body.role)}))

    @router.post("/api/cable")
    def cable(body: Cable, request: Request) -> dict[str, str]:
        """Pull a hub's USB cable, or plug it back in."""
        if body.plugged:
            return done(request, lambda: table.replug(body.hub),
                        Sentence("Plugged hub {hub} in.", {"hub": body.hub}))
        return done(request, lambda: table.unplug(body.hub),
                    Sentence("Unplugged hub {hub}.", {"hub": body.hub}))
