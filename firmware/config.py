"""Wiring and scan settings of one hub: the only file a maker edits before flashing.

Pin numbers are RP2040 GPIO numbers (GPn on a Raspberry Pi Pico). See docs/wiring.md.
"""

FIRMWARE_VERSION = "tabletop-hub 4.0.0"  # protocol 4: readers watched

# SPI bus shared by every reader (SPI0 on the Pico's default pins).
SPI_ID = 0
SPI_SCK = 18
SPI_MOSI = 19
SPI_MISO = 16
SPI_BAUDRATE = 4_000_000  # the MFRC522 takes up to 10 MHz; 4 MHz is safe on long ribbon cables
RESET_PIN = 15  # one shared, active-low RST line for all readers

# "direct": one chip-select GPIO per reader, listed in reader order (reader 0 first).
# "mux": readers behind 74HC4067 multiplexers, reader i = channel i % 16 of mux i // 16.
CHIP_SELECT = "direct"
CS_PINS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]  # Tiki Topple: 10 readers
MUX_ADDRESS_PINS = [2, 3, 4, 5]  # S0..S3, shared by every mux
MUX_ENABLE_PINS = [6, 7, 8, 9]  # one active-low EN per mux: 4 muxes = up to 64 readers
MUX_SIGNAL_PIN = 17  # drives every mux's common pin (SIG) low to select
READER_COUNT = 64  # used with "mux" only; "direct" counts CS_PINS

# Field schedule: lists of reader numbers whose fields are on together, every reader in one
# list; None keeps every field on (fine when the antennas sit far apart). `tabletop bench hub`
# and docs/wiring.md explain; the classes come from the board's site coordinates.
FIELD_CLASSES = None
POWER_UP_MS = 5  # a tag may take this long after its field comes on (ISO/IEC 14443-3: 5 ms)

# Slot line: on a table with several hubs, the four open-drain wires that keep every hub in the
# same slot of FIELD_CLASSES (docs/wiring.md, "Several hubs"): GPIO numbers of P0, P1, P2 and
# FRAME, e.g. (10, 11, 12, 13), the same on every hub; None on a table with one hub.
SLOT_PINS = None
SLOT_TIMEOUT_MS = 1000  # a hub that keeps the others waiting this long is left out (stuck, off)

# A tag is gone after this many scans in a row without it. Each scan already checks a missing
# tag twice at once (the debounce), so 1 reports a lift on the next scan and the table answers
# fast; raise it on a board whose tags flicker (the table then waits as many scans to judge).
MISS_LIMIT = 1
SCAN_PAUSE_MS = 0  # pause between full scans; 0 = scan as fast as the readers allow
HEARTBEAT_MS = 1000
RETRY_MS = 2000  # how often a faulty reader is probed again
SAFE_MODE_PIN = 22  # held to GND at power-up: stay in the REPL (for mpremote), do not scan
BOOT_GRACE_MS = 2000  # Ctrl-C still works this long after power-up
WATCHDOG_MS = 8000  # reboot if the main loop ever stalls this long (0 = no watchdog)
