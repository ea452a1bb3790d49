"""The web side of the service: the status page, a JSON API, and live updates by SSE.

Reading is open to everyone at the table; anything that changes the game needs the profile's
token as ``Authorization: Bearer <token>`` (401 without one, 403 with a wrong one). Endpoints
that change the table are ``async``: they run on the service's loop, never beside it in a
worker thread (the service is not thread-safe, and the AI is started from that loop).
"""

from __future__ import annotations

import asyncio
import hmac
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field
from sse_starlette.sse import EventSourceResponse

from games.core.errors import GameError

from .errors import NothingToConfirm, SeatNotHeld
from .service import TableService
from .status import Done, GameInfo, PrivateHint, SeatToken, Sites, Status

STATIC = Path(__file__).parent / "static"
REFUSALS: tuple[tuple[type[Exception], int], ...] = (
    (NothingToConfirm, 409),  # before GameError: it is one
    (GameError, 422),
    (SeatNotHeld, 403),
)
"""Why the service refused a command, as the HTTP status that says so."""


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


def seat_token(x_seat_token: Annotated[str | None, Header()] = None) -> str:
    """A phone's claim on a seat, sent as ``X-Seat-Token``."""
    if not x_seat_token:
        raise HTTPException(401, "send the seat's token as 'X-Seat-Token'")
    return x_seat_token


SeatKey = Annotated[str, Depends(seat_token)]


def create_app(service: TableService, token: str) -> FastAPI:
    app = FastAPI(title="tabletop", description="The smart table's status and controls.",
                  version="0.1.0")

    @app.exception_handler(GameError)
    @app.exception_handler(SeatNotHeld)
    async def refused(request: Request, error: Exception) -> JSONResponse:
        code = next(code for kind, code in REFUSALS if isinstance(error, kind))
        return JSONResponse({"detail": str(error)}, status_code=code)

    def authorised(authorization: Annotated[str | None, Header()] = None) -> None:
        if not authorization or not authorization.startswith("Bearer "):
            raise HTTPException(401, "send the table's token as 'Authorization: Bearer <token>'",
                                headers={"WWW-Authenticate": "Bearer"})
        if not hmac.compare_digest(authorization.removeprefix("Bearer ").encode(),
                                   token.encode()):
            raise HTTPException(403, "wrong token")

    guard = [Depends(authorised)]

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> str:
        return (STATIC / "status.html").read_text(encoding="utf-8")

    @app.get("/player", response_class=HTMLResponse, include_in_schema=False)
    def player_page() -> str:
        return (STATIC / "player.html").read_text(encoding="utf-8")

    @app.get("/api/status")
    async def status() -> Status:
        """Everything the page shows: game, decision, scores, events, hardware health."""
        return service.status()

    @app.get("/api/sites")
    async def sites() -> Sites:
        """The game's sensed sites with drawing coordinates."""
        return service.sites()

    @app.get("/api/games")
    async def games() -> list[GameInfo]:
        """The game this table referees, its player counts and options."""
        return service.games()

    @app.get("/api/events")
    async def events() -> EventSourceResponse:
        """Server-sent events: one ``status`` event (a Status) now and after every change."""
        queue = service.subscribe()

        async def stream():
            try:
                yield {"event": "status", "data": service.status().model_dump_json()}
                while True:
                    try:
                        status = await asyncio.wait_for(queue.get(), timeout=15)
                    except TimeoutError:
                        status = service.status()
                    yield {"event": "status", "data": status.model_dump_json()}
            finally:
                service.unsubscribe(queue)

        return EventSourceResponse(stream())

    @app.post("/api/game", dependencies=guard)
    async def new_game(body: NewGame) -> Done:
        """Start a new game (any game in progress is aborted and stays in the journal)."""
        return Done(ok=True, message=service.new_game(body.players, body.options, body.ai,
                                                          body.dealer))

    @app.post("/api/confirm", dependencies=guard)
    async def confirm() -> Done:
        """Take back, pick the first reading, or make the one silent action waiting."""
        return Done(ok=True, message=service.confirm())

    @app.post("/api/undo", dependencies=guard)
    async def undo(body: Steps) -> Done:
        return Done(ok=True, message=service.undo(body.steps))

    @app.post("/api/hint", dependencies=guard)
    async def hint() -> Done:
        """Ask the AI for the move of the player on turn; it is lit and shown when found."""
        return Done(ok=True, message=service.hint())

    @app.post("/api/choose", dependencies=guard)
    async def choose(body: Choice) -> Done:
        return Done(ok=True, message=service.choose(body.index))

    @app.post("/api/abort", dependencies=guard)
    async def abort() -> Done:
        return Done(ok=True, message=service.abort())

    @app.post("/api/seats/{seat}/claim")
    async def claim_seat(seat: int) -> SeatToken:
        """The first phone to ask gets this seat's private view (hand, secret cards)."""
        return SeatToken(seat=seat, token=service.claim_seat(seat))

    @app.get("/api/seats/{seat}/view")
    async def private_view(seat: int, key: SeatKey) -> dict[str, Any]:
        """What only this seat's player may see; needs the token the claim returned."""
        return service.private_view(seat, key)

    @app.post("/api/seats/{seat}/hint")
    async def private_hint(seat: int, key: SeatKey) -> PrivateHint:
        """The AI's move for this seat, shown only to the phone holding it (needs its token)."""
        return await service.private_hint(seat, key)

    @app.post("/api/seats/release", dependencies=guard)
    async def release_seats() -> Done:
        return Done(ok=True, message=service.release_seats())

    return app
