"""The LED strip under the board: site colours in, one frame out only when something changed.

Every strip is an `adafruit_pixelbuf.PixelBuf`, so brightness scaling and byte order go through
the same library code on the Pi, in tests and in the simulator:

- `neopixel_spi.NeoPixel_SPI` (the data line on SPI MOSI, GPIO10): every Pi, the 5 too, and
  no root; the shipped profiles use it,
- `neopixel.NeoPixel` (PWM/PCM on a GPIO pin through rpi_ws281x): a Pi up to the 4, as root,
- `RecordingStrip` everywhere else: its `_transmit` keeps the bytes it would have sent.

The Pi drivers are imported only when asked for; they come with `pip install 'tabletop[pi]'`
(the PWM one with `tabletop[pi-pwm]`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from adafruit_pixelbuf import PixelBuf

from hardware.errors import HardwareError
from hardware.profile import Colour, LedSettings

OFF: Colour = (0, 0, 0)


class LedDriverUnavailable(HardwareError, RuntimeError):
    """The strip driver a profile names cannot be loaded on this machine."""


class UnknownSite(HardwareError, KeyError):
    """Asked to light a site that has no LEDs in this profile."""


class RecordingStrip(PixelBuf):
    """A strip that records every frame it transmits, for tests and the simulator."""

    def __init__(
        self,
        size: int,
        *,
        byteorder: str = "GRB",
        brightness: float = 1.0,
        max_frames: int = 10_000,
    ) -> None:
        self.frames: deque[bytes] = deque(maxlen=max_frames)
        self.transmitted = 0
        self._order = PixelBuf.parse_byteorder(byteorder)
        super().__init__(size, byteorder=byteorder, brightness=brightness, auto_write=False)

    def _transmit(self, buffer: bytearray) -> None:
        self.frames.append(bytes(buffer))
        self.transmitted += 1

    def shown(self) -> list[Colour]:
        """The last transmitted frame as (r, g, b) per LED, brightness already applied."""
        if not self.frames:
            return [OFF] * len(self)
        bpp, offsets, _, _ = self._order
        r, g, b = offsets[:3]
        frame = self.frames[-1]
        return [(frame[i + r], frame[i + g], frame[i + b]) for i in range(0, len(frame), bpp)]


def open_strip(settings: LedSettings) -> PixelBuf:
    """The strip a profile asks for, at its capped brightness."""
    brightness = min(settings.brightness, settings.max_brightness)
    if settings.driver == "recording":
        return RecordingStrip(
            settings.count, byteorder=settings.pixel_order, brightness=brightness
        )
    try:
        import board

        if settings.driver == "neopixel":
            import neopixel

            return neopixel.NeoPixel(
                getattr(board, settings.pin),
                settings.count,
                brightness=brightness,
                auto_write=False,
                pixel_order=settings.pixel_order,
            )
        import neopixel_spi

        return neopixel_spi.NeoPixel_SPI(
            board.SPI(),
            settings.count,
            brightness=brightness,
            auto_write=False,
            pixel_order=settings.pixel_order,
        )
    except ImportError as exc:
        extra = "pi-pwm" if settings.driver == "neopixel" else "pi"
        raise LedDriverUnavailable(
            f"the {settings.driver!r} LED driver is not installed here "
            f"(pip install 'tabletop[{extra}]'): {exc}"
        ) from None
    except (AttributeError, NotImplementedError, RuntimeError, OSError, ValueError) as exc:
        raise LedDriverUnavailable(
            f"cannot open the {settings.driver!r} LED strip on "
            f"{'SPI (GPIO10)' if settings.driver == 'neopixel_spi' else settings.pin}: {exc}"
        ) from None


def _is_colour(value: object) -> bool:
    return (
        isinstance(value, tuple | list)
        and len(value) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    )


def gamma_table(gamma: float) -> tuple[int, ...]:
    """Perceived-linear steps: LEDs look far too bright at low values without it."""
    return tuple(round(255 * (i / 255) ** gamma) for i in range(256))


class SiteLights:
    """Lights sites by name through a profile's site-to-LED mapping."""

    def __init__(self, strip: Any, settings: LedSettings) -> None:
        if len(strip) < settings.count:
            raise ValueError(f"the strip has {len(strip)} LEDs, the profile needs {settings.count}")
        self.strip = strip
        self.settings = settings
        self._gamma = gamma_table(settings.gamma)
        self._last: tuple[Colour, ...] | None = None
        self.pushes = 0
        self.set_brightness(settings.brightness)

    def set_brightness(self, value: float) -> None:
        """Brightness 0..1, never above the profile's max_brightness (the PSU budget)."""
        self.strip.brightness = max(0.0, min(value, self.settings.max_brightness))
        self._last = None  # the next show() must push the re-scaled frame

    def frame(self, colours: Mapping[str, Colour]) -> tuple[Colour, ...]:
        """The colour of every LED for these site colours (unlisted sites are dark)."""
        unknown = sorted(site for site in colours if site not in self.settings.sites)
        if unknown:
            raise UnknownSite(f"no LEDs under {', '.join(unknown)} in this profile")
        for site, colour in colours.items():
            if not _is_colour(colour):
                raise ValueError(f"colour for {site} must be (r, g, b) of 0..255, got {colour!r}")
        pixels = [OFF] * self.settings.count
        g = self._gamma
        for site, (r, gr, b) in colours.items():
            for index in self.settings.sites[site]:
                pixels[index] = (g[r], g[gr], g[b])
        return tuple(pixels)

    def show(self, colours: Mapping[str, Colour]) -> bool:
        """Push a frame if it differs from the last one; True when something was sent."""
        pixels = self.frame(colours)
        if pixels == self._last:
            return False
        for index, colour in enumerate(pixels):
            self.strip[index] = colour
        self.strip.show()
        self._last = pixels
        self.pushes += 1
        return True

    def off(self) -> bool:
        return self.show({})
