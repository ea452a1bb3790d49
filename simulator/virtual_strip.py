"""The LED strip under the virtual table: the hardware layer's `RecordingStrip` (a real
`adafruit_pixelbuf.PixelBuf`) with a clock on every frame, read back per site by colour name.

The controller drives `VirtualStrip.strip` through `hardware.leds.SiteLights` as it drives the
NeoPixels on the Pi, so gamma, brightness and byte order go through the same code. Reading back
undoes that: a site's bytes are compared with what each of the profile's named colours
(``legal``, ``wrong``, ...) becomes at the brightness of that frame.

The lighting blinks (a pattern per role, so colour-blind players can tell roles apart), so
"what colour is this site" is asked over a window: the latest colour the site showed within the
last `window_s` seconds, or ``off`` if it stayed dark all that time.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from adafruit_pixelbuf import PixelBuf

from hardware.leds import OFF, RecordingStrip, UnknownSite, gamma_table
from hardware.profile import Colour, LedSettings

OFF_NAME = "off"
DEFAULT_WINDOW_S = 1.1
"""Just over the slowest blink period of the LED language (1 s), so a blinking site is seen."""


@dataclass(frozen=True, slots=True)
class StripFrame:
    at: float
    """time.monotonic() when the frame was transmitted."""
    brightness: float
    data: bytes


class TimedRecordingStrip(RecordingStrip):
    """A `RecordingStrip` that also notes when each frame went out and at what brightness."""

    def __init__(
        self,
        size: int,
        *,
        byteorder: str = "GRB",
        brightness: float = 1.0,
        max_frames: int = 10_000,
    ) -> None:
        self.timeline: deque[StripFrame] = deque(maxlen=max_frames)
        self.timeline_lock = threading.Lock()
        super().__init__(size, byteorder=byteorder, brightness=brightness, max_frames=max_frames)

    def _transmit(self, buffer: bytearray) -> None:
        super()._transmit(buffer)
        with self.timeline_lock:
            self.timeline.append(StripFrame(time.monotonic(), self.brightness, bytes(buffer)))


class VirtualStrip:
    def __init__(
        self,
        settings: LedSettings,
        colours: Mapping[str, Colour],
        *,
        window_s: float = DEFAULT_WINDOW_S,
    ) -> None:
        self.settings = settings
        self.palette = dict(colours)
        self.window_s = window_s
        self.strip = TimedRecordingStrip(
            settings.count, byteorder=settings.pixel_order, brightness=settings.brightness
        )
        self._gamma = gamma_table(settings.gamma)
        bpp, offsets, _, _ = PixelBuf.parse_byteorder(settings.pixel_order)
        self._bpp = bpp
        self._rgb = offsets[:3]

    @property
    def names(self) -> tuple[str, ...]:
        """Every colour name a site can read as."""
        return (OFF_NAME, *self.palette)

    # -- decoding ----------------------------------------------------------------------------

    def _pixel(self, frame: StripFrame, index: int) -> Colour:
        base = index * self._bpp
        r, g, b = self._rgb
        data = frame.data
        return (data[base + r], data[base + g], data[base + b])

    def name_of(self, pixel: Colour, brightness: float) -> str:
        """The profile colour that becomes `pixel` on the strip, 'off', or '#rrggbb' if none."""
        if pixel == OFF:
            return OFF_NAME
        for name, colour in self.palette.items():
            for shade in (tuple(self._gamma[c] for c in colour), colour):
                if pixel == tuple(int(c * brightness) for c in shade):
                    return name
        return "#{:02x}{:02x}{:02x}".format(*pixel)

    def _leds(self, site: str) -> tuple[int, ...]:
        try:
            return self.settings.sites[site]
        except KeyError:
            raise UnknownSite(f"no LEDs under {site!r} in this profile") from None

    def _site_in(self, frame: StripFrame, site: str) -> str:
        names = {self.name_of(self._pixel(frame, i), frame.brightness) for i in self._leds(site)}
        return names.pop() if len(names) == 1 else "/".join(sorted(names))

    # -- reading -----------------------------------------------------------------------------

    def frames(self) -> tuple[StripFrame, ...]:
        with self.strip.timeline_lock:
            return tuple(self.strip.timeline)

    def now(self, site: str) -> str:
        """The colour the site shows at this instant (dark during a blink's off phase)."""
        self._leds(site)
        frames = self.frames()
        return self._site_in(frames[-1], site) if frames else OFF_NAME

    def colour(self, site: str, window_s: float | None = None) -> str:
        """The site's colour, blinking ignored: the latest colour it showed within the window
        (the frame in force when the window opened counts), or 'off' if it stayed dark."""
        self._leds(site)
        since = time.monotonic() - (self.window_s if window_s is None else window_s)
        for frame in reversed(self.frames()):
            name = self._site_in(frame, site)
            if name != OFF_NAME:
                return name
            if frame.at <= since:
                break
        return OFF_NAME

    def colours(self, window_s: float | None = None) -> dict[str, str]:
        """`colour` of every site that has LEDs."""
        return {site: self.colour(site, window_s) for site in self.settings.sites}
