"""Text as terminal cells: how many cells a string takes (``wcwidth``,
after NFC), a double-width character and its tail, and text cut and
padded to a column's width."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from wcwidth import wcwidth

from door.net.charset import WIDE_TAIL

__all__ = ["cell_width", "cell_chars", "fit", "layout", "ONE_CELL"]


def cell_width(text: str) -> int:
    """``text``'s width in terminal cells (as :meth:`Canvas.put` draws it).

    >>> cell_width("Ann"), cell_width("\u732b\u5b50"), cell_width("e\u0301")
    (3, 4, 1)
    """
    if text.isascii():
        return len(text)
    cells = layout(text)
    return len(text) if cells is None else len(cells)


def cell_chars(text: str) -> list[str]:
    """``text`` as the cells it takes: NFC first (so a letter and its
    accent are one cell), a double-width character followed by
    :data:`~door.net.charset.WIDE_TAIL`, zero-width ones left out, control
    characters as spaces."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        w = wcwidth(ch)
        if w == 2:
            out += [ch, WIDE_TAIL]
        elif w == 1:
            out.append(ch)
        elif w < 0 or ch == WIDE_TAIL:
            out.append(" ")
    return out


@lru_cache(maxsize=4096)
def layout(text: str) -> tuple[str, ...] | None:
    """``text``'s cells when they are not simply one per character (a wide
    or zero-width character, a combining mark); ``None`` for the common
    case (card suits, lines, dots), drawn as fast as ASCII.  Memoized:
    frames draw the same strings again and again."""
    if ONE_CELL.issuperset(text):
        return None  # (checked in C: laying a new message out cell by cell took 13 us)
    cells = cell_chars(text)
    return None if "".join(cells) == text else tuple(cells)


ONE_CELL = frozenset(chr(c) for c in range(0x20, 0x7f)) | frozenset(
    ch for ch in "\u00b7\u00bd\u2014\u2500\u2502\u2510\u2518\u251c\u252c\u2534\u25a0\u25bc\u25cb\u2592\u2660\u2663\u2665\u2666\u00e9"
    if wcwidth(ch) == 1 and unicodedata.normalize("NFC", ch) == ch and not unicodedata.combining(ch))
"""Characters that are one cell each whatever comes next (printable ASCII,
the suits, the board's and the screens' glyphs; each checked with
``wcwidth`` here): a text of only these is drawn one cell a character."""


def fit(text: str, width: int) -> str:
    """``text`` cut and padded to exactly ``width`` cells (a wide
    character that would be cut in half becomes a space), for columns.

    >>> fit("Ann", 5) + "|", fit("\u732b\u732b\u732b", 5) + "|"
    ('Ann  |', '\u732b\u732b |')
    """
    if text.isascii():
        return text[:width].ljust(width)
    out, used = [], 0
    for ch in unicodedata.normalize("NFC", text):
        w = wcwidth(ch)
        if w < 0:
            ch, w = " ", 1
        if used + w > width:
            break
        out.append(ch)
        used += w
    return "".join(out) + " " * (width - used)
