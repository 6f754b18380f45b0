"""What the sysop console shows, painted: the title and the counts, the
pages ringing, a game waiting for the sysop, the callers (this node's,
then the other nodes'), the events and the key bar.  A function of
:class:`ConsoleShown`; the console (:mod:`door.sysop.console`) makes one
at each drawing and carries out the keys."""

from __future__ import annotations

import time
from dataclasses import dataclass

from door.records.nodes import Present
from door.sysop.console_keys import ConsoleKeys, key_bar
from door.sysop.doing import Activity
from door.sysop.presence import Page, Presence
from door.ui.canvas import Canvas
from door.ui.cells import cell_width, fit
from door.ui.display import Presentation
from door.ui.prompts import TITLE
from door.ui.style import BLACK, CYAN, RED, WHITE, YELLOW, Style
from door.ui.words import wrap

__all__ = ["ConsoleShown", "paint_console", "paint_waiting", "KEYS"]

HEAD = Style(fg=CYAN, bold=True)
TEXT = Style(fg=WHITE)
BAR = Style(fg=BLACK, bg=CYAN)
BANNER = Style(fg=YELLOW, bg=RED, bold=True)
HELP = Style(fg=YELLOW, bold=True)

KEYS = key_bar()
"""The console's two lines of keys: every key it takes (from the table of
its bindings, :data:`~door.sysop.console_keys.CONSOLE_KEYS_HELP`)."""


@dataclass(frozen=True)
class ConsoleShown:
    """What the console shows at one drawing: the sysop's ``name``,
    whether they are ``available``, this node's ``callers`` and everyone
    on line at the other nodes (``elsewhere``: callers and sysops, in the
    lobby's order), the ``pages`` ringing (oldest first), the name of the
    other player of a game that waits for the sysop (``waiting_with``,
    ``None`` when none waits), the ``events`` (oldest first) and the
    ``keys``' state (the selected row, counted over this node's callers
    then the other nodes'; a line being typed; a question)."""

    name: str
    available: bool
    callers: list[Presence]
    elsewhere: list[Present]
    pages: list[Page]
    waiting_with: str | None
    events: list[str]
    keys: ConsoleKeys


def paint_console(canvas: Canvas, shown: ConsoleShown) -> None:
    """The console on ``canvas``: the title, what is on line and the
    pages, the callers (this node's, then the other nodes' callers, then
    their sysops), the events, and the key bar (or the line being typed,
    or a question)."""
    row = _paint_summary(canvas, shown)
    canvas.put(row, 0, f"  {'Name':<16} {'Via':<7} {'From':<21} {'Idle':>5}  Doing", HEAD)
    row = _paint_callers(canvas, shown.callers, row + 1, shown.keys.selected)
    others = [*(p for p in shown.elsewhere if not p.sysop), *(p for p in shown.elsewhere if p.sysop)]
    _paint_elsewhere(canvas, others, row, len(shown.callers), shown.keys.selected)
    _paint_events(canvas, shown.events)
    _paint_keys(canvas, shown.keys)


def paint_waiting(canvas: Canvas, caller: str) -> None:
    """The console while ``caller``, whose page the sysop accepted, sets
    up the game."""
    canvas.fill(0, 0, canvas.cols, TITLE)
    canvas.put(0, 1, "CRIBBAGE DOOR  SYSOP CONSOLE", TITLE)
    canvas.put(10, 4, f"{caller} is choosing how runs count in the play...", HEAD)


def _paint_summary(canvas: Canvas, shown: ConsoleShown) -> int:
    """The title, the counts, the pages ringing and a game waiting for
    the sysop; returns the row of the callers' heading."""
    canvas.fill(0, 0, canvas.cols, TITLE)
    canvas.put(0, 1, f"CRIBBAGE DOOR  SYSOP CONSOLE  {shown.name}", TITLE)
    state = "AVAILABLE" if shown.available else "AWAY"
    canvas.put(0, canvas.cols - len(state) - 8, f"{state}  {time.strftime('%H:%M')}", TITLE)
    games = sum(1 for p in shown.callers if p.table is not None)
    away = sum(1 for person in shown.elsewhere if not person.sysop)  # (the other nodes' callers count too)
    where = f" ({away} on other servers)" if away else ""
    canvas.put(2, 1, f"On line: {len(shown.callers) + away} caller(s){where}, {len(shown.pages)} page(s) waiting, "
                     f"{games} in a game{' here' if away else ''}.", TEXT)
    row = 3
    for page in shown.pages:
        canvas.fill(row, 0, canvas.cols, BANNER)
        canvas.put(row, 1, f"PAGE from {page.presence.name} ({page.seconds_left} s): "
                           f"{page.reason or '(no reason)'}  -  Y accepts, N declines", BANNER)
        row += 1
        if row > 5:
            break
    if shown.waiting_with is not None:
        canvas.put(row, 1, f"Your game with {shown.waiting_with} waits for you: R resumes it.", HELP)
        row += 1
    return row + 1


def _paint_callers(canvas: Canvas, callers: list[Presence], first: int, selected: int) -> int:
    """This node's callers from the row ``first`` (as many as fit), the
    ``selected`` one on a bar; returns the row after them."""
    fits = max(0, canvas.rows - first - 8)
    for i, p in enumerate(callers[:fits]):
        idle = int(p.terminal.idle)
        line = (f"  {fit(p.name or '-', 16)} {p.terminal.kind:<7} {p.terminal.peer[:21]:<21} "
                f"{idle // 60:>2}:{idle % 60:02d}  {'reader: ' if p.presentation is Presentation.LINES else 'bot: ' if p.bot else ''}"
                f"{p.activity()}")  # (screen-reader mode first: a long activity is cut at the edge)
        style = BAR if i == selected else TEXT
        if i == selected:
            canvas.fill(first + i, 0, canvas.cols, BAR)
        canvas.put(first + i, 0, line[: canvas.cols], style)
    if not callers:
        canvas.put(first, 2, "Nobody is on line.", TEXT)
    return first + max(1, min(len(callers), fits))


def _paint_elsewhere(canvas: Canvas, others: list[Present], row: int, start: int, selected: int) -> None:
    """Who is on line on the other nodes of a shared store, from
    ``row``: their callers, selectable after this node's own (numbered
    from ``start``; the ``selected`` one on a bar), then the sysops
    there."""
    for i, person in enumerate(others[: max(0, canvas.rows - 8 - row)], start=start):
        words = Activity.decode(person.doing).words()
        doing = f"sysop, {words}" if person.sysop else words
        chosen = i == selected and not person.sysop
        if chosen:
            canvas.fill(row, 0, canvas.cols, BAR)
        canvas.put(row, 0, f"  {fit(person.name, 16)} {'node ' + str(person.node_id):<7} {'another server':<21} "
                           f"{'':>5}  {doing}"[: canvas.cols], BAR if chosen else TEXT)
        row += 1


def _paint_events(canvas: Canvas, events: list[str]) -> None:
    """The last five lines of ``events``, above the key bar."""
    events_top = canvas.rows - 7
    canvas.fill(events_top - 1, 0, canvas.cols, Style(fg=CYAN), "\u2500")
    canvas.put(events_top - 1, 2, " Events ", HEAD)
    shown = [part for line in events for part in wrap(line, canvas.cols - 2, hang=6)][-5:]
    for i, line in enumerate(shown):
        canvas.put(events_top + i, 1, line, TEXT)


def _paint_keys(canvas: Canvas, keys: ConsoleKeys) -> None:
    """The key bar's two lines; the second is the line being typed (the
    cursor at its end) or a question while there is one."""
    bottom = canvas.rows - 1
    canvas.put(bottom - 1, 1, KEYS[0], HELP)
    if keys.input_label:
        text = f"{keys.input_label}{keys.input}"
        shown_text = text[-(canvas.cols - 3):]
        canvas.put(bottom, 1, shown_text, HELP)
        canvas.cursor = (bottom, 1 + cell_width(shown_text))
    elif keys.confirm:
        canvas.put(bottom, 1, keys.confirm, HELP)
    else:
        canvas.put(bottom, 1, KEYS[1], HELP)
