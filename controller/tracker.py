"""From reader events to the observed board ``{site: piece}``, and whether it has settled.

A reader's field may hold several tags (a card laid over cards, a tower of stones): per site the
tracker keeps them as a stack in the order they arrived, the newest on top, and the board shows
the top piece, or on a game's pile sites (``Site.pile``: a tower whose order counts) the whole
pile bottom to top, as the game's own ``board()`` does. A hand sliding tiles must not be read
half way, so the referee only looks at the board once nothing has changed for the profile's
settle time, or, when the board shows exactly one legal step, once a scan has passed without
a change (``quick_at``). Tags the registry does not know
are kept apart and reported, never guessed.

A tag lying across the edge between two readers' fields (of one hub or of two) is heard by
both. It lies on one site only: the one where it arrived first, unless the service places it
(``place``) where the position or a legal step wants it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from games.core.game import pile_pieces, pile_value


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
    piles: frozenset[str] = frozenset()
    """Sites whose whole pile is the board's value (``Site.pile``)."""
    lift_latency: float = 0.0
    """How long a hub may still report a lifted tag as there (``Hub.lift_latency``: its miss
    limit of scans and a quarter more). A piece is seen the scan it lands, but the one it was
    moved from leaves only that much later; so after an arrival the board is not judged before
    this has passed, or a move would be judged half done (the new place filled, the old one
    still occupied: a legal placement of a new piece in some games)."""
    quick_seconds: float = 0.0
    """One scan of the slowest hub: a board that stays unchanged this long after a change
    and shows exactly one legal step may be judged before the settle time (the service
    decides: ``quick_at``)."""
    round_seconds: float = 0.0
    """Within this every reader is read at least once (a hub that watches some readers reads
    the others one scan in its stride)."""
    tie_seconds: float = 0.0
    """Tags that arrived on one site closer together than this (one scan: the hub found them
    in the same inventory) came in no known order."""
    _stacks: dict[str, list[str]] = field(default_factory=dict)
    """Per site the UIDs in its reader's field, bottom (first to arrive) to top."""
    _arrived: dict[tuple[str, str], float] = field(default_factory=dict)
    """When each tag last arrived on each site."""
    _placed: dict[str, str] = field(default_factory=dict)
    """Where a tag heard on several sites lies, when the service has said."""
    flicker_seconds: float = 0.0
    """A tag back on its site this soon after it was reported gone was missed, not moved (no
    hand lifts a card from under others and lays it back within a scan or so): it takes its
    old place in the stack, not the top."""
    _gone: dict[tuple[str, str], tuple[int, float]] = field(default_factory=dict)
    """Tags reported gone: their place in the stack and when."""
    _last_change: float = float("-inf")
    _last_arrival: float = float("-inf")
    _sped_up: float = float("-inf")
    _came: dict[str, tuple[str, float]] = field(default_factory=dict)
    """Per tag, the site it last came to and when: laid there by a hand (not a flicker's
    return, not a hub's snapshot)."""

    def tag_arrived(self, reader: int, uid: str, now: float) -> None:
        site = self._site(reader)
        if site is None:
            return
        stack = self._stacks.setdefault(site, [])
        gone = self._gone.pop((site, uid), None)
        if gone is not None and uid not in stack and now - gone[1] <= self.flicker_seconds:
            stack.insert(min(gone[0], len(stack)), uid)  # a flicker: back in its place
            self._arrived[site, uid] = now
            self._last_change = now
        elif stack[-1:] != [uid]:  # new, or announced again: lifted and put back on top
            if uid in stack:
                stack.remove(uid)
            stack.append(uid)
            self._arrived[site, uid] = now
            self._came[uid] = (site, now)
            self._last_change = self._last_arrival = now

    def tag_left(self, reader: int, uid: str, now: float) -> None:
        site = self._site(reader)
        stack = self._stacks.get(site, []) if site is not None else []
        if uid in stack:
            self._gone = {key: gone for key, gone in self._gone.items()
                          if now - gone[1] <= self.flicker_seconds}  # older ones moved
            self._gone[site, uid] = (stack.index(uid), now)  # type: ignore[index]
            stack.remove(uid)
            self._arrived.pop((site, uid), None)  # type: ignore[arg-type]
            self._placed.pop(uid, None)
            if not stack:
                del self._stacks[site]  # type: ignore[arg-type]
            self._last_change = now

    def snapshot(self, uids: Mapping[int, str | Sequence[str] | None], now: float) -> None:
        """A full snapshot from a hub (after connect or a gap): per reader its tags in arrival
        order; the sites of the readers it names are replaced, others kept (another hub's).
        Tags still present keep their place in a stack; new ones go on top in the hub's
        order."""
        scope = {site for reader in uids if (site := self._site(reader)) is not None}
        seen = {site: stack for site, stack in self._stacks.items() if site not in scope}
        for reader, given in uids.items():
            site = self._site(reader)
            listed = [given] if isinstance(given, str) else list(given or ())
            if site is None or not listed:
                continue
            kept = [uid for uid in self._stacks.get(site, []) if uid in listed]
            seen[site] = kept + [uid for uid in listed if uid not in kept]
            for uid in listed:
                self._arrived.setdefault((site, uid), now)
        if seen != self._stacks:
            self._stacks = seen
            self._last_change = self._last_arrival = now

    def forget(self, sites: Collection[str], now: float) -> None:
        """What the readers under ``sites`` said no longer holds (their hub went down)."""
        self._arrived = {key: at for key, at in self._arrived.items() if key[0] not in sites}
        if any(site in self._stacks for site in sites):
            self._stacks = {site: stack for site, stack in self._stacks.items()
                            if site not in sites}
            self._last_change = now

    @property
    def shared(self) -> dict[str, tuple[str, ...]]:
        """Tags heard on more than one site, each with those sites, first arrival first."""
        sites: dict[str, list[str]] = {}
        for site, stack in self._stacks.items():
            for uid in stack:
                sites.setdefault(uid, []).append(site)

        def arrival(uid: str, site: str) -> tuple[float, str]:
            return self._arrived.get((site, uid), 0.0), site

        return {uid: tuple(sorted(where, key=lambda site, uid=uid: arrival(uid, site)))
                for uid, where in sorted(sites.items()) if len(where) > 1}

    def moved_to(self, uid: str, now: float) -> str | None:
        """Where a tag heard on several sites was just laid, if it came there less than a
        lift's report time ago (``lift_latency``): a piece moved, its old reader not missing
        it yet. Older, it lies across two fields' edge; a flicker or a snapshot moves nothing."""
        came = self._came.get(uid)
        if came is None or now - came[1] > self.lift_latency:
            return None
        return came[0]

    def place(self, uid: str, site: str) -> None:
        """Count a tag heard on several sites on ``site``."""
        self._placed[uid] = site

    def _lying(self) -> dict[str, list[str]]:
        """Each site's stack without the tags that lie on another site they are heard on."""
        shared = self.shared
        lying = {site: [uid for uid in stack
                        if uid not in shared or self._home(uid, shared[uid]) == site]
                 for site, stack in sorted(self._stacks.items())}
        return {site: stack for site, stack in lying.items() if stack}

    def _home(self, uid: str, sites: tuple[str, ...]) -> str:
        placed = self._placed.get(uid)
        return placed if placed in sites else sites[0]

    def pile_orders(self, site: str, most: int = 24) -> list[tuple[str, ...]]:
        """The orders a pile site's tags may really lie in: the arrival order, and every order
        of the runs that arrived within ``tie_seconds`` of each other (at most ``most``)."""
        stack = self._stacks.get(site, [])
        runs: list[list[str]] = []
        for uid in stack:
            if runs and self._arrived.get((site, uid), 0.0) - self._arrived.get(
                    (site, runs[-1][-1]), 0.0) < self.tie_seconds:
                runs[-1].append(uid)
            else:
                runs.append([uid])
        orders = [()]
        for run in runs:
            orders = [order + tuple(arranged) for order in orders
                      for arranged in itertools.permutations(run)][:most]
        return orders

    def reorder(self, site: str, uids: Sequence[str]) -> None:
        """Fix the order of a pile whose tags came in no known order."""
        if sorted(uids) != sorted(self._stacks.get(site, [])):
            raise ValueError(f"{site} holds other tags than {list(uids)}")
        self._stacks[site] = list(uids)

    def pile_board(self, site: str, uids: Sequence[str]) -> str | None:
        """The board value of a pile site if its tags lay in this order."""
        known = [piece for piece in map(self.piece_of, uids) if piece is not None]
        return pile_value(known) if known else None

    def _site(self, reader: int) -> str | None:
        return self.reader_sites.get(reader)

    @property
    def board(self) -> dict[str, str]:
        """Sites whose top tag is a known piece, with that piece; a pile site with its known
        pieces, bottom to top."""
        board = {}
        for site, stack in self._lying().items():
            if site in self.piles:
                if (value := self.pile_board(site, stack)) is not None:
                    board[site] = value
            elif (piece := self.piece_of(stack[-1])) is not None:
                board[site] = piece
        return board

    @property
    def stacks(self) -> dict[str, tuple[str, ...]]:
        """Every site's stack bottom to top: pieces, or ``uid:HEX`` for unknown tags."""
        return {site: tuple(self.piece_of(uid) or f"uid:{uid}" for uid in stack)
                for site, stack in self._lying().items()}

    @property
    def unknown(self) -> tuple[UnknownTag, ...]:
        return tuple(
            UnknownTag(site, uid)
            for site, stack in self._lying().items()
            for uid in stack
            if self.piece_of(uid) is None
        )

    def settled(self, now: float) -> bool:
        return now >= self.settles_at()

    @property
    def last_change(self) -> float:
        """When the board last changed (an arrival, a departure, a snapshot)."""
        return self._last_change

    def sped_up(self, now: float) -> None:
        """The hubs read faster from ``now`` (one confirmed a watch): what changed before was
        read at the old pace, so a scan and a lift are waited for from now on."""
        self._sped_up = now

    def still_at(self) -> float:
        """A scan after the last change: every reader the next step could change has been
        read since (nothing else is moving that the table could have seen)."""
        return max(self._last_change, self._sped_up) + self.quick_seconds

    def quick_at(self) -> float:
        """When the board may be judged early, if it shows exactly one legal step: a scan
        after the last change, and no lift still unreported."""
        return max(self.still_at(), max(self._last_arrival, self._sped_up) + self.lift_latency)

    def lifts_could_show(self, boards: Iterable[Mapping[str, str]]) -> bool:
        """Could lifts alone, made but not reported yet, turn the observed board into one of
        ``boards`` (another one than it is now)? A stack may show any of its pieces on top
        then, a pile any of its pieces in their order, any site may be left empty; nothing is
        laid."""
        lying = {site: [self.piece_of(uid) for uid in stack]
                 for site, stack in self._lying().items()}
        observed = self.board

        def could_become(site: str, value: str | None) -> bool:
            if value is None:
                return True
            pieces = lying.get(site, [])
            if site not in self.piles:
                return value in pieces
            rest = iter(pieces)
            return all(piece in rest for piece in pile_pieces(value))  # a subsequence

        return any(board != observed and board.keys() <= observed.keys()
                   and all(could_become(site, board.get(site)) for site in observed)
                   for board in boards)

    def settles_at(self) -> float:
        """Still for the settle time, no lift unreported, and every reader read since the
        last change (so nothing is judged from a reader the hubs have not read since)."""
        return max(self._last_change + max(self.settle_seconds, self.round_seconds),
                   self._last_arrival + self.lift_latency)
