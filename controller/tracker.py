"""From reader events to the observed board ``{site: piece}``, and whether it has settled.

A hand sliding tiles must not be read half way, so the referee only looks at the board once
nothing has changed for the profile's settle time. Tags the registry does not know are kept
apart and reported, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class UnknownTag:
    site: str
    uid: str


@dataclass
class Tracker:
    reader_sites: Mapping[int, str]
    """Which site each reader sees (from the board profile)."""
    piece_of: Callable[[str], str | None]
    """The tag registry: UID (hex) to piece id, None for a tag it does not know."""
    settle_seconds: float
    _uids: dict[str, str] = field(default_factory=dict)
    _last_change: float = float("-inf")

    def tag_arrived(self, reader: int, uid: str, now: float) -> None:
        site = self._site(reader)
        if site is not None and self._uids.get(site) != uid:
            self._uids[site] = uid
            self._last_change = now

    def tag_left(self, reader: int, uid: str, now: float) -> None:
        site = self._site(reader)
        if site is not None and self._uids.get(site) == uid:
            del self._uids[site]
            self._last_change = now

    def snapshot(self, uids: Mapping[int, str | None], now: float) -> None:
        """Replace everything with a full snapshot from the hub (after connect or a gap)."""
        seen = {
            site: uid
            for reader, uid in uids.items()
            if uid and (site := self._site(reader)) is not None
        }
        if seen != self._uids:
            self._uids = seen
            self._last_change = now

    def _site(self, reader: int) -> str | None:
        return self.reader_sites.get(reader)

    @property
    def board(self) -> dict[str, str]:
        """Sites holding a known piece."""
        pieces = {site: self.piece_of(uid) for site, uid in self._uids.items()}
        return {site: piece for site, piece in sorted(pieces.items()) if piece is not None}

    @property
    def unknown(self) -> tuple[UnknownTag, ...]:
        return tuple(
            UnknownTag(site, uid)
            for site, uid in sorted(self._uids.items())
            if self.piece_of(uid) is None
        )

    def settled(self, now: float) -> bool:
        return now - self._last_change >= self.settle_seconds

    def settles_at(self) -> float:
        return self._last_change + self.settle_seconds
