"""ISO/IEC 14443-3 type A as the tags see it: states, wake-up, anticollision, select, halt,
and what a reader hears when several tags in its field answer at once.

The model follows the standard's PICC state diagram (ISO/IEC 14443-3:2018, 6.3): a tag powers up
into IDLE; REQA wakes tags in IDLE only, WUPA also those in HALT; a woken tag is READY (READY*
when it came from HALT) and takes part in anticollision at cascade levels 1 to 3 until a
SELECT with its whole UID makes it ACTIVE (ACTIVE*); HLTA puts it in HALT. A command a state
does not expect sends the tag back to IDLE (or to HALT for the starred states), which is what
lets a reader check known tags one by one and then find only new ones with REQA.

Frames are lists of bits in air order (each byte least significant bit first; parity bits are
the reader chip's business and not modelled). Answers from several tags superpose bit by bit:
where they differ the reader sees a collision (Manchester coding makes it detectable at that
bit), and bits after it are lost, as on an MFRC522 with ValuesAfterColl cleared.

Timing: a tag answers only once its field has been on for ``power_up_us`` (the standard lets a
tag take up to 5 ms after an unmodulated field appears before it must accept a REQA, 14443-3
6.1). Written in the subset of Python MicroPython runs too: the firmware tests' register-level
fake chip uses this same model.
"""

REQA = 0x26
WUPA = 0x52
HLTA = 0x50
SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
SELECT_NVB = 0x70
"""NVB of a SELECT: seven whole bytes (SEL, NVB, four UID bytes, BCC) and then the CRC."""

NOISE = "noise"
"""What a receiver gets while another field nearby is on: no frame it can decode."""

POWER_UP_US = 5000
"""ISO/IEC 14443-3 6.1: a tag accepts a REQA at the latest 5 ms after the field appears."""

POWER_OFF = "POWER_OFF"
IDLE = "IDLE"
READY = "READY"
ACTIVE = "ACTIVE"
HALT = "HALT"
READY_STAR = "READY*"
ACTIVE_STAR = "ACTIVE*"


def crc_a(data):
    """ISO 14443-3 CRC_A (initial 0x6363), low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def to_bits(data, count=None):
    """Bytes to air-order bits (LSB first); ``count`` keeps only the first bits."""
    bits = [(byte >> k) & 1 for byte in data for k in range(8)]
    return bits if count is None else bits[:count]


def to_bytes(bits):
    """Air-order bits back to bytes; a last partial byte is padded with zeros."""
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def from_bits_aligned(bits, align):
    """Received bits as a reader chip stores them: the first bit at position ``align`` of the
    first byte (MFRC522 RxAlign). Returns (bytes, valid bits in the last byte, 0 for 8)."""
    data = to_bytes([0] * align + list(bits))
    return data, (align + len(bits)) % 8


def cascade_levels(uid):
    """The 4-byte UID CLn of each cascade level: 4-byte UIDs have one, 7-byte two, 10-byte
    three; every level but the last starts with the cascade tag 0x88."""
    uid = bytes(uid)
    if len(uid) == 4:
        return [uid]
    if len(uid) == 7:
        return [bytes((CASCADE_TAG,)) + uid[:3], uid[3:]]
    if len(uid) == 10:
        return [bytes((CASCADE_TAG,)) + uid[:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:]]
    raise ValueError(f"a type A UID has 4, 7 or 10 bytes, not {len(uid)}")


def _with_bcc(four):
    return bytes(four) + bytes((four[0] ^ four[1] ^ four[2] ^ four[3],))


class Tag:
    """One type A tag (an NTAG sticker, a MIFARE Ultralight): its UID and its state."""

    def __init__(self, uid, power_up_us=POWER_UP_US):
        self.uid = bytes(uid)
        self.levels = cascade_levels(self.uid)
        self.power_up_us = power_up_us
        self.state = POWER_OFF
        self.level = 0
        self.powered_at = None

    def atqa(self):
        """ATQA: bit frame anticollision (bit 2 set) and the UID size in bits 6-7."""
        size = (0x00, 0x40, 0x80)[len(self.levels) - 1]
        return bytes((size | 0x04, 0x00))

    # -- the field ------------------------------------------------------------------------

    def field_on(self, now_us):
        if self.state == POWER_OFF and self.powered_at is None:
            self.powered_at = now_us

    def field_off(self):
        self.state, self.powered_at, self.level = POWER_OFF, None, 0

    def ready_to_answer(self, now_us):
        if self.powered_at is None:
            return False
        if self.state == POWER_OFF and now_us - self.powered_at >= self.power_up_us:
            self.state = IDLE
        return self.state != POWER_OFF

    # -- commands -------------------------------------------------------------------------

    def hear(self, bits):
        """Answer a frame (air-order bits) as the standard says: bits, or None for silence."""
        starred = self.state in (READY_STAR, ACTIVE_STAR, HALT)
        fallback = HALT if starred else IDLE
        if len(bits) == 7:  # a short frame: REQA or WUPA
            command = to_bytes(bits)[0]
            if command == WUPA and self.state in (IDLE, HALT):
                self.state, self.level = (READY_STAR if self.state == HALT else READY), 0
                return to_bits(self.atqa())
            if command == REQA and self.state == IDLE:
                self.state, self.level = READY, 0
                return to_bits(self.atqa())
            if self.state not in (IDLE, HALT):
                self.state = fallback
            return None
        data = to_bytes(bits)
        if self.state in (IDLE, HALT) or self.state == POWER_OFF:
            return None
        if len(bits) == 32 and data[:2] == bytes((HLTA, 0)) and data[2:] == crc_a(data[:2]):
            if self.state in (ACTIVE, ACTIVE_STAR):
                self.state = HALT
                return None
            self.state = fallback
            return None
        if self.state in (READY, READY_STAR) and len(bits) >= 16 and data[0] in SEL:
            return self._select(bits, data, fallback)
        self.state = fallback
        return None

    def _select(self, bits, data, fallback):
        if SEL.index(data[0]) != self.level:
            self.state = fallback
            return None
        mine = to_bits(_with_bcc(self.levels[self.level]))
        nvb = data[1]
        if nvb == SELECT_NVB:
            if len(bits) != 72 or data[7:] != crc_a(data[:7]) or bits[16:56] != mine:
                self.state = fallback
                return None
            last = self.level == len(self.levels) - 1
            sak = bytes((0x00 if last else 0x04,))  # bit 3: UID not complete
            if last:
                self.state = ACTIVE_STAR if self.state == READY_STAR else ACTIVE
            else:
                self.level += 1
            return to_bits(sak + crc_a(sak))
        known = (nvb >> 4) * 8 + (nvb & 0x0F) - 16
        if not 0 <= known < 40 or len(bits) != 16 + known:
            self.state = fallback
            return None
        if bits[16:] != mine[:known]:
            return None  # anticollision: not my prefix, so stay READY and keep quiet
        return mine[known:]


class Field:
    """The tags in one reader's field, answering together."""

    def __init__(self, tags=()):
        self.tags = list(tags)
        self.on = False
        self.on_since = None

    def switch(self, on, now_us):
        """Turn the field on or off; tags lose power (and their state) when it goes off."""
        if on and not self.on:
            self.on_since = now_us
            for tag in self.tags:
                tag.field_on(now_us)
        elif not on and self.on:
            for tag in self.tags:
                tag.field_off()
        self.on = on

    def enter(self, tag, now_us):
        """A tag comes into the field (laid down): it powers up from now."""
        self.tags.append(tag)
        tag.field_off()
        if self.on:
            tag.field_on(now_us)

    def leave(self, tag):
        self.tags.remove(tag)
        tag.field_off()

    def exchange(self, bits, now_us):
        """Send a frame; returns (answer bits, collision index or None), or (None, None) when
        nobody answered. A collision index is where the first differing bit was; the answer
        stops there."""
        if not self.on:
            return None, None
        answers = []
        for tag in self.tags:
            if tag.ready_to_answer(now_us):
                answer = tag.hear(bits)
                if answer is not None:
                    answers.append(answer)
        if not answers:
            return None, None
        return superpose(answers)


def superpose(answers):
    """What a reader hears from several answers at once: the common bits up to the first
    place where they differ (a collision there), or the whole answer if they agree."""
    first = answers[0]
    length = max(len(answer) for answer in answers)
    for i in range(length):
        values = set()
        for answer in answers:
            values.add(answer[i] if i < len(answer) else None)
        if len(values) > 1:
            return first[:i], i
    return list(first), None
