"""The cell grid and diff renderer, seen through a terminal emulator (pyte)."""

from collections.abc import Callable

import pyte
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from door.net.charset import ASCII, CP437, UTF8, Charset
from door.ui.canvas import Band, Canvas
from door.ui.renderer import Renderer
from door.ui.style import CYAN, RED, WHITE, YELLOW, Style


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
    from door.ui.style import sgr_transition
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


CP437_SUITS = {3: "\u2665", 4: "\u2666", 5: "\u2663", 6: "\u2660"}

COLOURS = st.sampled_from([Style(), Style(fg=CYAN), Style(fg=RED, bold=True), Style(bg=CYAN),
                           Style(fg=YELLOW, bg=WHITE), Style(bg=YELLOW, bold=True)])


def _look(cell: pyte.screens.Char) -> tuple[str, str, str, bool, bool, bool]:
    """What a person sees of a cell: a space shows no foreground colour,
    and the terminal's default colours are white on black."""
    bg = "black" if cell.bg == "default" else cell.bg
    if cell.data == " " and not (cell.reverse or cell.underscore):
        return (" ", "", bg, False, False, False)
    return (cell.data, "white" if cell.fg == "default" else cell.fg, bg, cell.bold, cell.reverse, cell.underscore)


def _cells(screen: pyte.Screen) -> list[list[tuple[str, str, str, bool, bool, bool]]]:
    return [[_look(screen.buffer[row][col]) for col in range(screen.columns)] for row in range(screen.lines)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([UTF8, CP437, ASCII]),
       st.lists(st.lists(st.tuples(st.integers(0, 3), st.integers(-2, 30),
                                   st.text(alphabet="ab \u2665\u00b7", max_size=12), COLOURS),
                         max_size=5), min_size=1, max_size=8))
def test_frames_in_colour_show_what_a_full_repaint_shows(charset: Charset,
                                                         frames: list[list[tuple[int, int, str, Style]]]) -> None:
    """Any sequence of frames (text and coloured spaces anywhere, blank
    tails that need erasing or not), each sent as a difference, leaves the
    terminal showing what one full repaint of the last frame shows: every
    cell's character, colours and attributes."""
    def terminal() -> tuple[pyte.Screen, Callable[[bytes], None]]:
        screen = pyte.Screen(30, 4)
        stream = pyte.Stream(screen)
        if charset is CP437:  # a BBS terminal: bytes 3-6 are the suits' glyphs
            return screen, lambda data: stream.feed(data.decode("cp437").translate(CP437_SUITS))
        return screen, lambda data: stream.feed(data.decode("utf-8"))

    live, feed = terminal()
    renderer = Renderer(charset)
    canvas = Canvas(30, 4)
    for puts in frames:
        canvas = Canvas(30, 4)  # painted from scratch, as the door does
        for row, col, text, style in puts:
            canvas.put(row, col, text, style)
        feed(renderer.render(canvas))
    fresh, feed_fresh = terminal()
    feed_fresh(Renderer(charset).render(canvas))
    assert _cells(live) == _cells(fresh)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(-1, 3),
                          st.lists(st.tuples(st.integers(0, 3), st.integers(-2, 30),
                                             st.text(alphabet="ab \u2665", max_size=12), COLOURS), max_size=3)),
                min_size=1, max_size=10))
def test_frames_of_bands_show_what_a_full_repaint_shows(frames: list[tuple[int, int, int, list]]) -> None:
    """Frames built of two bands (rows shared with the frame, not copied,
    and skipped by the renderer while they are the ones it shows), sometimes repainted, sometimes moved, with text written over them:
    the terminal shows what one full repaint of the last frame shows, and
    writing over a band's row in a frame never changes the band."""
    def painter(key: int) -> Callable[[Canvas], None]:
        def paint(band: Canvas) -> None:
            band.put(0, key, f"band {key} \u2665", Style(fg=CYAN if key else RED))
            band.put(1, 2 * key, "x" * (key + 1), Style(bg=YELLOW))
        return paint

    screen = pyte.Screen(30, 4)
    stream = pyte.ByteStream(screen)
    renderer = Renderer(UTF8)
    upper, lower = Band(), Band()
    for key_upper, key_lower, lower_top, puts in frames:
        canvas = Canvas(30, 4)
        upper.draw(canvas, 0, 2, key_upper, painter(key_upper))
        lower.draw(canvas, lower_top, 2, key_lower, painter(key_lower))
        bands = [(b.canvas, [b.canvas.text(r) for r in range(2)]) for b in (upper, lower)]
        for row, col, text, style in puts:
            canvas.put(row, col, text, style)
        for band, before in bands:
            assert [band.text(r) for r in range(2)] == before
        stream.feed(renderer.render(canvas))
    fresh = pyte.Screen(30, 4)
    pyte.ByteStream(fresh).feed(Renderer(UTF8).render(canvas))
    assert _cells(screen) == _cells(fresh)


def test_a_bands_painting_and_the_shown_screen_are_not_traced_by_the_collector() -> None:
    """What lives for seconds (a band's painting, the screen a renderer
    shows) holds nothing the cyclic collector traces, not even once
    (as lists of style objects, bands were nine tenths of what a
    collection of the middle generation traced; as tuples of ints, traced
    by the young collection that untracked them, six tenths of what a
    young collection visited); a frame that writes over a band's row gets
    its own copy to write to."""
    import gc

    band = Band()
    canvas = Canvas(30, 4)
    band.draw(canvas, 1, 2, "key", lambda b: b.put(0, 2, "Crib \u2665", Style(fg=RED, bg=WHITE)))
    renderer = Renderer(UTF8)
    renderer.render(canvas)
    canvas.put(2, 0, "over", Style(fg=YELLOW))  # a frame writing over a band's row
    assert band.canvas is not None
    painted = band.canvas.chars + band.canvas.styles  # (no collection in between)
    assert not [row for row in painted if gc.is_tracked(row)]
    assert not [row for row in renderer._rows + renderer._styles if gc.is_tracked(row)]
    gc.collect()  # the painting's lists of rows are tuples of strings: untracked once looked at
    assert not gc.is_tracked(band.canvas.chars) and not gc.is_tracked(band.canvas.styles)
    with pytest.raises(TypeError):
        band.canvas.put(0, 0, "x")  # a band's painting is never written
    assert band.canvas.text(1) == " " * 30 and canvas.text(2).startswith("over")
    assert canvas.style_at(2, 0) == Style(fg=YELLOW) and canvas.style_at(1, 2) == Style(fg=RED, bg=WHITE)


def test_long_text_typed_or_drawn_is_not_kept_by_the_charset() -> None:
    """The CP437 charset remembers the bytes of strings it drew (shared by
    every session of a process): 4,000 different 500-character lines (a
    caller pasting text into a 500-column terminal) leave under 1 MiB
    behind, not the 4 MiB of keeping each."""
    import tracemalloc

    lines = [f"{i:05d}" + "x" * 495 for i in range(4000)]
    CP437.encode("warm")  # the cache exists before measuring
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for line in lines:
        assert CP437.encode(line) == line.encode("cp437")
    kept = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert kept < 1 << 20
