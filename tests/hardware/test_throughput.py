"""The decode benchmark's measuring function: a sound stream and consistent figures.
(The speed itself is printed by `tabletop bench hub`, never asserted here.)"""

from __future__ import annotations

from hardware import codec
from hardware.throughput import BAUD, measure_decode_throughput, sample_stream


def test_sample_stream_is_all_good_frames() -> None:
    stream, count = sample_stream(300)
    decoder = codec.StreamDecoder()
    assert len(decoder.feed(stream)) == count == 300
    assert decoder.dropped == 0


def test_figures_are_consistent() -> None:
    f = measure_decode_throughput(seconds=0.05)
    assert f["frames"] > 0 and f["seconds"] >= 0.05
    expected = BAUD / 10 / f["mean_frame_bytes"]  # 8N1: ten bits per byte
    assert abs(f["link_frames_per_second_at_115200"] - expected) <= 1
    ratio = f["decoded_frames_per_second"] / f["link_frames_per_second_at_115200"]
    assert abs(f["headroom"] - ratio) < 0.1 * ratio
