"""The hardware's words for people: English by str() (what the command line prints), a msgid
and values for the status page to translate, and never an exception on an error path."""

from __future__ import annotations

import copy
import dataclasses
import zlib
from typing import Any

import pytest
from cobs import cobs

from hardware import codec
from hardware.codec import FrameError, StreamDecoder
from hardware.protocol import MAX_FRAME, TagArrived
from hardware.wording import PORT_CLOSED, Wording


def test_str_is_the_english_with_every_field_filled() -> None:
    said = Wording("cannot open {url}: {error}", {"url": "/dev/ttyACM0", "error": "busy"})
    assert str(said) == "cannot open /dev/ttyACM0: busy"
    assert f"no hub ({said})" == "no hub (cannot open /dev/ttyACM0: busy)"
    assert str(PORT_CLOSED) == "port closed"
    assert said.fields() == {"url", "error"}


def test_a_nested_wording_is_said_inside_its_sentence() -> None:
    crc = Wording("CRC mismatch: the frame was damaged on the way")
    said = Wording("dropped a frame: {reason}", {"reason": crc})
    assert str(said) == "dropped a frame: CRC mismatch: the frame was damaged on the way"


NOT_A_STR: Any = 12
"""A value of the wrong type, as a careless caller might pass it."""


@pytest.mark.parametrize(("wording", "english"), [
    (Wording("cannot open {url}: {error}", {"url": "x"}), "cannot open x: {error}"),
    (Wording("port closed", {"stray": "y"}), "port closed"),
    (Wording("frame of {size} bytes", {"size": NOT_A_STR}), "frame of 12 bytes"),
    (Wording("a stray { brace"), "a stray { brace"),
    (Wording("a positional {0} field", {"0": "z"}), "a positional {0} field"),
    (Wording("a {size:d} spec", {"size": "7"}), "a {size:d} spec"),
    (Wording("a {url!r} conversion", {"url": "u"}), "a {url!r} conversion"),
    (Wording("an {item.attr} lookup", {"item": "i"}), "an {item.attr} lookup"),
    (Wording("{{literal}} braces and {n}", {"n": "1"}), "{literal} braces and 1"),
], ids=["missing", "extra", "not a str", "stray brace", "positional", "spec", "conversion",
        "attribute", "escaped"])
def test_bad_or_unknown_values_never_raise(wording: Wording, english: str) -> None:
    assert str(wording) == english


def test_the_values_cannot_change_after_the_fact() -> None:
    values = {"url": "/dev/ttyACM0", "error": "busy"}
    said = Wording("cannot open {url}: {error}", values)
    values["url"] = "elsewhere"
    assert str(said) == "cannot open /dev/ttyACM0: busy"
    assert copy.deepcopy(said) == said and dataclasses.asdict(said)["params"] == values | {
        "url": "/dev/ttyACM0"}
    assert said == Wording("cannot open {url}: {error}", {"error": "busy", "url": "/dev/ttyACM0"})


def test_the_codecs_drop_reasons_are_msgids_with_their_english_unchanged() -> None:
    payload = bytearray(codec.encode_payload(TagArrived(2, b"\x04\xa1\xb2\xc3"), 7))
    payload[-1] ^= 0xFF  # the CRC no longer fits
    with pytest.raises(FrameError) as caught:
        codec.decode(cobs.encode(bytes(payload)))
    assert str(caught.value) == "CRC mismatch: the frame was damaged on the way"
    assert caught.value.wording == Wording("CRC mismatch: the frame was damaged on the way")
    with pytest.raises(FrameError, match=r"^unknown frame type 0x7f$") as unknown:
        codec.decode_payload(_payload(0x7F))
    assert unknown.value.wording.params == {"type": "0x7f"}

    decoder = StreamDecoder()
    decoder.feed(b"\x01" * (MAX_FRAME + 1) + b"\x00")  # longer than any frame
    assert decoder.last_error is not None
    assert str(decoder.last_error.reason) == f"frame longer than {MAX_FRAME} bytes"
    assert decoder.last_error.reason.msgid == "frame longer than {most} bytes"


def _payload(type_byte: int) -> bytes:
    """A sound payload (header and CRC) of any type byte, known or not."""
    head = bytes((type_byte, 0, 0))
    return head + zlib.crc32(head).to_bytes(4, "little")
