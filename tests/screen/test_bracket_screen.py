"""A tournament's bracket on the door's screen: an 8-player double
elimination drawn whole on 80x24 through a terminal emulator (pyte), in
UTF-8, CP437 and plain ASCII, and said in sentences for screen-reader
mode."""

from __future__ import annotations

import random

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st

from door.net.charset import ASCII, CP437, UTF8, Charset
from door.play.bracket_view import bracket_text, paint_bracket
from door.records.ranked.bracket_drawing import draw
from door.records.ranked.brackets import advance, double, single
from door.records.ranked.tournament import MatchResult
from door.ui.canvas import Canvas
from door.ui.renderer import Renderer

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]

PLAYED = {"W1-1": MatchResult("Ann", (2, 1)), "W1-2": MatchResult("Eve", (2, 0)),
          "W1-3": MatchResult("Cy", (2, 1)), "W1-4": MatchResult("Bob", (2, 0)),
          "W2-1": MatchResult("Eve", (2, 1)), "L1-1": MatchResult("Dee", (2, 0))}


def _screen(charset: Charset, state, title: str = "Spring open: double elimination") -> pyte.Screen:
    canvas = Canvas(80, 24)
    paint_bracket(canvas, state, title)
    data = Renderer(charset).render(canvas)
    screen = pyte.Screen(80, 24)
    pyte.Stream(screen).feed(data.decode("cp437" if charset is CP437 else "utf-8"))
    return screen


def test_an_eight_player_double_elimination_fits_80x24_in_utf8_and_cp437() -> None:
    state = advance(double(NAMES), PLAYED)
    for charset in (UTF8, CP437):
        rows = _screen(charset, state).display
        assert rows[0].startswith(" Spring open: double elimination")
        assert rows[1].split() == ["Winners", "1", "Winners", "2", "Winners", "3", "Grand", "final", "Reset"]
        assert rows[2].startswith(" Ann       2\u2500\u2510")
        assert rows[3].startswith(" Hal       1\u2500\u2534\u2500\u2500Ann       1\u2500\u2510")
        assert rows[4].startswith(" Dee       0\u2500\u252c\u2500\u2500Eve       2\u2500\u2534\u2500\u2500Eve")
        assert "Losers 4" in rows[11] and rows[11].startswith(" Losers 1")
        assert rows[12].startswith(" Hal       0\u2500\u252c\u2500\u2500Dee")   # Dee went on in the losers' bracket
        assert rows[13].startswith(" Dee       2\u2500\u2518  \u00b7\u00b7\u00b7")  # to meet round 2's other loser
        assert rows[15][16:19] == "Ann"                                       # Ann dropped across, to the other
        assert "Champion" not in "".join(rows)


def test_colours_mark_the_winners_and_the_lines() -> None:
    screen = _screen(UTF8, advance(double(NAMES), PLAYED))
    ann, hal, line = screen.buffer[2][1], screen.buffer[3][1], screen.buffer[2][12]
    assert ann.fg == "brown" and ann.bold        # (pyte's name for ANSI yellow)
    assert hal.fg in ("white", "default") and not hal.bold
    assert line.data == "\u2500" and line.fg == "cyan"
    assert screen.buffer[0][1].bg == "blue"


def test_plain_ascii_draws_the_lines_with_dashes_bars_and_pluses() -> None:
    rows = _screen(ASCII, advance(double(NAMES), PLAYED)).display
    assert rows[2].startswith(" Ann       2-+") and rows[3].startswith(" Hal       1-+--Ann")
    assert "?" not in "".join(rows)


def test_the_champion_is_named_under_the_bracket() -> None:
    b = single(NAMES[:4])
    state = advance(b, {"W1-1": MatchResult("Ann", (2, 0)), "W1-2": MatchResult("Bob", (2, 1)),
                        "W2-1": MatchResult("Bob", (2, 1))})
    rows = _screen(UTF8, state, "Club cup").display
    assert rows[1].split() == ["Round", "1", "Final"]
    assert any(r.strip() == "Champion: Bob" for r in rows)


def test_screen_reader_mode_says_each_round_in_a_sentence() -> None:
    said = bracket_text(advance(double(NAMES), PLAYED))
    assert said[0] == ("Winners' round 1: Ann beat Hal 2 games to 1; Eve beat Dee 2 games to 0; "
                       "Cy beat Fay 2 games to 1; Bob beat Gus 2 games to 0.")
    assert said[1] == "Winners' round 2: Eve beat Ann 2 games to 1; Cy against Bob, to play."
    assert said[3].startswith("Losers' round 1: Dee beat Hal 2 games to 0; Fay against Gus, to play.")
    assert said[-3].startswith("Grand final: the winner of winners' round 3 against")
    assert said[-1] == "No champion yet."
    assert all(s.isascii() for s in said)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.booleans(), st.integers(0, 2**32))
def test_any_double_of_eight_or_single_of_sixteen_fits_the_screen(n, is_double, seed) -> None:
    rng = random.Random(seed)
    bracket = double(NAMES[:n]) if is_double else single([f"Player {i}" for i in range(2 * n)])
    results: dict[str, MatchResult] = {}
    for _ in range(rng.randrange(30)):
        ready = advance(bracket, results).ready()
        if not ready:
            break
        m = ready[0]
        players = advance(bracket, results).matches[m.id].players
        results[m.id] = MatchResult(str(players[rng.randrange(2)]), (2, rng.randrange(2)))
    for piece in draw(advance(bracket, results), "A long title " * 10, 80):
        assert 0 <= piece.row < 24 and piece.col + len(piece.text) <= 80, piece
