"""A `machine` module shim: Pins that remember their level, an SPI bus that routes bytes to
whichever fake chip's chip-select pin is low, and a watchdog that does nothing."""

PINS = {}
LEVELS = {}  # pin number -> level an input reads (set by tests)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, number, mode=None, pull=None, value=None):
        self.number = number
        self.level = 1 if value is None else value
        if number in LEVELS:  # what the test wired to this pin (a jumper to ground, ...)
            self.level = LEVELS[number]
        self.history = []
        PINS[number] = self

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        self.history.append(self.level)
        return None


UNIQUE_ID = b"\xe6\x61\x41\x04\x03\x2b\x5c\x2c"


def unique_id():
    """The flash chip's id, as the RP2040 port reports it (8 bytes)."""
    return UNIQUE_ID


CHIPS = {}  # chip-select pin number -> fake chip on the bus


class SPI:

    def __init__(self, bus_id, **settings):
        self.bus_id = bus_id
        self.settings = settings

    def _selected(self):
        chosen = [chip for n, chip in CHIPS.items() if n in PINS and PINS[n].level == 0]
        return chosen[0] if len(chosen) == 1 else None

    def write(self, data):
        chip = self._selected()
        if chip is not None:
            chip.spi_write(data)

    def write_readinto(self, data, buffer):
        chip = self._selected()
        answer = chip.spi_transfer(data) if chip is not None else bytes(len(data))
        for i in range(len(buffer)):
            buffer[i] = answer[i]


class WDT:
    def __init__(self, timeout=0):
        self.timeout = timeout

    def feed(self):
        pass
