"""The kinds of unfinished game the store keeps, how many of each an
account may keep, and the kind of a game kept before kinds were written
(read from what its row holds).

An account keeps any number of unfinished games, each kind with its own
limit (:data:`KEPT_LIMITS`), counting the games it owns and those it is
the other caller of.  A kind in :data:`REPLACES` makes room by itself: a
new game of it takes the place of its owner's oldest one of the kind (a
new game against the computer replaces the last, as it always did); two
callers keep one game of a kind in :data:`ONE_A_PAIR` together, a new one
replacing the older.  Any other kind, once full, refuses a new game with
:class:`TooManyGames`, before anything is written.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping

from door.records.database import Conflict
from door.records.games import Opponent

__all__ = ["GameKind", "KEPT_LIMITS", "REPLACES", "ONE_A_PAIR", "TooManyGames", "derived_kind", "kind_words"]


class GameKind(enum.StrEnum):
    """What an unfinished game is (its value is what the store keeps in ``saved_games.kind``)."""

    COMPUTER = "computer"
    """Against the computer (a match against it too)."""
    SYSOP = "sysop"
    """Against the sysop at the console."""
    CALLER = "caller"
    """A single game between two callers."""
    MATCH = "match"
    """A game of a match between two callers."""
    DAILY = "daily"
    """The daily deal, against the expert computer."""
    CLUB = "club"
    """A game of a club night."""
    CORRESPONDENCE = "correspondence"
    """A game between callers played over days, each move with a deadline."""
    TOURNAMENT = "tournament"
    """A game of a tournament."""


KEPT_LIMITS: Mapping[GameKind, int] = {
    GameKind.COMPUTER: 1,
    GameKind.SYSOP: 1,
    GameKind.DAILY: 1,
    GameKind.CALLER: 10,
    GameKind.MATCH: 10,
    GameKind.CLUB: 3,
    GameKind.TOURNAMENT: 10,
    GameKind.CORRESPONDENCE: 20,
}
"""How many unfinished games of each kind one account may keep, counting
those it owns and those it is the other caller of.  The defaults: one
game against the computer, one against the sysop and one daily deal (each
replaced by the next, :data:`REPLACES`); ten games and ten match games
with other callers; three club night games; ten tournament games; twenty
correspondence games."""

REPLACES: frozenset[GameKind] = frozenset({GameKind.COMPUTER, GameKind.SYSOP, GameKind.DAILY})
"""Kinds whose new game replaces its owner's oldest of the kind when the
kind is full (nobody else plays in them); any other kind refuses."""

ONE_A_PAIR: frozenset[GameKind] = frozenset({GameKind.CALLER, GameKind.MATCH})
"""Kinds of which two accounts keep at most one unfinished game together
(so that "your game with Bob" is one game): a new one, which both sat
down to, replaces their older one."""


_NOUNS: Mapping[GameKind, tuple[str, str]] = {
    GameKind.COMPUTER: ("game against the computer", "games against the computer"),
    GameKind.SYSOP: ("game against the sysop", "games against the sysop"),
    GameKind.CALLER: ("game with another caller", "games with other callers"),
    GameKind.MATCH: ("match game", "match games"),
    GameKind.DAILY: ("daily deal", "daily deals"),
    GameKind.CLUB: ("club night game", "club night games"),
    GameKind.CORRESPONDENCE: ("correspondence game", "correspondence games"),
    GameKind.TOURNAMENT: ("tournament game", "tournament games"),
}


def kind_words(kind: GameKind, count: int = 1) -> str:
    """A game of ``kind`` in words, for ``count`` of them.

    >>> kind_words(GameKind.CALLER), kind_words(GameKind.DAILY, 2)
    ('game with another caller', 'daily deals')
    """
    return _NOUNS[kind][0 if count == 1 else 1]


class TooManyGames(Conflict):
    """A new game that the store will not keep: ``account_id`` already
    keeps ``limit`` unfinished games of ``kind`` (0: the door keeps none).
    The message is a sentence a caller can read.  (A
    :class:`~door.records.database.Conflict`: whoever writes a game's log
    and does not ask :meth:`~door.records.saved_games.SavedGames.check_room`
    first treats it as a write the store refused.)"""

    def __init__(self, message: str, account_id: int, kind: GameKind, limit: int) -> None:
        super().__init__(message)
        self.account_id, self.kind, self.limit = account_id, kind, limit


def derived_kind(opponent: str, match_points: str | tuple[int, int] | list[int], shuffle: str | None) -> GameKind:
    """The kind of a game kept before kinds were written, from its row:
    ``opponent`` (an :class:`~door.records.games.Opponent` value),
    ``match_points`` (the games credited before it, as a pair or the
    JSON the row keeps) and ``shuffle`` (its seeds' JSON, ``None`` for a
    numbered game).  The sysop's is ``sysop``; the computer's is ``daily``
    when both player seeds are one (the daily deal fixes both to the
    day's marker), else ``computer``; another caller's is ``match`` once
    a game of the match was credited, else ``caller`` (a match's first
    game, a club night's or a tournament's cannot be told from a plain
    game: they read as ``caller``).

    >>> derived_kind("caller", "[1, 0]", None), derived_kind("computer", (0, 0), None)
    (<GameKind.MATCH: 'match'>, <GameKind.COMPUTER: 'computer'>)
    """
    if opponent == Opponent.SYSOP:
        return GameKind.SYSOP
    if opponent == Opponent.COMPUTER:
        return GameKind.DAILY if _same_seeds(shuffle) else GameKind.COMPUTER
    points = json.loads(match_points) if isinstance(match_points, str) else match_points
    credited = isinstance(points, list | tuple) and any(isinstance(p, int) and p > 0 for p in points)
    return GameKind.MATCH if credited else GameKind.CALLER


def _same_seeds(shuffle: str | None) -> bool:
    if shuffle is None:
        return False
    try:
        seeds = json.loads(shuffle).get("player_seeds")
    except (ValueError, AttributeError):
        return False
    return isinstance(seeds, list) and len(seeds) == 2 and seeds[0] == seeds[1]
