"""How a terminal cell looks: :class:`Style` (the 16 colours of the ANSI
standard, foreground 0..7 plus bold for the bright ones, background 0..7;
underline and reverse for a monochrome profile), packed in an ``int``,
and the shortest SGR sequence from one style to another."""

from __future__ import annotations

from functools import lru_cache

from door.net.ansi import CONTROL

__all__ = ["Style", "monochrome", "sgr_transition", "BLACK", "RED", "GREEN", "YELLOW", "BLUE", "MAGENTA", "CYAN",
           "WHITE", "DEFAULT", "PLAIN", "CELLS", "PLAIN_CELL", "BACKGROUND_BITS"]

BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE = range(8)



class Style(int):
    """Colours and intensity of a cell: ``fg`` and ``bg`` 0..7, ``bold``
    (bright foreground); ``underline`` and ``reverse`` stand in for colour
    on a monochrome profile (see :func:`monochrome`).

    An ``int`` (the attributes packed in its bits: ``fg`` 0-2, ``bg``
    3-5, then bold, underline, reverse), so that the renderer compares
    and hashes styles at C speed, and so that a :class:`Canvas` can hold
    each cell's style as one character (the one whose code is the packed
    ``int``): a row's styles are then a string, which the cyclic
    collector never tracks (a band's painting and the screen a session
    shows stay out of every collection).  Two styles are equal
    when their attributes are.

    >>> Style(fg=CYAN, bold=True).fg, Style(fg=CYAN, bold=True).bold, Style() == Style(fg=WHITE)
    (6, True, True)
    """

    __slots__ = ()

    def __new__(cls, fg: int = WHITE, bg: int = BLACK, bold: bool = False, underline: bool = False,
                reverse: bool = False) -> Style:
        if not (0 <= fg <= 7 and 0 <= bg <= 7):
            raise ValueError(f"colours are 0..7, got fg={fg}, bg={bg}")
        return super().__new__(cls, fg | bg << 3 | bool(bold) << 6 | bool(underline) << 7 | bool(reverse) << 8)

    @property
    def fg(self) -> int:
        """Foreground colour, 0..7."""
        return self & 7

    @property
    def bg(self) -> int:
        """Background colour, 0..7."""
        return self >> 3 & 7

    @property
    def bold(self) -> bool:
        """Bright foreground."""
        return bool(self & 64)

    @property
    def underline(self) -> bool:
        """Underlined (monochrome profile)."""
        return bool(self & 128)

    @property
    def reverse(self) -> bool:
        """Reverse video (monochrome profile)."""
        return bool(self & 256)

    @classmethod
    def packed(cls, value: int) -> Style:
        """The style whose attributes ``value`` packs (the code of the
        character a :class:`Canvas` cell holds for its style)."""
        return int.__new__(cls, value)

    def __repr__(self) -> str:
        flags = "".join(f", {name}=True" for name in ("bold", "underline", "reverse") if getattr(self, name))
        return f"Style(fg={self.fg}, bg={self.bg}{flags})"


DEFAULT = Style()
PLAIN = int(DEFAULT)
CELLS = tuple(chr(packed) for packed in range(512))
"""A style as a canvas cell holds it: the character whose code is the
style's packed ``int`` (see :class:`Canvas`)."""
PLAIN_CELL = CELLS[PLAIN]
BACKGROUND_BITS = 0b111 << 3 | 1 << 7 | 1 << 8
"""A style's bits that erasing a line (EL) paints with: the background,
underline and reverse."""


@lru_cache(maxsize=256)
def monochrome(style: int) -> Style:
    """A colour style (a :class:`Style`, or the ``int`` it packs)
    as the monochrome profile shows it: no colours; the cyan bar and the
    blue title and card backs in reverse video, the yellow selection
    underlined, bold kept."""
    cell = Style.packed(style)
    return Style(bold=cell.bold, underline=cell.bg == YELLOW, reverse=cell.bg in (CYAN, BLUE))


@lru_cache(maxsize=4096)
def sgr_transition(old: int | None, new: int) -> str:
    """The shortest SGR sequence that turns attributes ``old`` (``None``:
    unknown) into ``new`` (each a :class:`Style` or the ``int`` it
    packs).

    >>> sgr_transition(Style(), Style(fg=CYAN))
    '\\x1b[36m'

    Memoized: a screen uses a few dozen pairs."""
    if old == new:
        return ""
    n = Style.packed(new)
    o = None if old is None else Style.packed(old)
    # (a reset is "ESC [ 0 m", not a bare "ESC [ m": old BBS terminals are not all sure of it)
    by_reset = CONTROL["sgr"].format(params=";".join(["0", *_turned_on(n, Style())]))
    if o is None or (o.bold and not n.bold) or (o.underline and not n.underline) or (
            o.reverse and not n.reverse):
        return by_reset  # these attributes have no widely known "off" code: reset, then set
    by_change = CONTROL["sgr"].format(params=";".join(_turned_on(n, o)))
    return by_change if len(by_change) <= len(by_reset) else by_reset


def _turned_on(new: Style, old: Style) -> list[str]:
    """The SGR parameters that give a terminal showing ``old`` the
    attributes of ``new`` it lacks, and its colours where they differ.

    >>> _turned_on(Style(fg=CYAN, bold=True), Style())
    ['1', '36']
    """
    params = [code for code, wanted, had in (("1", new.bold, old.bold), ("4", new.underline, old.underline),
                                            ("7", new.reverse, old.reverse)) if wanted and not had]
    if new.fg != old.fg:
        params.append(str(30 + new.fg))
    if new.bg != old.bg:
        params.append(str(40 + new.bg))
    return params
