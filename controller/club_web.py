"""The club's page: every table of the evening, its finished games and standings, live.

Read-only, for anyone in the club room: nothing here changes a table (commands go to a table
over MQTT, not through this page). The page gets its texts like the status page
(``/api/texts``, ``static/i18n.js``); game names come translated in ``/api/club``, step
sentences in each table's own language. The exports hold every result ever stored, not only
the evening's.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sse_starlette.sse import EventSourceResponse
from starlette.staticfiles import StaticFiles

from games.core.translation import CORE_LOCALE, cached_catalogue

from .club_service import ClubService, ClubView
from .club_standings import ranks
from .club_store import StoredResult
from .language import CONTROLLER_LOCALE, request_language

STATIC = Path(__file__).parent / "static"
CSV_COLUMNS = ("uid", "table", "game", "started", "ended", "moves", "received", "seat",
               "player", "score", "place", "winner")
"""One row a player a game: a spreadsheet sums, filters and pivots it as it is."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these would be a formula in a spreadsheet."""


def reader_language(request: Request) -> str:
    """``?lang=``, the ``lang`` cookie the switch sets, Accept-Language, else English."""
    return request_language(request, None)


Reader = Annotated[str, Depends(reader_language)]
Lang = Annotated[str | None, Query(description="the language of the texts (en, de); else the "
                                               "lang cookie, Accept-Language, English")]


def when(seconds: float) -> str:
    """A moment as local ISO 8601 with its offset (a spreadsheet reads it)."""
    return datetime.fromtimestamp(seconds).astimezone().isoformat(timespec="seconds")


def cell(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs as a formula (a player named
    ``=HYPERLINK(...)``)."""
    return f"'{text}" if text.startswith(FORMULA_START) else text


def results_csv(results: list[StoredResult]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for result in results:
        places = ranks(result.players, result.scores)
        for seat, player in enumerate(result.players, start=1):
            writer.writerow([cell(result.uid), cell(result.table), cell(result.game),
                             when(result.started), when(result.ended), result.moves,
                             when(result.received), seat, cell(player),
                             result.scores.get(player, ""), places[seat - 1],
                             int(player in result.winners)])
    return out.getvalue()


def create_club_app(club: ClubService) -> FastAPI:
    app = FastAPI(title="tabletop club", description="The tables of a club evening, their "
                  "finished games and standings (read-only).", version="0.1.0")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")  # i18n.js

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> str:
        return (STATIC / "club.html").read_text(encoding="utf-8")

    @app.get("/api/texts", response_model=dict[str, str])
    async def texts(language: Reader, lang: Lang = None) -> JSONResponse:
        """The page's dictionary: English msgid to its text in the reader's language."""
        words = cached_catalogue(language, (CORE_LOCALE, CONTROLLER_LOCALE))
        return JSONResponse(words.messages(), headers={
            "Content-Language": language, "Vary": "Accept-Language, Cookie"})

    @app.get("/api/club", response_model=ClubView)
    async def view(language: Reader, lang: Lang = None) -> Response:
        """The tables now, the evening's finished games (latest first) and its standings,
        overall and per game; game names in the reader's language."""
        return Response(club.view_json(language), media_type="application/json")

    @app.get("/api/club/stream")
    async def stream(language: Reader, lang: Lang = None) -> EventSourceResponse:
        """Server-sent events: a ``club`` event (a ClubView) now and after every change."""
        return EventSourceResponse(club.view_events(language))

    @app.get("/api/results.csv", response_class=Response,
             responses={200: {"content": {"text/csv": {}}}})
    async def export_csv() -> Response:
        """Every stored result, one row per player, in the order the games ended."""
        return Response(results_csv(club.results()), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="{club.name}-results.csv"'})

    @app.get("/api/results.json")
    async def export_json() -> Response:
        """Every stored result as the table sent it (and when it came), in the order the
        games ended."""
        data: list[dict[str, Any]] = [result.to_json() for result in club.results()]
        return Response(json.dumps(data, ensure_ascii=False, indent=1),
                        media_type="application/json", headers={
                            "Content-Disposition":
                            f'attachment; filename="{club.name}-results.json"'})

    return app
