"""Bad text is an error where it enters, never an exception: the one
cleaning of names, chat and page reasons; every terminal charset encodes
anything; the protocol's reader names the field of whatever it refuses,
and what it accepts a program's seat can always act on."""

from __future__ import annotations

import pytest

from door.net.charset import PROFILES
from door.play.api_messages import MessageError, cards_of, read_message
from door.records.names import clean_name, name_key
from door.ui.safe_text import clean_text, unsafe_char
from door.ui.words import strip_controls

HOSTILE = "Ann\x1b[2J\x07\x9b\u202eevil\u2066\u2069\ud800\udfff"


def test_one_cleaning_removes_controls_and_bidi_and_replaces_lone_surrogates() -> None:
    assert clean_text(HOSTILE, 40) == "Ann[2Jevil\ufffd\ufffd"
    assert strip_controls(HOSTILE, 40) == clean_text(HOSTILE, 40)
    assert clean_text("x" * 50, 20) == "x" * 20
    assert clean_text("pass\u202eword\x07", 20, secret=True) == "pass\u202eword"  # (a password keeps its own)
    assert clean_text("\U0001f600 ok", 10) == "\U0001f600 ok"  # (a whole pair is a character like any other)


def test_a_name_loses_what_chat_loses_and_keeps_its_spaces() -> None:
    assert clean_name("  Ann\tLee\u202e\u200b ") == "Ann Lee"
    assert "\ud800" not in clean_name("Ann\ud800") and name_key("Ann\ud800") == name_key(clean_name("Ann\ud800"))
    clean_name("Ann\ud800").encode("utf-8")  # (a name the store can keep)


@pytest.mark.parametrize("charset", PROFILES, ids=lambda c: c.name)
def test_every_charset_encodes_anything(charset) -> None:  # type: ignore[no-untyped-def]
    for text in ("Hello\ud800World", "\udfff", "x" * 100 + "\ud800", "\u202e\x1b\u2665"):
        got = charset.encode(text)
        assert b"?" in got or b"\x03" in got or "\u2665".encode() in got
    assert charset.encode("Hello\ud800World").replace(b"?", b"") == b"HelloWorld"
    assert charset.encode_char("\ud800") == b"?"


@pytest.mark.parametrize("text, field, words", [
    ('{"type": "discard", "cards": ["QH", "QH"]}', "cards", "each card once"),
    ('{"type": "play", "card": "QH\\n"}', "card", "control character"),
    ('{"type": "chat", "text": "Hello\\ud800World"}', "text", "lone surrogate"),
    ('{"type": "chat", "text": "abc\\u202edef"}', "text", "bidirectional override"),
    ('{"type": "chat", "text": "\\u001b[2J"}', "text", "control character"),
    ('{"type": "login", "name": "Ann\\ud800"}', "name", "lone surrogate"),
    ('{"type": "login", "name": "\\u2066Ann"}', "name", "bidirectional override"),
    ('{"type": "login", "name": "Ann", "password": "x\\udfff"}', "password", "lone surrogate"),
    ('{"type": "page", "reason": "why\\ud800"}', "reason", "lone surrogate"),
    ('{"type": "watch", "player": "\\u0085x"}', "player", "control character"),
    ('{"type": "challenge", "name": "Bob", "best_of": 3.0}', "best_of", "whole number"),
    ('{"type": "claim", "points": 5.0}', "points", "whole number"),
    ('{"type": "claim", "points": 1e400}', "points", "integer"),
    ('{"type": "claim", "points": 30}', "points", "maximum"),
    ('{"type": "claim"}', "points", "required"),
    ('{"type": "lobby", "\\ud800x": 1}', '"\\ud800x"', "not allowed"),
    ('{"type": "lobby", "": 1}', '""', "not allowed"),
    ('{"type": "lobby", "x\'y": 1}', "x'y", "not allowed"),
])
def test_each_bad_message_names_its_field(text: str, field: str, words: str) -> None:
    with pytest.raises(MessageError) as caught:
        read_message(text)
    assert caught.value.field == field
    assert words in str(caught.value)
    assert all(unsafe_char(ch) is None for ch in str(caught.value) + caught.value.field)


def test_what_is_accepted_the_seat_can_read() -> None:
    message = read_message('{"type": "discard", "cards": ["QH", "5S"]}')
    assert [str(c) for c in cards_of(message["cards"])] == ["QH", "5S"]
    assert read_message('{"type": "chat", "text": "hi \\u2665 \\ud83d\\ude00"}')["text"] == "hi \u2665 \U0001f600"
    assert read_message('{"type": "page", "reason": ""}')["reason"] == ""


def test_a_message_nested_too_deeply_is_refused_before_the_parser_recurses(monkeypatch: pytest.MonkeyPatch) -> None:
    """JSON nested thousands deep is refused by counting its brackets, never
    by the parser's RecursionError: a RecursionError caught unsettles
    CPython 3.11's ast (later ``ast.parse`` and pytest's own assertion
    rewriting raise "AST constructor recursion depth mismatch")."""
    from door.play import api_messages

    def parse(text: str) -> object:
        raise AssertionError("the parser was given a message nested too deeply")

    monkeypatch.setattr(api_messages.json, "loads", parse)
    for text in ("[" * 3000, '{"type": "chat", "text": ' + "[" * 40 + "]" * 40 + "}"):
        with pytest.raises(api_messages.MessageError, match="nested too deeply"):
            api_messages.read_message(text)
