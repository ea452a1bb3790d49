"""The web side of the service: the status page, a JSON API, and live updates by SSE.

Reading is open to everyone at the table; anything that changes the game needs the table's
token as ``Authorization: Bearer <token>`` (401 without one, 403 with a wrong one). A seat's
private view needs that seat's code to claim it (``controller.seats``), and no page of another
site can make the browser change anything here (``SameOrigin``). Every refusal has one shape,
``{"detail": "why"}`` (``Refusal``), and is declared in the OpenAPI schema. Endpoints
that change the table are ``async``: they run on the service's loop, never beside it in a
worker thread (the service is not thread-safe, and the AI is started from that loop).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from sse_starlette.sse import EventSourceResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from games.core.errors import GameError
from games.core.game import Sentence
from games.core.translation import CORE_LOCALE, _, cached_catalogue

from .errors import ControllerError
from .language import CONTROLLER_LOCALE, request_language
from .service import Reply, TableService
from .status import Done, GameInfo, PrivateHint, SeatToken, Sites, Status

STATIC = Path(__file__).parent / "static"


def http_status(error: Exception) -> int:
    """Why the service refused a command, as the HTTP status that says so: a controller
    error's own (``ControllerError.http_status``: 409 nothing to confirm, 403 refused, 503 the
    journal), else 422 for the input a rule engine refused (``GameError``)."""
    return error.http_status if isinstance(error, ControllerError) else 422
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class Refusal(BaseModel):
    """Every refusal (4xx) has this one shape."""

    detail: str = Field(description="why, in one sentence a person can act on")


WHY = {
    401: "no token: the table's (Authorization: Bearer) or the seat's (X-Seat-Token)",
    403: "a wrong token or seat code, or a request sent by another site's page",
    409: "nothing waiting for this command (no game, no choice, a seat taken)",
    422: "malformed input, or a move or setup the game refuses",
    503: "the journal cannot record it now (its disk full, say): the detail says what to do",
}


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of an endpoint that may refuse with these codes."""
    return {code: {"model": Refusal, "description": WHY[code]} for code in codes}


VALIDATION_PROBLEMS: dict[str, str] = {
    "missing": _("{field}: missing"),
    "string_type": _("{field}: must be text"),
    "int_type": _("{field}: must be a whole number"),
    "int_parsing": _("{field}: must be a whole number"),
    "int_from_float": _("{field}: must be a whole number"),
    "bool_type": _("{field}: must be true or false"),
    "bool_parsing": _("{field}: must be true or false"),
    "dict_type": _("{field}: must be an object"),
    "model_type": _("{field}: must be an object"),
    "model_attributes_type": _("{field}: must be an object"),
    "list_type": _("{field}: must be a list"),
    "literal_error": _("{field}: not one of the values it may take"),
    "enum": _("{field}: not one of the values it may take"),
    "string_too_long": _("{field}: too long"),
    "too_long": _("{field}: too long"),
    "string_too_short": _("{field}: too short"),
    "too_short": _("{field}: too short"),
    "greater_than_equal": _("{field}: too small"),
    "greater_than": _("{field}: too small"),
    "less_than_equal": _("{field}: too large"),
    "less_than": _("{field}: too large"),
    "extra_forbidden": _("{field}: not a field of this request"),
    "json_invalid": _("{field}: not valid JSON"),
    "string_pattern_mismatch": _("{field}: not in the form it must have"),
}
"""Pydantic's kinds of validation error, in our words (a page translates them; pydantic's own
texts are English only). A kind not named here keeps pydantic's text after the field."""


def validation_problems(error: RequestValidationError) -> list[Sentence]:
    """FastAPI's validation errors, each as a Sentence naming the field. The input is left
    out: it may be a float JSON cannot carry (NaN, 1e400), which would turn a 422 into a 500."""
    problems = []
    for item in error.errors():
        field = ".".join(str(part) for part in item.get("loc", ()) if part != "body") or "body"
        template = VALIDATION_PROBLEMS.get(str(item.get("type", "")))
        problems.append(Sentence(template, {"field": field}) if template else Sentence(
            "{field}: {problem}", {"field": field, "problem": str(item.get("msg", "invalid"))}))
    return problems


def cross_site(headers: Headers) -> str | None:
    """Why a state-changing request came from another site's page, if it did: the browser
    says so (``Sec-Fetch-Site``), or its ``Origin`` is not this host."""
    refused = _("refused: this request comes from another site's page; use the table's own "
                "page or a client that sends no Origin")
    if headers.get("sec-fetch-site") == "cross-site":
        return refused
    origin = headers.get("origin")
    if origin is None:
        return None
    netloc = urlsplit(origin).netloc.lower() if origin != "null" else ""
    return None if netloc and netloc == headers.get("host", "").lower() else refused


class SameOrigin:
    """Refuse (403) a POST (or any other changing method) that another site's page makes
    the browser send: a plain cross-site form or fetch must not claim a seat or start a
    game, whatever the browser holds. Pure ASGI, so the event stream passes untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            why = cross_site(Headers(scope=scope))
            if why is not None:  # worded for the reader, before the app (and its game) is asked
                request = Request(scope)
                language = request_language(request, getattr(request.app.state, "language",
                                                             None))
                words = cached_catalogue(language, (CORE_LOCALE, CONTROLLER_LOCALE))
                await JSONResponse({"detail": words.gettext(why)}, status_code=403)(
                    scope, receive, send)
                return
        await self.app(scope, receive, send)


class NewGame(BaseModel):
    players: list[Annotated[str, Field(min_length=1, max_length=24)]] = Field(
        min_length=1, max_length=8)
    options: dict[str, str] = Field(default_factory=dict)
    ai: dict[str, Annotated[int, Field(ge=1, le=20_000)]] = Field(
        default_factory=dict,
        description="players the AI plays, with its strength (simulations per move, 200 is "
                    "the default)")
    dealer: Literal["players", "digital"] = Field(
        default="players",
        description="who deals the secrets: the players from the box (the table learns them "
                    "when they are played or shown), or the service (shown on phones)")


class Steps(BaseModel):
    steps: int = Field(default=1, ge=1, le=50)


class Choice(BaseModel):
    index: int = Field(ge=0, le=100)


class Claim(BaseModel):
    code: str = Field(min_length=1, max_length=32,
                      description="the seat's code, from the table's owner")


class SeatCode(BaseModel):
    """A seat as its owner sees it: the code that claims it and whether a phone holds it."""

    seat: int
    player: str
    code: str
    held: bool
    link: str = Field(description="the player page with this seat and code filled in")


def seat_token(x_seat_token: Annotated[str | None, Header()] = None) -> str:
    """A phone's claim on a seat, sent as ``X-Seat-Token``."""
    if not x_seat_token:
        raise HTTPException(401, _("send the seat's token as 'X-Seat-Token'"))
    return x_seat_token


SeatKey = Annotated[str, Depends(seat_token)]


def reader_language(request: Request) -> str:
    """The language of whoever asks: ``?lang=``, cookie, Accept-Language, the table's."""
    return request_language(request, request.app.state.language)


Reader = Annotated[str, Depends(reader_language)]
Lang = Annotated[str | None, Query(description="the language of the texts (en, de); else the "
                                               "lang cookie, Accept-Language, the table's own")]
HeldSeat = Annotated[str | None, Header(alias="X-Seat-Token",
                                        description="the seat token this phone already holds")]


def create_app(service: TableService, token: str) -> FastAPI:
    """The table's web app: the pages, what they read, and the commands (guarded by
    ``token``), every refusal worded in the reader's language."""
    app = FastAPI(title="tabletop", description="The smart table's status and controls. "
                  "Every refusal is `{\"detail\": \"why\"}`.", version="0.1.0")
    app.add_middleware(SameOrigin)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")  # i18n.js, board.js
    app.state.language = service.texts().language

    def say(language: str, reply: Reply) -> str:
        """A command's answer in the reader's language."""
        return service.texts(language).text(reply)

    def authorised(authorization: Annotated[str | None, Header()] = None) -> None:
        if not authorization or not authorization.startswith("Bearer "):
            raise HTTPException(401, _("send the table's token as 'Authorization: Bearer "
                                       "<token>'"),
                                headers={"WWW-Authenticate": "Bearer"})
        if not hmac.compare_digest(authorization.removeprefix("Bearer ").encode(),
                                   token.encode()):
            raise HTTPException(403, _("wrong token"))

    _refusals(app, say)
    _reading(app, service)
    _commands(app, service, say, [Depends(authorised)])
    _seats(app, service, say, [Depends(authorised)])
    return app


def _refusals(app: FastAPI, say: Callable[[str, Reply], str]) -> None:
    """Every refusal as ``{"detail": why}`` in the reader's language."""
    @app.exception_handler(GameError)
    @app.exception_handler(ControllerError)
    async def refused(request: Request, error: Exception) -> JSONResponse:
        code = http_status(error)
        sentence: Sentence | None = getattr(error, "sentence", None)
        return JSONResponse({"detail": say(reader_language(request), sentence or str(error))},
                            status_code=code)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        language = reader_language(request)
        detail = "; ".join(say(language, problem) for problem in validation_problems(error))
        return JSONResponse({"detail": detail[:500] or say(language, _("invalid request"))},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        """As FastAPI's, except a body it cannot parse (not UTF-8): malformed input, 422
        like any other, rather than a 400 the schema would have to declare apart."""
        if error.status_code == 400:
            return JSONResponse({"detail": f"body: {error.detail}"}, status_code=422)
        detail = say(reader_language(request), str(error.detail))  # ours are msgids
        return JSONResponse({"detail": detail}, status_code=error.status_code,
                            headers=error.headers)


def _reading(app: FastAPI, service: TableService) -> None:
    """The pages and what they read: open to anyone on the table's network."""
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> str:
        return (STATIC / "status.html").read_text(encoding="utf-8")

    @app.get("/player", response_class=HTMLResponse, include_in_schema=False)
    def player_page() -> str:
        return (STATIC / "player.html").read_text(encoding="utf-8")

    @app.get("/api/status", response_model=Status)
    async def status(language: Reader, lang: Lang = None) -> Response:
        """Everything the page shows: game, decision, scores, events, hardware health, every
        text for people in the reader's language."""
        return Response(service.status_json(language),  # rendered once per change and language
                        media_type="application/json")

    @app.get("/api/texts", response_model=dict[str, str])
    async def texts(language: Reader, lang: Lang = None) -> JSONResponse:
        """The status and player pages' dictionary: English msgid to its text in the reader's
        language (empty for English: the msgid is the text). ``Content-Language`` names the
        language chosen."""
        return JSONResponse(service.texts(language).messages(), headers={
            "Content-Language": language, "Vary": "Accept-Language, Cookie"})

    @app.get("/api/sites")
    async def sites() -> Sites:
        """The game's sensed sites with drawing coordinates."""
        return service.sites()

    @app.get("/api/art")
    async def art(language: Reader, lang: Lang = None) -> dict[str, Any]:
        """Every piece's picture and its name in the reader's language, and how each site is
        drawn (the game's data/art.toml, for controller/static/board.js)."""
        return service.art(language)

    @app.get("/api/games")
    async def games(language: Reader, lang: Lang = None) -> list[GameInfo]:
        """The game this table referees, its player counts and options (with their names in
        the reader's language)."""
        return service.games(language)

    @app.get("/api/events")
    async def events(language: Reader, lang: Lang = None) -> EventSourceResponse:
        """Server-sent events: one ``status`` event (a Status) now and after every change.
        Every client of a language is sent the same rendered bytes
        (``TableService.status_events``)."""
        return EventSourceResponse(service.status_events(language))


def _commands(app: FastAPI, service: TableService, say: Callable[[str, Reply], str],
              guard: list[Any]) -> None:
    """What changes the game: the table's token only."""
    guarded = refusals(401, 403, 409, 422, 503)

    @app.post("/api/game", dependencies=guard, responses=guarded)
    async def new_game(body: NewGame, language: Reader) -> Done:
        """Start a new game (any game in progress is aborted and stays in the journal)."""
        return Done(ok=True, message=say(language, service.new_game(
            body.players, body.options, body.ai, body.dealer)))

    @app.post("/api/rematch", dependencies=guard, responses=guarded)
    async def rematch(language: Reader) -> Done:
        """After a game: a new one with the same players, options, AI seats and dealer
        (409 while a game is still being played, or before the first)."""
        return Done(ok=True, message=say(language, service.rematch()))

    @app.post("/api/confirm", dependencies=guard, responses=guarded)
    async def confirm(language: Reader) -> Done:
        """Take back, pick the first reading, or make the one silent action waiting."""
        return Done(ok=True, message=say(language, service.confirm()))

    @app.post("/api/undo", dependencies=guard, responses=guarded)
    async def undo(body: Steps, language: Reader) -> Done:
        return Done(ok=True, message=say(language, service.undo(body.steps)))

    @app.post("/api/hint", dependencies=guard, responses=guarded)
    async def hint(language: Reader) -> Done:
        """Ask the AI for the move of the player on turn; it is lit and shown when found."""
        return Done(ok=True, message=say(language, service.hint()))

    @app.post("/api/choose", dependencies=guard, responses=guarded)
    async def choose(body: Choice, language: Reader) -> Done:
        return Done(ok=True, message=say(language, service.choose(body.index)))

    @app.post("/api/abort", dependencies=guard, responses=guarded)
    async def abort(language: Reader) -> Done:
        return Done(ok=True, message=say(language, service.abort()))


def _seats(app: FastAPI, service: TableService, say: Callable[[str, Reply], str],
           guard: list[Any]) -> None:
    """The phones' seats: codes for the owner (the token), a private view for a seat's phone
    (its seat token)."""
    guarded = refusals(401, 403, 409, 422, 503)

    @app.get("/api/seats", dependencies=guard, responses=guarded)
    async def seat_codes() -> list[SeatCode]:
        """Each seat's code, for the table's owner to hand to the person in that seat."""
        return [SeatCode(seat=r.seat, player=player, code=r.code,
                         held=r.token_hash is not None,
                         link=f"/player?seat={r.seat}&code={r.code}")
                for player, r in service.seat_codes()]

    @app.post("/api/seats/{seat}/claim", responses=refusals(403, 409, 422, 503))
    async def claim_seat(seat: int, body: Claim, held: HeldSeat = None) -> SeatToken:
        """This seat's private view (hand, secret cards) for the phone that gives its code:
        the seat's token. A seat held already is 409, and so is a phone that holds another
        seat (it sends its ``X-Seat-Token``); a wrong code is 403, and a few give the seat a
        new code."""
        return SeatToken(seat=seat, token=service.claim_seat(seat, body.code, held))

    @app.get("/api/seats/{seat}/view", responses=refusals(401, 403, 409, 422))
    async def private_view(seat: int, key: SeatKey) -> dict[str, Any]:
        """What only this seat's player may see; needs the token the claim returned."""
        return service.private_view(seat, key)

    @app.post("/api/seats/{seat}/hint", responses=refusals(401, 403, 409, 422))
    async def private_hint(seat: int, key: SeatKey) -> PrivateHint:
        """The AI's move for this seat, shown only to the phone holding it (needs its token)."""
        return await service.private_hint(seat, key)

    @app.post("/api/seats/release", dependencies=guard, responses=guarded)
    async def release_seats(language: Reader) -> Done:
        """Free every seat, each with a new code."""
        return Done(ok=True, message=say(language, service.release_seats()))

    @app.post("/api/seats/{seat}/release", dependencies=guard, responses=guarded)
    async def release_seat(seat: int, language: Reader) -> Done:
        """Free one seat with a new code (a phone took the wrong seat, or was lost)."""
        return Done(ok=True, message=say(language, service.release_seat(seat)))
