"""Writing a default board profile from a game's own sites.

A new game needs a profile before the table (or the simulator) can run it; writing 80 reader
lines by hand is where typos come from. This module turns plain site descriptions into profile
TOML that `hardware.profile` accepts: one reader per site in the game's order, one LED under
each site, the usual buttons and colours. A maker then edits what differs on their board (the
hub's port, the LED chain). Hardware never imports games, so sites come in as plain values.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from .field_schedule import hub_regions
from .profile import BoardProfile, ProfileError, parse_profile

DEFAULT_HUB_URL = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode-if00"
HUB_URL_TEMPLATE = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_{}-if00"
"""Where udev links a MicroPython hub: its USB serial number is its unique id (hex)."""
DEFAULT_SETTLE_MS = 400
DEFAULT_BUTTONS = (("confirm", 5), ("undo", 6), ("hint", 13))
DEFAULT_COLOURS = (
    ("legal", "#00c853"), ("active", "#2962ff"), ("wrong", "#d50000"), ("score", "#ffd600"),
    ("advice", "#aa00ff"), ("idle", "#101010"),
)
AMPS_PER_LED = 0.06
"""A WS2812 at full white draws about 60 mA."""
POWER_BUDGET_AMPS = 2.0
"""What a common 5 V supply leaves for the strip; brightness is capped to stay under it."""
MAX_BRIGHTNESS = 0.5


class SiteLike(Protocol):
    """What the writer needs of a site (a game's ``Site`` fits; so does ``SiteSpec``)."""

    @property
    def id(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...


@dataclass(frozen=True, slots=True)
class SiteSpec:
    id: str
    label: str = ""
    x: float = 0.0
    y: float = 0.0


def _quoted(text: str) -> str:
    """A TOML basic string (JSON's escapes are a subset TOML reads the same way)."""
    return json.dumps(text, ensure_ascii=False)


def _brightness_cap(count: int) -> float:
    return min(MAX_BRIGHTNESS, int(POWER_BUDGET_AMPS / (AMPS_PER_LED * count) * 100) / 100)


S = TypeVar("S", bound=SiteLike)


def unique_sites(sites: Iterable[S]) -> list[S]:
    """Sites in first-seen order, each id once (the union over player counts)."""
    seen: set[str] = set()
    result: list[S] = []
    for site in sites:
        if site.id not in seen:
            seen.add(site.id)
            result.append(site)
    return result


def profile_text(
    game_id: str,
    game_name: str,
    sites: Sequence[SiteLike],
    *,
    hub_url: str = DEFAULT_HUB_URL,
    settle_ms: int = DEFAULT_SETTLE_MS,
    hubs: int = 1,
) -> str:
    """The TOML of a default profile: reader ``n`` and LED ``n`` under the ``n``-th site;
    with several ``hubs``, each scans one stripe of the board (``hub_regions``)."""
    ordered = unique_sites(sites)
    if not ordered:
        raise ProfileError(f"{game_id}: a profile needs at least one site")
    count = len(ordered)
    cap = _brightness_cap(count)
    lines = [
        f"# {game_name}: the default profile, generated from the engine's own sites",
        f"# (`tabletop profile new {game_id}`). One reader and one LED under each site,",
        "# numbered in the game's site order. Edit the hub's port, the LED chain and the",
        "# buttons to match your board; a profile in hardware/profiles/ wins over this one.",
        f"name = {_quoted(game_name)}",
        f"game = {_quoted(game_id)}",
        f"settle_ms = {settle_ms}",
        "",
        *(hub_lines(hub_url) if hubs == 1 else hubs_lines(hub_regions(
            {n: (site.x, site.y) for n, site in enumerate(ordered)}, hubs))),
        "[readers]",
    ]
    for number, site in enumerate(ordered):
        label = " ".join(site.label.split())  # a comment ends at the line's end
        where = f"{label}, " if label else ""
        lines.append(f"{number} = {_quoted(site.id)}  # {where}at ({site.x:g}, {site.y:g})")
    lines += [
        "",
        "[leds]",
        'driver = "neopixel_spi"  # data on GPIO10 (SPI); "neopixel" = PWM on pin (root, '
        'tabletop[pi-pwm])',
        'pin = "D18"',
        f"count = {count}",
        'pixel_order = "GRB"',
        f"brightness = {cap}",
        f"max_brightness = {cap}     # {count} LEDs at {cap} stay under "
        f"{POWER_BUDGET_AMPS:g} A at full white",
        "gamma = 2.2",
        "",
        "[leds.sites]             # one LED under each site",
    ]
    lines += [f"{_quoted(site.id)} = [{number}]" for number, site in enumerate(ordered)]
    lines += [
        "",
        "[buttons]",
        'pin_factory = "lgpio"',
        "hold_seconds = 1.0",
        "bounce_seconds = 0.05",
        "",
        "[buttons.pins]",
        *(f"{role} = {pin}" for role, pin in DEFAULT_BUTTONS),
        "",
        "[colours]",
        *(f'{name} = "{colour}"' for name, colour in DEFAULT_COLOURS),
    ]
    return "\n".join(lines) + "\n"


def hub_lines(url: str = DEFAULT_HUB_URL) -> list[str]:
    """A one-hub board's ``[hub]`` table."""
    return ["[hub]", f"url = {_quoted(url)}", "baudrate = 115200", ""]


def hubs_lines(regions: Sequence[Sequence[int]]) -> list[str]:
    """``[[hubs]]`` tables, one per region of readers. The ports are placeholders: each hub's
    ``/dev/serial/by-id`` name carries its unique id (``ls /dev/serial/by-id``, or the status
    page's hub list), which also goes into ``unique_id``."""
    lines = ["# One hub per stripe of the board, each on its own USB port: put each hub's id",
             "# into its url and unique_id (docs/wiring.md, Several hubs).", ""]
    for number, readers in enumerate(regions, 1):
        lines += ["[[hubs]]", f'name = "hub{number}"',
                  f"url = {_quoted(HUB_URL_TEMPLATE.format(f'HUB{number}-ID'))}",
                  "baudrate = 115200", f"readers = {json.dumps(_runs(readers))}", ""]
    return lines


def _runs(readers: Sequence[int]) -> list[int | str]:
    """Reader numbers with runs written ``"a-b"`` (the hub's order kept)."""
    out: list[int | str] = []
    start = previous = None
    for reader in [*readers, None]:
        if previous is not None and reader == previous + 1:
            previous = reader
            continue
        if start is not None:
            out.append(start if start == previous else f"{start}-{previous}")
        start = previous = reader
    return out


def generated_profile(
    game_id: str,
    game_name: str,
    sites: Sequence[SiteLike],
    *,
    hub_url: str = DEFAULT_HUB_URL,
    settle_ms: int = DEFAULT_SETTLE_MS,
    hubs: int = 1,
) -> BoardProfile:
    """The default profile, validated, without touching the disk."""
    text = profile_text(game_id, game_name, sites, hub_url=hub_url, settle_ms=settle_ms,
                        hubs=hubs)
    source = Path(f"{game_id} (generated)")
    return parse_profile(tomllib.loads(text), source, {site.id for site in sites})
