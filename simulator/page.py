"""The interactive simulator page: play on the virtual table with the mouse.

A small web app of the simulator's own (it drives the virtual table, never the controller):
drag a piece from the box onto a site, from one site to another, or back into the box; press
the table's buttons; watch the LEDs; pull a hub's cable and plug it back in. ``tabletop sim``
mounts it at ``/sim`` beside the service's status page, so one browser tab shows the table and
another the referee.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from .virtual_buttons import UnknownButton
from .virtual_table import TableError, VirtualTable

PAGE = Path(__file__).parent / "static" / "sim.html"


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


def simulator_router(table: VirtualTable, status_url: str = "/") -> APIRouter:
    router = APIRouter(prefix="/sim", tags=["simulator"])

    @router.get("", response_class=HTMLResponse, include_in_schema=False)
    def page() -> str:
        return PAGE.read_text(encoding="utf-8").replace("{{STATUS_URL}}", status_url)

    @router.get("/api/table")
    def state() -> dict[str, Any]:
        """Sites with coordinates, what lies where, the LEDs, the buttons, the box."""
        board = table.board()
        on_table = Counter(board.values())
        box = []
        for piece in table.tags.pieces:
            left = len(table.tags.tags_of(piece)) - on_table[piece]
            if left > 0:
                box.append({"piece": piece, "left": left})
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
            "box": box,
            "hubs": [{"name": settings.name, "plugged": hub.plugged,
                      "readers": len(settings.readers)}
                     for settings, hub in zip(table.profile.hubs, table.hubs, strict=True)],
        }

    @router.post("/api/put")
    def put(body: Put) -> dict[str, str]:
        return _do(lambda: table.put(body.piece, body.site), f"put {body.piece} on {body.site}")

    @router.post("/api/lift")
    def lift(body: Lift) -> dict[str, str]:
        return _do(lambda: table.lift(body.site), f"lifted {body.site}")

    @router.post("/api/move")
    async def move(body: Move) -> dict[str, str]:
        try:
            piece = await table.slide(body.start, body.end)
        except TableError as error:
            raise HTTPException(409, str(error)) from None
        return {"message": f"slid {piece} from {body.start} to {body.end}"}

    @router.post("/api/press")
    async def press(body: Press) -> dict[str, str]:
        try:
            await table.press(body.role)
        except UnknownButton as error:
            raise HTTPException(404, str(error)) from None
        return {"message": f"pressed {body.role}"}

    @router.post("/api/cable")
    def cable(body: Cable) -> dict[str, str]:
        """Pull a hub's USB cable, or plug it back in."""
        if body.plugged:
            return _do(lambda: table.replug(body.hub), f"plugged hub {body.hub} in")
        return _do(lambda: table.unplug(body.hub), f"unplugged hub {body.hub}")

    def _do(step, message: str) -> dict[str, str]:
        try:
            step()
        except TableError as error:
            raise HTTPException(409, str(error)) from None
        return {"message": message}

    return router
