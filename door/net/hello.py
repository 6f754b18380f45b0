"""The one-line hellos that start a relayed caller's connection:
``WORD {json}`` (``NODE`` from a BBS node's door process,
:mod:`door.net.node_socket`; ``PEER`` from another serve process,
:mod:`door.net.peer_socket`).  What both check the same way is here."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from door.net.charset import PROFILES, Charset

__all__ = ["HELLO_LIMIT", "NAME_LIMIT", "encode_hello", "hello_fields", "check_flag", "check_name", "check_whole",
           "check_charset", "profile_named", "printable"]

HELLO_LIMIT = 1024
"""The longest hello line, in bytes (a longer one is refused)."""

NAME_LIMIT = 40
"""The longest user name a hello may carry, in characters (the server cuts it to its own limit)."""


def encode_hello(word: str, fields: dict[str, Any]) -> bytes:
    """The hello line ``WORD {json}\\n``.

    >>> encode_hello("NODE", {"a": 1})
    b'NODE {"a": 1}\\n'
    """
    return word.encode() + b" " + json.dumps(fields).encode("utf-8") + b"\n"


def hello_fields(line: bytes, word: str, names: Iterable[str]) -> dict[str, Any]:
    """The JSON object of the hello ``line`` (``WORD {json}``), which must
    have exactly the fields ``names``.  Raises ``ValueError`` saying what
    is wrong.

    >>> hello_fields(b'PEER {"a": 1}', "PEER", ["a"])
    {'a': 1}
    """
    prefix = word.encode() + b" "
    if not line.startswith(prefix):
        raise ValueError(f"expected: {word} {{json}}")
    try:
        fields = json.loads(line[len(prefix):].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON: {exc}") from None
    expected = sorted(names)
    if not isinstance(fields, dict) or sorted(fields) != expected:
        raise ValueError(f"expected the fields {expected}")
    return fields


def check_flag(label: str, value: Any) -> bool:
    """``value`` when it is a JSON true or false; else ``ValueError``."""
    if not isinstance(value, bool):
        raise ValueError(f"{label}: true or false")
    return value


def check_name(value: Any) -> str:
    """``value`` when it is a name of 1 to :data:`NAME_LIMIT` characters;
    else ``ValueError``."""
    if not isinstance(value, str) or not 0 < len(value) <= NAME_LIMIT:
        raise ValueError(f"name: 1 to {NAME_LIMIT} characters")
    return value


def check_whole(label: str, value: Any, high: int = 99_999) -> int:
    """``value`` when it is a whole number from 0 to ``high`` (not a
    bool); else ``ValueError``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
        raise ValueError(f"{label}: a whole number, 0 to {high}")
    return value


def check_charset(value: Any) -> str:
    """``value`` when it names a charset profile; else ``ValueError``."""
    if value not in {p.name for p in PROFILES}:
        raise ValueError(f"charset: one of {', '.join(p.name for p in PROFILES)}")
    return str(value)


def profile_named(name: str) -> Charset:
    """The charset profile called ``name`` (checked by :func:`check_charset`)."""
    return next(p for p in PROFILES if p.name == name)


def printable(text: str, limit: int) -> str:
    """``text`` without what a hello refuses (control and other
    unprintable characters), at most ``limit`` characters: a client's
    terminal type is whatever it sent.

    >>> printable("xterm\\x1b[31m", 40)
    'xterm[31m'
    """
    return "".join(c for c in text if c.isprintable())[:limit]
