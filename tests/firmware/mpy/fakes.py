"""MicroPython-side fakes for the hub's three interfaces: readers, port and clock."""


class FakeClock:
    """Time that moves only when the test says so (plus a tiny step per reading)."""

    def __init__(self):
        self.us = 0

    def advance_ms(self, ms):
        self.us += ms * 1000

    def ticks_ms(self):
        return self.us // 1000

    def ticks_us(self):
        self.us += 1
        return self.us

    def ticks_add(self, ticks, delta):
        return ticks + delta

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.us += ms * 1000


class FakePort:
    def __init__(self):
        self.inbox = bytearray()
        self.outbox = bytearray()

    def read(self):
        data = bytes(self.inbox)
        self.inbox = bytearray()
        return data

    def write(self, data):
        self.outbox.extend(data)

    def take(self):
        data = bytes(self.outbox)
        self.outbox = bytearray()
        return data


CALLS = []
"""Every reader's request() and collect(), in the order the hub made them: (name, reader)."""


class FakeReader:
    """A reader whose tags, version register and health the test sets directly (``uid``
    for one tag, ``uids`` for a stack)."""

    def __init__(self, version=0x92):
        self.version_register = version
        self.uids = []
        self.broken = False
        self.inits = 0
        self.reads = 0
        self.on = True
        self.switches = []

    @property
    def uid(self):
        return self.uids[-1] if self.uids else None

    @uid.setter
    def uid(self, uid):
        self.uids = [uid] if uid else []

    def version(self):
        if self.broken:
            raise OSError("bus fault")
        return self.version_register

    def init(self, antenna=True):
        self.inits += 1
        self.on = antenna  # the chip's reset leaves the field off unless init switches it on
        if antenna:
            self.switches.append(True)

    def antenna(self, on):
        self.on = on
        self.switches.append(on)

    def check(self, known=()):
        self.reads += 1
        if self.broken:
            raise OSError("bus fault")
        if not self.on:
            return []  # a field that is off reads nothing
        return [uid for uid in known if uid in self.uids]

    def request(self):
        CALLS.append(("request", self))

    def collect(self, present):
        CALLS.append(("collect", self))
        if self.broken:
            raise OSError("bus fault")
        if not self.on:
            return present
        return present + [uid for uid in self.uids if uid not in present]
