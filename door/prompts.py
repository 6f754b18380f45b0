"""The screens before a game: the welcome and name prompt, the run-mode
menu (seed 004: "Select option 1 ... option 2"), and the goodbye."""

from __future__ import annotations

from .display import Display
from .keys import Key, KeyName
from .screen import BLUE, CYAN, WHITE, YELLOW, Canvas, Style
from .words import strip_controls

__all__ = ["ask_name", "ask_run_mode", "goodbye", "NAME_LIMIT"]

NAME_LIMIT = 20
"""The longest name, in characters."""

_TITLE = Style(fg=WHITE, bg=BLUE, bold=True)
_TEXT = Style(fg=WHITE)
_HEAD = Style(fg=CYAN, bold=True)
_INPUT = Style(fg=YELLOW, bold=True)

BANNER = [
    r"  ___     _ _    _                   ",
    r" / __|_ _(_) |__| |__  __ _ __ _ ___ ",
    r"| (__| '_| | '_ \ '_ \/ _` / _` / -_)",
    r" \___|_| |_|_.__/_.__/\__,_\__, \___|",
    r"                           |___/     ",
]


async def _next_key(display: Display) -> Key | None:
    """Send what is pending and wait for a key the prompt must handle;
    Ctrl-L redraws here.  ``None`` means the caller hung up."""
    terminal = display.terminal
    while True:
        await terminal.drain()
        key = await terminal.get_key()
        if key is None:
            continue
        if key.name is KeyName.EOF:
            return None
        if key.name is KeyName.CTRL_L:
            display.redraw()
            continue
        if key.name is KeyName.RESIZE:
            display.refresh()
            continue
        return key


def _frame(canvas: Canvas, subtitle: str) -> None:
    canvas.fill(0, 0, canvas.cols, _TITLE)
    canvas.put(0, 1, "CRIBBAGE DOOR", _TITLE)
    right = subtitle
    canvas.put(0, canvas.cols - len(right) - 1, right, _TITLE)
    left = (canvas.cols - len(BANNER[0])) // 2
    for i, line in enumerate(BANNER):
        canvas.put(2 + i, left, line, Style(fg=CYAN, bold=True))


async def ask_name(display: Display, default: str | None = None) -> str | None:
    """Ask the caller's name (player 1, seed 004); ``default`` (the SSH
    login name) is offered ready to accept.  Returns the name (1..20
    printable characters, control characters removed) or ``None`` when the
    caller hangs up."""
    typed = strip_controls(default or "", NAME_LIMIT)
    note = ""

    def paint(canvas: Canvas) -> None:
        _frame(canvas, "Two-handed cribbage")
        canvas.put(9, 4, "Welcome to the cribbage door.", _HEAD)
        canvas.put(10, 4, "You are player 1. Your opponent is the computer.", _TEXT)
        canvas.put(12, 4, "Your name: ", _TEXT)
        canvas.put(12, 15, typed.ljust(NAME_LIMIT, "_"), _INPUT)
        canvas.put(14, 4, "Type your name and press RETURN (BACKSPACE erases).", _TEXT)
        canvas.put(15, 4, note, Style(fg=YELLOW))
        canvas.cursor = (12, 15 + len(typed))

    display.show(paint)
    while True:
        key = await _next_key(display)
        if key is None:
            return None
        if key.name is KeyName.ENTER:
            name = strip_controls(typed, NAME_LIMIT)
            if name:
                return name
            note = "Please type a name of 1 to 20 letters."
        elif key.name in (KeyName.BACKSPACE, KeyName.DELETE):
            typed = typed[:-1]
        elif key.name is KeyName.CHAR:
            if len(typed) < NAME_LIMIT:
                typed += key.char
            else:
                note = f"A name has at most {NAME_LIMIT} characters."
        display.refresh()


async def ask_run_mode(display: Display) -> int | None:
    """Ask for run mode 1 (runs in any order) or 2 (runs in exact order),
    as seed 004 does.  Returns 1, 2, or ``None`` on hang-up."""
    note = ""

    def paint(canvas: Canvas) -> None:
        _frame(canvas, "Choose the rules")
        canvas.put(9, 4, "How do runs count during the play?", _HEAD)
        canvas.put(11, 6, "1", _INPUT)
        canvas.put(11, 8, "Runs need not be in order: 7-5-6 is a run worth 3.", _TEXT)
        canvas.put(12, 6, "2", _INPUT)
        canvas.put(12, 8, "Runs must be in exact order: 5-6-7 or 7-6-5, not 7-5-6.", _TEXT)
        canvas.put(14, 4, "Runs in the show always count in any order. Press 1 or 2.", _TEXT)
        canvas.put(16, 4, note, Style(fg=YELLOW))
        canvas.cursor = None

    display.show(paint)
    while True:
        key = await _next_key(display)
        if key is None:
            return None
        if key.name is KeyName.CHAR and key.char in "12":
            return int(key.char)
        note = "Press 1 or 2."
        display.refresh()


def goodbye(display: Display, text: str) -> None:
    """Clear the screen, say ``text`` and leave the cursor below it."""
    t = display.terminal
    t.write(b"\x1b[0m\x1b[2J\x1b[H")
    t.write_text(text + "\r\n")
