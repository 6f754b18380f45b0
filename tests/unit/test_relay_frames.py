"""The framing of a relayed caller's stream (door/net/relay.py): whatever
the caller sends, NULs included, and wherever the reads split it, the far
end gets exactly those bytes and exactly the window sizes the relay sent."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from door.net.relay import ESCAPE, FrameDecoder, window_frame

pieces = st.lists(st.one_of(st.binary(max_size=20).map(lambda b: ("typed", b)),
                            st.tuples(st.integers(0, 65535), st.integers(0, 65535)).map(lambda s: ("size", s))),
                  max_size=12)


@given(pieces, st.lists(st.integers(1, 30), max_size=40))
def test_typed_bytes_and_sizes_come_through_wherever_the_stream_is_cut(parts, cuts) -> None:
    stream = b"".join(p.replace(ESCAPE, ESCAPE + ESCAPE) if kind == "typed" else window_frame(*p)
                      for kind, p in parts)
    decoder = FrameDecoder()
    typed, sizes = bytearray(), []
    at = 0
    for length in [*cuts, len(stream)]:
        got, found = decoder.feed(stream[at:at + length])
        typed += got
        sizes += found
        at += length
        if at >= len(stream):
            break
    assert bytes(typed) == b"".join(p for kind, p in parts if kind == "typed")
    assert sizes == [p for kind, p in parts if kind == "size"]


def test_a_caller_cannot_forge_a_window_frame() -> None:
    forged = b"hi" + ESCAPE + b"W\x00\x05\x00\x05"
    typed, sizes = FrameDecoder().feed(forged.replace(ESCAPE, ESCAPE + ESCAPE))
    assert typed == forged and sizes == []


def test_an_unknown_frame_is_dropped_and_what_follows_kept() -> None:
    assert FrameDecoder().feed(b"a" + ESCAPE + b"Zb") == (b"ab", [])
