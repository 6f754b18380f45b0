"""The pegboard: one track per player, front and back pegs, skunk lines and
the game hole.

A track runs 60 holes a row in groups of five: two rows ("out" and "back",
twice around the board) for a 121-point game, one row for 61.  Hole *p*
(1 .. game_to - 1) of a track is drawn at ``hole_position(p)``; the game hole
(``game_to``) sits alone at the end of the last row.  The skunk and double
skunk lines are red bars in the gap before the first hole that escapes them
(Black Dog Cribbage: "At ninety points, is the skunk line").
"""

from __future__ import annotations

from functools import lru_cache

from door.ui.canvas import Canvas
from door.ui.cells import fit
from door.ui.style import BLACK, RED, WHITE, Style
from engine.rules import Rules
from engine.state import Peg

__all__ = ["LABEL_WIDTH", "HOLES_PER_ROW", "hole_position", "track_rows", "draw_legend", "draw_track", "board_height",
           "FRONT_PEG", "BACK_PEG", "HOLE", "GAME_HOLE"]

LABEL_WIDTH = 7
"""Columns left of the holes, for the player's name and score."""

HOLES_PER_ROW = 60
FRONT_PEG = "\u25a0"   # ■ (CP437 0xFE)
BACK_PEG = "\u25a0"    # the same glyph, not bold
HOLE = "\u00b7"        # · (CP437 0xFA)
GAME_HOLE = "\u25cb"   # ○ drawn when empty; CP437 has none, so "o" there
_SKUNK = "\u2502"      # │ (CP437 0xB3)


def track_rows(game_to: int) -> int:
    """Rows per player's track: 2 for 121, 1 for 61."""
    return (game_to - 1 + HOLES_PER_ROW - 1) // HOLES_PER_ROW


def board_height(game_to: int) -> int:
    """Rows the board takes: both tracks and a blank row between."""
    return 2 * track_rows(game_to) + 1


def hole_position(points: int, game_to: int) -> tuple[int, int]:
    """(row within the track, column) of the hole for ``points`` (1 ..
    ``game_to``); the game hole is at the end of the last row.  Raises
    ``ValueError`` outside that range."""
    if not 1 <= points <= game_to:
        raise ValueError(f"no hole for {points} points in a game to {game_to}")
    if points == game_to:
        return track_rows(game_to) - 1, LABEL_WIDTH + HOLES_PER_ROW + HOLES_PER_ROW // 5
    row, h = divmod(points - 1, HOLES_PER_ROW)
    return row, LABEL_WIDTH + h + h // 5


def _line_position(line: int, game_to: int) -> tuple[int, int] | None:
    """Where the bar of a skunk line at ``line`` points is drawn: the gap
    after hole ``line - 1``, when that hole ends a group of five."""
    last = line - 1
    if last < 5 or last % 5 or last >= game_to:
        return None
    row, h = divmod(last - 1, HOLES_PER_ROW)
    return row, LABEL_WIDTH + h + 1 + h // 5


@lru_cache(maxsize=32)
def _empty_track(game_to: int, skunk: int, double_skunk: int) -> Canvas:
    """One player's track without pegs or label: the holes, the skunk and
    double skunk lines and the game hole (drawn once per rules, then copied
    into every frame)."""
    track = Canvas(hole_position(game_to, game_to)[1] + 1, track_rows(game_to))
    hole_style = Style(fg=WHITE, bg=BLACK)
    for p in range(1, game_to):
        r, c = hole_position(p, game_to)
        track.put(r, c, HOLE, hole_style)
    r, c = hole_position(game_to, game_to)
    track.put(r, c, GAME_HOLE, Style(fg=WHITE, bold=True))
    for line, bold in ((skunk, True), (double_skunk, False)):
        pos = _line_position(line, game_to)
        if pos:
            track.put(pos[0], pos[1], _SKUNK, Style(fg=RED, bold=bold))
    return track


def draw_legend(canvas: Canvas, row: int, pegs: list[Peg], names: list[str], colours: tuple[int, int]) -> None:
    """The row between the two tracks, at ``row``: who is which colour,
    names in full (up to 20 cells each), with their scores (``pegs``:
    each seat's :class:`Peg`; ``names``; ``colours``: each seat's peg
    colour, 0..7).  The board is seat 0's track (:func:`draw_track`),
    this row, then seat 1's track."""
    for seat in (0, 1):
        col = LABEL_WIDTH + seat * 36
        col = canvas.put(row, col, FRONT_PEG + " ", Style(fg=colours[seat], bold=True))
        canvas.put(row, col, f"{fit(names[seat], 20).rstrip()} {pegs[seat].front}",
                   Style(fg=colours[seat], bold=True))


def draw_track(canvas: Canvas, top: int, rules: Rules, peg: Peg, name: str, colour: int) -> None:
    """One seat's track from row ``top`` (:func:`track_rows` rows): its
    label (``name``, the score), the holes and skunk lines, and its front
    and back pegs (``peg``) in ``colour`` (0..7)."""
    rows = track_rows(rules.game_to)
    track = _empty_track(rules.game_to, rules.skunk, rules.double_skunk)
    label = Style(fg=colour, bold=True)
    canvas.blit(top, 0, track, first_col=LABEL_WIDTH)
    if rows == 1:  # name and score share the row: "Ann 57 "
        canvas.put(top, 0, f"{fit(name, 3)}{peg.front:>3}", label)
    else:          # name on the way out, score on the way back
        canvas.put(top, 0, fit(name, 6), label)
        canvas.put(top + 1, 0, f"{peg.front:>5}", label)
    if 0 < peg.back < peg.front:
        r, c = hole_position(peg.back, rules.game_to)
        canvas.put(top + r, c, BACK_PEG, Style(fg=colour, bold=False))
    if peg.front > 0:
        r, c = hole_position(peg.front, rules.game_to)
        canvas.put(top + r, c, FRONT_PEG, label)
