"""A tournament's bulletins: the standings and the bracket of an
8-player double elimination written as .ans (CP437 lines), .txt (plain
ASCII lines) and .html (names escaped), and a season's table."""

from __future__ import annotations

from pathlib import Path

import pytest

from door.records.bulletins import write_files
from door.records.ranked.brackets import advance, double
from door.records.ranked.season import Finish, season_table
from door.records.ranked.standings import standings
from door.records.ranked.tournament import Entrant, GameResult, MatchResult
from door.records.tournament_bulletins import season_bulletin, tournament_bulletins

NAMES = ["<b>Ann & Co</b>", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _write(tmp_path: Path) -> Path:
    state = advance(double(NAMES), {"W1-1": MatchResult("<b>Ann & Co</b>", (2, 1)), "W1-2": MatchResult("Eve", (2, 0))})
    lines = standings([Entrant(n) for n in NAMES[:3]], [GameResult(1, ("Bob", "Cy"), 0, (121, 88), skunk=1),
                                                        GameResult(1, ("<b>Ann & Co</b>", None))])
    write_files(tournament_bulletins("spring", "Spring open", lines, [("bracket", state)]), tmp_path)
    return tmp_path


def test_the_bracket_bulletin_in_three_formats(tmp_path: Path) -> None:
    folder = _write(tmp_path)
    txt = (folder / "spring-bracket.txt").read_bytes()
    assert txt.isascii() and b"?" not in txt
    text = txt.decode()
    assert "Winners 1" in text and "Grand final" in text and "Losers 4" in text
    assert "-+--" in text and " |" in text                                  # the lines, in ASCII
    assert "Winners' round 1: <b>Ann & Co</b> beat Hal 2 games to 1; Eve beat Dee 2 games to 0;" in text.replace(
        "\r\n", " ")
    assert all(len(row) < 80 for row in text.split("\r\n"))
    ans = (folder / "spring-bracket.ans").read_bytes().decode("cp437")
    assert "\u2500\u2534\u2500\u2500" in ans and "\u2502" in ans          # CP437's own box lines
    page = (folder / "spring-bracket.html").read_text("utf-8")
    assert "&lt;b&gt;Ann &amp; Co&lt;/b&gt;" in page and "<b>Ann" not in page
    assert "\u2510" in page


def test_the_standings_bulletin_has_points_skunks_and_spread(tmp_path: Path) -> None:
    text = (_write(tmp_path) / "spring-standings.txt").read_bytes().decode("ascii")
    rows = text.split("\r\n")
    assert rows[0] == "Spring open: standings"
    assert "Points" in rows[3] and "Skunks" in rows[3] and "Spread" in rows[3]
    assert rows[4].split() == ["1", "Bob", "3", "pts", "1-0", "1", "+33"]
    assert rows[5].split()[1:] == ["<b>Ann", "&", "Co</b>", "2", "pts", "1-0", "0", "+0"]


def test_a_seasons_table_and_bad_names(tmp_path: Path) -> None:
    table = season_table(2026, [Finish(2026, "Ann", 1, 5), Finish(2026, "Bob", 2, 3)])
    write_files([season_bulletin(2026, table)], tmp_path)
    rows = (tmp_path / "season-2026.txt").read_bytes().decode("ascii").split("\r\n")
    assert rows[4].split() == ["1", "Ann", "15", "1", "1", "5"]
    with pytest.raises(ValueError):
        tournament_bulletins("../etc", "x", standings([Entrant("A"), Entrant("B")], []))
