"""A tournament's bracket on the door's screen: the drawing
(:mod:`door.records.ranked.bracket_drawing`) painted into a canvas in
colour, and the same bracket as sentences for screen-reader mode.

What a screen shows with it: ``display.show(lambda c: paint_bracket(c,
state, title), text=lambda: bracket_text(state))``.  The lines are drawn
as Unicode box characters; the session's charset sends them as CP437's or
UTF-8's (or ``- | +`` in plain ASCII)."""

from __future__ import annotations

from door.records.ranked.bracket_drawing import ROLES, draw
from door.records.ranked.bracket_sentences import sentences
from door.records.ranked.brackets import BracketState
from door.ui.canvas import Canvas
from door.ui.style import BLUE, CYAN, WHITE, YELLOW, Style

__all__ = ["paint_bracket", "bracket_text", "ROLE_STYLES"]

ROLE_STYLES = {
    "title": Style(fg=WHITE, bg=BLUE, bold=True),
    "label": Style(fg=CYAN, bold=True),
    "line": Style(fg=CYAN),
    "winner": Style(fg=YELLOW, bold=True),
    "loser": Style(fg=WHITE),
    "player": Style(fg=WHITE, bold=True),
    "pending": Style(fg=BLUE, bold=True),
}
"""How each role of the drawing (:data:`~door.records.ranked.bracket_drawing.ROLES`) looks."""

assert set(ROLE_STYLES) == set(ROLES)


def paint_bracket(canvas: Canvas, state: BracketState, title: str, top: int = 0) -> None:
    """Paint ``state``'s bracket, ``title`` on row ``top`` (the title's
    band across the whole width), fitted to the canvas's width; what is
    taller than the canvas is cut off at its bottom."""
    for piece in draw(state, title, canvas.cols):
        if piece.role == "title":
            canvas.put(top + piece.row, 0, f" {piece.text}".ljust(canvas.cols), ROLE_STYLES["title"])
        else:
            canvas.put(top + piece.row, piece.col, piece.text, ROLE_STYLES[piece.role])


def bracket_text(state: BracketState) -> list[str]:
    """The bracket for screen-reader mode: a sentence a round, then the champion."""
    return sentences(state)
