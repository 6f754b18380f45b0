"""Hostile messages for the game protocol, as Hypothesis strategies: valid
documents drawn from the published schemas (``hypothesis-jsonschema``),
and the same documents mutated (a field dropped, retyped, replaced by a
hostile string, a card named twice, a field added), arbitrary JSON, text
that is not JSON, binary frames.  What the door must say to each is
worked out here by the door's own reader (:func:`expected_field`), so a
fuzzer can hold the server to it message by message."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from door.play.api_messages import CLIENT_SCHEMAS, MessageError, read_message

__all__ = ["HOSTILE_TEXT", "JSON_VALUES", "valid_documents", "mutated", "hostile_messages", "expected_field",
           "collected", "as_text",
           "sendable"]

SPECIMENS = ["\ud800", "\udfff", "x\ud800y", "\x1b[2J", "\x07", "\x00", "\x9b", "\u202e", "\u202a", "\u2066",
             "\u2069", "QH\n", "\r\n", "\U0001f600", "\u0301", "\ufeff", "\u200b", "x" * 5000, "'", '"', "\\"]
"""Strings a hostile program would send: lone surrogates, escape
sequences, controls, bidi overrides and isolates, a card with a line
feed, joiners and marks, one too long for any message."""

HOSTILE_TEXT: st.SearchStrategy[str] = st.one_of(
    st.sampled_from(SPECIMENS),
    st.text(st.characters(exclude_categories=()), max_size=30),  # (surrogates included)
    st.builds(lambda a, b, c: a + b + c, st.text(max_size=8), st.sampled_from(SPECIMENS), st.text(max_size=8)),
    st.text(min_size=190, max_size=260),
)
"""Text with what no text field may hold, or too much of it."""

JSON_VALUES: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 70), 2 ** 70) | st.floats() | HOSTILE_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(HOSTILE_TEXT, inner, max_size=3),
    max_leaves=8)
"""Any JSON value (NaN and infinities too: Python's JSON writes them)."""


def valid_documents() -> st.SearchStrategy[dict[str, Any]]:
    """A document valid for one of the client schemas, of any type."""
    return st.one_of([from_schema(schema) for schema in CLIENT_SCHEMAS.values()])


@st.composite
def mutated(draw: st.DrawFn, documents: st.SearchStrategy[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A document from ``documents`` (:func:`valid_documents` unless
    given) with one thing done to one of its fields: dropped, retyped,
    replaced by hostile text, a card repeated, or a field added."""
    doc = dict(draw(documents if documents is not None else valid_documents()))
    field = draw(st.sampled_from(sorted(doc)))
    how = draw(st.sampled_from(["drop", "retype", "hostile", "twice", "extra"]))
    if how == "drop":
        del doc[field]
    elif how == "retype":
        doc[field] = draw(JSON_VALUES)
    elif how == "hostile":
        doc[field] = draw(HOSTILE_TEXT)
    elif how == "twice" and doc["type"] == "discard":
        doc["cards"] = [doc["cards"][0], doc["cards"][0]]
    else:
        doc[draw(HOSTILE_TEXT | st.sampled_from(["cards", "name", "seat", "x"]))] = draw(JSON_VALUES)
    return doc


def as_text(doc: Any) -> str:
    """``doc`` as a program would send it (a lone surrogate written as its
    JSON escape)."""
    return json.dumps(doc)


def sendable(text: str) -> str:
    """``text`` as a WebSocket text frame can carry it: UTF-8, so each
    lone surrogate becomes U+FFFD (a frame that is not UTF-8 is the
    WebSocket's own error: it closes the connection, 1007)."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def hostile_messages(documents: st.SearchStrategy[dict[str, Any]] | None = None) -> st.SearchStrategy[str | bytes]:
    """One message as sent: a mutated document, any JSON, text that is
    not JSON (a document cut short, say), or a binary frame."""
    return st.one_of(
        mutated(documents).map(as_text),
        JSON_VALUES.map(as_text),
        st.builds(lambda doc, cut: as_text(doc)[:cut], mutated(documents), st.integers(1, 40)),
        HOSTILE_TEXT.map(sendable),
        st.binary(max_size=40),
    )


def expected_field(message: str | bytes) -> str | None:
    """The field the door's ``error`` names for ``message``, or ``None``
    when the door's reader accepts it."""
    try:
        read_message(message)
    except MessageError as exc:
        return exc.field
    return None


def collected(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """``count`` examples of ``strategy`` drawn by Hypothesis (derandomized:
    the same every run), for a scenario too long to run once an example
    (a whole game at a real server)."""
    out: list[Any] = []

    @settings(max_examples=count, deadline=None, database=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example: Any) -> None:
        out.append(example)

    collect()
    return out
