"""Watching a table: the sysop's read-only view of a game, and the
demonstration (the computer against itself, every card face up, as in Cribbage Partner)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from door.play.game_view import paint_game
from door.play.view_state import Mode, ViewState
from door.ui.canvas import Canvas
from door.ui.display import Display
from door.ui.style import BLACK, YELLOW, Style
from engine.events import Event

BANNER = Style(fg=BLACK, bg=YELLOW)
from door.play.table import Table
from door.ui.speech import spoken
from door.ui.words import describe

__all__ = ["Spectator"]


class Spectator:
    """Someone watching a table, read-only: the sysop (both hands stay
    hidden until the show) or a caller watching a demonstration (``reveal``:
    every card face up).  ``prompt``: the bottom line, with ``{a}`` and
    ``{b}`` for the players' names."""

    def __init__(self, display: Display, table: Table, reveal: bool = False,
                 prompt: str = "Watching {a} against {b}. ESC or Q stops watching.",
                 banner: Callable[[], str] = lambda: "") -> None:
        self.display = display
        self.table = table
        self.banner = banner
        """A line to show across the top of the game (a page ringing), or ""."""
        self.prompt = prompt
        self.vs = ViewState(mode=Mode.WAIT, spectator=True, reveal=reveal)
        self.vs.options.box = True
        self.vs.computer = any(s.computer for s in table.seats)
        if table.game is not None:
            self.refresh(table.history)
        self.vs.chat = list(table.chat_log)

    def refresh(self, events: Sequence[Event] = ()) -> None:
        names = [s.name for s in self.table.seats]
        for e in events:
            self.vs.say(*describe(e, -1, names))
            if self.display.lines:  # screen-reader mode: each event said as it happens
                self.display.say(*spoken(e, -1, names))
        self.vs.chat = list(self.table.chat_log)
        self.vs.series = self.table.series.score_words()  # "Rated best of 3: 1-0", as the players see it
        game = self.table.game
        # before a hand is dealt (the players chatting) the chat window, as the players see it
        self.vs.before_deal = game is not None and not game.over and not self.table.dealt.is_set()
        a, b = names
        self.vs.prompt = self.prompt.format(a=a, b=b)
        if self.display.painter == self.paint:
            self.display.refresh_soon()

    def paint(self, canvas: Canvas) -> None:
        if self.table.game is not None:
            paint_game(canvas, self.table.game, 0, [s.name for s in self.table.seats], self.vs)
        banner = self.banner()
        if banner:
            canvas.fill(1, 0, canvas.cols, BANNER)
            canvas.put(1, 1, banner, BANNER)
