"""What a view paints: a :class:`Canvas`, a grid of characters and styles
painted from scratch for every frame, and :class:`Band`, whole rows
painted once and copied into each frame while what they show is the same.
Writing outside the grid is clipped silently."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from itertools import count

from door.net.charset import WIDE_TAIL
from door.ui.cells import layout
from door.ui.style import CELLS, DEFAULT, PLAIN_CELL, Style

__all__ = ["Canvas", "Band", "blank_row", "PAINTINGS"]


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
        blank, plain = blank_row(cols)
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
            cells = layout(text)
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
                styles[start:stop] = CELLS[style] * (stop - start)
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
        chars, styles = blank_row(self.cols) if long else _line(self.cols, col, text, int(style))
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
        styles[start:stop] = CELLS[style] * (stop - start)
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
        """Which painting of any band this one's is (:data:`PAINTINGS`):
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
            self.canvas, self.key, self.serial = band, key, next(PAINTINGS)
        canvas.share(top, band, self.serial)


@lru_cache(maxsize=64)
def blank_row(cols: int) -> tuple[str, str]:
    """A blank row ``cols`` cells wide (its characters, its styles),
    shared by every canvas of that width until it writes to the row: a
    frame paints a few rows of its own and copies the bands' for the rest,
    and the renderer compares an unwritten row with the blank one it
    shows by identity."""
    return " " * cols, PLAIN_CELL * cols


@lru_cache(maxsize=4096)
def _line(cols: int, col: int, text: str, style: int) -> tuple[str, str]:
    """A row ``cols`` cells wide, blank but for ``text`` from ``col`` in
    ``style`` (a packed :class:`Style`), as two strings (:meth:`Canvas.line`).
    Memoized: the same lines are drawn frame after frame, by every
    session; a line typed by a caller is at most a row of cells."""
    canvas = Canvas(cols, 1)
    canvas.put(0, col, text, Style.packed(style))
    return canvas.text(0), "".join(canvas.styles[0])


PAINTINGS = count(1)
"""Numbers every band's paintings, in this process, never twice."""
