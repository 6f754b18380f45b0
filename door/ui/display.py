"""A session's screen: the current painter, the renderer, and the rule for
windows smaller than 80x24.

Each screen of the door (name prompt, menus, the game) is a *painter*: a
function that draws a whole :class:`Canvas`.  :meth:`Display.refresh` paints
a fresh canvas of the terminal's current size and sends the difference
(:meth:`Display.refresh_soon` does it once for a burst of changes);
:meth:`Display.redraw` sends everything (Ctrl-L, after line noise).
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import AsyncIterator, Callable, Sequence

from door.net.charset import Charset
from door.net.keys import Key, KeyName
from door.net.metrics import KEY_SECONDS
from door.net.terminal import MIN_COLS, MIN_ROWS, HungUp, Terminal
from door.ui.canvas import Canvas
from door.ui.renderer import Renderer
from door.ui.style import YELLOW, Style

__all__ = ["Display", "Painter", "HungUp", "Presentation", "Text"]

Painter = Callable[[Canvas], None]
Text = Callable[[], Sequence[str]]
"""A screen in words: its lines, asked when the screen is said (the line
presentation, :class:`door.ui.line_display.LineDisplay`)."""


class Presentation(enum.Enum):
    """How a session shows the door."""

    SCREEN = "screen"
    """The full screen: cursor addressing, colour, the highlight bar."""
    LINES = "lines"
    """Plain lines only, for a screen reader or a teletype: each screen
    said once, each event a short sentence, choices numbered."""


class Display:
    """The screen of one ``terminal``."""

    presentation = Presentation.SCREEN

    @property
    def lines(self) -> bool:
        """True in the line presentation (a screen says its text, it paints nothing)."""
        return self.presentation is Presentation.LINES

    def say(self, *lines: str) -> None:
        """Say ``lines`` (the line presentation); the full screen shows
        everything through its painter, so here it does nothing."""

    def answer(self, *lines: str) -> bool:
        """Say ``lines`` in answer to the key just read (a wrong key's help,
        a re-read), unless more keys wait: a burst (a paste) is answered
        once, for its last key, as the full screen paints one frame for it.
        True when said; nothing is said here (the painter shows it)."""
        return False

    def prompt(self, text: str) -> None:
        """Write ``text`` where the next keys are typed (the line
        presentation; the painter shows prompts here)."""

    def echo(self, text: str) -> None:
        """Echo typed ``text`` (the line presentation; nothing here: the
        painter shows what is typed)."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.renderer = Renderer(terminal.charset)
        self.painter: Painter | None = None
        self.text: Text | None = None
        """The current screen in words (the line presentation says it)."""
        self.hold: Callable[[], bool] | None = None
        """While this says True no frame is sent (the game screen holds while
        its table writes a move to the store); the next refresh paints."""
        self._soon: asyncio.Handle | None = None
        self._dirty = False  # a refresh waits for the end of a burst of keys

    def close(self) -> None:
        """The session is over: forget the last screen and any refresh to
        come.  A screen's painter usually refers back to this display, and
        without this the pair (and the session behind it) would wait for
        the cyclic collector instead of going at once."""
        if self._soon is not None:
            self._soon.cancel()
            self._soon = None
        self.painter = self.hold = self.text = None

    def too_small(self) -> bool:
        """True when the window is under 80x24 cells."""
        return self.terminal.cols < MIN_COLS or self.terminal.rows < MIN_ROWS

    def show(self, painter: Painter, hold: Callable[[], bool] | None = None, text: Text | None = None) -> None:
        """Make ``painter`` the current screen and send it; ``hold``: see
        :attr:`hold` (a screen of a table holds while the table writes);
        ``text``: the screen in words, for the line presentation."""
        self.painter, self.hold, self.text = painter, hold, text
        self.refresh()

    def refresh(self) -> None:
        """Paint the current screen and send what changed, now."""
        if self._soon is not None:
            self._soon.cancel()
            self._soon = None
        self._dirty = False
        if self.hold is not None and self.hold():
            return
        if self.terminal.buffered() > self.terminal.max_output:
            self.terminal.hold_back()  # not read: paint nothing now, everything once it reads
            return
        canvas = Canvas(self.terminal.cols, self.terminal.rows)
        if self.terminal.dropped_output and self.terminal.buffered() <= self.terminal.max_output:
            self.terminal.dropped_output = False  # some output was held back: send everything again
            self.renderer.invalidate()
        if self.too_small():
            self._paint_too_small(canvas)
        elif self.painter is not None:
            self.painter(canvas)
        self.terminal.write(self.renderer.render(canvas))

    def refresh_soon(self) -> None:
        """Refresh once the current event-loop callback is over: several
        changes made while handling one key or one move (the player's own
        key, then the table's news of it) go out as one frame, painted once.
        While more keys wait to be read (a paste, a flood), the frame waits
        until :meth:`keys` has handled them all: one frame per burst."""
        if self.terminal.has_input():
            self._dirty = True
            return
        if self._soon is None:
            self._soon = asyncio.get_running_loop().call_soon(self._refresh_now)

    def _refresh_now(self) -> None:
        self._soon = None
        if not self.terminal.closed:
            self.refresh()

    async def keys(self, tick: float | Callable[[], float | None] | None = None) -> AsyncIterator[Key | None]:
        """The one key loop of every screen: the caller's keys, one at a
        time.  When the connection ends it raises :class:`HungUp` (the one
        place a hang-up is found; a screen never checks for one).

        Before each wait it sends what is pending (and waits while the
        caller's side is full); Ctrl-L redraws and a window change repaints
        here, never reaching the screen's own handler; with ``tick`` (in
        seconds) it yields ``None`` at each whole multiple of ``tick`` on
        the event loop's clock that passes with no key (all sessions tick
        together), for countdowns and clocks; a callable ``tick`` is asked
        before each wait (``None``: no clock now; a screen that starts one
        calls :meth:`~door.net.terminal.Terminal.wake`).  While the window
        is too small to show the screen (:meth:`too_small`), keys are
        dropped: none acts on a screen the caller cannot see.  The idle
        timeout and its warning are the terminal's
        (:meth:`~door.net.terminal.Terminal.get_key`)."""
        terminal = self.terminal
        loop = asyncio.get_running_loop()
        since: float | None = None  # when the key being answered was handed to the screen
        while True:
            if terminal.has_input():
                await asyncio.sleep(0)  # between keys of a burst, every other session gets its turn
            else:
                if self._dirty:
                    self.refresh()  # the burst is over: one frame for all of it
                if since is not None:
                    KEY_SECONDS.observe(loop.time() - since)  # (the frame is written: the key is answered)
                    since = None
                await terminal.drain()
            every = tick() if callable(tick) else tick
            if every is None:
                key = await terminal.get_key()
            else:
                # ticks fall on whole multiples of ``every`` on the loop's
                # clock: every session's clock wakes the door once, together,
                # not a thousand times a second at scattered moments
                now = asyncio.get_running_loop().time()
                key = await terminal.get_key(timeout=every - now % every)
            if key is None:
                if tick is not None:
                    yield None  # a tick, or a wake-up
                continue
            if key.name is KeyName.EOF:
                raise HungUp()
            if self.screen_key(key):
                continue
            if self.too_small():
                continue  # the caller cannot see the screen the key would act on
            since = loop.time() if since is None else since
            yield key

    def screen_key(self, key: Key) -> bool:
        """Handle the keys every screen treats alike: Ctrl-L redraws, a
        window change repaints.  True when ``key`` was one of them."""
        if key.name is KeyName.CTRL_L:
            self.redraw()
            return True
        if key.name is KeyName.RESIZE:
            self.refresh_soon()
            return True
        return False

    def redraw(self) -> None:
        """Repaint the whole screen (Ctrl-L; a burst of them is one repaint)."""
        self.renderer.invalidate()
        self.refresh_soon()

    def set_charset(self, charset: Charset) -> None:
        """Switch the session's terminal profile and repaint in it."""
        self.terminal.charset = charset
        self.renderer = Renderer(charset)
        self.refresh()

    def _paint_too_small(self, canvas: Canvas) -> None:
        t = self.terminal
        lines = ["Please make this window larger:", f"at least {MIN_COLS}x{MIN_ROWS}, now {t.cols}x{t.rows}."]
        for i, line in enumerate(lines):
            canvas.put(canvas.rows // 2 - 1 + i, 0, line, Style(fg=YELLOW, bold=True))
