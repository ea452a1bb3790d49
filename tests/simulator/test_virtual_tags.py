"""Virtual tags: one fixed UID per copy of each piece, loadable into the real tag registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.registry import all_games, get_game
from hardware.registry import TagRegistry
from simulator.virtual_tags import (
    DEFAULT_COPIES,
    TagSet,
    TagSetError,
    copies_seen,
    virtual_uid,
)


def test_uids_are_stable_distinct_and_look_like_ntag_uids() -> None:
    assert virtual_uid("tiki:nani", 0) == virtual_uid("tiki:nani", 0)
    assert virtual_uid("tiki:nani", 0) != virtual_uid("tiki:nani", 1)
    assert virtual_uid("tiki:nani", 0) != virtual_uid("tiki:kapu", 0)
    uid = virtual_uid("card:red:up1", 3)
    assert len(uid) == 7 and uid[0] == 0x04


def test_four_byte_uids_are_single_size_uids_of_every_box() -> None:
    firsts = set()
    for game in all_games():
        tags = TagSet(game.pieces(), copies=copies_seen(game), uid_bytes=4)  # no collision
        uids = [tag.uid for piece in tags.pieces for tag in tags.tags_of(piece)]
        assert {len(uid) for uid in uids} == {4}
        firsts |= {uid[0] for uid in uids}
    assert not any(first & 0x0F == 0x08 for first in firsts)  # no cascade tag, random UID
    assert len(firsts) > 200  # otherwise the digest's first byte
    assert virtual_uid("tiki:nani", 0, 4) == virtual_uid("tiki:nani", 0)[1:5]
    copy = next(k for k in range(1000)  # a copy whose digest starts with 0x?8
                if virtual_uid("tiki:nani", k)[1] & 0x0F == 0x08)
    four, seven = virtual_uid("tiki:nani", copy, 4), virtual_uid("tiki:nani", copy)
    assert four[0] == seven[1] ^ 0x01 and four[1:] == seven[2:5]
    with pytest.raises(TagSetError, match="4 or 7 bytes"):
        virtual_uid("tiki:nani", 0, 10)


def test_every_piece_gets_at_least_the_minimum_and_listed_duplicates_more() -> None:
    tags = TagSet(["visitor:red", "visitor:red", "visitor:red", "tile:swan"], min_copies=2)
    assert len(tags.tags_of("visitor:red")) == 3
    assert len(tags.tags_of("tile:swan")) == 2
    assert tags.piece_of(tags.tags_of("tile:swan")[1].uid) == "tile:swan"
    assert tags.piece_of(b"\x01\x02\x03\x04") is None
    with pytest.raises(TagSetError, match="not a piece"):
        tags.tags_of("tile:dragon")


def test_bad_pieces_are_refused() -> None:
    with pytest.raises(ValueError, match="piece id"):
        TagSet(["Tiki Nani"])
    with pytest.raises(TagSetError, match="at least one"):
        TagSet(["tiki:nani"], min_copies=0)


def test_export_file_fills_the_real_registry(tmp_path: Path) -> None:
    game = get_game("tiki_topple")
    tags = TagSet(game.pieces())
    path = tmp_path / "tags.json"
    assert tags.export_file(path) == len(tags.mapping()) == 2 * len(game.pieces())
    with TagRegistry(tmp_path / "a.db") as registry:
        report = registry.import_file(path)
        assert report.added == len(tags.mapping())
        for uid, piece in tags.mapping().items():
            assert registry.lookup(uid) == piece
    with TagRegistry(tmp_path / "b.db") as registry:
        assert tags.enroll(registry) == len(tags.mapping())
        assert tags.enroll(registry) == 0  # already there: nothing changes
        assert registry.all() == dict(sorted(tags.mapping().items(), key=lambda kv: (kv[1], kv[0])))


def test_interchangeable_pieces_get_as_many_tags_as_games_lay_out() -> None:
    from collections import Counter

    from simulator.virtual_tags import copies_seen

    topiary = get_game("topiary")
    seen = copies_seen(topiary)
    assert max(seen.values()) > DEFAULT_COPIES  # one visitor id, many visitors on the board
    tags = TagSet(topiary.pieces(), copies=seen)
    for piece, count in seen.items():
        assert len(tags.tags_of(piece)) >= count
    state = topiary.initial(["a", "b"])  # a game the playouts did not see still fits
    import random

    rng = random.Random(99)
    while not topiary.is_terminal(state):
        legal = topiary.legal_actions(state)
        state = topiary.apply(state, rng.choice(legal))
        for piece, count in Counter(topiary.board(state).values()).items():
            assert len(tags.tags_of(piece)) >= count
    with pytest.raises(TagSetError, match="not a piece"):
        TagSet(["tiki:nani"], copies={"tiki:kapu": 3})
