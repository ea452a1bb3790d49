"""Chip-select lines for many readers: one GPIO each, or through 16-channel multiplexers.

Both give the MFRC522 driver an object with ``value(v)``, like a ``machine.Pin``, so the driver
does not care how the board is wired. With multiplexers (74HC4067, docs/wiring.md) reader i is
channel ``i % 16`` of mux ``i // 16``: four shared address lines pick the channel, each mux
has its own active-low enable, and one GPIO drives the common pin low to select. The address
and enable stay set between accesses (the common pin high deselects), so the many register
accesses of one transaction toggle one pin each, as a direct chip select does; the address
lines only change when another reader is selected.
"""

CHANNELS = 16


class MuxBank:
    """The shared address lines, enables and common chip-select pin of all muxes."""

    def __init__(self, address_pins: list, enable_pins: list, signal_pin: object) -> None:
        if len(address_pins) != 4:
            raise ValueError("a 16-channel multiplexer needs exactly 4 address pins")
        self.address_pins = address_pins
        self.enable_pins = enable_pins
        self.signal_pin = signal_pin
        self.current = None  # the reader the address and enable lines point at
        signal_pin.value(1)
        for pin in enable_pins:
            pin.value(1)

    @property
    def capacity(self) -> int:
        return CHANNELS * len(self.enable_pins)

    def select(self, index: int) -> None:
        if index != self.current:
            if self.current is not None and self.current // CHANNELS != index // CHANNELS:
                self.enable_pins[self.current // CHANNELS].value(1)
            channel = index % CHANNELS
            for bit, pin in enumerate(self.address_pins):
                pin.value((channel >> bit) & 1)
            self.enable_pins[index // CHANNELS].value(0)
            self.current = index
        self.signal_pin.value(0)

    def release(self, index: int) -> None:
        self.signal_pin.value(1)  # the channel's chip select goes high: deselected


class MuxChannel:
    """Chip select of one reader behind a MuxBank; looks like a Pin to the driver."""

    def __init__(self, bank: MuxBank, index: int) -> None:
        if not 0 <= index < bank.capacity:
            raise ValueError(f"reader {index} is beyond the {bank.capacity} mux channels")
        self.bank = bank
        self.index = index

    def value(self, level: int) -> None:
        if level:
            self.bank.release(self.index)
        else:
            self.bank.select(self.index)


def chip_selects(config: object, make_pin: object) -> list:
    """The chip-select object of every reader, from config.py's wiring choice.

    make_pin(number) builds an output pin (``machine.Pin(n, Pin.OUT, value=1)`` on the
    device), so tests can pass recording fakes.
    """
    if config.CHIP_SELECT == "direct":
        return [make_pin(n) for n in config.CS_PINS]
    if config.CHIP_SELECT == "mux":
        bank = MuxBank(
            [make_pin(n) for n in config.MUX_ADDRESS_PINS],
            [make_pin(n) for n in config.MUX_ENABLE_PINS],
            make_pin(config.MUX_SIGNAL_PIN),
        )
        return [MuxChannel(bank, i) for i in range(config.READER_COUNT)]
    raise ValueError(f"CHIP_SELECT must be 'direct' or 'mux', not {config.CHIP_SELECT!r}")
