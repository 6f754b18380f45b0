"""Output character sets: CP437 for BBS terminals, UTF-8 for the rest, and
plain 7-bit ASCII for dumb terminals.

Screens are drawn with Unicode characters; a :class:`Charset` encodes them
for one session.  Python's ``cp437`` codec cannot encode the suits, which in
CP437 are the glyphs of bytes 0x03-0x06 (heart, diamond, club, spade): they
are mapped here (FIELD_NOTES.md "Terminals and encodings").  A character a
charset cannot show is replaced by a stand-in (``o`` for the game hole ○),
or ``?`` when there is none (a lone surrogate too: encoding never raises).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Charset", "CP437", "UTF8", "ASCII", "PROFILES", "choose_charset", "SUIT_GLYPHS"]

SUIT_GLYPHS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
"""The suit symbols drawn on cards: club, diamond, heart, spade."""

_FALLBACKS = {"\u25cb": "o", "\u25bc": "v"}
"""Stand-ins for glyphs a charset lacks: the game hole (○), and so on."""

_ASCII = {"\u2665": "H", "\u2666": "D", "\u2663": "C", "\u2660": "S", "\u00b7": ".", "\u25a0": "#",
          "\u25cb": "o", "\u2502": "|", "\u2500": "-", "\u2592": "#", "\u2591": ":", "\u25bc": "v",
          "\u2588": "#", **{corner: "+" for corner in "\u250c\u2510\u2514\u2518\u251c\u2524\u252c\u2534\u253c"}}
"""The plain-ASCII profile's letters for suits and lines for box drawing
(a bracket's corners and joints are ``+``)."""

_CP437_SUITS = {"\u2665": b"\x03", "\u2666": b"\x04", "\u2663": b"\x05", "\u2660": b"\x06"}

WIDE_TAIL = "\x00"
"""The cell after a double-width character on a canvas: it is covered by
the character before it, and encodes to nothing in UTF-8 (the terminal has
moved two columns) or to ``?`` where the wide character itself became one
``?``, so every row keeps its width in cells."""

TEXT_CACHE = 4096
"""Strings whose encoding a CP437 or ASCII charset keeps; past that the
cache starts again."""

TEXT_CACHED = 80
"""The longest string (in characters) whose encoding is kept: card faces,
labels and a screen's lines repeat, long text seldom does, so a charset's
cache stays under about 1 MiB whatever callers type or how wide their
terminals are (the charsets are shared by every session of a process)."""

# TTYPE values that mean a BBS terminal expecting CP437 (FIELD_NOTES.md).
_CP437_TERMS = ("ansi", "pcansi", "ansi-bbs", "syncterm", "ansi-256color", "qansi", "scoansi", "cterm")


@dataclass(frozen=True)
class Charset:
    """An output encoding: ``name`` (``"cp437"`` or ``"utf-8"``)."""

    name: str
    _cache: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)
    _texts: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)

    def encode_char(self, ch: str) -> bytes:
        """The bytes for one character (``b"?"`` when it has none)."""
        got = self._cache.get(ch)
        if got is None:
            if ch == WIDE_TAIL:
                got = b"" if self.name == "utf-8" else b"?"
            elif self.name == "ascii":
                got = ch.encode("ascii") if ch < "\x7f" else _ASCII.get(ch, "?").encode("ascii")
            elif self.name == "cp437" and ch in _CP437_SUITS:
                got = _CP437_SUITS[ch]
            else:
                try:
                    got = ch.encode(self.name)
                except UnicodeEncodeError:
                    got = self.encode_char(_FALLBACKS[ch]) if ch in _FALLBACKS else b"?"
            self._cache[ch] = got
        return got

    def encode(self, text: str) -> bytes:
        """Encode a whole string character by character (a string drawn
        before is looked up: frames draw the same card faces, labels and
        lines again and again).  Never raises: what the charset cannot
        encode, a lone surrogate included, becomes a stand-in or ``?``."""
        if self.name == "utf-8":
            text = text.replace(WIDE_TAIL, "") if WIDE_TAIL in text else text
            try:
                return text.encode("utf-8")
            except UnicodeEncodeError:  # (a lone surrogate: UTF-8 has no bytes for one)
                return text.encode("utf-8", "replace")
        got = self._texts.get(text)
        if got is None:
            got = b"".join(self.encode_char(ch) for ch in text)
            if len(text) > TEXT_CACHED:
                return got
            if len(self._texts) >= TEXT_CACHE:
                self._texts.clear()  # (bounded: callers' chat lines are not kept for ever)
            self._texts[text] = got
        return got

    @property
    def color(self) -> bool:
        """Whether screens in this charset use colour (plain ASCII does not)."""
        return self.name != "ascii"

    @property
    def label(self) -> str:
        """The profile's name for callers."""
        return {"utf-8": "UTF-8 ANSI", "cp437": "ANSI-BBS (CP437)", "ascii": "plain ASCII"}[self.name]


CP437 = Charset("cp437")
UTF8 = Charset("utf-8")
ASCII = Charset("ascii")
PROFILES = (UTF8, CP437, ASCII)
"""The terminal profiles, in the order the charset test offers them."""


def choose_charset(term_type: str | None, lang: str | None = None) -> Charset:
    """CP437 for BBS terminal types (``ansi``, ``syncterm``, ...), UTF-8
    otherwise; a ``LANG`` naming UTF-8 wins over an ambiguous type.
    Compared case-insensitively (inetutils telnet sends TERM upper-cased).

    >>> choose_charset("ANSI").name, choose_charset("xterm-256color").name
    ('cp437', 'utf-8')
    """
    term = (term_type or "").strip().lower()
    if term in ("dumb", "tty", "vt52", "glasstty", "ascii"):
        return ASCII
    if lang and "utf-8" in lang.lower().replace("utf8", "utf-8") and term not in _CP437_TERMS:
        return UTF8
    if term in _CP437_TERMS:
        return CP437
    return UTF8
