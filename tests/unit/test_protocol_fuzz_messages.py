"""The protocol's reader and the text cleaning, fuzzed (pure: no server):
every document valid for a published schema is accepted as it is, and
the seat can act on it; anything else, however hostile, is a
:class:`MessageError` naming a printable field, never another exception;
cleaned text holds nothing unsafe and every terminal charset encodes any
text at all."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from door.net.charset import PROFILES
from door.play.api_messages import CLIENT_SCHEMAS, MessageError, cards_of, read_message
from door.records.names import clean_name
from door.ui.safe_text import clean_text, unsafe_char
from tests.support.hostile import HOSTILE_TEXT, as_text, hostile_messages, valid_documents

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def safe(text: str) -> bool:
    return all(unsafe_char(ch) is None for ch in text)


def usable(message: dict[str, Any]) -> None:
    """What :meth:`door.play.api_seat.ApiSeat.take` and the session do
    with an accepted message, short of a table: parse its cards, read
    its numbers and texts."""
    Draft202012Validator(CLIENT_SCHEMAS[message["type"]]).validate(message)
    if message["type"] == "discard":
        first, second = cards_of(message["cards"])
        assert first != second
    if message["type"] == "play":
        cards_of([message["card"]])
    for value in message.values():
        assert not isinstance(value, float)
        if isinstance(value, str):
            assert safe(value)
            value.encode("utf-8")


@FUZZ
@given(valid_documents())
def test_every_valid_document_is_accepted_as_it_is(doc: dict[str, Any]) -> None:
    assert read_message(as_text(doc)) == doc
    usable(doc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_messages())
def test_anything_else_is_an_error_naming_a_printable_field(message: str | bytes) -> None:
    try:
        accepted = read_message(message)
    except MessageError as exc:
        assert exc.field and safe(exc.field) and len(exc.field) <= 60, exc.field
        assert safe(str(exc)) and len(str(exc)) <= 200
        return
    usable(accepted)


@FUZZ
@given(st.one_of(HOSTILE_TEXT, st.text(st.characters(exclude_categories=()))), st.integers(0, 100))
def test_cleaned_text_is_safe_and_every_charset_encodes_anything(text: str, limit: int) -> None:
    clean = clean_text(text, limit)
    assert safe(clean) and len(clean) <= limit
    clean.encode("utf-8")
    assert safe(clean_name(text))
    for charset in PROFILES:
        assert isinstance(charset.encode(text), bytes)
