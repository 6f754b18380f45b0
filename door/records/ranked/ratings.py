"""Matches between people and their ratings: each match that ends is kept
(table ``matches``); a rated match between two registered callers moves
both Glicko-2 ratings (table ``ratings``, :mod:`door.records.ranked.glicko2`) in
the same transaction.  A match aborted before its first deal is kept
unrated.  A match the sysop voids (:meth:`Ratings.void`) is taken out of
the history and every rating worked out again from what is left, as if it
had never been played (each rated match is its own rating period, in the
order the matches ended, so the result is exact).

Matches played by turns (by correspondence, and tournaments' games) are
rated in a pool of their own (table ``correspondence_ratings``): a
player's rating there moves only with their matches by turns, and a live
match never moves it (``by_turns`` on each call; live play by default)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from door.records.bots import PEOPLE
from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.records.ranked.glicko2 import Rating, provisional, rate_match

__all__ = ["Ratings", "RatedPlayer", "MatchRecord", "Stakes", "RatingChange", "keep_match", "keep_matches", "table_of"]


@dataclass(frozen=True)
class RatedPlayer:
    """A registered caller's ``rating`` (:class:`~door.records.ranked.glicko2.Rating`)
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
    won (``wins``), the ``winner``'s seat, and ``forfeit``; ``aborted``:
    left before its first deal (then never rated), by the seat ``leaver``
    (who forfeited or aborted it, else ``None``); ``hands``: hands dealt
    in it; ``networks``: both players' networks as they played (empty for
    a shared line); ``unrated_why``: why a match offered rated was played
    unrated, in a sentence; ``via``: how each played (the transport:
    ``api`` for the game protocol); ``by_turns``: played by turns over
    days (by correspondence, or a tournament's), rated in that pool."""

    players: tuple[str, str]
    accounts: tuple[int | None, int | None]
    best_of: int
    rated: bool
    wins: tuple[int, int]
    winner: int
    forfeit: bool = False
    aborted: bool = False
    leaver: int | None = None
    hands: int = 0
    networks: tuple[str, str] = ("", "")
    unrated_why: str = ""
    via: tuple[str, str] = ("", "")
    by_turns: bool = False


@dataclass(frozen=True)
class Stakes:
    """What a rated match between two accounts stands to do to their
    ratings: both ratings now (``before``) and both after a win of seat 0
    (``if_first_wins``) or of seat 1 (``if_second_wins``)."""

    before: tuple[Rating, Rating]
    if_first_wins: tuple[Rating, Rating]
    if_second_wins: tuple[Rating, Rating]

    def on_loss(self, seat: int) -> str:
        """``"your rating 1500 -> 1338"``: what losing does to ``seat``'s rating."""
        after = self.if_second_wins if seat == 0 else self.if_first_wins
        return f"your rating {self.before[seat].rating:.0f} -> {after[seat].rating:.0f}"


@dataclass(frozen=True)
class RatingChange:
    """What a rated match did: both seats' ratings ``before`` and ``after`` it."""

    before: tuple[Rating, Rating]
    after: tuple[Rating, Rating]

    def lines(self, players: tuple[str, str]) -> list[str]:
        """What both players are told, one line a seat: ``"Ann's rating: 1500 -> 1662 (RD 290)."``
        (points, rounded)."""
        return [f"{players[seat]}'s rating: {self.before[seat].rating:.0f} -> {self.after[seat].rating:.0f} "
                f"(RD {self.after[seat].rd:.0f})." for seat in (0, 1)]


def table_of(by_turns: bool) -> str:
    """The table of the pool of matches played live (``ratings``) or by
    turns (``correspondence_ratings``)."""
    return "correspondence_ratings" if by_turns else "ratings"


def _rating(db: Connection, account_id: int, by_turns: bool = False) -> tuple[Rating, int]:
    row = db.execute(f"SELECT rating, rd, volatility, matches FROM {table_of(by_turns)} WHERE account_id = ?",
                     (account_id,)).fetchone()
    return (Rating(), 0) if row is None else (Rating(row[0], row[1], row[2]), int(row[3]))


def _write(db: Connection, account_id: int, rating: Rating, matches: int, when: float, by_turns: bool = False) -> None:
    table = table_of(by_turns)
    db.execute(f"DELETE FROM {table} WHERE account_id = ?", (account_id,))
    db.execute(f"INSERT INTO {table} (account_id, rating, rd, volatility, matches, updated) VALUES (?, ?, ?, ?, ?, ?)",
               (account_id, rating.rating, rating.rd, rating.volatility, matches, when))


def _check(match: MatchRecord) -> None:
    """Raise ``ValueError`` for a rated match without two accounts."""
    a, b = match.accounts
    if match.rated and not match.aborted and (a is None or b is None or a == b):
        raise ValueError("a rated match needs two registered callers")


_INSERT_MATCH = (
    "INSERT INTO matches (player0, player1, account0, account1, best_of, rated, wins0, wins1, winner, forfeit, "
    "ended, rating0, rating1, after0, after1, aborted, leaver, hands, network0, network1, unrated_why, via0, via1, "
    "by_turns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _match_row(match: MatchRecord, now: float, rated: bool, before: list[Any],
               after: tuple[Rating, Rating] | None) -> tuple[Any, ...]:
    """The values of :data:`_INSERT_MATCH` for ``match`` ended at ``now``."""
    a, b = match.accounts
    return (match.players[0], match.players[1], a, b, match.best_of, int(rated), match.wins[0], match.wins[1],
            match.winner, int(match.forfeit), now, before[0], before[1], after[0].rating if after else None,
            after[1].rating if after else None, int(match.aborted), match.leaver, match.hands, match.networks[0],
            match.networks[1], match.unrated_why, match.via[0], match.via[1], int(match.by_turns))


def keep_matches(db: Connection, matches: Sequence[MatchRecord], now: float) -> None:
    """In the transaction of ``db``: keep each of ``matches`` (ended at
    ``now``) as :func:`keep_match` does, those not rated in one statement.
    Raises ``ValueError`` for a rated match without two accounts."""
    plain = [m for m in matches if not m.rated or m.aborted]
    db.executemany(_INSERT_MATCH, [_match_row(m, now, False, [None, None], None) for m in plain])
    for match in matches:
        if match.rated and not match.aborted:
            keep_match(db, match, now)


def keep_match(db: Connection, match: MatchRecord, now: float) -> RatingChange | None:
    """In the transaction of ``db``: keep ``match`` (ended at ``now``,
    seconds since the epoch) and, when it is rated (not aborted) and both
    seats are accounts, move both ratings of its pool (live, or by turns:
    ``match.by_turns``) by Glicko-2, each against the other's rating before
    the match: both before and after (:class:`RatingChange`), else
    ``None``.  Raises ``ValueError`` for a rated match without two
    accounts."""
    _check(match)
    a, b = match.accounts
    rated = match.rated and not match.aborted
    before: list[Any] = [None, None]
    after: tuple[Rating, Rating] | None = None
    change = None
    if rated and a is not None and b is not None:
        (ra, na), (rb, nb) = _rating(db, a, match.by_turns), _rating(db, b, match.by_turns)
        after = rate_match(ra, rb, match.winner == 0)
        change = RatingChange((ra, rb), after)
        before = [ra.rating, rb.rating]
        _write(db, a, after[0], na + 1, now, match.by_turns)
        _write(db, b, after[1], nb + 1, now, match.by_turns)
    db.execute(_INSERT_MATCH, _match_row(match, now, rated, before, after))
    return change


class Ratings:
    """The matches and ratings in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def record(self, match: MatchRecord) -> RatingChange | None:
        """Keep ``match``; when it is rated (not aborted) and both seats
        are accounts, move both ratings of its pool (live, or by turns:
        ``match.by_turns``) by Glicko-2 (each against the
        other's rating before the match) and return both before and after
        (:class:`RatingChange`, read and written in one transaction); else ``None``.  Raises ``ValueError`` for a rated match without two accounts."""
        _check(match)
        return await self.database.tx(lambda db: keep_match(db, match, self.clock()))

    async def of(self, account_id: int, by_turns: bool = False) -> RatedPlayer | None:
        """The rating of ``account_id`` in live play (or ``by_turns``), or
        ``None`` before its first rated match there."""
        def q(db: Connection) -> RatedPlayer | None:
            row = db.execute(f"SELECT a.name, r.rating, r.rd, r.volatility, r.matches FROM {table_of(by_turns)} r "
                             "JOIN accounts a ON a.id = r.account_id WHERE r.account_id = ?",
                             (account_id,)).fetchone()
            return None if row is None else RatedPlayer(row[0], Rating(row[1], row[2], row[3]), int(row[4]))
        return await self.database.query(q)

    async def stakes(self, first: int, second: int) -> Stakes:
        """What a rated match between the accounts ``first`` (seat 0) and
        ``second`` (seat 1) would do to their ratings, by its result."""
        def q(db: Connection) -> tuple[Rating, Rating]:
            return _rating(db, first)[0], _rating(db, second)[0]
        ra, rb = await self.database.query(q)
        return Stakes((ra, rb), rate_match(ra, rb, True), rate_match(ra, rb, False))

    async def top(self, limit: int = 100, pool: str = PEOPLE, by_turns: bool = False) -> list[RatedPlayer]:
        """Every rated player of ``pool`` (``"people"``, or the bots'
        ``"bots"``: :mod:`door.records.ranked.pools`) in live play (or
        ``by_turns``), established players first, each group by rating
        (highest first, then fewer RD points, then name); at most ``limit``."""
        def q(db: Connection) -> list[RatedPlayer]:
            rows = db.execute(f"SELECT a.name, r.rating, r.rd, r.volatility, r.matches FROM {table_of(by_turns)} r "
                              "JOIN accounts a ON a.id = r.account_id LEFT JOIN bots b ON b.account_id = a.id "
                              "WHERE COALESCE(b.pool, 'people') = ?", (pool,)).fetchall()
            players = [RatedPlayer(r[0], Rating(r[1], r[2], r[3]), int(r[4])) for r in rows]
            players.sort(key=lambda p: (p.provisional, -p.rating.rating, p.rating.rd, p.name))
            return players[:limit]
        return await self.database.query(q)

    async def void(self, match_id: int) -> int:
        """Void the match ``match_id`` (the sysop found it farmed or fixed)
        and work every rating out again from the rated matches left, in
        the order they ended; returns how many accounts' ratings changed.
        Raises ``KeyError`` for a match that is not on record, or is void
        already."""
        def tx(db: Connection) -> int:
            row = db.execute("SELECT voided FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None or row[0]:
                raise KeyError(f"no match {match_id} to void (see `cribbage-door records ratings`)")
            db.execute("UPDATE matches SET voided = 1 WHERE id = ?", (match_id,))
            return _recompute(db, False) + _recompute(db, True)
        return await self.database.tx(tx)


def _recompute(db: Connection, by_turns: bool) -> int:
    """Every rating of the pool (live, or ``by_turns``) again from 1500
    through its rated, unvoided matches in the order they ended (each its
    own rating period, as when they were played); each match's before and
    after figures are rewritten, and the pool's table made anew.  Returns
    how many accounts' ratings changed."""
    table = table_of(by_turns)
    old = {int(r[0]): (r[1], r[2], r[3], int(r[4])) for r in db.execute(
        f"SELECT account_id, rating, rd, volatility, matches FROM {table}").fetchall()}
    now: dict[int, tuple[Rating, int, float]] = {}
    rows: Sequence[Sequence[Any]] = db.execute(
        "SELECT id, account0, account1, winner, ended FROM matches WHERE rated = 1 AND voided = 0 AND by_turns = ? "
        "AND account0 IS NOT NULL AND account1 IS NOT NULL ORDER BY ended, id", (int(by_turns),)).fetchall()
    for match_id, a, b, winner, ended in rows:
        ra, na, _ = now.get(a, (Rating(), 0, 0.0))
        rb, nb, _ = now.get(b, (Rating(), 0, 0.0))
        after = rate_match(ra, rb, winner == 0)
        db.execute("UPDATE matches SET rating0 = ?, rating1 = ?, after0 = ?, after1 = ? WHERE id = ?",
                   (ra.rating, rb.rating, after[0].rating, after[1].rating, match_id))
        now[a] = (after[0], na + 1, ended)
        now[b] = (after[1], nb + 1, ended)
    db.execute(f"DELETE FROM {table}")
    for account_id, (rating, matches, when) in now.items():
        _write(db, account_id, rating, matches, when, by_turns)
    new = {k: (r.rating, r.rd, r.volatility, n) for k, (r, n, _) in now.items()}
    return sum(1 for k in set(old) | set(new) if old.get(k) != new.get(k))
