"""Virtual RFID tags: a fixed, reproducible UID for every copy of every piece in a game's box.

The UID of copy k of piece P is made from SHA-256("P#k"): the same on every run and machine, so a
tag registry filled once for a simulated table stays valid. A table's tags have the length its
profile's ``[radio] uid_bytes`` names: 4 bytes (MIFARE Classic stickers, the default) are the
digest's first four (the first never x8), 7 bytes 0x04 (the NXP manufacturer byte of NTAG
stickers) and its first six.
`TagSet.export_file` writes the registry's own sharing format and `TagSet.enroll` fills a
`hardware.registry.TagRegistry` directly.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from games.core.game import CHANCE, Game, pile_pieces
from hardware.registry import EXPORT_FORMAT, EXPORT_VERSION, TagRegistry, check_piece, uid_hex

DEFAULT_COPIES = 2
"""Each piece id gets at least this many tags: boxes hold identical cards (two up1 cards of one
colour share an id), and a scenario may lay the second one while the first is still out."""


class TagSetError(ValueError):
    """A piece or UID the tag set does not know; nothing was changed."""


def virtual_uid(piece: str, copy: int, size: int = 7) -> bytes:
    """The UID of copy `copy` (0-based) of `piece`, 4 or 7 bytes long."""
    digest = hashlib.sha256(f"{piece}#{copy}".encode()).digest()
    if size == 7:
        return b"\x04" + digest[:6]
    if size != 4:
        raise TagSetError(f"a virtual tag's UID has 4 or 7 bytes, not {size}")
    # a single-size UID never starts with x8: 0x08 is a random UID (another at every
    # power-up), 0x88 the cascade tag, the others are reserved (ISO/IEC 14443-3, 6.5.4)
    first = digest[0] ^ 0x01 if digest[0] & 0x0F == 0x08 else digest[0]
    return bytes((first,)) + digest[1:4]


@dataclass(frozen=True, slots=True)
class VirtualTag:
    piece: str
    copy: int
    uid: bytes

    @property
    def hex(self) -> str:
        return uid_hex(self.uid)


class TagSet:
    """Every virtual tag of a box: piece -> its tags, UID -> piece."""

    def __init__(
        self,
        pieces: Iterable[str],
        min_copies: int = DEFAULT_COPIES,
        copies: Mapping[str, int] | None = None,
        uid_bytes: int = 7,
    ) -> None:
        """`copies`: how many tags some pieces need at least (see `copies_seen`); `uid_bytes`:
        how long their UIDs are (4 or 7)."""
        if min_copies < 1:
            raise TagSetError(f"every piece needs at least one tag, not {min_copies}")
        counts = Counter(check_piece(piece) for piece in pieces)
        for piece, count in (copies or {}).items():
            if piece not in counts:
                raise TagSetError(f"{piece!r} is not a piece of this box")
            counts[piece] = max(counts[piece], count)
        self._held: Mapping[str, int] = MappingProxyType(dict(counts))
        """How many of each piece the box holds; the tags beyond that are spares."""
        by_piece: dict[str, tuple[VirtualTag, ...]] = {}
        by_uid: dict[bytes, VirtualTag] = {}
        for piece, count in counts.items():
            tags = tuple(
                VirtualTag(piece, k, virtual_uid(piece, k, uid_bytes))
                for k in range(max(count, min_copies))
            )
            for tag in tags:
                if tag.uid in by_uid:  # 32 or 48 bits of SHA-256: not seen, never silent
                    raise TagSetError(f"UID collision between {piece} and {by_uid[tag.uid].piece}")
                by_uid[tag.uid] = tag
            by_piece[piece] = tags
        self._by_piece: Mapping[str, tuple[VirtualTag, ...]] = MappingProxyType(by_piece)
        self._by_uid: Mapping[bytes, VirtualTag] = MappingProxyType(by_uid)

    @property
    def pieces(self) -> tuple[str, ...]:
        return tuple(self._by_piece)

    def tags_of(self, piece: str) -> tuple[VirtualTag, ...]:
        try:
            return self._by_piece[piece]
        except KeyError:
            raise TagSetError(f"{piece!r} is not a piece of this box") from None

    def held(self, piece: str) -> int:
        """How many of ``piece`` the box holds (as often as ``pieces`` names it, or ``copies``
        when more: see `copies_seen`), not how many tags it has: the ``min_copies`` floor prints
        spares a scenario may lay, which a box shown to a person must not count (nine tikis,
        not eighteen)."""
        try:
            return self._held[piece]
        except KeyError:
            raise TagSetError(f"{piece!r} is not a piece of this box") from None

    def piece_of(self, uid: bytes) -> str | None:
        """The piece a UID stands for, or None for a tag from outside the box."""
        tag = self._by_uid.get(bytes(uid))
        return tag.piece if tag else None

    def mapping(self) -> dict[str, str]:
        """UID (upper-case hex, the registry's form) to piece, for every tag."""
        return {tag.hex: tag.piece for tag in self._by_uid.values()}

    def export_file(self, path: str | Path) -> int:
        """Write the tags in the registry's sharing format (`TagRegistry.import_file` reads it)."""
        tags = [{"uid": uid, "piece": piece} for uid, piece in self.mapping().items()]
        document = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "tags": tags}
        Path(path).write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        return len(tags)

    def enroll(self, registry: TagRegistry) -> int:
        """Enroll every tag (already enrolled ones are left alone); returns how many were new."""
        return sum(registry.enroll(uid, piece) for uid, piece in self.mapping().items())


def copies_seen(game: Game[Any], playouts: int = 2, seed: int = 0) -> dict[str, int]:
    """How many tags each piece needs: what the box holds where the game says
    (`Game.copies()`), else the most copies that lay on the table at once in a few seeded
    random games for every number of players. `Game.pieces()` names each interchangeable piece
    once (six red visitors are one id), so this is how the simulator knows how many to print."""
    rng = random.Random(seed)
    most: Counter[str] = Counter(game.copies())
    counts = range(game.min_players, game.max_players + 1)
    for n_players in [n for n in counts for _ in range(playouts)]:
        state = game.initial([f"p{i}" for i in range(n_players)])
        while not game.is_terminal(state):
            if game.actor(state) == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)
            laid = Counter(piece for value in game.board(state).values()
                           for piece in pile_pieces(value))  # a tower: each of its stones
            for piece, count in laid.items():
                most[piece] = max(most[piece], count)
    return dict(most)
