"""What the hub says about itself and its readers, kept for the status page.

Self-tests, reader faults, snapshots and heartbeats arrive on the same link as the tags; this
keeps the latest word on each reader and on the hub, and words the events worth a log line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hardware.link import HubLink, LinkDown, LinkUp
from hardware.protocol import Heartbeat, ReaderFault, SelfTest, Snapshot

from . import status as report


class HardwareHealth:
    def __init__(self, readers: Mapping[int, str]) -> None:
        self.readers: dict[int, dict[str, Any]] = {
            reader: {"site": site, "status": "unknown"} for reader, site in readers.items()
        }
        self.heartbeat: report.Heartbeat | None = None

    def _reader(self, number: int) -> dict[str, Any]:
        return self.readers.setdefault(number, {"site": None, "status": "unknown"})

    def note(self, event: object) -> str | None:
        """Keep what ``event`` says about the hardware; a line for the event log, if any."""
        if isinstance(event, Snapshot):
            for number, reader in enumerate(event.readers):
                self._reader(number)["status"] = reader.status.name.lower()
        elif isinstance(event, SelfTest):
            for number, check in enumerate(event.readers):
                entry = self._reader(number)
                entry["status"] = check.status.name.lower()
                entry["version"] = check.version
        elif isinstance(event, ReaderFault):
            entry = self._reader(event.reader)
            entry["status"] = event.status.name.lower()
            return f"reader {event.reader} ({entry['site']}): {entry['status']}"
        elif isinstance(event, Heartbeat):
            self.heartbeat = report.Heartbeat(
                uptime_ms=event.uptime_ms, scan_cycles=event.scan_cycles,
                crc_errors=event.crc_errors, missed_reads=event.missed_reads,
                cycle_us=event.cycle_us)
        elif isinstance(event, LinkUp):
            return f"hub connected (firmware {event.hello.firmware_version})"
        elif isinstance(event, LinkDown):
            return f"hub disconnected: {event.reason}"
        return None

    def report(self, link: HubLink, led_count: int, led_pushes: int | None) -> report.Hardware:
        health = link.health()
        return report.Hardware(
            hub=report.HubHealth(
                url=health.url, connected=health.connected, frames=health.frames,
                crc_errors=health.crc_errors, dropped=health.dropped, gaps=health.gaps,
                reconnects=health.reconnects, last_error=health.last_error,
                firmware=health.hello.firmware_version if health.hello else None),
            readers=[report.ReaderHealth(reader=n, **info)
                     for n, info in sorted(self.readers.items())],
            heartbeat=self.heartbeat,
            leds=report.LedHealth(count=led_count, pushes=led_pushes),
        )
