"""The SQLite tag registry: enroll, look up, conflicts, export and all-or-nothing import."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from hardware.registry import (
    RegistryError,
    TagAlreadyKnown,
    TagRegistry,
    pieces_left,
    uid_hex,
)

A = bytes.fromhex("04a1b2c3")
B = bytes.fromhex("04112233445566")
C = bytes.fromhex("0a0b0c0d")


@pytest.fixture
def registry(tmp_path: Path) -> TagRegistry:
    return TagRegistry(tmp_path / "tags.sqlite3")


def test_enroll_and_lookup_survive_reopening(tmp_path: Path) -> None:
    with TagRegistry(tmp_path / "t.sqlite3") as registry:
        assert registry.enroll(A, "tiki:lokahi")
        assert not registry.enroll("04A1B2C3", "tiki:lokahi")  # same again: no change
    with TagRegistry(tmp_path / "t.sqlite3") as registry:
        assert registry.lookup(A) == registry.lookup("04a1b2c3") == "tiki:lokahi"
        assert registry.lookup(B) is None
        assert len(registry) == 1


def test_a_lookup_sees_its_own_changes_at_once_and_another_process_s_soon(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lookups are remembered (the tracker asks for every tag each time it reads the board);
    an enrolment from ``tabletop tags`` beside the running service must still show."""
    import hardware.registry as registry_module

    clock = [100.0]
    monkeypatch.setattr(registry_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    service, command = TagRegistry(tmp_path / "t.sqlite3"), TagRegistry(tmp_path / "t.sqlite3")
    assert service.lookup(A) is None
    service.enroll(A, "tiki:lokahi")
    assert service.lookup(A) == "tiki:lokahi"  # its own change: at once
    service.forget(A)
    assert service.lookup(A) is None
    command.enroll(A, "tiki:nani")  # another connection
    assert service.lookup(A) is None  # remembered until the next check
    clock[0] += registry_module.RECHECK_SECONDS
    assert service.lookup(A) == "tiki:nani"
    command.enroll(A, "tiki:huhu", replace=True)
    clock[0] += registry_module.RECHECK_SECONDS
    assert service.lookup(A) == "tiki:huhu"
    service.close()
    command.close()


def test_one_tag_is_never_two_pieces(registry: TagRegistry) -> None:
    registry.enroll(A, "tiki:lokahi")
    with pytest.raises(TagAlreadyKnown, match="04A1B2C3 is already enrolled as tiki:lokahi"):
        registry.enroll(A, "tiki:kapu")
    assert registry.lookup(A) == "tiki:lokahi"
    registry.enroll(A, "tiki:kapu", replace=True)
    assert registry.lookup(A) == "tiki:kapu"


def test_interchangeable_pieces_share_an_id(registry: TagRegistry) -> None:
    registry.enroll(A, "visitor:red")
    registry.enroll(C, "visitor:red")
    assert registry.tags_of("visitor:red") == ("04A1B2C3", "0A0B0C0D")
    box = ["visitor:red"] * 3 + ["visitor:blue", "tiki:kapu"]
    assert pieces_left(box, registry) == ["visitor:red", "visitor:blue", "tiki:kapu"]


@pytest.mark.parametrize(
    ("uid", "piece", "message"),
    [
        (b"\x01\x02", "tiki:kapu", "4, 7 or 10 bytes"),
        ("zz", "tiki:kapu", "not a hex tag UID"),
        (A, "Tiki Kapu", "not a piece id"),
        (A, "", "not a piece id"),
    ],
)
def test_bad_input_changes_nothing(registry: TagRegistry, uid, piece: str, message: str) -> None:
    with pytest.raises(RegistryError, match=message):
        registry.enroll(uid, piece)
    assert len(registry) == 0


def test_export_then_import_elsewhere(registry: TagRegistry, tmp_path: Path) -> None:
    registry.enroll(A, "tiki:lokahi")
    registry.enroll(B, "card:red:up2")
    shared = tmp_path / "club.json"
    assert registry.export_file(shared) == 2
    other = TagRegistry(tmp_path / "other.sqlite3")
    other.enroll(C, "tiki:kapu")
    report = other.import_file(shared)
    assert (report.added, report.unchanged, report.replaced) == (2, 0, 0)
    assert other.all() == {"0A0B0C0D": "tiki:kapu", "04A1B2C3": "tiki:lokahi",
                           "04112233445566": "card:red:up2"}
    assert other.import_file(shared).unchanged == 2


def test_import_conflicts_are_refused_whole(registry: TagRegistry, tmp_path: Path) -> None:
    registry.enroll(A, "tiki:kapu")
    shared = tmp_path / "club.json"
    tags = [{"uid": "04A1B2C3", "piece": "tiki:lokahi"}, {"uid": "0A0B0C0D", "piece": "tiki:nui"}]
    shared.write_text(json.dumps({"format": "tabletop-tags", "version": 1, "tags": tags}))
    with pytest.raises(RegistryError, match="1 conflicting tags: 04A1B2C3 is tiki:kapu here"):
        registry.import_file(shared)
    assert registry.all() == {"04A1B2C3": "tiki:kapu"}  # not even the good one was added
    report = registry.import_file(shared, replace=True)
    assert (report.added, report.replaced) == (1, 1)
    assert registry.lookup(A) == "tiki:lokahi"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a tag file"),
        ('{"format": "other", "version": 1, "tags": []}', "format must be 'tabletop-tags'"),
        ('{"format": "tabletop-tags", "version": 2, "tags": []}', "version 2 is not 1"),
        ('{"format": "tabletop-tags", "version": 1, "tags": {}}', "'tags' must be a list"),
        ('{"format": "tabletop-tags", "version": 1, "tags": [{"uid": "04A1B2C3"}]}',
         "tag 1 must have exactly 'uid' and 'piece'"),
        ('{"format": "tabletop-tags", "version": 1, "tags": [{"uid": "0102", "piece": "a:b"}]}',
         "tag 1: a tag UID has 4, 7 or 10 bytes"),
        ('{"format": "tabletop-tags", "version": 1, "tags": ['
         '{"uid": "04A1B2C3", "piece": "a:b"}, {"uid": "04a1b2c3", "piece": "a:c"}]}',
         "listed twice as different pieces"),
    ],
)
def test_bad_tag_files_are_explained(
    registry: TagRegistry, tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(RegistryError, match=message):
        registry.import_file(path)
    assert len(registry) == 0


def test_missing_tag_file(registry: TagRegistry, tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="no such file"):
        registry.import_file(tmp_path / "nope.json")


def test_uid_hex_is_canonical() -> None:
    assert uid_hex(A) == uid_hex("04 a1 b2 c3") == "04A1B2C3"
