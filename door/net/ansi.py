"""The one place for the escape sequences the door sends (Rich's
``CONTROL_CODES_FORMAT``, STYLE.md): the renderer
(:mod:`door.ui.renderer`) builds every frame from :data:`CONTROL`, and the
few lines written outside a frame (a farewell, a cleared screen as a
session ends) come from :func:`farewell` and :data:`CLEAR`."""

from __future__ import annotations

import re

__all__ = ["CONTROL", "CLEAR", "CONSOLE_RESIZE", "farewell"]

CONTROL: dict[str, str] = {
    "home": "\x1b[H",
    "clear": "\x1b[2J",
    "move": "\x1b[{row};{col}H",      # 1-based
    "move_row": "\x1b[{row}H",       # column 1
    "forward": "\x1b[{n}C",           # cursor forward n cells (CUF)
    "forward_1": "\x1b[C",
    "back": "\x1b[{n}D",              # cursor back n cells (CUB)
    "back_1": "\x1b[D",
    "erase_line": "\x1b[K",          # erase to the end of the line (EL), in the current background
    "sgr": "\x1b[{params}m",
    "hide_cursor": "\x1b[?25l",
    "show_cursor": "\x1b[?25h",
    "reset": "\x1b[0m",
    "console_resize": "\x1b_R{cols};{rows}\x1b\\",  # APC: the console client's new window size (ours)
}
"""Every escape sequence the door sends, by name (ECMA-48 / VT100)."""

CLEAR = (CONTROL["reset"] + CONTROL["clear"] + CONTROL["home"]).encode("ascii")
"""Default colours, an empty screen, the cursor at the top left."""

CONSOLE_RESIZE = re.compile(rb"\x1b_R(\d{1,4});(\d{1,4})\x1b\\")
"""Matches ``CONTROL["console_resize"]`` as it arrives (columns; rows)."""


def farewell(text: str) -> bytes:
    """``text`` on a line of its own below whatever is on screen, in the
    default colours (ASCII: sent as is in every charset).

    >>> farewell("Goodbye.")
    b'\\r\\n\\x1b[0m\\r\\nGoodbye.\\r\\n'
    """
    return f"\r\n{CONTROL['reset']}\r\n{text}\r\n".encode("ascii")
