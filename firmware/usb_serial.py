"""The USB serial port as the hub's byte pipe: non-blocking reads, raw binary writes.

On the RP2040 the USB CDC port is MicroPython's stdin/stdout. Ctrl-C handling is switched
off by main.py, otherwise a 0x03 byte inside a frame would interrupt the firmware.
"""

import select
import sys


class UsbSerial:
    def __init__(
        self, stream_in: object = None, stream_out: object = None, chunk: int = 64
    ) -> None:
        self.stream_in = stream_in or sys.stdin.buffer
        self.stream_out = stream_out or sys.stdout.buffer
        self.chunk = chunk
        self.poller = select.poll()
        self.poller.register(self.stream_in, select.POLLIN)

    def read(self) -> bytes:
        data = bytearray()
        while len(data) < self.chunk and self.poller.poll(0):
            byte = self.stream_in.read(1)
            if not byte:
                break
            data.extend(byte)
        return bytes(data)

    def write(self, data: bytes) -> None:
        self.stream_out.write(data)
