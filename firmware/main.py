"""Boot entry of the reader hub: builds the hardware from config.py and runs the Hub forever.

Copied to the board as main.py (docs/firmware.md). Everything testable lives in hub.py,
protocol.py, mfrc522.py, chip_select.py and slot_line.py; this file only wires real pins to them.
"""

import time

import config
import machine
import micropython
from chip_select import chip_selects
from hub import Hub
from mfrc522 import Mfrc522
from usb_serial import UsbSerial


def build_hub() -> Hub:
    spi = machine.SPI(
        config.SPI_ID,
        baudrate=config.SPI_BAUDRATE,
        polarity=0,
        phase=0,
        sck=machine.Pin(config.SPI_SCK),
        mosi=machine.Pin(config.SPI_MOSI),
        miso=machine.Pin(config.SPI_MISO),
    )
    reset = machine.Pin(config.RESET_PIN, machine.Pin.OUT, value=0)
    time.sleep_ms(5)
    reset.value(1)  # wake every reader from hard power-down
    time.sleep_ms(50)

    def make_pin(number: int) -> machine.Pin:
        return machine.Pin(number, machine.Pin.OUT, value=1)

    readers = [Mfrc522(spi, cs) for cs in chip_selects(config, make_pin)]
    schedule = config.FIELD_CLASSES
    return Hub(
        readers,
        UsbSerial(),
        time,
        config.FIRMWARE_VERSION,
        miss_limit=config.MISS_LIMIT,
        scan_pause_ms=config.SCAN_PAUSE_MS,
        heartbeat_ms=config.HEARTBEAT_MS,
        retry_ms=config.RETRY_MS,
        hub_id=machine.unique_id(),  # the flash chip's 8-byte id: tells several hubs apart
        schedule=schedule,
        power_up_ms=config.POWER_UP_MS,
        sync=build_slot_line(len(schedule) if schedule else 1),
    )


def build_slot_line(slots: int) -> object:
    """The wires to the table's other hubs (SlotLine), or None when SLOT_PINS is not set (a
    config.py from before the slot line has no SLOT_PINS: one hub)."""
    pins = getattr(config, "SLOT_PINS", None)
    if not pins:
        return None
    from slot_line import SlotLine

    def make_line(number: int) -> machine.Pin:
        return machine.Pin(number, machine.Pin.OPEN_DRAIN, value=1)  # 1 lets the line go

    return SlotLine(pins, slots, time, timeout_ms=getattr(config, "SLOT_TIMEOUT_MS", 1000),
                    make_pin=make_line)


def safe_mode() -> bool:
    """Jumper SAFE_MODE_PIN to ground to get the REPL instead of the hub (to reflash)."""
    pin = machine.Pin(config.SAFE_MODE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0


def run() -> None:
    if safe_mode():
        print("tabletop hub: safe mode, not scanning")
        return
    time.sleep_ms(config.BOOT_GRACE_MS)  # mpremote can still interrupt with Ctrl-C here
    micropython.kbd_intr(-1)  # from now on frames may contain 0x03 (Ctrl-C)
    hub = build_hub()
    watchdog = machine.WDT(timeout=config.WATCHDOG_MS) if config.WATCHDOG_MS else None
    hub.boot()
    while True:
        try:
            hub.step()
        except Exception:  # a bug must not silence the table: count it as a missed scan
            hub.missed_reads += 1
        if watchdog is not None:
            watchdog.feed()
        if hub.scan_pause_ms:
            time.sleep_ms(hub.scan_pause_ms)


if __name__ == "__main__":
    run()
