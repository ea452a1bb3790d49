"""Board profiles: which reader sees which site, which LEDs light it, which pin is which button.

One TOML file per game overlay in `hardware/profiles/` (the hardware underneath is shared).
Loading validates everything and names the file and key of each mistake, because the person
reading the error is usually a maker with a soldering iron, not the author of this code.
Sites are the game's business: the controller passes the game's site names in
`known_sites`, so this module never has to import a game.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .errors import HardwareError
from .field_schedule import DEFAULT_RADIO, RadioSettings

PROFILES_DIR = Path(__file__).parent / "profiles"
LED_DRIVERS = ("neopixel", "neopixel_spi", "recording")
PIXEL_ORDERS = ("RGB", "GRB", "RGBW", "GRBW", "BGR", "BRG")
PIN_FACTORIES = ("lgpio", "rpigpio", "native", "mock")
REQUIRED_COLOURS = ("legal", "active", "wrong", "score", "idle")
OPTIONAL_COLOURS: dict[str, tuple[int, int, int]] = {"advice": (170, 0, 255),
                                                     "blind": (90, 90, 90)}
"""Colours a profile may leave out, with their defaults (older profiles lack them)."""
REQUIRED_BUTTONS = ("confirm", "undo")
BUTTON_COMMANDS = ("confirm", "undo", "hint", "abort")
"""The service's commands a button gesture may give (the controller's TableService methods)."""
DEFAULT_GESTURES = {"press confirm": "confirm", "press undo": "undo", "hold undo": "undo",
                    "press hint": "hint"}
"""Used for every gesture a profile's ``[buttons.gestures]`` leaves out, if its button exists."""
_GESTURE = re.compile(r"^(press|hold) (\S+)$")
BCM_PINS = range(0, 28)
_ROLE = re.compile(r"^[a-z][a-z0-9_:-]*$")
_HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")

Colour = tuple[int, int, int]


class ProfileError(HardwareError, ValueError):
    """A board profile that cannot be used; the message says where and why."""


@dataclass(frozen=True, slots=True)
class HubSettings:
    """One reader hub: its port, who it is, and which of the profile's readers it scans."""

    url: str
    baudrate: int
    name: str = "hub"
    """What the page and the log call it."""
    unique_id: str | None = None
    """The id the hub says in its hello (``machine.unique_id()``, hex); when given, a hub
    with another id on this port is refused (the cables are swapped)."""
    readers: tuple[int, ...] = ()
    """The profile's reader numbers, in the hub's own order: the hub's reader 0 is
    ``readers[0]``."""
    supply_ma: int | None = None
    """The rating of the 5 V supply its readers hang on, if the maker states it: ``tabletop
    doctor`` checks the readers' peak current against it (or, unstated, a USB port's)."""


@dataclass(frozen=True, slots=True)
class LedSettings:
    driver: str
    pin: str
    count: int
    pixel_order: str
    brightness: float
    max_brightness: float
    """A hard cap (power supply budget): brightness is never set above it."""
    gamma: float
    sites: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class ButtonSettings:
    pin_factory: str
    hold_seconds: float
    bounce_seconds: float
    pins: Mapping[str, int]
    """Role (confirm, undo, hint, player:1, ...) to BCM GPIO number."""
    gestures: Mapping[str, str]
    """``"press ROLE"`` or ``"hold ROLE"`` to the command it gives (one of BUTTON_COMMANDS)."""


@dataclass(frozen=True, slots=True)
class TimingSettings:
    """How long the table waits on its way from a board to a verdict, beside ``settle_ms``
    (the optional ``[timing]`` table; every key in milliseconds but ``flicker_scans`` and
    ``plain_mistakes``). The
    defaults are the ones the benches measured; an owner may tune them for a board."""

    under_way_ms: int = 1000
    """How long a board read as a step under way must have stayed as it is (from its last
    change, and at least the settle time) before the table searches for a dealing under
    which it is a whole step: two payment cards laid one after the other must not be taken
    for a one-card payment some other hand could make."""
    flicker_scans: float = 1.5
    """A tag missed and read again within this many scans was missed, not lifted and put
    back."""
    silent_ms: int = 2500
    """A hub that has sent nothing this long (its heartbeat is due every second) is taken as
    down: its region is blind until it answers the snapshot asked of it."""
    journal_retry_ms: int = 2000
    """How often a move the journal could not record (its disk full) is tried again."""
    sweep_ms: int = 1500
    """How long the end-of-game sweep lights each score line."""
    plain_mistakes: str = "settle"
    """When a board with pieces only laid, where no legal step lays one of their kind, is
    called wrong: ``settle`` (after the settle time, as any mistake: a piece a hand drags from
    the box over the board is never lit red on its way) or ``quick`` (as soon as every lift
    would have been reported: for tables whose players lay pieces rather than drag them)."""


TIMING_RANGES = {
    "under_way_ms": (0, 10_000), "flicker_scans": (1.0, 5.0), "silent_ms": (1_200, 60_000),
    "journal_retry_ms": (100, 60_000), "sweep_ms": (300, 10_000),
}
"""What a ``[timing]`` key may hold (a hub's heartbeat is due every second: a hub silent for
less is not yet late)."""
PLAIN_MISTAKES = ("settle", "quick")
"""What ``[timing] plain_mistakes`` may say (``TimingSettings.plain_mistakes``)."""


@dataclass(frozen=True, slots=True)
class BoardProfile:
    name: str
    game: str
    hubs: tuple[HubSettings, ...]
    """Every hub of the board (``[hub]`` or ``[[hubs]]``); together they scan every reader."""
    readers: Mapping[int, str]
    """Reader number (the profile's, across all hubs) to site name."""
    leds: LedSettings
    buttons: ButtonSettings
    colours: Mapping[str, Colour]
    settle_ms: int
    web_token: str | None
    """The profile's own table token, if it names one; without one the service uses the
    install's (generated on first start, never one shipped in the repository)."""
    source: Path
    radio: RadioSettings = DEFAULT_RADIO
    """The board's radio geometry (the optional ``[radio]`` table; defaults otherwise)."""
    timing: TimingSettings = TimingSettings()
    """The judgement's waits (the optional ``[timing]`` table; defaults otherwise)."""
    language: str = "en"
    """The pages' language when neither the page nor the browser chooses one (the optional
    ``language`` key: a language code such as ``"de"``)."""

    @property
    def hub(self) -> HubSettings:
        """The first hub (the only one on most boards)."""
        return self.hubs[0]

    def hub_of(self, reader: int) -> HubSettings:
        for hub in self.hubs:
            if reader in hub.readers:
                return hub
        raise KeyError(f"no hub scans reader {reader} in profile {self.name!r}")

    @property
    def sites(self) -> tuple[str, ...]:
        return tuple(self.readers[i] for i in sorted(self.readers))

    def reader_of(self, site: str) -> int:
        for reader, name in self.readers.items():
            if name == site:
                return reader
        raise KeyError(f"no reader watches site {site!r} in profile {self.name!r}")


class _Checker:
    """Reads typed values out of the parsed TOML, raising ProfileError with the key's path."""

    def __init__(self, source: Path) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> ProfileError:
        return ProfileError(f"{self.source.name}: {where}: {message}")

    def table(self, data: Mapping[str, Any], key: str, where: str = "",
              optional: bool = False) -> dict[str, Any]:
        path = f"{where}.{key}" if where else key
        if key not in data:
            if optional:
                return {}
            raise self.fail(f"[{path}]", "this table is missing")
        value = data[key]
        if not isinstance(value, dict):
            raise self.fail(path, "must be a table")
        return value

    def known_keys(self, data: Mapping[str, Any], allowed: Collection[str], where: str) -> None:
        for key in data:
            if key not in allowed:
                hint = ", ".join(sorted(allowed))
                raise self.fail(where, f"unknown key {key!r} (expected one of: {hint})")

    def value(
        self, data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str,
        default: Any = ...,
    ) -> Any:
        if key not in data:
            if default is ...:
                raise self.fail(where, f"{key!r} is missing")
            return default
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, kind):
            kinds = (kind,) if isinstance(kind, type) else kind
            names = " or ".join(k.__name__ for k in kinds)
            raise self.fail(f"{where}.{key}", f"must be {names}, got {value!r}")
        return value

    def number(
        self, data: Mapping[str, Any], key: str, where: str, low: float, high: float,
        default: Any = ..., integer: bool = False,
    ) -> Any:
        kind: type | tuple[type, ...] = int if integer else (int, float)
        value = self.value(data, key, kind, where, default)
        if not low <= value <= high:
            raise self.fail(f"{where}.{key}", f"must be between {low} and {high}, got {value}")
        return value

    def choice(
        self, data: Mapping[str, Any], key: str, where: str, options: Collection[str],
        default: Any = ...,
    ) -> str:
        value = self.value(data, key, str, where, default)
        if value not in options:
            raise self.fail(f"{where}.{key}", f"{value!r} is not one of {', '.join(options)}")
        return value


def _colour(check: _Checker, where: str, value: Any) -> Colour:
    if isinstance(value, str) and _HEX_COLOUR.match(value):
        return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
    if (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    ):
        return (value[0], value[1], value[2])
    raise check.fail(where, f"a colour is '#rrggbb' or [r, g, b] with 0..255, got {value!r}")


def _readers(
    check: _Checker, data: dict[str, Any], known: Collection[str] | None
) -> dict[int, str]:
    table = check.table(data, "readers")
    if not table:
        raise check.fail("[readers]", "no readers: list 'reader number = \"site\"' pairs")
    readers: dict[int, str] = {}
    seen: dict[str, int] = {}
    for key, site in table.items():
        if not key.isdigit() or not 0 <= int(key) <= 254:
            raise check.fail(f"[readers] {key!r}", "reader numbers are 0..254 (the hub's order)")
        if not isinstance(site, str) or not site:
            raise check.fail(f"[readers] {key}", f"must be a site name, got {site!r}")
        if site in seen:
            raise check.fail(f"[readers] {key}", f"site {site!r} is also reader {seen[site]}")
        if known is not None and site not in known:
            raise check.fail(f"[readers] {key}", f"{site!r} is not a site of this game")
        seen[site] = int(key)
        readers[int(key)] = site
    if known is not None:
        missing = sorted(set(known) - set(seen))
        if missing:
            names = ", ".join(missing)
            raise check.fail("[readers]", f"sites of this game with no reader: {names}")
    return readers


def _leds(check: _Checker, data: dict[str, Any], sites: Collection[str]) -> LedSettings:
    table = check.table(data, "leds")
    allowed = ("driver", "pin", "count", "pixel_order", "brightness", "max_brightness",
               "gamma", "sites")
    check.known_keys(table, allowed, "[leds]")
    count = check.number(table, "count", "[leds]", 1, 4096, integer=True)
    max_brightness = check.number(table, "max_brightness", "[leds]", 0.0, 1.0, default=1.0)
    brightness = check.number(table, "brightness", "[leds]", 0.0, 1.0, default=max_brightness)
    if brightness > max_brightness:
        raise check.fail("[leds].brightness", f"{brightness} is above max_brightness")
    owner: dict[int, str] = {}
    mapping: dict[str, tuple[int, ...]] = {}
    for site, indices in check.table(table, "sites", "leds").items():
        where = f"[leds.sites] {site!r}"
        if site not in sites:
            raise check.fail(where, "no reader watches this site; LEDs light reader sites only")
        if not isinstance(indices, list) or not indices:
            raise check.fail(where, f"must be a non-empty list of LED numbers, got {indices!r}")
        for index in indices:
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
                raise check.fail(where, f"LED {index!r} is outside the strip (count = {count})")
            if index in owner:
                raise check.fail(where, f"LED {index} already lights {owner[index]!r}")
            owner[index] = site
        mapping[site] = tuple(indices)
    return LedSettings(
        driver=check.choice(table, "driver", "[leds]", LED_DRIVERS),
        pin=check.value(table, "pin", str, "[leds]", default="D18"),
        count=count,
        pixel_order=check.choice(table, "pixel_order", "[leds]", PIXEL_ORDERS, default="GRB"),
        brightness=float(brightness),
        max_brightness=float(max_brightness),
        gamma=float(check.number(table, "gamma", "[leds]", 1.0, 3.0, default=2.2)),
        sites=MappingProxyType(mapping),
    )


def _buttons(check: _Checker, data: dict[str, Any]) -> ButtonSettings:
    table = check.table(data, "buttons")
    check.known_keys(table, ("pin_factory", "hold_seconds", "bounce_seconds", "pins", "gestures"),
                     "[buttons]")
    pins: dict[str, int] = {}
    used: dict[int, str] = {}
    for role, pin in check.table(table, "pins", "buttons").items():
        where = f"[buttons.pins] {role!r}"
        if not _ROLE.match(role):
            raise check.fail(where, "roles are lower-case names like confirm, undo, player:1")
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
            raise check.fail(where, f"GPIO pins are BCM numbers 0..27, got {pin!r}")
        if pin in used:
            raise check.fail(where, f"GPIO{pin} is already the {used[pin]!r} button")
        used[pin] = role
        pins[role] = pin
    missing = [role for role in REQUIRED_BUTTONS if role not in pins]
    if missing:
        raise check.fail("[buttons.pins]", f"every table needs these buttons: {', '.join(missing)}")
    gestures = {gesture: command for gesture, command in DEFAULT_GESTURES.items()
                if gesture.split()[1] in pins}
    for gesture, command in check.table(table, "gestures", "buttons", optional=True).items():
        where = f"[buttons.gestures] {gesture!r}"
        match = _GESTURE.match(gesture)
        if not match:
            raise check.fail(where, "a gesture is 'press ROLE' or 'hold ROLE', e.g. 'hold undo'")
        if match.group(2) not in pins:
            raise check.fail(where, f"there is no {match.group(2)!r} button in [buttons.pins]")
        if command not in BUTTON_COMMANDS:
            raise check.fail(where, f"a button can give {', '.join(BUTTON_COMMANDS)}, "
                                    f"not {command!r}")
        gestures[gesture] = command
    return ButtonSettings(
        pin_factory=check.choice(table, "pin_factory", "[buttons]", PIN_FACTORIES, default="lgpio"),
        hold_seconds=float(
            check.number(table, "hold_seconds", "[buttons]", 0.2, 10.0, default=1.0)
        ),
        bounce_seconds=float(
            check.number(table, "bounce_seconds", "[buttons]", 0.0, 0.5, default=0.05)
        ),
        pins=MappingProxyType(pins),
        gestures=MappingProxyType(gestures),
    )


def parse_profile(
    data: dict[str, Any], source: Path, known_sites: Collection[str] | None = None
) -> BoardProfile:
    check = _Checker(source)
    top = ("name", "game", "settle_ms", "web_token", "language", "hub", "hubs", "readers",
           "leds", "buttons", "colours", "radio", "timing")
    check.known_keys(data, top, "top level")
    readers = _readers(check, data, None if known_sites is None else set(known_sites))
    hubs = _hubs(check, data, readers)
    colours_table = check.table(data, "colours")
    colours = {name: _colour(check, f"[colours] {name}", v) for name, v in colours_table.items()}
    missing = [name for name in REQUIRED_COLOURS if name not in colours]
    if missing:
        raise check.fail("[colours]", f"missing colours: {', '.join(missing)}")
    for name, default in OPTIONAL_COLOURS.items():
        colours.setdefault(name, default)
    token = check.value(data, "web_token", str, "top level", None)
    if token is not None and len(token) < 8:
        raise check.fail("web_token", "must be at least 8 characters: it guards game changes")
    return BoardProfile(
        name=check.value(data, "name", str, "top level"),
        game=check.value(data, "game", str, "top level"),
        hubs=hubs,
        readers=MappingProxyType(readers),
        leds=_leds(check, data, set(readers.values())),
        buttons=_buttons(check, data),
        colours=MappingProxyType(colours),
        settle_ms=check.number(data, "settle_ms", "top level", 50, 10_000, integer=True),
        web_token=token,
        source=source,
        radio=_radio(check, data),
        timing=_timing(check, data),
        language=_language(check, data),
    )


_LANGUAGE = re.compile(r"^[a-z]{2,3}$")


def _language(check: _Checker, data: dict[str, Any]) -> str:
    """The table's default language: a lower-case ISO 639 code. Which languages have texts is
    the controller's to know (hardware/ reads no catalogue); it falls back to English for one
    it has none for."""
    language = check.value(data, "language", str, "top level", "en")
    if not _LANGUAGE.match(language):
        raise check.fail("language", f"{language!r} is not a language code such as \"de\" "
                                     "or \"en\"")
    return language


_HUB_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
_HEX_ID = re.compile(r"^(?:[0-9a-f]{2}){4,16}$")
_READER_RUN = re.compile(r"^(\d+)-(\d+)$")


def _hubs(check: _Checker, data: dict[str, Any], readers: Mapping[int, str]
          ) -> tuple[HubSettings, ...]:
    """``[hub]`` (one hub, every reader in the profile's order) or ``[[hubs]]`` (several,
    each naming its readers); every reader on exactly one hub."""
    if "hub" in data and "hubs" in data:
        raise check.fail("top level", "[hub] and [[hubs]]: name one hub in [hub], or several "
                                      "in [[hubs]], not both")
    if "hub" not in data and "hubs" not in data:
        raise check.fail("[hub]", "this table is missing: name the hub's port in [hub], or "
                                  "several hubs in [[hubs]]")
    if "hub" in data:
        table = check.table(data, "hub")
        check.known_keys(table, ("url", "baudrate", "unique_id", "supply_ma"), "[hub]")
        # the hub's own reader numbers are the profile's (gaps are readers with no site)
        return (_hub(check, table, "[hub]", "hub", tuple(range(max(readers) + 1))),)
    tables = data["hubs"]
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise check.fail("[[hubs]]", "must be one or more tables, each a hub")
    hubs: list[HubSettings] = []
    owner: dict[int, str] = {}
    for number, table in enumerate(tables, 1):
        where = f"[[hubs]] #{number}"
        check.known_keys(table, ("name", "url", "baudrate", "unique_id", "readers",
                                 "supply_ma"), where)
        name = check.value(table, "name", str, where)
        if not _HUB_NAME.match(name):
            raise check.fail(f"{where}.name", f"{name!r}: letters, digits, - and _ (up to 32)")
        ids = _reader_list(check, table, f"[[hubs]] {name!r}.readers", readers)
        for reader in ids:
            if reader in owner:
                raise check.fail(f"[[hubs]] {name!r}.readers",
                                 f"reader {reader} is also on hub {owner[reader]!r}")
            owner[reader] = name
        hubs.append(_hub(check, table, f"[[hubs]] {name!r}", name, ids))
    for field in ("name", "url", "unique_id"):
        values = [getattr(hub, field) for hub in hubs if getattr(hub, field) is not None]
        twice = sorted({value for value in values if values.count(value) > 1})
        if twice:
            raise check.fail("[[hubs]]", f"two hubs with the same {field}: {', '.join(twice)}")
    orphans = sorted(set(readers) - set(owner))
    if orphans:
        raise check.fail("[[hubs]]", "readers no hub scans: " + _runs(orphans))
    return tuple(hubs)


def _hub(check: _Checker, table: dict[str, Any], where: str, name: str,
         readers: tuple[int, ...]) -> HubSettings:
    url = check.value(table, "url", str, where)
    if not url.strip():
        raise check.fail(f"{where}.url", "must name the hub's serial port, e.g. "
                                         "/dev/serial/by-id/usb-MicroPython_Board_...-if00")
    unique_id = check.value(table, "unique_id", str, where, default=None)
    if unique_id is not None and not _HEX_ID.match(unique_id):
        raise check.fail(f"{where}.unique_id", f"{unique_id!r} is not the hex id a hub reports "
                                               "(8 to 32 lower-case hex digits)")
    baudrate = check.number(table, "baudrate", where, 1200, 4_000_000, default=115_200,
                            integer=True)
    supply = (check.number(table, "supply_ma", where, 100, 50_000, integer=True)
              if "supply_ma" in table else None)
    return HubSettings(url, baudrate, name, unique_id, readers, supply)


def _reader_list(check: _Checker, table: dict[str, Any], where: str,
                 readers: Mapping[int, str]) -> tuple[int, ...]:
    """Reader numbers and runs (``"10-17"``), in the hub's order."""
    items = check.value(table, "readers", list, where.rsplit(".", 1)[0])
    result: list[int] = []
    for item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            result.append(item)
        elif isinstance(item, str) and (run := _READER_RUN.match(item)):
            first, last = int(run.group(1)), int(run.group(2))
            if last < first:
                raise check.fail(where, f"{item!r} runs backwards")
            result.extend(range(first, last + 1))
        else:
            raise check.fail(where, f"{item!r}: list reader numbers or runs like \"10-17\"")
    if not result:
        raise check.fail(where, "a hub needs at least one reader")
    for reader in result:
        if reader not in readers:
            raise check.fail(where, f"reader {reader} is not in [readers]")
        if result.count(reader) > 1:
            raise check.fail(where, f"reader {reader} is listed twice")
    return tuple(result)


def _runs(numbers: list[int]) -> str:
    """``[0, 1, 2, 5]`` as ``0-2, 5``."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


RADIO_RANGES = {
    "pitch_mm": (5.0, 200.0), "antenna_mm": (5.0, 200.0), "reach_mm": (1.0, 200.0),
    "interference_mm": (0.0, 2000.0), "power_up_ms": (0.0, 50.0), "field_ma": (0.0, 500.0),
    "chip_ma": (0.0, 100.0), "max_fields_on": (1, 64), "layer_mm": (0.0, 50.0),
    "uid_bytes": (4, 7),
}
"""What a ``[radio]`` key may hold (millimetres, milliseconds, milliamperes, bytes)."""
UID_SIZES = (4, 7)
"""The tags' UID lengths the scan model and the simulator know: single and double size
(ISO/IEC 14443-3 also has triple, 10 bytes, which no sticker for a board like this uses)."""


def _radio(check: _Checker, data: dict[str, Any]) -> RadioSettings:
    table = check.table(data, "radio", optional=True)
    check.known_keys(table, RADIO_RANGES, "[radio]")
    defaults = RadioSettings()
    values = {
        key: check.number(table, key, "[radio]", low, high, default=getattr(defaults, key),
                          integer=isinstance(low, int))
        for key, (low, high) in RADIO_RANGES.items()
    }
    if values["uid_bytes"] not in UID_SIZES:
        raise check.fail("[radio].uid_bytes", f"4 (MIFARE Classic) or 7 (NTAG, Ultralight), "
                                              f"not {values['uid_bytes']}")
    return RadioSettings(**values)


def _timing(check: _Checker, data: dict[str, Any]) -> TimingSettings:
    table = check.table(data, "timing", optional=True)
    check.known_keys(table, [*TIMING_RANGES, "plain_mistakes"], "[timing]")
    defaults = TimingSettings()
    return TimingSettings(**{
        key: check.number(table, key, "[timing]", low, high, default=getattr(defaults, key),
                          integer=isinstance(low, int))
        for key, (low, high) in TIMING_RANGES.items()}, plain_mistakes=check.choice(
            table, "plain_mistakes", "[timing]", PLAIN_MISTAKES, default=defaults.plain_mistakes))


def load_profile(path: str | Path, known_sites: Collection[str] | None = None) -> BoardProfile:
    """Read and validate a profile file; `known_sites` are the site names of its game."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"{source}: no such profile file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{source}: cannot read it ({exc.__class__.__name__})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{source.name}: not valid TOML: {exc}") from None
    return parse_profile(data, source, known_sites)


def find_profile(name_or_path: str) -> Path:
    """A path as given, or the name of a profile shipped in hardware/profiles/."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        return path
    shipped = PROFILES_DIR / f"{name_or_path}.toml"
    if shipped.exists():
        return shipped
    names = ", ".join(sorted(p.stem for p in PROFILES_DIR.glob("*.toml")))
    raise ProfileError(f"no profile {name_or_path!r}; shipped profiles: {names}")
