"""Putting a table together: the service built from a board profile, with real or virtual
hardware, and the tables that run it without a person at the keyboard.

``tabletop run`` and ``tabletop sim`` both come through here (``build_service``, ``serve``),
so the controller under simulation runs exactly the code it runs on the Pi; only the port
URL, the LED strip and the GPIO pin factory differ. Beside it, ``box_players`` (people
dealing from the box, driving a ``Table`` directly). This room never imports the simulator:
composing the service with it is the command line's alone (``controller.cli.virtual``).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from controller.errors import UserError
from controller.journal import Journal
from controller.service import TableService
from controller.table import Table
from controller.web import create_app
from games.core.game import Game, Site
from games.registry import all_games, get_game
from hardware.buttons import make_pin_factory
from hardware.leds import SiteLights, open_strip
from hardware.link import HubLink
from hardware.profile import BoardProfile, ProfileError, find_profile, load_profile
from hardware.profile_writer import generated_profile, profile_text, unique_sites
from hardware.registry import TagRegistry

DEFAULT_PORT = 8080
"""The port of the table's page unless ``--port`` names another (``tabletop run``, ``sim``,
``install`` and ``doctor``)."""


def default_data() -> Path:
    """The data folder of a table started without ``--data`` ($XDG_DATA_HOME, else
    ~/.local/share), not made here."""
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "tabletop"


def data_dir(given: str | None) -> Path:
    """Where the journal and the tag registry live (``--data``, else ``default_data``), made
    if it is not there yet."""
    base = Path(given) if given else default_data()
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a read-only disk, a file in the way: one line, not a traceback
        raise UserError(f"cannot create the data folder {base}: {error.strerror}; give "
                        "another --data folder") from None
    return base


def game_sites(game: Game[Any], players: int | None = None) -> list[Site]:
    """The sites for ``players`` players, or the union over every count the game supports."""
    counts = [game.check_player_count(players)] if players is not None else range(
        game.min_players, game.max_players + 1)
    return unique_sites(site for n in counts for site in game.sites(n))


def default_profile_text(game: Game[Any], players: int | None = None, hubs: int = 1) -> str:
    return profile_text(game.id, game.name, game_sites(game, players), hubs=hubs)


def default_profile(game: Game[Any]) -> BoardProfile:
    """The default profile for every player count, validated, in memory."""
    return generated_profile(game.id, game.name, game_sites(game))


def load_board(name_or_path: str) -> BoardProfile:
    """A profile, checked against the sites its game really has.

    A game id with no profile of its own (a new game) gets the default profile generated
    from its sites, in memory; a shipped or named profile always wins.
    """
    try:
        path = find_profile(name_or_path)
    except ProfileError as error:
        if name_or_path not in _game_ids():
            raise UserError(f"{error}; games: {', '.join(sorted(_game_ids()))}") from None
        return _generated_board(name_or_path)
    game = get_game(load_profile(path).game)
    sites = {s.id for n in range(game.min_players, game.max_players + 1) for s in game.sites(n)}
    return load_profile(path, known_sites=sites)


_announced: set[str] = set()


def _game_ids() -> set[str]:
    return {game.id for game in all_games()}


def _generated_board(game_id: str) -> BoardProfile:
    if game_id not in _announced:
        _announced.add(game_id)
        print(f"tabletop: no board profile for {game_id}; using the default one generated "
              f"from its sites, in memory (`tabletop profile new {game_id} -o FILE` writes it)",
              file=sys.stderr)
    return default_profile(get_game(game_id))


def build_service(
    profile: BoardProfile,
    data: Path,
    *,
    urls: Sequence[str] | None = None,
    strip: Any = None,
    pin_factory: Any = None,
    rng: random.Random | None = None,
) -> tuple[TableService, TagRegistry]:
    game = get_game(profile.game)
    # The real devices first: a missing library is one clear line before anything is opened.
    strip = strip if strip is not None else open_strip(profile.leds)
    pin_factory = pin_factory or make_pin_factory(profile.buttons.pin_factory)
    journal = Journal(data / "journal.sqlite3")
    registry = TagRegistry(data / "tags.sqlite3")
    table = Table(game, journal, rng)
    stored = journal.active()
    if stored is not None and stored.game == game.id:
        table.resume(stored)
    if urls is not None and len(urls) != len(profile.hubs):
        raise UserError(f"{profile.name} has {len(profile.hubs)} hubs; {len(urls)} ports given")
    urls = urls or [hub.url for hub in profile.hubs]
    links = [HubLink(url, baudrate=hub.baudrate, unique_id=hub.unique_id)
             for hub, url in zip(profile.hubs, urls, strict=True)]
    lights = SiteLights(strip, profile.leds)
    def piece_of(uid: str) -> str | None:  # tags enrolled under a former name still read
        return game.current_piece(registry.lookup(uid))

    service = TableService(table, profile, links, piece_of, lights, pin_factory=pin_factory)
    return service, registry


async def serve(service: TableService, host: str, port: int, token: str, *,
                extra_routes: Any = None, also: Any = None) -> None:
    """Run the service (with its buttons) and its web page, guarded by ``token``, until
    cancelled (``also``: a coroutine to run beside them, the club link)."""
    import uvicorn

    app = create_app(service, token)
    if extra_routes is not None:
        extra_routes(app)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    await asyncio.gather(service.run(), server.serve(), *([also] if also else []))


def hub_urls(profile: BoardProfile, given: Sequence[str]) -> list[str]:
    """Each hub's port: the profile's, unless ``--url`` names another (``PORT`` alone for a
    one-hub board, ``HUB=PORT`` for any)."""
    urls = {hub.name: hub.url for hub in profile.hubs}
    for item in given:
        name, sep, port = item.partition("=")
        if not sep and len(urls) == 1:
            name, port = profile.hub.name, item
        elif not sep or name not in urls:
            names = ", ".join(urls)
            raise UserError(f"--url {item!r}: give HUB=PORT with a hub of the profile ({names})")
        urls[name] = port
    return list(urls.values())
