"""A Swiss's standings, pure: ACC game points, games won, skunks and
spread, in one total order.

The order: most game points (2 a win, 3 a skunk or double skunk, 2 a
bye), then most games won, then the greatest spread (the points a
player's games were won by, less those they were lost by; a bye counts
the format's ``bye_spread``, 0 by default), then the higher rating as
entered, then the name (names are unique in a tournament, so no two
players ever tie).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from door.records.ranked.tournament import Entrant, GameResult, game_points

__all__ = ["Line", "standings", "order_key", "HEADING"]


@dataclass(frozen=True)
class Line:
    """A player's line in the standings: ``name``, ``rating``, game
    ``points``, games ``won`` and ``played`` (a bye is played and won),
    ``skunks`` (games won by a skunk or double skunk), ``spread``
    (points) and ``byes``."""

    name: str
    rating: float = 1500.0
    points: int = 0
    won: int = 0
    played: int = 0
    skunks: int = 0
    spread: int = 0
    byes: int = 0

    def text(self, place: int) -> str:
        """``" 1  Ann                    7 pts   3-0        1     +41"``: place,
        name, points, won-lost, skunks, spread (ASCII, under :data:`HEADING`)."""
        return (f"{place:>2}  {self.name[:20]:<20} {self.points:>3} pts  {self.won:>2}-{self.played - self.won:<2}"
                f"  {self.skunks:>6}  {self.spread:+6d}")


HEADING = f"{'':>2}  {'Name':<20} {'Points':>7}  {'W-L':^5}  Skunks  Spread"
"""The heading of the columns of :meth:`Line.text`."""


def order_key(line: Line) -> tuple[int, int, int, float, str]:
    """The standings' sort key, best first: points, games won, spread,
    rating, name."""
    return (-line.points, -line.won, -line.spread, -line.rating, line.name)


def standings(entrants: Sequence[Entrant], results: Sequence[GameResult], bye_spread: int = 0) -> list[Line]:
    """The standings of ``entrants`` after ``results``, best first
    (:func:`order_key`).  A result naming somebody not entered raises
    ``ValueError``."""
    table = {e.name: Line(e.name, e.rating) for e in entrants}
    counts = {name: [0, 0, 0, 0, 0, 0] for name in table}  # points, won, played, skunks, spread, byes
    for r in results:
        for seat, name in enumerate(r.players):
            if name is None:
                continue
            if name not in counts:
                raise ValueError(f"round {r.round}'s result names {name!r}, who is not entered")
            c = counts[name]
            won = r.winner == seat
            c[0] += game_points(won, r.skunk)
            c[1] += won
            c[2] += 1
            c[3] += won and r.skunk > 0
            c[4] += (bye_spread if r.bye else r.margin) * (1 if won else -1)
            c[5] += r.bye
    lines = [Line(name, table[name].rating, *counts[name]) for name in table]
    return sorted(lines, key=order_key)
