"""A register-level MFRC522 with an ISO 14443-A tag model, for testing the real driver.

It implements what firmware/mfrc522.py uses: soft reset, FIFO, Transceive with the timer,
CalcCRC, the IRQ registers and the version register; and a tag that follows the
IDLE/READY/ACTIVE/HALT states with cascade levels for 4, 7 and 10 byte UIDs.
"""

COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
BIT_FRAMING = 0x0D
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
VERSION = 0x37
SELECT = (0x93, 0x95, 0x97)


def crc_a(data):
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


class FakeTag:
    def __init__(self, uid):
        self.uid = bytes(uid)
        if len(uid) == 4:
            self.levels = [self.uid]
        elif len(uid) == 7:
            self.levels = [b"\x88" + self.uid[:3], self.uid[3:]]
        else:
            self.levels = [b"\x88" + self.uid[:3], b"\x88" + self.uid[3:6], self.uid[6:]]
        self.state = "IDLE"
        self.level = 0

    def respond(self, frame):
        if frame == b"\x52":  # WUPA
            if self.state in ("IDLE", "HALT"):
                self.state, self.level = "READY", 0
                return b"\x44\x00" if len(self.uid) > 4 else b"\x04\x00"
            return None
        if len(frame) == 4 and frame[:2] == b"\x50\x00" and frame[2:] == crc_a(frame[:2]):
            self.state = "HALT"
            return None
        if self.state != "READY" or not frame or frame[0] not in SELECT:
            return None
        level = SELECT.index(frame[0])
        if level != self.level:
            self.state = "IDLE"
            return None
        four = self.levels[level]
        bcc = four[0] ^ four[1] ^ four[2] ^ four[3]
        if frame[1:] == b"\x20":
            return four + bytes((bcc,))
        if len(frame) == 9 and frame[1] == 0x70 and frame[7:] == crc_a(frame[:7]):
            if frame[2:7] != four + bytes((bcc,)):
                self.state = "IDLE"
                return None
            last = level == len(self.levels) - 1
            sak = bytes((0x08 if last else 0x04,))
            if last:
                self.state = "ACTIVE"
            else:
                self.level += 1
            return sak + crc_a(sak)
        self.state = "IDLE"
        return None


class FakeChip:
    def __init__(self, version=0x92, dead=False):
        self.version_register = version
        self.dead = dead
        self.tag = None
        self.regs = {}
        self.fifo = []
        self.transceives = 0
        self.soft_resets = 0
        self._reset()

    def _reset(self):
        self.regs = {VERSION: self.version_register, COMMAND: 0x30}  # PowerDown while resetting
        self.fifo = []

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
        frame = bytes(self.fifo)
        self.fifo = []
        answer = self.tag.respond(frame) if self.tag is not None else None
        self.regs[ERROR] = 0
        irq = self.regs.get(COM_IRQ, 0) | 0x40  # TxIRq: the frame went out
        if answer is None:
            self.regs[COM_IRQ] = irq | 0x01  # TimerIRq: silence
        else:
            self.fifo = list(answer)
            self.regs[COM_IRQ] = irq | 0x30
