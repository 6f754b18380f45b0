"""A season's points, pure: the grass-roots table of a year, from each
tournament's places and games won, by the sysop's formula.

The formula is data (:class:`SeasonFormula`).  By default a tournament
gives 10 points for first place, 7 for second, 5 for third, 4 for
fourth, 3 for fifth, 2 for sixth and 1 for seventh, 1 point for each game
won in it (a bye is not a game won here), and nothing for taking part.  The year's
table goes by points, then first places, then games won, then name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from door.records.ranked.brackets import BracketState
from door.records.ranked.standings import Line

__all__ = ["SeasonFormula", "Finish", "SeasonLine", "season_table", "swiss_finishes", "bracket_finishes", "HEADING"]


@dataclass(frozen=True)
class SeasonFormula:
    """How a tournament scores for the season: ``places``, the points for
    first, second, ... place (none past the last); ``per_game``, points
    for each game won; ``per_event``, points for taking part.  Raises
    ``ValueError`` for a negative or non-integer value, or more than 64
    places."""

    places: tuple[int, ...] = (10, 7, 5, 4, 3, 2, 1)
    per_game: int = 1
    per_event: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.places, tuple) or len(self.places) > 64 or any(
                not _count(p) for p in self.places):
            raise ValueError(f"places are up to 64 whole points, none negative, got {self.places!r}")
        for name in ("per_game", "per_event"):
            if not _count(getattr(self, name)):
                raise ValueError(f"{name} is a whole number of points, not negative, got {getattr(self, name)!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> SeasonFormula:
        """The formula from a table of settings (``places``: a list of
        points, ``per_game``, ``per_event``; any left out keep the
        default).  Raises ``ValueError`` naming a key it does not know or
        a value it cannot take."""
        unknown = set(data) - {"places", "per_game", "per_event"}
        if unknown:
            raise ValueError(f"the season's formula has no setting {sorted(unknown)[0]!r}")
        places = data.get("places", cls.places)
        if not isinstance(places, (list, tuple)):
            raise ValueError(f"places is a list of points, got {places!r}")
        per_game = data.get("per_game", cls.per_game)
        per_event = data.get("per_event", cls.per_event)
        if not isinstance(per_game, int) or not isinstance(per_event, int):
            raise ValueError(f"per_game and per_event are whole points, got {per_game!r} and {per_event!r}")
        return cls(tuple(places), per_game, per_event)

    def points(self, place: int, won: int) -> int:
        """Season points for finishing ``place`` (1 first) with ``won`` games won."""
        return (self.places[place - 1] if place <= len(self.places) else 0) + self.per_game * won + self.per_event


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class Finish:
    """A player's finish in one tournament: its ``year``, their ``name``,
    ``place`` (1 first; players who share a place have the same) and
    games ``won`` in it."""

    year: int
    name: str
    place: int
    won: int


@dataclass(frozen=True)
class SeasonLine:
    """A player's line in a year's table: ``points``, ``events`` played,
    ``firsts`` (tournaments won) and games ``won``."""

    name: str
    points: int
    events: int
    firsts: int
    won: int

    def text(self, place: int) -> str:
        """``" 1  Ann                      42       3       1      25"``: place,
        name, points, events, firsts, games won (ASCII, under :data:`HEADING`)."""
        return (f"{place:>2}  {self.name[:20]:<20} {self.points:>6}  {self.events:>6}  {self.firsts:>6}  "
                f"{self.won:>6}")


HEADING = f"{'':>2}  {'Name':<20} {'Points':>6}  {'Events':>6}  {'Firsts':>6}  {'Won':>6}"
"""The heading of the columns of :meth:`SeasonLine.text`."""


def season_table(year: int, finishes: Iterable[Finish], formula: SeasonFormula = SeasonFormula()) -> list[SeasonLine]:
    """``year``'s table from ``finishes`` (those of other years are left
    out), best first: points, then first places, then games won, then name."""
    table: dict[str, list[int]] = {}
    for f in finishes:
        if f.year != year:
            continue
        row = table.setdefault(f.name, [0, 0, 0, 0])
        row[0] += formula.points(f.place, f.won)
        row[1] += 1
        row[2] += f.place == 1
        row[3] += f.won
    lines = [SeasonLine(name, *row) for name, row in table.items()]
    return sorted(lines, key=lambda s: (-s.points, -s.firsts, -s.won, s.name))


def swiss_finishes(year: int, lines: Sequence[Line]) -> list[Finish]:
    """The finishes of a Swiss from its final standings (``lines``, best
    first): places in order, games won without the byes."""
    return [Finish(year, line.name, place, line.won - line.byes) for place, line in enumerate(lines, 1)]


def bracket_finishes(year: int, state: BracketState) -> list[Finish]:
    """The finishes of a finished knock-out (``state``): its places, and
    the games each player won in its matches.  Raises ``ValueError`` when
    it has no champion yet."""
    if state.champion is None:
        raise ValueError("the knock-out is not over: it has no champion yet")
    won = {name: 0 for name in state.bracket.seeds}
    for s in state.matches.values():
        if s.result is not None and isinstance(s.loser, str):
            won[s.result.winner] += s.result.games[0]
            won[s.loser] += s.result.games[1]
    return [Finish(year, name, state.places[name], won[name]) for name in state.bracket.seeds]
