"""What the hubs say about themselves and their readers, kept for the status page.

Self-tests, reader faults, snapshots and heartbeats arrive on the same links as the tags; this
keeps the latest word on each reader (by the profile's reader number) and on each hub, and
words the events worth a log line.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from games.core.game import Sentence, verbatim
from hardware.link import TOO_NOISY, LinkDown, LinkHealth, LinkUp
from hardware.protocol import Heartbeat, ReaderFault, SelfTest, Snapshot
from hardware.wording import Wording

from . import status as report
from .hubs import Hub


class HardwareHealth:
    def __init__(self, readers: Mapping[int, str]) -> None:
        self.readers: dict[int, dict[str, Any]] = {
            reader: {"site": site, "status": "unknown"} for reader, site in readers.items()
        }
        self.heartbeats: dict[str, report.Heartbeat] = {}
        """Each hub's last heartbeat, by hub name."""

    def _reader(self, number: int) -> dict[str, Any]:
        return self.readers.setdefault(number, {"site": None, "status": "unknown"})

    def note(self, event: object, hub: Hub) -> Sentence | None:
        """Keep what ``event`` from ``hub`` says about the hardware; a line for the event log,
        if any."""
        if isinstance(event, Snapshot | SelfTest):
            for local, entry in enumerate(event.readers):
                number = hub.reader(local)
                if number is None:
                    continue
                reader = self._reader(number)
                reader["status"] = entry.status.name.lower()
                if isinstance(event, SelfTest):
                    reader["version"] = entry.version
        elif isinstance(event, ReaderFault):
            number = hub.reader(event.reader)
            if number is None:
                return Sentence("hub {hub}: reader {reader}, which the profile does not name: "
                                "{status}", {"hub": hub.name, "reader": str(event.reader),
                                             "status": event.status.name.lower()})
            entry = self._reader(number)
            entry["status"] = event.status.name.lower()
            return Sentence("reader {reader} ({site}): {status}",
                            {"reader": str(number), "site": str(entry["site"]),
                             "status": entry["status"]})
        elif isinstance(event, Heartbeat):
            self.heartbeats[hub.name] = report.Heartbeat(
                uptime_ms=event.uptime_ms, scan_cycles=event.scan_cycles,
                crc_errors=event.crc_errors, missed_reads=event.missed_reads,
                cycle_us=event.cycle_us)
        elif isinstance(event, LinkUp):
            return Sentence("hub {hub} connected (firmware {firmware})",
                            {"hub": hub.name, "firmware": str(event.hello.firmware_version)})
        elif isinstance(event, LinkDown):
            self.heartbeats.pop(hub.name, None)
            return Sentence("hub {hub} disconnected: {reason}",  # the reason translated too
                            {"hub": hub.name, "reason": sentence_of(event.reason)})
        return None

    def report(self, hubs: Sequence[Hub], led_count: int, led_pushes: int | None,
               blind: Collection[str] = (),
               translate: Callable[[Sentence], str] = str) -> report.Hardware:
        """The hardware panel; ``translate`` words its advice in the reader's language."""
        return report.Hardware(
            hubs=[self._hub(hub, translate) for hub in hubs],
            readers=[report.ReaderHealth(reader=n, **info)
                     for n, info in sorted(self.readers.items())],
            blind_sites=sorted(blind),
            leds=report.LedHealth(count=led_count, pushes=led_pushes),
        )

    def _hub(self, hub: Hub, translate: Callable[[Sentence], str] = str) -> report.HubHealth:
        health = hub.link.health()
        hello = health.hello
        return report.HubHealth(
            name=hub.name, url=health.url, connected=health.connected, blind=not hub.seen,
            unique_id=hello.hub_id.hex() if hello and hello.hub_id else hub.settings.unique_id,
            readers=len(hub.settings.readers), frames=health.frames,
            crc_errors=health.crc_errors, dropped=health.dropped, gaps=health.gaps,
            reconnects=health.reconnects,
            last_error=_said(health.refused or health.last_error, translate),
            firmware=hello.firmware_version if hello else None,
            scan_ms=round(hub.period * 1000, 1) if hub.last_beat is not None else None,
            heartbeat=self.heartbeats.get(hub.name),
            byte_errors=None if health.byte_errors is None else round(health.byte_errors, 3),
            too_noisy=translate(_too_noisy(hub.name, health)) if health.too_noisy else None)


def sentence_of(wording: Wording | str) -> Sentence:
    """The hardware's words as a Sentence the catalogues translate: its msgid is the template,
    a nested wording a nested sentence (the drop reason inside "dropped a frame: ...").

    Every field of the msgid is filled (a missing value as its ``{name}``, as ``str()`` shows
    it), so no catalogue's translation lacks one; a msgid that is not a plain template, or a
    bare text, goes on the page as written."""
    if isinstance(wording, str):
        return verbatim(wording)
    names = wording.fields()
    if names is None:
        return verbatim(str(wording))
    args: dict[str, str | Sentence] = {}
    for name in names:
        value = wording.params.get(name, f"{{{name}}}")
        args[name] = sentence_of(value) if isinstance(value, Wording) else str(value)
    return Sentence(wording.msgid, args)


def _said(wording: Wording | str | None, translate: Callable[[Sentence], str]) -> str | None:
    """The link's trouble in the reader's language (None: none)."""
    return None if wording is None else translate(sentence_of(wording))


def _too_noisy(name: str, health: LinkHealth) -> Sentence:
    """The words for a cable too noisy to play on, naming the cable to check."""
    return Sentence(
        "the link to hub {hub} is too noisy: its cable damages {share} of the bytes (play needs "
        "under {limit}). Check the USB cable of hub {hub} ({url}): plug it in firmly, try "
        "another (short, shielded) cable, keep it away from motors and power leads",
        {"hub": name, "share": f"{health.byte_errors or 0:.0%}", "limit": f"{TOO_NOISY:.0%}",
         "url": health.url})
