"""A tournament's bulletins for the board: its standings, each of its
brackets (drawn, then said in sentences), and a year's season table,
written as ``.ans`` (CP437, the box lines as CP437's), ``.txt`` (plain
ASCII: lines of ``-``, ``|`` and ``+``) and ``.html`` (names escaped), by
:func:`door.records.bulletins.write_files`.

``tournament_bulletins("spring", "Spring open", lines, [("bracket",
state)])`` gives ``spring-standings`` and ``spring-bracket``."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from door.records.bulletins import WIDTH, Bulletin
from door.records.ranked.bracket_drawing import draw, lines
from door.records.ranked.bracket_sentences import sentences
from door.records.ranked.brackets import BracketState
from door.records.ranked.season import SeasonLine
from door.records.ranked.standings import HEADING, Line

__all__ = ["tournament_bulletins", "season_bulletin"]

_FILE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def _check(name: str) -> str:
    if not _FILE_NAME.fullmatch(name):
        raise ValueError(f"a bulletin's name is 1 to 40 lower-case letters, digits and dashes, got {name!r}")
    return name


def tournament_bulletins(name: str, title: str, standings: Sequence[Line] = (),
                         brackets: Sequence[tuple[str, BracketState]] = ()) -> list[Bulletin]:
    """The bulletins of tournament ``name`` (its file names' stem) called
    ``title``: ``NAME-standings`` from its Swiss's ``standings`` (best
    first; none when empty), and ``NAME-LABEL`` for each bracket
    (``LABEL`` and its state: ``("bracket", state)``, ``("consolation",
    state)``).  Raises ``ValueError`` for a name or label that is not 1 to
    40 lower-case letters, digits and dashes."""
    out = []
    if standings:
        out.append(Bulletin(f"{_check(name)}-standings", f"{title}: standings",
                            [HEADING, *(line.text(place) for place, line in enumerate(standings, 1))]))
    for label, state in brackets:
        drawing = lines(draw(state, "", WIDTH - 1), WIDTH - 1)
        said = [row for sentence in sentences(state) for row in textwrap.wrap(sentence, WIDTH - 1)]
        out.append(Bulletin(f"{_check(name)}-{_check(label)}", f"{title}: {label}", [*drawing, "", *said],
                            heading=False))
    return out


def season_bulletin(year: int, table: Sequence[SeasonLine]) -> Bulletin:
    """The season's table of ``year`` as bulletin ``season-YEAR``."""
    rows = [HEADING, *(line.text(place) for place, line in enumerate(table, 1))] if table else [
        "No tournaments this year yet."]
    return Bulletin(f"season-{year}", f"Season {year}: points", rows, heading=bool(table))
