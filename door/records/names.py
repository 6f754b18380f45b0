"""Names as people see them and as the door compares them.

Two names are the same name when their :func:`name_key` is equal: the
Unicode compatibility form (NFKC), case folded, with the *default
ignorable* code points (soft hyphen, zero-width space and joiners,
variation selectors, Hangul fillers, ...) removed and runs of white space
made one space.  So ``"Ａｎｎ"`` (full width), ``"AN\\u00adN"`` (a soft
hyphen) and ``"ann"`` are one name, and nobody can register a lookalike
beside an existing account or a sysop.
"""

from __future__ import annotations

import unicodedata

from door.ui.safe_text import clean_text

__all__ = ["clean_name", "name_key", "is_ignorable"]

_IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong/jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned specials
    (0xE0000, 0xE0FFF),  # tags and variation selectors supplement
)


def is_ignorable(ch: str) -> bool:
    """True for a default-ignorable code point (Unicode's
    Default_Ignorable_Code_Point: the format characters, category Cf, and
    the ranges above) or a control character.

    >>> is_ignorable("\\u00ad"), is_ignorable("\\u200b"), is_ignorable("a")
    (True, True, False)
    """
    cat = unicodedata.category(ch)
    if cat in ("Cf", "Cc"):
        return True
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _IGNORABLE_RANGES)


def clean_name(name: str) -> str:
    """``name`` as the door shows it: cleaned as any caller's text is
    (:func:`door.ui.safe_text.clean_text`: no control characters or
    bidirectional overrides, a lone surrogate made U+FFFD), without
    default-ignorable code points, white space runs made one space, ends
    stripped.

    >>> clean_name("  Ann\\u200b  Lee ")
    'Ann Lee'
    """
    spaced = clean_text("".join(" " if ch.isspace() else ch for ch in name), len(name))
    kept = "".join(ch for ch in spaced if ch == " " or not is_ignorable(ch))
    return " ".join(kept.split())


def name_key(name: str) -> str:
    """The form in which names are compared (NFKC, case folded, ignorables
    and extra white space removed).

    >>> name_key("Ann") == name_key("ANN") == name_key("\\uff21nn") == name_key("A\\u00adnn")
    True
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", clean_name(name)).casefold())
    return clean_name(folded)
