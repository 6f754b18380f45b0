"""Text from outside made safe to show: the one cleaning every name, chat
line and page reason passes where it enters, and the one test of what the
game protocol refuses in a text field.

Unsafe in a caller's text are the control characters (C0, DEL and C1:
ESC begins an escape sequence, which would move another caller's cursor,
change their colours or retitle their window), the bidirectional
overrides and isolates U+202A-U+202E and U+2066-U+2069 (they turn what
follows them around on the reader's screen: "Trojan source"), and lone
surrogates (half of a UTF-16 pair: JSON may spell one, ``"\\ud800"``, but
no UTF-8 terminal can be sent one).
"""

from __future__ import annotations

import re

__all__ = ["BIDI_CONTROLS", "REPLACEMENT", "unsafe_char", "first_unsafe", "clean_text"]

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The bidirectional embeddings, overrides and isolates and their ends:
LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI."""

REPLACEMENT = "\ufffd"
"""What a lone surrogate becomes in cleaned text (U+FFFD, the replacement
character; a terminal charset without it shows ``?``)."""


_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Any one character :func:`unsafe_char` gives a reason for."""


def first_unsafe(text: str) -> str | None:
    """The first character of ``text`` that may not be shown as it is
    (:func:`unsafe_char`), or ``None`` (one search in C: a chat line of
    200 characters costs about a microsecond).

    >>> first_unsafe("Ann"), first_unsafe("A\u202eB\x1b")
    (None, '\u202e')
    """
    found = _UNSAFE.search(text)
    return None if found is None else found.group()


def unsafe_char(ch: str) -> str | None:
    """Why the one character ``ch`` may not be shown as it is, in a few
    words, or ``None`` when it may.

    >>> unsafe_char("a"), unsafe_char("\\x1b"), unsafe_char("\\u202e"), unsafe_char("\\ud800")
    (None, 'a control character', 'a bidirectional override', 'a lone surrogate')
    """
    if ch < " " or "\x7f" <= ch < "\xa0":
        return "a control character"
    if ch in BIDI_CONTROLS:
        return "a bidirectional override"
    if "\ud800" <= ch <= "\udfff":
        return "a lone surrogate"
    return None


def clean_text(text: str, limit: int, secret: bool = False) -> str:
    """``text`` as the door shows it: control characters (escape
    sequences' ESC among them) and bidirectional overrides and isolates
    removed, each lone surrogate made :data:`REPLACEMENT`, the ends'
    white space stripped, cut to ``limit`` characters (``limit`` >= 0).
    A ``secret`` (a password, never shown) keeps its bidirectional
    characters, so that one chosen with them still matches.

    >>> clean_text("Ann\\x1b[2J\\u202eevil\\ud800", 20)
    'Ann[2Jevil\\ufffd'
    >>> clean_text("x" * 50, 20) == "x" * 20
    True
    """
    if first_unsafe(text) is None:
        return text.strip()[:limit]  # (most text: nothing to take out)
    out = []
    for ch in text:
        why = unsafe_char(ch)
        if why is None:
            out.append(ch)
        elif why == "a lone surrogate":
            out.append(REPLACEMENT)
        elif secret and why == "a bidirectional override":
            out.append(ch)
    return "".join(out).strip()[:limit]
