"""Matches between people and their ratings (issue 36.1, 36.3): each match
that ends is kept (table ``matches``); a rated match between two registered
callers moves both Glicko-2 ratings (table ``ratings``,
:mod:`door.records.glicko2`) in the same transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.records.glicko2 import Rating, provisional, rate_match

__all__ = ["Ratings", "RatedPlayer", "MatchRecord"]


@dataclass(frozen=True)
class RatedPlayer:
    """A registered caller's ``rating`` (:class:`~door.records.glicko2.Rating`)
    after ``matches`` rated matches."""

    name: str
    rating: Rating
    matches: int

    @property
    def provisional(self) -> bool:
        """Fewer than 5 rated matches, or an RD of 100 or more."""
        return provisional(self.rating, self.matches)


@dataclass(frozen=True)
class MatchRecord:
    """A match to keep: both ``players``' names and ``accounts`` (``None``
    for a guest or the sysop), ``best_of`` games, ``rated``, the games each
    won (``wins``), the ``winner``'s seat, and ``forfeit``."""

    players: tuple[str, str]
    accounts: tuple[int | None, int | None]
    best_of: int
    rated: bool
    wins: tuple[int, int]
    winner: int
    forfeit: bool = False


def _rating(db: Connection, account_id: int) -> tuple[Rating, int]:
    row = db.execute("SELECT rating, rd, volatility, matches FROM ratings WHERE account_id = ?",
                     (account_id,)).fetchone()
    return (Rating(), 0) if row is None else (Rating(row[0], row[1], row[2]), int(row[3]))


class Ratings:
    """The matches and ratings in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def record(self, match: MatchRecord) -> tuple[Rating, Rating] | None:
        """Keep ``match``; when it is rated and both seats are accounts, move
        both ratings by Glicko-2 (each against the other's rating before the
        match) and return them (seat 0's, seat 1's); else ``None``.  Raises
        ``ValueError`` for a rated match without two accounts."""
        a, b = match.accounts
        if match.rated and (a is None or b is None or a == b):
            raise ValueError("a rated match needs two registered callers")

        def tx(db: Connection) -> tuple[Rating, Rating] | None:
            now = self.clock()
            before: list[Any] = [None, None]
            after: tuple[Rating, Rating] | None = None
            if match.rated and a is not None and b is not None:
                (ra, na), (rb, nb) = _rating(db, a), _rating(db, b)
                after = rate_match(ra, rb, match.winner == 0)
                before = [ra.rating, rb.rating]
                for account, new, n in ((a, after[0], na), (b, after[1], nb)):
                    db.execute("DELETE FROM ratings WHERE account_id = ?", (account,))
                    db.execute("INSERT INTO ratings (account_id, rating, rd, volatility, matches, updated) "
                               "VALUES (?, ?, ?, ?, ?, ?)", (account, new.rating, new.rd, new.volatility, n + 1, now))
            db.execute("INSERT INTO matches (player0, player1, account0, account1, best_of, rated, wins0, wins1, "
                       "winner, forfeit, ended, rating0, rating1, after0, after1) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (match.players[0], match.players[1], a, b, match.best_of, int(match.rated), match.wins[0],
                        match.wins[1], match.winner, int(match.forfeit), now, before[0], before[1],
                        after[0].rating if after else None, after[1].rating if after else None))
            return after
        return await self.database.tx(tx)

    async def of(self, account_id: int) -> RatedPlayer | None:
        """The rating of ``account_id``, or ``None`` before its first rated match."""
        def q(db: Connection) -> RatedPlayer | None:
            row = db.execute("SELECT a.name, r.rating, r.rd, r.volatility, r.matches FROM ratings r "
                             "JOIN accounts a ON a.id = r.account_id WHERE r.account_id = ?",
                             (account_id,)).fetchone()
            return None if row is None else RatedPlayer(row[0], Rating(row[1], row[2], row[3]), int(row[4]))
        return await self.database.query(q)

    async def top(self, limit: int = 100) -> list[RatedPlayer]:
        """Every rated player, established players first, each group by
        rating (highest first, then fewer RD points, then name); at most
        ``limit``."""
        def q(db: Connection) -> list[RatedPlayer]:
            rows = db.execute("SELECT a.name, r.rating, r.rd, r.volatility, r.matches FROM ratings r "
                              "JOIN accounts a ON a.id = r.account_id").fetchall()
            players = [RatedPlayer(r[0], Rating(r[1], r[2], r[3]), int(r[4])) for r in rows]
            players.sort(key=lambda p: (p.provisional, -p.rating.rating, p.rating.rd, p.name))
            return players[:limit]
        return await self.database.query(q)
