"""Text is measured in terminal cells.  Double-width and
combining characters (in names, chat) take the cells a terminal gives them,
so nothing after them shifts, wraps or garbles: what pyte shows after any
sequence of frames is what a full repaint of the last frame shows."""

from __future__ import annotations

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st

from door.net.charset import CP437, UTF8, WIDE_TAIL
from door.play.game_view import paint_game
from door.play.view_state import ViewState
from door.ui.canvas import Canvas
from door.ui.cells import ONE_CELL, cell_chars, cell_width, fit
from door.ui.renderer import Renderer
from engine.game import Game
from engine.rules import FirstDeal, Rules

WIDE = "\u732b\u72ac\uff21\uac00"  # CJK, a full-width A, Hangul
ODD = "e\u0301o\u0308\u200b\u00ad"  # combining marks, a zero-width space, a soft hyphen
CATS = "\u732b" * 10  # twenty cells


def screen_text(screen: pyte.Screen, row: int) -> str:
    return "".join(screen.buffer[row][c].data for c in range(screen.columns))


def expected(canvas: Canvas, row: int) -> str:
    return canvas.text(row).replace(WIDE_TAIL, "")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-2, 30),
                          st.text(alphabet="ab " + WIDE + ODD, max_size=14)), min_size=1, max_size=12))
def test_frames_with_wide_text_show_what_a_full_repaint_shows(puts: list[tuple[int, int, str]]) -> None:
    live = pyte.Screen(30, 4)
    stream = pyte.ByteStream(live)
    renderer = Renderer(UTF8)
    canvas = Canvas(30, 4)
    for row, col, text in puts:  # each put a new frame over the last, sent as a difference
        canvas.put(row, col, text)
        stream.feed(renderer.render(canvas))
    fresh = pyte.Screen(30, 4)
    pyte.ByteStream(fresh).feed(Renderer(UTF8).render(canvas))
    for row in range(4):
        assert screen_text(live, row) == screen_text(fresh, row)
        assert len(canvas.chars[row]) == 30


def test_wide_and_combining_text_take_their_cells() -> None:
    canvas = Canvas(20, 2)
    end = canvas.put(0, 0, "\u732bZoe\u0308!")
    assert end == 6 and cell_width("\u732bZoe\u0308!") == 6
    canvas.put(0, end, "|")
    screen = pyte.Screen(20, 2)
    pyte.ByteStream(screen).feed(Renderer(UTF8).render(canvas))
    assert screen.display[0].startswith("\u732bZo\u00eb!|")
    assert screen.buffer[0][6].data == "|"  # the bar is where the canvas put it
    assert fit(CATS, 5) == "\u732b\u732b "


def test_a_cp437_terminal_keeps_the_columns_too() -> None:
    canvas = Canvas(20, 2)
    canvas.put(0, 0, "\u732bab|")
    data = Renderer(CP437).render(canvas)
    assert b"??ab|" in data  # the wide character shows as two ?: the bar stays in column 4


def test_a_twenty_cell_name_on_the_game_screen_garbles_nothing() -> None:
    game = Game(Rules(first_deal=FirstDeal.SYSOP), 1)
    game.start()
    narrow = Canvas(80, 24)
    paint_game(narrow, game, 0, ["Ann", "Bob"], ViewState())
    wide = Canvas(80, 24)
    paint_game(wide, game, 0, ["Ann", CATS], ViewState())
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(Renderer(UTF8).render(wide))
    assert any(CATS in expected(wide, row) for row in range(24))
    for row in range(23):  # (the bottom-right cell is never written)
        assert screen_text(screen, row) == expected(wide, row), row


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(sorted(ONE_CELL) + ["\u0301", "\u732b", "\x00", "\t"]), max_size=18))
def test_a_text_laid_out_without_wcwidth_is_laid_out_as_wcwidth_lays_it(text: str) -> None:
    """Texts of printable ASCII and the screens' own glyphs skip the cell
    by cell layout; whatever the text, the cells are those
    :func:`cell_chars` (NFC, wcwidth) gives."""
    canvas = Canvas(40, 1)
    canvas.put(0, 0, text)
    cells = cell_chars(text)
    assert list(canvas.chars[0][:len(cells)]) == cells
