"""The renderer: sends a terminal only what changed between the frame it
shows and a new :class:`~door.ui.canvas.Canvas`, as cursor moves, SGR
changes and characters, in one buffer.  A full redraw (first paint,
resize, Ctrl-L) clears and repaints everything.  Escape sequences come
from one table, :data:`~door.net.ansi.CONTROL`.  The renderer never
writes the bottom-right cell (a BBS terminal such as SyncTERM scrolls when
it is written)."""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

from door.net.ansi import CONTROL
from door.net.charset import WIDE_TAIL, Charset
from door.ui.canvas import Canvas, blank_row
from door.ui.style import BACKGROUND_BITS, DEFAULT, PLAIN, PLAIN_CELL, monochrome, sgr_transition

__all__ = ["Renderer", "MAX_REORDERED"]


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
            blank, plain = blank_row(canvas.cols)
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
        changed = _changed_cells(text, new_s, old_c, old_s, last)
        # the frame on screen, kept by the renderer (two strings):
        # the canvas then dies young, freed without the cyclic collector ever
        # tracing it
        self._rows[row] = text
        self._styles[row] = new_s
        if not changed:  # (the bottom-right cell alone: never written)
            return
        erase = _blank_tail(changed, text, new_s, last, cols)
        spans = self._spans(changed, text, new_s)
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
            if self._style is None or self._style & BACKGROUND_BITS:
                out.append(sgr_transition(self._style, PLAIN))  # EL fills with the current background
                self._style = PLAIN
            out.append(CONTROL["erase_line"])

    def _spans(self, changed: list[int], text: str, new_s: str) -> list[tuple[int, int]]:
        """The spans (start, end) that rewrite the ``changed`` cells: runs
        of them joined over gaps that cost fewer bytes to rewrite than to
        step over."""
        if not changed:
            return []
        spans: list[tuple[int, int]] = []
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
        return spans

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


def _changed_cells(text: str, new_s: str, old_c: str, old_s: str, last: int) -> list[int]:
    """The columns (below ``last``) whose character or style differs
    from what is shown, compared at the speed of comprehensions over zip;
    a wide character's two cells change together."""
    if text == old_c:  # only colours changed (the bar moved over a card)
        changed = [c for c, a, b in zip(range(last), new_s, old_s) if a is not b and a != b]
    elif new_s == old_s:  # only characters changed
        changed = [c for c, a, b in zip(range(last), text, old_c) if a != b]
    else:
        changed = [c for c, a, b, x, y in zip(range(last), text, old_c, new_s, old_s) if a != b or x != y]
    if WIDE_TAIL in text or WIDE_TAIL in old_c:
        changed = _whole_wide(changed, text, last)
    return changed


def _blank_tail(changed: list[int], text: str, new_s: str, last: int, cols: int) -> int | None:
    """Where the row's blank tail starts when it is cheaper erased with EL
    than written as spaces (its changed cells are then taken out of
    ``changed``), else ``None``.  A coloured space (the bar, a title) is
    not blank."""
    el = len(CONTROL["erase_line"])
    blank = len(text.rstrip(" "))
    if changed[-1] < blank or last - blank < el:
        return None
    tail = new_s[blank:]
    if tail.count(PLAIN_CELL) != len(tail):  # (counted at C speed: usually all of it)
        for c in range(cols - 1, blank - 1, -1):
            if new_s[c] != PLAIN_CELL:
                blank = c + 1
                break
    if changed[-1] < blank or last - blank < el:
        return None
    split = bisect_left(changed, blank)
    erase = changed[split]
    del changed[split:]
    return erase
