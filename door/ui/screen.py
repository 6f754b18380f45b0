"""A grid of styled cells and a renderer that sends only what changed.

Views paint a :class:`Canvas` (character + :class:`Style` per cell) from
scratch for every frame; :class:`Renderer` compares it with the frame the
terminal already shows and emits cursor moves, SGR changes and characters for
the changed cells only, in one buffer.  A full redraw (first paint, resize,
Ctrl-L) clears and repaints everything.  Escape sequences come from one table,
:data:`CONTROL`.

Colours are the 16 of the ANSI standard: foreground 0..7 plus bold for the
bright ones, background 0..7.  The renderer never writes the bottom-right
cell (a BBS terminal such as SyncTERM scrolls when it is written).
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from itertools import count

from wcwidth import wcwidth

from door.net.ansi import CONTROL
from door.net.charset import WIDE_TAIL, Charset

__all__ = ["Style", "Canvas", "Band", "Renderer", "cell_width", "cell_chars", "fit", "CONTROL", "monochrome", "sgr_transition", "BLACK", "RED", "GREEN", "YELLOW",
           "BLUE", "MAGENTA", "CYAN", "WHITE", "DEFAULT"]

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
_PLAIN = int(DEFAULT)
_CELLS = tuple(chr(packed) for packed in range(512))
"""A style as a canvas cell holds it: the character whose code is the
style's packed ``int`` (see :class:`Canvas`)."""
_PLAIN_CELL = _CELLS[_PLAIN]
_BACKGROUND_BITS = 0b111 << 3 | 1 << 7 | 1 << 8
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
    reset = ["0"]  # (not a bare "ESC [ m": old BBS terminals are not all sure of it)
    if n.bold:
        reset.append("1")
    if n.underline:
        reset.append("4")
    if n.reverse:
        reset.append("7")
    if n.fg != WHITE:
        reset.append(str(30 + n.fg))
    if n.bg != BLACK:
        reset.append(str(40 + n.bg))
    by_reset = CONTROL["sgr"].format(params=";".join(reset))
    if o is None or (o.bold and not n.bold) or (o.underline and not n.underline) or (
            o.reverse and not n.reverse):
        return by_reset  # these attributes have no widely known "off" code: reset, then set
    params = []
    if n.bold and not o.bold:
        params.append("1")
    if n.underline and not o.underline:
        params.append("4")
    if n.reverse and not o.reverse:
        params.append("7")
    if n.fg != o.fg:
        params.append(str(30 + n.fg))
    if n.bg != o.bg:
        params.append(str(40 + n.bg))
    by_change = CONTROL["sgr"].format(params=";".join(params))
    return by_change if len(by_change) <= len(by_reset) else by_reset


def cell_width(text: str) -> int:
    """``text``'s width in terminal cells (as :meth:`Canvas.put` draws it).

    >>> cell_width("Ann"), cell_width("\u732b\u5b50"), cell_width("e\u0301")
    (3, 4, 1)
    """
    if text.isascii():
        return len(text)
    cells = _layout(text)
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
def _layout(text: str) -> tuple[str, ...] | None:
    """``text``'s cells when they are not simply one per character (a wide
    or zero-width character, a combining mark); ``None`` for the common
    case (card suits, lines, dots), drawn as fast as ASCII.  Memoized:
    frames draw the same strings again and again."""
    if _ONE_CELL.issuperset(text):
        return None  # (checked in C: laying a new message out cell by cell took 13 us)
    cells = cell_chars(text)
    return None if "".join(cells) == text else tuple(cells)


_ONE_CELL = frozenset(chr(c) for c in range(0x20, 0x7f)) | frozenset(
    ch for ch in "\u00b7\u00bd\u2014\u2500\u2502\u25a0\u25bc\u25cb\u2592\u2660\u2663\u2665\u2666\u00e9"
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


class Canvas:
    """A ``cols`` x ``rows`` grid of (character, :class:`Style`) cells.

    Writing outside the grid is clipped silently, so views may draw without
    checking bounds.

    Each row is a sequence of characters (:attr:`chars`) and one of styles
    (:attr:`styles`, each cell's style as the character whose code is the
    :class:`Style`'s packed ``int``, :meth:`style_at`): two strings while
    the row is blank or a band's (shared, read-only), lists once the
    canvas has written to it (:meth:`writable` copies it first), strings
    again once :meth:`seal` has made the canvas read-only (and its lists
    of rows tuples: a band's painting is then one object the collector
    traces, the canvas itself, where it was three).  A string is
    never tracked by the cyclic collector: a band's painting, kept for
    seconds, and the screen a renderer shows hold nothing it traces (as
    lists of style objects, bands were nine tenths of what the collector
    traced in a young collection at 300 callers; as tuples of ints,
    traced once each, still six tenths of what a young collection
    visited), and rows compare at ``memcmp`` speed.  A frame's untouched
    rows are neither built nor joined.
    """

    __slots__ = ("cols", "rows", "chars", "styles", "cursor", "wide", "kept")

    def __init__(self, cols: int, rows: int) -> None:
        if cols < 1 or rows < 1:
            raise ValueError(f"a canvas needs at least 1x1 cells, got {cols}x{rows}")
        self.cols = cols
        self.rows = rows
        blank, plain = _blank_row(cols)
        self.chars: Sequence[Sequence[str]] = [blank] * rows  # (one blank row shared: copied when written)
        self.styles: Sequence[Sequence[str]] = [plain] * rows
        self.cursor: tuple[int, int] | None = None
        """Where the cursor should rest (row, col), or ``None`` to hide it."""
        self.wide = False
        """True once a double-width character was put (before that no cell
        can be the covered half of one, and :meth:`put` skips the checks)."""
        self.kept: dict[int, tuple[int, int]] = {}
        """Rows that are a :class:`Band`'s rows, shared rather than copied
        (:meth:`share`), by row: (the band's painting, its row).  Writing
        to such a row copies it first; the renderer skips a row whose
        token it already shows."""

    def seal(self) -> None:
        """Make every row read-only (its characters and its styles
        strings): the canvas is painted and will not be written again (a
        :class:`Band`'s painting)."""
        # tuples of strings: untracked by the collector's first look at them,
        # which leaves a band's painting one object it traces, the canvas
        self.chars = tuple(row if type(row) is str else "".join(row) for row in self.chars)
        self.styles = tuple(row if type(row) is str else "".join(row) for row in self.styles)

    def _grid(self) -> tuple[list[Sequence[str]], list[Sequence[str]]]:
        """The lists of rows, to put a row in.  Raises ``TypeError`` on a
        sealed canvas (:meth:`seal`: a band's painting is never written)."""
        chars, styles = self.chars, self.styles
        if not isinstance(chars, list) or not isinstance(styles, list):
            raise TypeError("a sealed canvas is not written to")
        return chars, styles

    def style_at(self, row: int, col: int) -> Style:
        """The style of the cell at (``row``, ``col``)."""
        return Style.packed(ord(self.styles[row][col]))

    def writable(self, row: int) -> tuple[list[str], list[str]]:
        """``row``'s characters and styles as lists to write to: a row
        that is not yet this canvas's own (still blank, or a band's
        shared by :meth:`share`: strings) is copied first."""
        chars, styles = self.chars[row], self.styles[row]
        if type(chars) is list and type(styles) is list:
            return chars, styles
        grid_chars, grid_styles = self._grid()
        self.kept.pop(row, None)
        chars = grid_chars[row] = list(chars)
        styles = grid_styles[row] = list(styles)
        return chars, styles

    def put(self, row: int, col: int, text: str, style: Style = DEFAULT) -> int:
        """Write ``text`` from (``row``, ``col``); returns the column after it.
        Text is measured in terminal cells (``wcwidth``): a double-width
        character takes two cells (the second holds
        :data:`~door.net.charset.WIDE_TAIL`), a combining mark that does
        not compose (NFC) and other zero-width characters take none and are
        left out, control characters are drawn as spaces."""
        if not text.isascii():
            cells = _layout(text)
            if cells is not None:
                return self._put_wide(row, col, cells, style)
        end = col + len(text)  # one cell a character (ASCII, suits, lines, the board's dots)
        if 0 <= row < self.rows:
            start, stop = max(col, 0), min(end, self.cols)
            if start < stop:
                piece = text[start - col:stop - col]
                if not piece.isprintable():  # control characters (and a few unusual spaces: kept as they are)
                    piece = "".join(ch if ch >= " " and ch != "\x7f" else " " for ch in piece)
                chars, styles = self.writable(row)
                if self.wide:
                    if chars[start] == WIDE_TAIL and start > 0:
                        chars[start - 1] = " "  # a wide character there loses its right half
                    if stop < self.cols and chars[stop] == WIDE_TAIL:
                        chars[stop] = " "  # ... or its left half
                chars[start:stop] = piece
                styles[start:stop] = _CELLS[style] * (stop - start)
        return end

    def line(self, row: int, col: int, text: str, style: Style = DEFAULT) -> None:
        """Make ``row`` a blank row with ``text`` from ``col`` in ``style``
        (what :meth:`put` draws on a blank row; whatever the row held is
        replaced).  The row comes from a memo of such rows shared by every
        canvas (:func:`_line`), read-only like a band's: a message, a chat
        line or a prompt is laid out once however many frames show it, and
        the renderer finds the row it already shows by identity."""
        if not 0 <= row < self.rows:
            return
        long = len(text) > 2 * self.cols  # (a caller's long text: drawn on a blank row, not kept in the memo)
        chars, styles = _blank_row(self.cols) if long else _line(self.cols, col, text, int(style))
        grid_chars, grid_styles = self._grid()
        grid_chars[row], grid_styles[row] = chars, styles
        self.kept.pop(row, None)
        self.wide = self.wide or WIDE_TAIL in chars
        if long:
            self.put(row, col, text, style)

    def _put_wide(self, row: int, col: int, cells: tuple[str, ...], style: Style) -> int:
        self.wide = True
        end = col + len(cells)
        if not 0 <= row < self.rows:
            return end
        start, stop = max(col, 0), min(end, self.cols)
        if start >= stop:
            return end
        piece = list(cells[start - col:stop - col])
        if piece[0] == WIDE_TAIL:  # the left half of a wide character is clipped away
            piece[0] = " "
        if piece[-1] != WIDE_TAIL and stop - col < len(cells) and cells[stop - col] == WIDE_TAIL:
            piece[-1] = " "  # its right half would fall off the edge
        chars, styles = self.writable(row)
        if start > 0 and chars[start] == WIDE_TAIL:
            chars[start - 1] = " "  # a wide character on the canvas loses its right half
        if stop < self.cols and chars[stop] == WIDE_TAIL:
            chars[stop] = " "  # ... or its left half
        chars[start:stop] = piece
        styles[start:stop] = _CELLS[style] * (stop - start)
        return end

    def blit(self, row: int, col: int, source: Canvas, first_col: int = 0) -> None:
        """Copy the cells of ``source`` from its column ``first_col`` on,
        with its top-left cell at (``row``, ``col`` + ``first_col``);
        clipped like :meth:`put`.  Used for parts drawn once and reused
        (the empty pegboard)."""
        start = max(col + first_col, 0)
        stop = min(col + source.cols, self.cols)
        if start >= stop:
            return
        self.wide = self.wide or source.wide
        for r in range(source.rows):
            if 0 <= row + r < self.rows:
                chars, styles = self.writable(row + r)
                chars[start:stop] = source.chars[r][start - col:stop - col]
                styles[start:stop] = source.styles[r][start - col:stop - col]

    def share(self, top: int, source: Canvas, serial: int) -> None:
        """Make rows ``top`` .. of this canvas ``source``'s rows (the same
        width), shared rather than copied: a :class:`Band`'s, painted as
        its painting number ``serial`` and never written again (this
        canvas copies a row before it writes to it, :meth:`writable`)."""
        if source.cols != self.cols:
            raise ValueError(f"a band {source.cols} cells wide on a canvas {self.cols} wide")
        self.wide = self.wide or source.wide
        (chars, styles), kept = self._grid(), self.kept
        for r in range(max(0, -top), min(source.rows, self.rows - top)):
            chars[top + r] = source.chars[r]
            styles[top + r] = source.styles[r]
            kept[top + r] = (serial, r)

    def fill(self, row: int, col: int, width: int, style: Style = DEFAULT, ch: str = " ") -> None:
        """Fill ``width`` cells of ``row`` from ``col`` with ``ch`` in ``style``."""
        self.put(row, col, ch * max(0, width), style)

    def text(self, row: int) -> str:
        """The characters of ``row`` as a string (for tests and logs)."""
        chars = self.chars[row]
        return chars if isinstance(chars, str) else "".join(chars)


class Band:
    """Whole rows of a screen (the title bar, the pegboard, the message
    area) painted once and copied into each frame while what they show is
    the same: a frame then paints only the parts that changed.

    :meth:`draw` takes a ``key``, a hashable value of everything the
    band's painter reads; the band is painted again when the key, the
    width or the height differs from the last one."""

    __slots__ = ("key", "canvas", "serial")

    def __init__(self) -> None:
        self.key: Hashable = None
        self.canvas: Canvas | None = None
        self.serial = 0
        """Which painting of any band this one's is (:data:`_PAINTINGS`):
        with the row, what tells the renderer a row is the one it shows."""

    def draw(self, canvas: Canvas, top: int, height: int, key: Hashable, paint: Callable[[Canvas], None]) -> None:
        """Copy the band into ``canvas``'s rows ``top`` .. ``top`` +
        ``height`` - 1, painting it first (``paint`` draws it from its own
        row 0) when ``key`` or the size changed.  Nothing for a height
        under 1."""
        if height < 1:
            return
        band = self.canvas
        if band is None or band.cols != canvas.cols or band.rows != height or key != self.key:
            band = Canvas(canvas.cols, height)
            paint(band)
            band.seal()
            self.canvas, self.key, self.serial = band, key, next(_PAINTINGS)
        canvas.share(top, band, self.serial)


@lru_cache(maxsize=64)
def _blank_row(cols: int) -> tuple[str, str]:
    """A blank row ``cols`` cells wide (its characters, its styles),
    shared by every canvas of that width until it writes to the row: a
    frame paints a few rows of its own and copies the bands' for the rest,
    and the renderer compares an unwritten row with the blank one it
    shows by identity."""
    return " " * cols, _PLAIN_CELL * cols


@lru_cache(maxsize=4096)
def _line(cols: int, col: int, text: str, style: int) -> tuple[str, str]:
    """A row ``cols`` cells wide, blank but for ``text`` from ``col`` in
    ``style`` (a packed :class:`Style`), as two strings (:meth:`Canvas.line`).
    Memoized: the same lines are drawn frame after frame, by every
    session; a line typed by a caller is at most a row of cells."""
    canvas = Canvas(cols, 1)
    canvas.put(0, col, text, Style.packed(style))
    return canvas.text(0), "".join(canvas.styles[0])


_PAINTINGS = count(1)
"""Numbers every band's paintings, in this process, never twice."""


MAX_REORDERED = 3
"""Rows with at most this many changed spans are also tried right to left
(the renderer sends the cheaper order)."""


class Renderer:
    """Sends frames to one terminal, only the changes after the first.

    ``charset`` encodes the characters.  :meth:`render` returns the bytes to
    write for a new canvas; :meth:`invalidate` forces the next frame to be a
    full redraw (after a resize or Ctrl-L, or when line noise may have
    garbled the screen).
    """

    def __init__(self, charset: Charset) -> None:
        self.charset = charset
        self._mono = not charset.color  # styles drawn as monochrome shows them (asked once: a hot path)
        # the frame on screen: each row's characters as one string (compact:
        # a session keeps it for as long as it is connected) and its styles
        # (as a canvas holds them, a string: the collector does not trace them)
        self._size: tuple[int, int] | None = None
        self._rows: list[str] = []
        self._styles: list[str] = []
        self._kept: list[tuple[int, int] | None] = []  # the band row each screen row shows (Canvas.kept)
        self._style: int | None = None
        self._pos: tuple[int, int] | None = None
        self.frames = 0

    def invalidate(self) -> None:
        """Make the next :meth:`render` repaint the whole screen."""
        self._size = None

    def render(self, canvas: Canvas) -> bytes:
        """The bytes that make the terminal show ``canvas`` (which the
        caller may change or drop afterwards)."""
        out: list[str | bytes] = []
        if self._size != (canvas.cols, canvas.rows):
            out.append(CONTROL["hide_cursor"] + CONTROL["reset"] + CONTROL["clear"] + CONTROL["home"])
            self._style = DEFAULT
            self._pos = (0, 0)
            self._size = (canvas.cols, canvas.rows)
            blank, plain = _blank_row(canvas.cols)
            self._rows = [blank] * canvas.rows
            self._styles = [plain] * canvas.rows
            self._kept = [None] * canvas.rows
        if canvas.cols > 1 and canvas.chars[-1][-1] == WIDE_TAIL:
            canvas.writable(canvas.rows - 1)[0][-2:] = [" ", " "]  # a wide character would write the bottom-right cell (SyncTERM scrolls)
        kept, shown = canvas.kept, self._kept
        for row, (chars, styles) in enumerate(zip(canvas.chars, canvas.styles)):
            token = kept.get(row)
            if token is not None and token == shown[row]:
                continue  # a band's row, unchanged since this renderer sent it
            shown[row] = token
            text = chars if isinstance(chars, str) else "".join(chars)  # (a band's row is a string already)
            cells = styles if isinstance(styles, str) else "".join(styles)
            # most rows of a frame are as they were: skipped here, at C speed
            if text != self._rows[row] or cells != self._styles[row]:
                self._render_row(canvas, row, text, cells, out)
        if canvas.cursor is not None:
            r, c = canvas.cursor
            if self._pos != (r, c):
                out.append(_cup(r, c))
                self._pos = (r, c)
        self.frames += 1
        # characters are already bytes; the str parts are escape sequences (ASCII)
        return b"".join(x if isinstance(x, bytes) else x.encode("ascii") for x in out)

    def _render_row(self, canvas: Canvas, row: int, text: str, new_s: str,
                    out: list[str | bytes]) -> None:
        """Append what turns the shown ``row`` into ``canvas``'s (``text``:
        its characters joined, one a cell, ``new_s`` its styles; either
        differs from what is shown): spans of changed cells, joined over gaps
        that cost fewer bytes to rewrite than to step over, each span
        written in runs of one style."""
        old_c, old_s = self._rows[row], self._styles[row]
        cols = canvas.cols
        last = cols - 1 if row == canvas.rows - 1 else cols
        # the changed cells, compared at the speed of comprehensions over zip
        if text == old_c:  # only colours changed (the bar moved over a card)
            changed = [c for c, a, b in zip(range(last), new_s, old_s) if a is not b and a != b]
        elif new_s == old_s:  # only characters changed
            changed = [c for c, a, b in zip(range(last), text, old_c) if a != b]
        else:
            changed = [c for c, a, b, x, y in zip(range(last), text, old_c, new_s, old_s) if a != b or x != y]
        if WIDE_TAIL in text or WIDE_TAIL in old_c:
            changed = _whole_wide(changed, text, last)
        # the frame on screen, kept by the renderer (two strings):
        # the canvas then dies young, freed without the cyclic collector ever
        # tracing it
        self._rows[row] = text
        self._styles[row] = new_s
        if not changed:  # (the bottom-right cell alone: never written)
            return
        # the row's blank tail: erased with EL rather than written as spaces
        erase = None
        el = len(CONTROL["erase_line"])
        blank = len(text.rstrip(" "))  # (a coloured space, the bar or a title, is not blank: below)
        if changed[-1] >= blank and last - blank >= el:
            tail = new_s[blank:]
            if tail.count(_PLAIN_CELL) != len(tail):  # (counted at C speed: usually all of it)
                for c in range(cols - 1, blank - 1, -1):
                    if new_s[c] != _PLAIN_CELL:
                        blank = c + 1
                        break
            if changed[-1] >= blank and last - blank >= el:
                split = bisect_left(changed, blank)
                erase = changed[split]
                del changed[split:]
        spans: list[tuple[int, int]] = []
        if changed:
            mono = self._mono
            first = changed[0]
            # the gaps between runs of adjacent changed cells: (end of a run,
            # start of the next); none when the changed cells are one run
            gaps = [] if changed[-1] - first == len(changed) - 1 else [
                (a + 1, b) for a, b in zip(changed, changed[1:]) if b != a + 1]
            narrow = WIDE_TAIL not in text  # (every cell then costs a byte or more to rewrite)
            for end, nxt in gaps:
                step = len(_cuf(nxt - end))
                if narrow and nxt - end >= step:  # rewriting the gap cannot cost less than stepping over it
                    spans.append((first, end))
                    first = nxt
                    continue
                style = ord(new_s[end - 1])
                if self._bridge_cost(text, new_s, end, nxt, monochrome(style) if mono else style) >= step:
                    spans.append((first, end))
                    first = nxt
            spans.append((first, changed[-1] + 1))
        if 2 <= len(spans) <= MAX_REORDERED:
            # a few spans (a bar move: the old card and the new): written
            # right to left when that costs fewer bytes, as when the cursor
            # and the colours are already those of the rightmost span
            before = (self._style, self._pos)
            forward = self._emit_spans(row, spans, text, new_s, cols)
            after = (self._style, self._pos)
            self._style, self._pos = before
            backward = self._emit_spans(row, spans[::-1], text, new_s, cols)
            if sum(map(len, forward)) <= sum(map(len, backward)):
                self._style, self._pos = after
                out.extend(forward)
            else:
                out.extend(backward)
        elif spans:
            out.extend(self._emit_spans(row, spans, text, new_s, cols))
        if erase is not None:
            self._goto(row, erase, text, new_s, out)
            if self._style is None or self._style & _BACKGROUND_BITS:
                out.append(sgr_transition(self._style, _PLAIN))  # EL fills with the current background
                self._style = _PLAIN
            out.append(CONTROL["erase_line"])

    def _emit_spans(self, row: int, spans: list[tuple[int, int]], text: str, styles: str,
                    cols: int) -> list[str | bytes]:
        """What writes ``spans`` (cells start .. end - 1 of ``row``, whose
        characters are ``text``) in the order given, from the renderer's
        cursor and attributes (which it moves along)."""
        out: list[str | bytes] = []
        for start, end in spans:
            self._goto(row, start, text, styles, out)
            self._emit_span(text, styles, start, end, out)
            self._pos = (row, end) if end < cols else None
        return out

    def _bridge_cost(self, text: str, styles: str, start: int, stop: int, style: int) -> int:
        """Bytes to rewrite cells ``start`` .. ``stop`` - 1 with the
        terminal in ``style`` (stops counting past a cursor-forward's length)."""
        limit = len(_cuf(stop - start))
        cost = 0
        mono, encode_char = self._mono, self.charset.encode_char
        for c in range(start, stop):
            cell = monochrome(ord(styles[c])) if mono else ord(styles[c])
            if cell != style:
                cost += len(sgr_transition(style, cell))
            cost += len(encode_char(text[c]))
            style = cell
            if cost >= limit:
                break
        return cost

    def _emit_span(self, text: str, styles: str, start: int, stop: int,
                   out: list[str | bytes]) -> None:
        """Write cells ``start`` .. ``stop`` - 1 from the cursor, one SGR per style run."""
        c = start
        encode = self.charset.encode
        while c < stop:
            style = styles[c]
            run = styles[c:stop]
            if run.count(style) == len(run):  # one style to the end (counted at C speed): the usual case
                d = stop
            else:
                d = c + 1
                while styles[d] == style:
                    d += 1
            cell = monochrome(ord(style)) if self._mono else ord(style)
            sgr = sgr_transition(self._style, cell)
            if sgr:
                out.append(sgr)
                self._style = cell
            out.append(encode(text[c:d]))
            c = d

    def _goto(self, row: int, col: int, text: str, styles: str, out: list[str | bytes]) -> None:
        """Put the cursor at (row, col) the cheapest way: on the same row,
        rewrite the cells in between, step forward (CUF) or back (CUB);
        otherwise position (CUP)."""
        if self._pos == (row, col):
            return
        moves = [_cup(row, col)]
        if self._pos is not None and self._pos[0] == row:
            here = self._pos[1]
            if here < col:
                cuf = _cuf(col - here)
                if self._style is not None and (col - here < len(cuf) or WIDE_TAIL in text) \
                        and self._bridge_cost(text, styles, here, col, self._style) < len(cuf):
                    self._emit_span(text, styles, here, col, out)
                    self._pos = (row, col)
                    return
                moves.append(cuf)
            else:  # no bare CR: a telnet peer outside binary mode may wait for the LF or NUL after it
                moves.append(_cub(here - col))
        out.append(min(moves, key=len))
        self._pos = (row, col)


def _whole_wide(changed: list[int], chars: str, last: int) -> list[int]:
    """``changed`` with both cells of every double-width character it
    touches: a span never starts on the covered half, nor ends between the
    halves (the terminal would move two columns for one cell)."""
    cells = set(changed)
    for c in changed:
        if chars[c] == WIDE_TAIL and c > 0:
            cells.add(c - 1)
        if c + 1 < last and chars[c + 1] == WIDE_TAIL:
            cells.add(c + 1)
    return sorted(cells)


@lru_cache(maxsize=4096)
def _cup(row: int, col: int) -> str:
    """Cursor position (CUP) to 0-based (``row``, ``col``); the column
    left out at the first (memoized: ``str.format`` was a tenth of the
    renderer's time)."""
    return CONTROL["move"].format(row=row + 1, col=col + 1) if col else CONTROL["move_row"].format(row=row + 1)


@lru_cache(maxsize=512)
def _cuf(n: int) -> str:
    """Cursor forward ``n`` cells (CUF; the 1 is implied)."""
    return CONTROL["forward"].format(n=n) if n > 1 else CONTROL["forward_1"]


@lru_cache(maxsize=512)
def _cub(n: int) -> str:
    """Cursor back ``n`` cells (CUB; the 1 is implied)."""
    return CONTROL["back"].format(n=n) if n > 1 else CONTROL["back_1"]
