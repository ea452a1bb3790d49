"""The web side of the service: the status page, a JSON API, and live updates by SSE.

Reading is open to everyone at the table; anything that changes the game needs the profile's
token as ``Authorization: Bearer <token>`` (401 without one, 403 with a wrong one). Endpoints
that change the table are ``async``: they run on the service's loop, never beside it in a
worker thread (the service is not thread-safe, and the AI is started from that loop).
"""

from __future__ import annotations

import asyncio
import hmac
import json
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from sse_starlette.sse import EventSourceResponse

from games.core.errors import GameError

from .service import TableService
from .table import NothingToConfirm

STATIC = Path(__file__).parent / "static"


class NewGame(BaseModel):
    players: list[Annotated[str, Field(min_length=1, max_length=24)]] = Field(
        min_length=1, max_length=8)
    options: dict[str, str] = Field(default_factory=dict)
    ai: dict[str, Annotated[int, Field(ge=1, le=20_000)]] = Field(
        default_factory=dict,
        description="players the AI plays, with its strength (simulations per move, 200 is "
                    "the default)")


class Steps(BaseModel):
    steps: int = Field(default=1, ge=1, le=50)


class Choice(BaseModel):
    index: int = Field(ge=0, le=100)


class SeatToken(BaseModel):
    seat: int
    token: str


class Done(BaseModel):
    ok: bool
    message: str


def create_app(service: TableService, token: str) -> FastAPI:
    app = FastAPI(title="tabletop", description="The smart table's status and controls.",
                  version="0.1.0")

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

    @app.get("/api/status")
    async def status() -> dict[str, Any]:
        """Everything the page shows: game, decision, scores, events, hardware health."""
        return service.status()

    @app.get("/api/sites")
    def sites() -> dict[str, Any]:
        """The game's sensed sites with drawing coordinates."""
        game = service.table.game
        players = len(service.table.players) or game.max_players
        return {"game": game.id, "name": game.name,
                "sites": [{"id": s.id, "x": s.x, "y": s.y, "label": s.label}
                          for s in game.sites(players)]}

    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        """The game this table referees, its player counts and options."""
        game = service.table.game
        return [{"id": game.id, "name": game.name, "min_players": game.min_players,
                 "max_players": game.max_players,
                 "options": {spec.name: list(spec.choices) for spec in game.options}}]

    @app.get("/api/events")
    async def events() -> EventSourceResponse:
        """Server-sent events: one ``status`` event now and after every change."""
        queue = service.subscribe()

        async def stream():
            try:
                yield {"event": "status", "data": json.dumps(service.status())}
                while True:
                    try:
                        status = await asyncio.wait_for(queue.get(), timeout=15)
                    except TimeoutError:
                        status = service.status()
                    yield {"event": "status", "data": json.dumps(status)}
            finally:
                service.unsubscribe(queue)

        return EventSourceResponse(stream())

    @app.post("/api/game", dependencies=guard)
    async def new_game(body: NewGame) -> Done:
        """Start a new game (any game in progress is aborted and stays in the journal)."""
        try:
            service.new_game(body.players, body.options, body.ai)
        except GameError as error:
            raise HTTPException(422, str(error)) from None
        return Done(ok=True, message=f"new game: {', '.join(body.players)}")

    @app.post("/api/confirm", dependencies=guard)
    async def confirm() -> Done:
        return _act(service.table.confirm)

    @app.post("/api/undo", dependencies=guard)
    async def undo(body: Steps) -> Done:
        return _act(lambda: service.table.undo(body.steps))

    @app.post("/api/hint", dependencies=guard)
    async def hint() -> Done:
        """Ask the AI for the move of the player on turn; it is lit and shown when found."""
        return _act(service.request_hint)

    @app.post("/api/choose", dependencies=guard)
    async def choose(body: Choice) -> Done:
        return _act(lambda: service.table.choose(body.index))

    @app.get("/player", response_class=HTMLResponse, include_in_schema=False)
    def player_page() -> str:
        return (STATIC / "player.html").read_text(encoding="utf-8")

    @app.post("/api/seats/{seat}/claim")
    async def claim_seat(seat: int) -> SeatToken:
        """The first phone to ask gets this seat's private view (hand, secret cards)."""
        try:
            return SeatToken(seat=seat, token=service.table.claim_seat(seat))
        except NothingToConfirm as error:
            raise HTTPException(409, str(error)) from None

    @app.get("/api/seats/{seat}/view")
    async def private_view(seat: int, x_seat_token: Annotated[str | None, Header()] = None
                     ) -> dict[str, Any]:
        """What only this seat's player may see; needs the token the claim returned."""
        if not x_seat_token:
            raise HTTPException(401, "send the seat's token as 'X-Seat-Token'")
        if not service.table.started:
            raise HTTPException(409, "no game is running")
        try:
            return service.table.private_view(seat, x_seat_token)
        except PermissionError as error:
            raise HTTPException(403, str(error)) from None

    @app.post("/api/seats/{seat}/hint")
    async def private_hint(seat: int, x_seat_token: Annotated[str | None, Header()] = None
                           ) -> dict[str, Any]:
        """The AI's move for this seat, shown only to the phone holding it (needs its token)."""
        if not x_seat_token:
            raise HTTPException(401, "send the seat's token as 'X-Seat-Token'")
        try:
            return await service.private_hint(seat, x_seat_token)
        except PermissionError as error:
            raise HTTPException(403, str(error)) from None
        except NothingToConfirm as error:
            raise HTTPException(409, str(error)) from None

    @app.post("/api/seats/release", dependencies=guard)
    async def release_seats() -> Done:
        service.table.release_seats()
        return Done(ok=True, message="all seats released")

    @app.post("/api/abort", dependencies=guard)
    async def abort() -> Done:
        return _act(lambda: (service.table.abort(), "game aborted")[1])

    def _act(step) -> Done:
        if not service.table.started:
            raise HTTPException(409, "no game is running")
        try:
            message = step()
        except NothingToConfirm as error:
            raise HTTPException(409, str(error)) from None
        service.judge()
        return Done(ok=True, message=message)

    return app
