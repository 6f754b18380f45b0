"""A tournament's values, pure: its format, its entrants, and the results
of its games and matches.

The formats are the American Cribbage Congress's: a Swiss of N rounds
(one game a round, the club night's scoring), a knock-out of matches
(single or double elimination, byes to a power of two), and the
sanctioned events' qualifying Swiss whose top fraction goes on to a
knock-out while the rest play a consolation.  Every value checks itself
when made and raises ``ValueError`` quoting what was wrong, so bad input
is an error where it enters.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Kind", "Format", "Entrant", "GameResult", "MatchResult", "game_points", "check_entrants",
           "WIN_POINTS", "SKUNK_POINTS"]

WIN_POINTS = 2
"""ACC game points for a win (a bye counts as one)."""

SKUNK_POINTS = 3
"""ACC game points for a win by a skunk or a double skunk."""


class Kind(enum.Enum):
    """What a tournament is."""

    SWISS = "swiss"
    """Rounds of one game each, paired by the standings (:mod:`door.records.ranked.swiss`)."""
    SINGLE = "single"
    """Single elimination: a match lost is out."""
    DOUBLE = "double"
    """Double elimination: a first loss drops to the losers' ("bruised") bracket, a second is out."""
    QUALIFYING = "qualifying"
    """A qualifying Swiss, then its top fraction in a single-elimination
    knock-out and the rest in a single-elimination consolation."""


@dataclass(frozen=True)
class Format:
    """A tournament's format: its ``kind``; ``rounds``, the Swiss's rounds
    (Swiss and qualifying only, 1 to 99); ``games``, a knock-out match's
    length (best of 1, 3, 5, 7 or 9 games); ``qualify``, the fraction of
    the qualifying Swiss's standings that goes on to the knock-out (above
    0, at most 1; a quarter by default, the ACC's); ``bye_spread``, the
    spread a Swiss bye counts (points; 0 by default).  Raises
    ``ValueError`` for any other value.

    >>> Format(Kind.QUALIFYING, rounds=9, games=3).qualify
    Fraction(1, 4)
    """

    kind: Kind
    rounds: int = 0
    games: int = 3
    qualify: Fraction = Fraction(1, 4)
    bye_spread: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Kind):
            raise ValueError(f"a tournament's kind is one of {[k.value for k in Kind]}, got {self.kind!r}")
        swiss = self.kind in (Kind.SWISS, Kind.QUALIFYING)
        if swiss and not (isinstance(self.rounds, int) and 1 <= self.rounds <= 99):
            raise ValueError(f"a Swiss is 1 to 99 rounds, got {self.rounds!r}")
        if not swiss and self.rounds != 0:
            raise ValueError(f"a {self.kind.value} elimination has no Swiss rounds, got {self.rounds!r}")
        if self.games not in (1, 3, 5, 7, 9):
            raise ValueError(f"a match is best of 1, 3, 5, 7 or 9 games, got {self.games!r}")
        if not isinstance(self.qualify, Fraction) or not 0 < self.qualify <= 1:
            raise ValueError(f"the fraction that qualifies is a Fraction above 0 and at most 1, got {self.qualify!r}")
        if not isinstance(self.bye_spread, int) or not 0 <= self.bye_spread <= 121:
            raise ValueError(f"a bye's spread is 0 to 121 points, got {self.bye_spread!r}")

    @property
    def to_win(self) -> int:
        """Games that win a knock-out match (2 of a best of 3)."""
        return self.games // 2 + 1


@dataclass(frozen=True)
class Entrant:
    """A player in a tournament: their ``name`` (unique in it, 1 to 40
    characters, no control characters) and ``rating`` (Glicko-2, as
    listed when they entered; seeds go by it).  Raises ``ValueError``."""

    name: str
    rating: float = 1500.0

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= 40 or not self.name.isprintable() \
                or self.name != self.name.strip():
            raise ValueError(f"an entrant's name is 1 to 40 printable characters, got {self.name!r}")
        if not isinstance(self.rating, (int, float)) or not 0 <= self.rating <= 5000:
            raise ValueError(f"an entrant's rating is 0 to 5000, got {self.rating!r}")


def check_entrants(entrants: Sequence[Entrant]) -> None:
    """Raise ``ValueError`` unless ``entrants`` are at least two, with no name twice."""
    if len(entrants) < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, got {len(entrants)}")
    seen: set[str] = set()
    for e in entrants:
        if e.name in seen:
            raise ValueError(f"{e.name!r} entered twice")
        seen.add(e.name)


@dataclass(frozen=True)
class GameResult:
    """One game of a Swiss: its ``round`` (1, 2, ...), its ``players``
    (the second ``None``: the first player's bye), the ``winner``'s index
    (0 or 1; 0 for a bye), the final ``scores`` (points; ``(0, 0)`` for a
    bye) and ``skunk`` (0 none, 1 a skunk, 2 a double skunk; a game won
    by forfeit is kept with none, as the club night counts it: a plain
    win).  Raises ``ValueError`` for a result that cannot be."""

    round: int
    players: tuple[str, str | None]
    winner: int = 0
    scores: tuple[int, int] = (0, 0)
    skunk: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.round, int) or self.round < 1:
            raise ValueError(f"a round is 1 or more, got {self.round!r}")
        if self.players[0] == self.players[1]:
            raise ValueError(f"a player cannot meet themselves: {self.players!r}")
        if self.winner not in (0, 1) or (self.bye and self.winner != 0):
            raise ValueError(f"the winner is seat 0 or 1 (0 for a bye), got {self.winner!r}")
        if self.skunk not in (0, 1, 2) or (self.bye and (self.skunk or self.scores != (0, 0))):
            raise ValueError(f"a skunk is 0, 1 or 2 (a bye has no skunk and no scores), got {self.skunk!r}")
        if any(not isinstance(s, int) or not 0 <= s <= 999 for s in self.scores):
            raise ValueError(f"scores are 0 to 999 points, got {self.scores!r}")

    @property
    def bye(self) -> bool:
        """True for a bye (no opponent)."""
        return self.players[1] is None

    @property
    def margin(self) -> int:
        """Points the game was won by (0 for a bye)."""
        return abs(self.scores[0] - self.scores[1])


def game_points(won: bool, skunk: int) -> int:
    """ACC game points of one side of a game: 2 a win, 3 a win by a skunk
    or a double skunk, 0 a loss.

    >>> game_points(True, 0), game_points(True, 2), game_points(False, 1)
    (2, 3, 0)
    """
    if not won:
        return 0
    return SKUNK_POINTS if skunk else WIN_POINTS


@dataclass(frozen=True)
class MatchResult:
    """A knock-out match played: its ``winner``'s name and the ``games``
    each side won (the winner's first: ``(2, 1)``).  Raises ``ValueError``
    for a score no match ends on (the winner must have won more)."""

    winner: str
    games: tuple[int, int]

    def __post_init__(self) -> None:
        won, lost = self.games
        if not isinstance(won, int) or not isinstance(lost, int) or not 0 <= lost < won <= 9:
            raise ValueError(f"a match's games are (winner's, loser's), the winner's more, got {self.games!r}")
