"""MFRC522 over SPI: just enough to read ISO 14443-A UIDs fast (4, 7 or 10 bytes), one tag or
every tag in the field.

Implements the reader interface that hub.py expects: ``version()``, ``init()``,
``antenna(on)`` and ``inventory(known)``, every tag in the field (a stack of tiles, a tower),
also in three parts (``check``, ``request``, ``collect``) so the hub can overlap the waits of
a class of readers; ``checking`` is ``check`` as a generator that yields while each frame is
on the air, so the hub can work the other readers' checks meanwhile.
Every scan wakes tags with WUPA and puts them back to sleep with HLTA, so a tag that stays on
the reader answers again next scan. A UID the hub already knows is only SELECTed
(no anticollision), which is the common, cheap case. New tags are found with REQA, which halted
tags ignore, and the bit-oriented anticollision of ISO/IEC 14443-3 (6.5.3): at each bit where
the answers collide the driver picks the tags with a 1 there and walks on, one UID at a time.

A dead or missing chip never hangs the loop: every wait has a deadline and raises
``ReaderBusError`` (an OSError), which the hub counts and reports as a reader fault.
"""

import time

# Registers (datasheet section 9).
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# PCD commands.
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# PICC commands.
REQA = 0x26
WUPA = 0x52
SELECT = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
HLTA = 0x50

MAX_TAGS = 16
"""The most tags one inventory reads (a Hanging Gardens field covered again and again in a
long game holds a dozen cards; On Top's towers four stones)."""
TIMER_TICKS = 20  # 20 x 25 us = 0.5 ms: an ISO 14443-A tag answers within ~0.1 ms
DEADLINE_US = 5000  # longest we wait for the chip itself before calling it a bus fault


def _bits(data: bytes) -> list:
    """Air order: each byte least significant bit first."""
    return [(byte >> k) & 1 for byte in data for k in range(8)]


def _pack(bits: list) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def crc_a(data: bytes) -> bytes:
    """ISO 14443-3 CRC_A, low byte first. In Python it is faster than asking the chip
    (about a dozen SPI transfers) for the 7-byte frames we send."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes((crc & 0xFF, (crc >> 8) & 0xFF))


class ReaderBusError(OSError):
    """The chip did not behave like an MFRC522 (no IRQ, all-ones registers)."""


class Mfrc522:
    def __init__(self, spi: object, cs: object, clock: object = time) -> None:
        self.spi = spi
        self.cs = cs
        self.clock = clock
        self._two = bytearray(2)
        cs.value(1)

    # -- register access (one chip-select cycle each) ----------------------------------------

    def write(self, reg: int, value: int) -> None:
        self.cs.value(0)
        try:
            self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        finally:
            self.cs.value(1)

    def read(self, reg: int) -> int:
        self.cs.value(0)
        try:
            self.spi.write_readinto(bytes((((reg << 1) & 0x7E) | 0x80, 0)), self._two)
        finally:
            self.cs.value(1)
        return self._two[1]

    def write_fifo(self, data: bytes) -> None:
        """All bytes in one burst: the chip keeps writing to the address it was given."""
        self.cs.value(0)
        try:
            self.spi.write(bytes(((FIFO_DATA << 1) & 0x7E,)) + bytes(data))
        finally:
            self.cs.value(1)

    def read_fifo(self, count: int) -> bytes:
        """`count` FIFO bytes in one burst: each address byte clocks out the previous read."""
        address = ((FIFO_DATA << 1) & 0x7E) | 0x80
        answer = bytearray(count + 1)
        self.cs.value(0)
        try:
            self.spi.write_readinto(bytes([address] * count + [0]), answer)
        finally:
            self.cs.value(1)
        return bytes(answer[1:])

    def _set_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) | mask)

    # -- the hub's reader interface -------------------------------------------------------

    def version(self) -> int:
        return self.read(VERSION)

    def init(self, antenna: bool = True) -> None:
        """Reset and configure the chip; ``antenna``: switch the field on at the end (a hub with
        a field schedule keeps it off, so a reader probed mid-scan never garbles another
        hub's slot)."""
        self.write(COMMAND, SOFT_RESET)
        deadline = self.clock.ticks_add(self.clock.ticks_us(), 50_000)
        while self.read(COMMAND) & 0x10:  # PowerDown bit clears when the reset is done
            if self.clock.ticks_diff(deadline, self.clock.ticks_us()) < 0:
                raise ReaderBusError("MFRC522 did not come out of soft reset")
        self.write(T_MODE, 0x80)  # timer starts automatically at the end of each transmission
        self.write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 169 + 1) = 40 kHz: 25 us per tick
        self.write(T_RELOAD_H, TIMER_TICKS >> 8)
        self.write(T_RELOAD_L, TIMER_TICKS & 0xFF)
        self.write(TX_ASK, 0x40)  # 100 % ASK modulation
        self.write(MODE, 0x3D)  # CRC preset 0x6363 (ISO 14443-3 CRC_A)
        self.write(RF_CFG, 0x48)  # receiver gain 33 dB: short range, so neighbours are not read
        if antenna:
            self._set_bits(TX_CONTROL, 0x03)  # antenna on, and it stays on

    def antenna(self, on: bool) -> None:
        """Switch the field on or off (a hub with a field schedule keeps only one class on)."""
        value = self.read(TX_CONTROL)
        self.write(TX_CONTROL, value | 0x03 if on else value & ~0x03)

    def inventory(self, known: tuple = ()) -> list:
        """Every tag in the field: each ``known`` UID is checked (WUPA, SELECT, HLTA; a miss
        is checked once more at once before it counts), then REQA, which the halted tags
        ignore, finds the new ones one by one until nobody answers."""
        present = self.check(known)
        self.request()
        return self.collect(present)

    # The three parts of ``inventory``, for a hub that reads a class of readers at once: it
    # checks each reader's known tags and starts its REQA, then collects the answers, so the
    # REQA that nobody answers (a timeout per reader per scan) waits while the others work.

    def check(self, known: tuple = ()) -> list:
        """The ``known`` UIDs still in the field (each checked twice before it counts as
        missing)."""
        steps = self.checking(known)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value

    def checking(self, known: tuple = ()):
        """``check`` one frame at a time: it yields each time a frame is on the air (WUPA,
        SELECT, HLTA: most of a check is air time at 106 kbit/s) and returns the UIDs still
        there. A hub drives one of these per reader of a class in turn, so the readers'
        frames fly side by side."""
        present = []
        for uid in known:
            for _ in range(2):
                woken = yield from self._exchanging(bytes((WUPA,)), 7, True)
                if woken and (yield from self._selecting(uid)):
                    frame = bytes((HLTA, 0x00))
                    yield from self._exchanging(frame + crc_a(frame), 0, False)
                    present.append(bytes(uid))
                    break
        return present

    def _exchanging(self, data: bytes, last_bits: int, answer_expected: bool):
        """``_send`` as a generator: the frame is started, then (after the yield) waited
        for."""
        self._start(data, last_bits, 0)
        yield
        return self._wait(answer_expected)

    def _selecting(self, uid: bytes):
        """SELECT a known UID, cascade level by cascade level (a generator, as above)."""
        n = len(uid)
        if n == 4:
            parts = (uid,)
        elif n == 7:
            parts = (bytes((CASCADE_TAG,)) + uid[:3], uid[3:])
        elif n == 10:
            parts = (bytes((CASCADE_TAG,)) + uid[:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:])
        else:
            return False
        for level, four in enumerate(parts):
            bcc = four[0] ^ four[1] ^ four[2] ^ four[3]
            frame = bytes((SELECT[level], 0x70)) + bytes(four) + bytes((bcc,))
            if not (yield from self._exchanging(frame + crc_a(frame), 0, True)):
                return False
            if self.read(ERROR) & 0x1B or self.read(FIFO_LEVEL) != 3:
                return False
            self.read_fifo(3)
        return True

    def request(self) -> None:
        """Send a REQA and return at once; ``collect`` waits for its answer."""
        self._start(bytes((REQA,)), 7, 0)

    def collect(self, present: list) -> list:
        """The answer to ``request``, then every new tag one by one: anticollision, HLTA and
        another REQA until nobody answers. Returns ``present`` with the new UIDs added."""
        answered = self._wait(True)
        for _ in range(MAX_TAGS - len(present)):
            if not answered:
                break
            uid = self._anticollision()
            if uid is None:
                break  # a garbled answer: the next scan tries again
            self._halt()
            if uid not in present:
                present.append(uid)
            answered = self._request(REQA)
        return present

    # -- ISO 14443-3 ----------------------------------------------------------------------

    def _transceive(self, data: bytes, answer_expected: bool = True) -> bytes | None:
        """Send a frame of whole bytes and return the answer, or None if no tag answered in
        time or the answer was garbled.

        With answer_expected=False (HLTA) it returns as soon as the frame is sent: waiting
        for the timer to prove the silence would cost a timeout per reader per scan."""
        if not self._send(data, 0, answer_expected):
            return None
        if self.read(ERROR) & 0x1B:  # buffer overflow, collision, parity or protocol error
            return None
        return self.read_fifo(self.read(FIFO_LEVEL))

    def _request(self, command: int) -> bool:
        """REQA or WUPA (a 7-bit short frame): did any tag answer? Differing ATQAs of several
        tags collide, and that still means tags are there."""
        return self._send(bytes((command,)), 7, True)

    def _transceive_bits(self, bits: list) -> tuple:
        """Send a bit-oriented anticollision frame; returns (answer bits up to the first
        collision, the collision's index or None), or (None, None) for silence or noise."""
        extra = len(bits) % 8
        if not self._send(_pack(bits), extra, True, extra):
            return None, None
        error = self.read(ERROR)
        if error & 0x13:  # buffer overflow, parity or protocol error: noise, not tags
            return None, None
        count = self.read(FIFO_LEVEL)
        rx_last = self.read(CONTROL) & 0x07
        received = _bits(self.read_fifo(count))[extra:]
        if rx_last:
            received = received[: count * 8 - (8 - rx_last) - extra]
        if not error & 0x08:
            return received, None
        coll = self.read(COLL)
        if coll & 0x20:  # CollPosNotValid: beyond the 32 bits a position can name
            return None, None
        position = (coll & 0x1F) or 32
        return received[: position - 1], position - 1

    def _send(self, data: bytes, last_bits: int, answer_expected: bool, align: int = 0) -> bool:
        """Transceive ``data`` (``last_bits`` valid in its last byte; the answer's first bit
        stored at bit ``align``): True when an answer came, False for silence or a sent HLTA.
        """
        self._start(data, last_bits, align)
        return self._wait(answer_expected)

    def _start(self, data: bytes, last_bits: int, align: int) -> None:
        self.write(COMMAND, IDLE)
        self.write(COM_IRQ, 0x7F)
        self.write(FIFO_LEVEL, 0x80)
        self.write_fifo(data)
        self.write(COMMAND, TRANSCEIVE)
        self.write(BIT_FRAMING, 0x80 | (align << 4) | last_bits)  # StartSend

    def _wait(self, answer_expected: bool) -> bool:
        deadline = self.clock.ticks_add(self.clock.ticks_us(), DEADLINE_US)
        while True:
            irq = self.read(COM_IRQ)
            if irq == 0xFF:
                raise ReaderBusError("MFRC522 reads all ones: MISO stuck high")
            if not answer_expected and irq & 0x40:  # TxIRq: the frame is out
                self.write(COMMAND, IDLE)
                return False
            if irq & 0x30:  # RxIRq or IdleIRq: an answer came
                return True
            if irq & 0x01:  # TimerIRq: nobody answered
                return False
            if self.clock.ticks_diff(deadline, self.clock.ticks_us()) < 0:
                raise ReaderBusError("MFRC522 never finished a transceive")

    def _select(self, level: int, four: bytes) -> int | None:
        """SELECT one cascade level with its four UID bytes; returns SAK or None."""
        bcc = four[0] ^ four[1] ^ four[2] ^ four[3]
        frame = bytes((SELECT[level], 0x70)) + bytes(four) + bytes((bcc,))
        answer = self._transceive(frame + crc_a(frame))
        if answer is None or len(answer) != 3:
            return None
        return answer[0]

    def _anticollision(self) -> bytes | None:
        """One UID among the woken tags: per cascade level, walk the 40 bits (4 UID bytes and
        BCC), taking the 1 branch at each collision, then SELECT it."""
        uid = b""
        for level in range(3):
            self.write(COLL, 0x80)  # clear ValuesAfterColl
            known = []
            while len(known) < 40:
                n = len(known)
                nvb = ((2 + n // 8) << 4) | (n % 8)
                answer, collision = self._transceive_bits(
                    _bits(bytes((SELECT[level], nvb))) + known)
                if answer is None:
                    return None
                known += answer
                if collision is None:
                    break
                known.append(1)
            if len(known) != 40:
                return None
            answer = _pack(known)
            if answer[0] ^ answer[1] ^ answer[2] ^ answer[3] != answer[4]:
                return None
            sak = self._select(level, answer[:4])
            if sak is None:
                return None
            if sak & 0x04:  # UID not complete: a cascade tag, then three more bytes
                uid += answer[1:4]
            else:
                return uid + answer[:4]
        return None

    def _halt(self) -> None:
        frame = bytes((HLTA, 0x00))
        self._transceive(frame + crc_a(frame), answer_expected=False)  # a halted tag is silent
