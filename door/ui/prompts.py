"""The door's simple screens: a line of input (names, passwords, numbers),
a choice of keys (menus, yes/no, the options screen), a page of text, and
the goodbye.  All of them redraw on Ctrl-L and on a resize; a hang-up
is :class:`~door.net.terminal.HungUp`, raised by the key loop."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

from door.net.ansi import CLEAR
from door.net.keys import KeyName
from door.ui.canvas import Canvas
from door.ui.cells import cell_width
from door.ui.display import Display, Presentation
from door.ui.style import BLUE, CYAN, WHITE, YELLOW, Style
from door.ui.words import strip_controls, wrap

__all__ = ["ask_line", "ask_choice", "keys_words", "BACK", "show_page", "show_pages", "goodbye", "charset_test", "NAME_LIMIT",
           "REASON_LIMIT"]

NAME_LIMIT = 20
"""The longest name, in characters."""

REASON_LIMIT = 60
"""The longest reason for paging the sysop, in characters."""

TITLE = Style(fg=WHITE, bg=BLUE, bold=True)
TEXT = Style(fg=WHITE)
HEAD = Style(fg=CYAN, bold=True)
INPUT = Style(fg=YELLOW, bold=True)
NOTE = Style(fg=YELLOW)

BANNER = [
    r"  ___     _ _    _                   ",
    r" / __|_ _(_) |__| |__  __ _ __ _ ___ ",
    r"| (__| '_| | '_ \ '_ \/ _` / _` / -_)",
    r" \___|_| |_|_.__/_.__/\__,_\__, \___|",
    r"                           |___/     ",
]


def frame(canvas: Canvas, subtitle: str, lines: Sequence[str], banner: bool = True) -> int:
    """Draw the title bar, the banner and ``lines`` (the first one as a
    heading; a line too long for the screen is wrapped at word boundaries,
    its indent kept); returns the next free row."""
    canvas.fill(0, 0, canvas.cols, TITLE)
    canvas.put(0, 1, "CRIBBAGE DOOR", TITLE)
    canvas.put(0, canvas.cols - cell_width(subtitle) - 1, subtitle, TITLE)
    row = 2
    if banner:
        left = (canvas.cols - len(BANNER[0])) // 2
        for i, line in enumerate(BANNER):
            canvas.put(row + i, left, line, Style(fg=CYAN, bold=True))
        row += len(BANNER) + 2
    width = canvas.cols - 5
    for i, line in enumerate(lines):
        for part in [line] if cell_width(line) <= width else wrap(line, width):
            canvas.put(row, 4, part, HEAD if i == 0 else TEXT)
            row += 1
    return row + 1


async def ask_line(display: Display, subtitle: str, lines: Sequence[str], label: str, default: str = "",
                   limit: int = NAME_LIMIT, mask: bool = False, note: str = "") -> str:
    """Ask for one line of text after ``label``.  ``default`` is offered
    ready to accept; ``mask`` draws ``*`` for each character (passwords),
    and in the line presentation echoes nothing (a screen reader would say
    "star" for each).
    Returns the text with control characters removed (possibly empty).
    Raises :class:`~door.net.terminal.HungUp` on hang-up."""
    typed = strip_controls(default, limit, secret=mask)
    hidden = mask and display.lines

    def echoed(text: str) -> str:
        return "" if hidden else "*" * len(text) if mask else text

    def paint(canvas: Canvas) -> None:
        row = frame(canvas, subtitle, lines)
        col = canvas.put(row, 4, label, TEXT)
        shown = "*" * len(typed) if mask else typed
        canvas.put(row, col, shown + "_" * max(0, limit - cell_width(shown)), INPUT)
        canvas.put(row + 2, 4, "Press RETURN when done (BACKSPACE erases).", TEXT)
        canvas.put(row + 3, 4, note, NOTE)
        canvas.cursor = (row, col + cell_width(shown))

    display.show(paint, text=lambda: [note, *lines, "Type, then press RETURN (BACKSPACE erases)."])
    display.prompt(label)
    display.echo(echoed(typed))
    async for key in display.keys():
        if key is None:
            continue
        if key.name is KeyName.ENTER:
            display.echo("\n")
            return strip_controls(typed, limit, secret=mask)
        if key.name in (KeyName.BACKSPACE, KeyName.DELETE):
            if typed and not hidden:
                display.echo("\b")
            typed = typed[:-1]
        elif key.name is KeyName.CHAR:
            if len(typed) < limit:
                typed += key.char
                display.echo(echoed(key.char))
                note = ""
            else:
                note = f"At most {limit} characters."
                display.answer(note)  # (the line presentation writes the prompt and what is typed again after it)
        display.refresh_soon()
    raise AssertionError("the key loop ends only by raising HungUp")


def keys_words(keys: Sequence[str], escape: bool = False) -> str:
    """The keys a prompt takes, said last (in the line presentation):
    ``"Press Y or N."``, ``"Press 1, 2, 3 or Q; ESC goes back."``."""
    keys = list(keys)
    said = keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " or " + keys[-1]
    return f"Press {said}" + ("; ESC goes back." if escape else ".")


BACK = "\x1b"
"""What :func:`ask_choice` returns for ESC when ``escape`` is allowed."""


async def ask_choice(display: Display, subtitle: str, lines: Sequence[str], choices: str,
                     banner: bool = True, note: str = "", escape: bool = False,
                     answers: Mapping[str, Sequence[str]] | None = None) -> str:
    """Show ``lines`` and wait for one of the keys in ``choices``
    (letters compared ignoring case).  Returns the key pressed, upper-cased,
    or :data:`BACK` for ESC when ``escape``.  ``answers``: keys (upper
    case, not in ``choices``) each answered in place by its lines, said
    without the screen being said again (the line presentation: what is
    read only on demand).  Raises :class:`~door.net.terminal.HungUp` on
    hang-up."""
    allowed = choices.upper()
    answers = answers or {}

    def paint(canvas: Canvas) -> None:
        row = frame(canvas, subtitle, lines, banner)
        canvas.put(row, 4, note, NOTE)
        canvas.cursor = None

    display.show(paint, text=lambda: [note, *lines, keys_words(allowed, escape)])
    async for key in display.keys():
        if key is not None and key.name is KeyName.CHAR and key.char.upper() in allowed:
            return key.char.upper()
        if key is not None and key.name is KeyName.CHAR and key.char.upper() in answers:
            display.answer(*answers[key.char.upper()])
            continue
        if escape and key is not None and key.name is KeyName.ESCAPE:
            return BACK
        note = "Please press " + " or ".join(allowed) + "."
        display.answer(keys_words(allowed, escape))
        display.refresh_soon()
    raise AssertionError("the key loop ends only by raising HungUp")


async def show_page(display: Display, subtitle: str, lines: Sequence[str]) -> None:
    """A page of text (statistics, records) until a key is pressed.
    Raises :class:`~door.net.terminal.HungUp` on hang-up."""
    def paint(canvas: Canvas) -> None:
        frame(canvas, subtitle, lines, banner=False)
        canvas.put(canvas.rows - 1, 4, "Press any key.", INPUT)
        canvas.cursor = None

    display.show(paint, text=lambda: [*lines, "Press any key."])
    async for _ in display.keys():
        return


async def show_pages(display: Display, subtitle: str, lines: Sequence[str]) -> None:
    """A long text a screenful at a time: any key turns the page, ESC or
    Q stops; in screen-reader mode it is said whole (the reader's own keys
    go back over it).  Raises :class:`~door.net.terminal.HungUp` on hang-up."""
    if display.lines:
        return await show_page(display, subtitle, lines)
    height = max(4, display.terminal.rows - 5)
    pages = [list(lines[i:i + height]) for i in range(0, len(lines), height)] or [[]]
    for n, page in enumerate(pages, 1):
        last = n == len(pages)

        def paint(canvas: Canvas, page: list[str] = page, n: int = n, last: bool = last) -> None:
            frame(canvas, subtitle, page, banner=False)
            more = "Press any key." if last else f"Page {n} of {len(pages)}: any key for more, ESC or Q stops."
            canvas.put(canvas.rows - 1, 4, more, INPUT)
            canvas.cursor = None

        display.show(paint, text=partial(list, page))  # (this page's lines, whenever they are asked for)
        async for key in display.keys():
            if key is None:
                continue
            if last or key.name is KeyName.ESCAPE or (key.name is KeyName.CHAR and key.char in "qQ"):
                return
            break


async def charset_test(display: Display) -> Presentation:
    """The BBS-style charset test: "Do you see a heart here?" in the current
    profile; N tries the next one (UTF-8, CP437, plain ASCII), Y keeps it,
    S asks for screen-reader mode.  In screen-reader mode it offers the
    full screen instead.  Returns the presentation chosen.  Raises
    :class:`~door.net.terminal.HungUp` on hang-up."""
    from door.net.charset import PROFILES

    if display.lines:
        got = await ask_choice(display, "Your terminal", [
            "Screen-reader mode is on: the door writes plain lines only.",
            "F: the full screen, with colours, cards drawn and a highlight bar.",
            "K: keep screen-reader mode."], "FK")
        return Presentation.SCREEN if got == "F" else Presentation.LINES
    while True:
        label = display.terminal.charset.label
        if display.terminal.charset.name == "ascii":  # no glyphs to see: the suits are letters here
            question = ["Plain ASCII shows suits as letters (H, D, C, S) and draws no lines or colours.",
                        "Does this line read cleanly, with nothing garbled?"]
        else:
            question = ["Do you see a heart here?   \u2665   and a spade here?   \u2660"]
        got = await ask_choice(display, "Your terminal", [
            f"Your terminal is set to: {label}.",
            "",
            *question,
            "",
            "  Y  Yes: keep this setting.",
            "  N  No (or it looks garbled): try the next one.",
            "  S  Screen-reader mode: plain lines only, for a screen reader or a teletype.",
        ], "YNS", banner=False)
        if got == "Y":
            return Presentation.SCREEN
        if got == "S":
            return Presentation.LINES
        current = display.terminal.charset
        display.set_charset(PROFILES[(PROFILES.index(current) + 1) % len(PROFILES)]
                            if current in PROFILES else PROFILES[0])


def goodbye(display: Display, text: str) -> None:
    """Clear the screen (not in plain lines), say ``text`` and leave the
    cursor below it."""
    t = display.terminal
    t.write(b"\r\n" if display.lines else CLEAR)
    t.write_text(text + "\r\n")
