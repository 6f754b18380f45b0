"""The key decoder: every sequence of the table, Enter variants, split
reads, lone ESC, and noise that must never raise."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from door.net.keys import SEQUENCES, Key, KeyDecoder, KeyName, key_bytes


def decode(*chunks: bytes) -> list[str]:
    d = KeyDecoder()
    keys: list[Key] = []
    for c in chunks:
        keys += d.feed(c)
    keys += d.flush()
    return [str(k) for k in keys]


@pytest.mark.parametrize("seq,name", list(SEQUENCES.items()))
def test_every_sequence(seq: bytes, name: KeyName) -> None:
    assert decode(seq) == [name.value]


@pytest.mark.parametrize("data,expected", [
    (b"\r", ["enter"]), (b"\r\n", ["enter"]), (b"\r\x00", ["enter"]), (b"\n", ["enter"]),
    (b"\r\r", ["enter", "enter"]), (b"\n\n", ["enter", "enter"]), (b"\x7f\x08", ["backspace", "backspace"]),
    (b"\x0c\x13\x11\x03", ["ctrl-l", "ctrl-s", "ctrl-q", "ctrl-c"]),
    (b"ab 1", ["a", "b", " ", "1"]),
    (b"\x1b", ["escape"]),
    (b"\x1b[99;5R", []),            # an unknown but complete CSI is dropped whole
    (b"\x1bx", ["escape", "x"]),
    (b"\x1b\x1b[A", ["escape", "up"]),
])
def test_decoding(data: bytes, expected: list[str]) -> None:
    assert decode(data) == expected


def test_cr_lf_split_across_reads_is_one_enter() -> None:
    assert decode(b"\r", b"\n") == ["enter"]


def test_sequence_split_across_reads_waits_for_the_rest() -> None:
    d = KeyDecoder()
    assert d.feed(b"\x1b") == [] and d.pending
    assert d.feed(b"[") == [] and d.pending
    assert [str(k) for k in d.feed(b"C")] == ["right"] and not d.pending


tokens = st.sampled_from(list(SEQUENCES) + [b"a", b"Z", b"5", b" ", b"\r", b"\x7f", b"\x0c"])


@given(st.lists(tokens, max_size=30), st.data())
def test_any_split_gives_the_same_keys(parts, data) -> None:
    stream = b"".join(parts)
    whole = decode(stream)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    chunks = [stream[a:b] for a, b in zip([0] + cuts, cuts + [len(stream)])]
    assert decode(*chunks) == whole


@given(st.binary(max_size=300))
def test_noise_never_raises(noise: bytes) -> None:
    d = KeyDecoder()
    for i in range(0, len(noise), 7):
        for k in d.feed(noise[i:i + 7]):
            assert isinstance(k, Key)
    d.flush()
    assert not d.pending


def test_utf8_characters_are_typed_whole_even_split_across_reads() -> None:
    """A name typed in UTF-8 arrives as its characters (it was read byte by
    byte as Latin-1: "Ｆlo" became "ï¼¦lo")."""
    from door.net.keys import KeyDecoder, KeyName

    d = KeyDecoder("utf-8")
    keys = d.feed(b"\xef\xbc") + d.feed(b"\xa6lo\xe7\x8c") + d.feed(b"\xab\xff\x80!")
    assert "".join(k.char for k in keys if k.name is KeyName.CHAR) == "\uff26lo\u732b!"
    cp = KeyDecoder("cp437")
    assert [k.char for k in cp.feed(b"\x81\xe1")] == ["\u00fc", "\u00df"]
    assert KeyDecoder("ascii").feed(b"a\xe9b") and [k.char for k in KeyDecoder("ascii").feed(b"a\xe9b")] == ["a", "b"]


@pytest.mark.parametrize("name", [n for n in KeyName if n not in (KeyName.CHAR, KeyName.RESIZE, KeyName.EOF)])
def test_every_typed_key_has_bytes_that_decode_back_to_it(name: KeyName) -> None:
    """What a relay passes on for a key decoded before the hand-over is
    that key again at the far end."""
    assert decode(key_bytes(Key(name))) == [str(Key(name))]


@given(st.text(st.characters(min_codepoint=0x20).filter(str.isprintable), max_size=20))
def test_typed_characters_decode_back_to_themselves(text: str) -> None:
    """(A ``CHAR`` key holds a printable character: the decoder makes no other.)"""
    assert decode(b"".join(key_bytes(Key(KeyName.CHAR, c)) for c in text)) == list(text)


def test_bytes_not_yet_keys_are_taken_whole_and_the_decoder_starts_afresh() -> None:
    d = KeyDecoder()
    assert [str(k) for k in d.feed(b"a\x1b[")] == ["a"]
    assert d.take_pending(b"Cb") == b"\x1b[Cb"  # half an arrow, then what came after
    assert not d.pending and d.feed(b"c") == [Key(KeyName.CHAR, "c")]
    assert d.feed(b"\xc3") == [] and d.take_pending() == b"\xc3"  # half a UTF-8 character


def test_the_lf_of_a_cr_lf_goes_on_only_with_its_cr() -> None:
    d = KeyDecoder()
    d.feed(b"\r")
    assert d.take_pending(b"\nx") == b"x"  # that Enter was read here: the LF is not another
    d.feed(b"\r")
    assert d.take_pending(b"\nx", enter_passed_on=True) == b"\nx"  # its CR goes on too
