"""Putting the service together from a board profile, with real or virtual hardware.

``tabletop run`` and ``tabletop sim`` both come through here, so the controller under
simulation runs exactly the code it runs on the Pi; only the port URL, the LED strip and the
GPIO pin factory differ.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

from controller.journal import Journal
from controller.service import TableService
from controller.table import Table
from controller.web import create_app
from games.registry import get_game
from hardware.buttons import PinFactoryUnavailable, make_pin_factory
from hardware.leds import LedDriverUnavailable, SiteLights, open_strip
from hardware.link import HubLink
from hardware.profile import BoardProfile, ProfileError, find_profile, load_profile
from hardware.registry import TagRegistry

from .common import UserError


def data_dir(given: str | None) -> Path:
    """Where the journal and the tag registry live (``--data``, else ~/.local/share)."""
    base = Path(given) if given else Path(
        os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "tabletop"
    base.mkdir(parents=True, exist_ok=True)
    return base


def load_board(name_or_path: str) -> BoardProfile:
    """A profile, checked against the sites its game really has."""
    try:
        path = find_profile(name_or_path)
        game_id = load_profile(path).game
        game = get_game(game_id)
        sites = {s.id for n in range(game.min_players, game.max_players + 1)
                 for s in game.sites(n)}
        return load_profile(path, known_sites=sites)
    except ProfileError as error:
        raise UserError(str(error)) from None


def build_service(
    profile: BoardProfile,
    data: Path,
    *,
    url: str | None = None,
    strip: Any = None,
    pin_factory: Any = None,
    rng: random.Random | None = None,
) -> tuple[TableService, TagRegistry]:
    game = get_game(profile.game)
    try:  # open the real devices first: a missing library is one clear line, not a traceback
        strip = strip if strip is not None else open_strip(profile.leds)
        pin_factory = pin_factory or make_pin_factory(profile.buttons.pin_factory)
    except (LedDriverUnavailable, PinFactoryUnavailable) as error:
        raise UserError(str(error)) from None
    journal = Journal(data / "journal.sqlite3")
    registry = TagRegistry(data / "tags.sqlite3")
    table = Table(game, journal, rng)
    stored = journal.active()
    if stored is not None and stored.game == game.id:
        table.resume(stored)
    link = HubLink(url or profile.hub.url, baudrate=profile.hub.baudrate)
    lights = SiteLights(strip, profile.leds)
    service = TableService(table, profile, link, registry.lookup, lights,
                           pin_factory=pin_factory)
    return service, registry


async def serve(service: TableService, host: str, port: int, *, extra_routes: Any = None
                ) -> None:
    """Run the service (with its buttons) and its web page until cancelled."""
    import uvicorn

    app = create_app(service, service.profile.web_token)
    if extra_routes is not None:
        extra_routes(app)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    await asyncio.gather(service.run(), server.serve())
