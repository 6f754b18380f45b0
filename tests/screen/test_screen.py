"""The cell grid and diff renderer, seen through a terminal emulator (pyte)."""

import pyte

from door.net.charset import CP437, UTF8
from door.ui.screen import CYAN, RED, WHITE, YELLOW, Canvas, Renderer, Style


def emulate(cols: int, rows: int):
    screen = pyte.Screen(cols, rows)
    stream = pyte.ByteStream(screen)
    return screen, stream


def test_first_frame_paints_everything_and_diff_sends_only_changes() -> None:
    screen, stream = emulate(80, 24)
    r = Renderer(UTF8)
    c = Canvas(80, 24)
    c.put(0, 0, "Cribbage \u2665", Style(fg=RED, bold=True))
    c.put(5, 10, "hello", Style(fg=CYAN, bg=WHITE))
    stream.feed(r.render(c))
    assert screen.display[0].startswith("Cribbage \u2665")
    assert screen.buffer[5][10].fg == "cyan" and screen.buffer[5][10].bg == "white"
    assert screen.buffer[0][0].bold and screen.buffer[0][0].fg == "red"

    c2 = Canvas(80, 24)
    c2.put(0, 0, "Cribbage \u2665", Style(fg=RED, bold=True))
    c2.put(5, 10, "hellO", Style(fg=CYAN, bg=WHITE))
    data = r.render(c2)
    assert len(data) < 20, data
    stream.feed(data)
    assert screen.display[5][10:15] == "hellO"
    assert r.render(c2) == b""


def test_unchanged_gaps_are_bridged_and_styles_kept() -> None:
    screen, stream = emulate(40, 5)
    r = Renderer(UTF8)
    c = Canvas(40, 5)
    stream.feed(r.render(c))
    c.put(2, 1, "a", Style(fg=YELLOW))
    c.put(2, 3, "b", Style(fg=YELLOW))
    stream.feed(r.render(c))
    assert screen.display[2][:5] == " a b "
    # pyte names ANSI colour 3 (yellow) "brown", as CGA drew it
    assert screen.buffer[2][3].fg == "brown" and screen.buffer[2][2].fg != "brown"


def test_bottom_right_cell_is_never_written() -> None:
    screen, stream = emulate(10, 3)
    r = Renderer(UTF8)
    c = Canvas(10, 3)
    c.put(2, 0, "X" * 10)
    stream.feed(r.render(c))
    assert screen.display[2] == "X" * 9 + " "
    assert screen.cursor.y == 2


def test_cp437_suits_and_invalidate_redraws() -> None:
    r = Renderer(CP437)
    c = Canvas(20, 3)
    c.put(0, 0, "5\u2665 K\u2660 \u2502\u00b7\u2588")
    data = r.render(c)
    assert b"5\x03 K\x06 \xb3\xfa\xdb" in data
    assert r.render(c) == b""
    r.invalidate()
    assert b"\x1b[2J" in r.render(c)


def test_bold_off_resets() -> None:
    from door.ui.screen import sgr_transition
    assert sgr_transition(Style(bold=True), Style()) == "\x1b[0m"
    assert sgr_transition(Style(fg=RED, bold=True), Style(fg=RED, bg=CYAN)) == "\x1b[0;31;46m"
    assert sgr_transition(None, Style()) == "\x1b[0m"


def test_a_blank_tail_is_erased_not_written() -> None:
    """A line that gets shorter is finished with EL (3 bytes) instead of a
    run of spaces; coloured spaces after it are still written."""
    screen, stream = emulate(80, 5)
    r = Renderer(UTF8)
    c = Canvas(80, 5)
    c.put(1, 1, "Computer's turn, and a long line of text that will get shorter", Style(fg=YELLOW, bold=True))
    c.put(2, 1, "x" * 60)
    stream.feed(r.render(c))
    c2 = Canvas(80, 5)
    c2.put(1, 1, "Your turn", Style(fg=YELLOW, bold=True))
    c2.put(2, 1, "x" * 10)
    c2.put(2, 40, " ", Style(bg=CYAN))
    data = r.render(c2)
    stream.feed(data)
    assert data.count(b"\x1b[K") == 2 and len(data) < 80, data  # not 54 + 50 spaces
    assert screen.display[1] == " Your turn" + " " * 70
    assert screen.display[2] == " " + "x" * 10 + " " * 69
    assert screen.buffer[2][40].bg == "cyan" and screen.buffer[2][41].bg == "default"
    assert screen.buffer[1][20].bg == "default" and not screen.buffer[2][30].bold
