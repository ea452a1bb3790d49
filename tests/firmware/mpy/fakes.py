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


class FakeReader:
    """A reader whose tag, version register and health the test sets directly."""

    def __init__(self, version=0x92):
        self.version_register = version
        self.uid = None
        self.broken = False
        self.inits = 0
        self.reads = 0

    def version(self):
        if self.broken:
            raise OSError("bus fault")
        return self.version_register

    def init(self):
        self.inits += 1

    def read_uid(self, expected=None):
        self.reads += 1
        if self.broken:
            raise OSError("bus fault")
        return self.uid
