"""A register-level MFRC522 whose antenna field holds ISO 14443-A tags: the chip the real
driver (firmware/mfrc522.py) talks to in the firmware's tests under MicroPython and in the
simulator's radio.

It implements what the driver uses: soft reset, FIFO, Transceive with the timer and
bit-oriented frames (TxLastBits, RxAlign, RxLastBits), the collision registers, CalcCRC, the IRQ
registers, the antenna switch and the version register (MFRC522 data sheet rev. 3.9, section 9).
The field is an ``iso14443.Field`` (or any object with its ``switch`` and ``exchange``, such as
one antenna of ``simulator.radio.Radio``): several tags answer together and collide bit by bit
as real ones do. Written in the subset of Python MicroPython runs too.
"""

try:
    from simulator.iso14443 import NOISE, Field, Tag, crc_a, from_bits_aligned, to_bits
except ImportError:  # under MicroPython the two files lie side by side
    from iso14443 import NOISE, Field, Tag, crc_a, from_bits_aligned, to_bits

COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
TX_CONTROL = 0x14
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
VERSION = 0x37


def ready_tag(uid):
    """A tag that answers at once (power-up time is tested on its own)."""
    return Tag(uid, 0)


class _Clock:
    """Chip time when the test gives none: a microsecond per register access."""

    def __init__(self):
        self.us = 0

    def ticks_us(self):
        self.us += 1
        return self.us


class VirtualChip:
    def __init__(self, version=0x92, dead=False, clock=None, field=None):
        self.version_register = version
        self.dead = dead
        self.clock = clock or _Clock()
        self.field = field if field is not None else Field()
        self.regs = {}
        self.fifo = []
        self.transceives = 0
        self.soft_resets = 0
        self._reset()

    def _reset(self):
        self.regs = {VERSION: self.version_register, COMMAND: 0x30}  # PowerDown while resetting
        self.fifo = []
        self.field.switch(False, self.clock.ticks_us())  # TxControl resets: antenna off

    @property
    def tag(self):
        """The one tag in the field (None for none); assigning replaces all of them."""
        return self.field.tags[0] if self.field.tags else None

    @tag.setter
    def tag(self, tag):
        for old in list(self.field.tags):
            self.field.leave(old)
        if tag is not None:
            self.put(tag)

    def put(self, tag):
        self.field.enter(tag, self.clock.ticks_us())

    def take(self, tag):
        self.field.leave(tag)

    # -- SPI ------------------------------------------------------------------------------

    def spi_write(self, data):
        """A write transfer: address byte, then data bytes all for that register."""
        if self.dead:
            return
        reg = (data[0] >> 1) & 0x3F
        for value in data[1:]:
            self.write(reg, value)

    def spi_transfer(self, data):
        """A read transfer: each address byte clocks out the register asked for before it."""
        answer = [0]
        for address in data[:-1]:
            answer.append(0 if self.dead else self.read((address >> 1) & 0x3F))
        return bytes(answer)

    # -- registers ------------------------------------------------------------------------

    def read(self, reg):
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        if reg == COMMAND:
            value = self.regs.get(COMMAND, 0)
            self.regs[COMMAND] = value & ~0x10 & 0xFF  # the reset finishes after one look
            return value
        return self.regs.get(reg, 0)

    def write(self, reg, value):
        if reg in (COM_IRQ, DIV_IRQ):
            old = self.regs.get(reg, 0)
            self.regs[reg] = (old | (value & 0x7F)) if value & 0x80 else (old & ~value & 0x7F)
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo = []
        elif reg == FIFO_DATA:
            self.fifo.append(value)
        elif reg == COMMAND:
            self._command(value & 0x0F)
        elif reg == TX_CONTROL:
            self.regs[reg] = value
            self.field.switch(value & 0x03 == 0x03, self.clock.ticks_us())
        elif reg == BIT_FRAMING:
            self.regs[reg] = value & 0x7F
            if value & 0x80 and self.regs.get(COMMAND, 0) & 0x0F == 0x0C:
                self._transceive()
        else:
            self.regs[reg] = value

    def _command(self, command):
        if command == 0x0F:
            self.soft_resets += 1
            self._reset()
            return
        self.regs[COMMAND] = command
        if command == 0x03:  # CalcCRC
            crc = crc_a(bytes(self.fifo))
            self.fifo = []
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = crc[0], crc[1]
            self.regs[DIV_IRQ] = self.regs.get(DIV_IRQ, 0) | 0x04

    def _transceive(self):
        self.transceives += 1
        framing = self.regs.get(BIT_FRAMING, 0)
        last_bits = framing & 0x07
        frame = bytes(self.fifo)
        self.fifo = []
        bits = to_bits(frame, len(frame) * 8 - (8 - last_bits if last_bits else 0))
        answer, collision = self.field.exchange(bits, self.clock.ticks_us())
        self.regs[ERROR] = 0
        irq = self.regs.get(COM_IRQ, 0) | 0x40  # TxIRq: the frame went out
        if answer is None:
            self.regs[COM_IRQ] = irq | 0x01  # TimerIRq: silence
            return
        if answer is NOISE:  # another field nearby: the receiver decodes garbage
            self.regs[ERROR] = 0x01  # ProtocolErr
            self.regs[COM_IRQ] = irq | 0x30
            return
        align = (framing >> 4) & 0x07
        data, rx_last = from_bits_aligned(answer, align)
        self.fifo = list(data)
        control = self.regs.get(CONTROL, 0) & ~0x07
        self.regs[CONTROL] = control | rx_last
        if collision is not None:
            self.regs[ERROR] = 0x08  # CollErr
            position = collision + 1  # CollPos counts received bits from 1
            self.regs[COLL] = (position & 0x1F) if position <= 32 else 0x20  # 32 reads as 0
        self.regs[COM_IRQ] = irq | 0x30


class ChipBus:
    """The SPI bus and chip select the driver sees, wired to one chip: the driver's
    ``spi.write`` and ``spi.write_readinto`` become the chip's transfers."""

    def __init__(self, chip):
        self.chip = chip

    def value(self, level=None):
        return 1

    def write(self, data):
        self.chip.spi_write(data)

    def write_readinto(self, data, buffer):
        buffer[:] = self.chip.spi_transfer(data)
