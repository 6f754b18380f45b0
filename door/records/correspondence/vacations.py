"""Days away from correspondence play, kept in the store.

A caller sets a vacation: a start and a whole number of days (at least
one).  While it lasts their clocks stand still in every correspondence game
(:func:`~door.records.correspondence.deadlines.deadline` counts no time
away).  Each calendar year (UTC) allows ``allowance`` days
(``[correspondence] vacation_days``; 0: no vacation); each day of a
vacation counts towards the year it falls in.  Vacations of one account
never overlap.  A caller back early ends theirs (:meth:`Vacations.end`),
and only the days begun are used.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.correspondence.deadlines import DAY, Interval
from door.records.database import Database

__all__ = ["Vacation", "Vacations", "VacationRefused", "days_by_year"]

_CHUNK = 500
"""Accounts asked about in one statement."""

_GRACE = 60.0
"""Seconds in the past a vacation may start (the caller's screen was a little slow)."""


class VacationRefused(ValueError):
    """A vacation the records refuse; the message is a sentence for the caller."""


@dataclass(frozen=True)
class Vacation:
    """One vacation of ``account_id``: from ``starts`` to ``ends`` (seconds
    since the epoch, ``ends`` not included); ``id`` its row."""

    id: int
    account_id: int
    starts: float
    ends: float

    @property
    def days(self) -> int:
        """The days it takes, a day begun counting whole (at least 1)."""
        return max(1, math.ceil((self.ends - self.starts) / DAY - 1e-9))


def _year(t: float) -> int:
    return time.gmtime(t).tm_year


def days_by_year(starts: float, days: int) -> dict[int, int]:
    """The ``days`` of a vacation from ``starts`` counted by the calendar
    year (UTC) each day begins in.

    >>> days_by_year(1798675200.0, 3)  # from 2026-12-31 00:00 UTC
    {2026: 1, 2027: 2}
    """
    out: dict[int, int] = {}
    for i in range(days):
        year = _year(starts + i * DAY)
        out[year] = out.get(year, 0) + 1
    return out


def _row(row: tuple[int, int, float, float]) -> Vacation:
    return Vacation(int(row[0]), int(row[1]), float(row[2]), float(row[3]))


class Vacations:
    """The ``correspondence_vacations`` table in ``database``, timed by ``clock``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def take(self, account_id: int, starts: float, days: int, allowance: int) -> Vacation:
        """``account_id`` is away ``days`` whole days from ``starts``
        (seconds since the epoch, now or later), within ``allowance`` days
        a calendar year: the vacation kept.  Raises :class:`VacationRefused`
        (a sentence for the caller) when vacation is off (``allowance``
        0), ``days`` is not a whole number of at least 1, it starts in the
        past or over a year ahead, it overlaps one already set, or a year's
        allowance would be passed."""
        if allowance <= 0:
            raise VacationRefused("This board has no vacation from correspondence games.")
        if type(days) is not int or days < 1:
            raise VacationRefused(f"A vacation is a whole number of days, at least one, not {days!r}.")
        now = self.clock()
        if not math.isfinite(starts) or starts < now - _GRACE or starts > now + 366 * DAY:
            raise VacationRefused("A vacation starts today or within the coming year.")
        ends = starts + days * DAY
        wanted = days_by_year(starts, days)

        def tx(db: Connection) -> Vacation:
            rows = [_row(r) for r in db.execute(
                "SELECT id, account_id, starts, ends FROM correspondence_vacations WHERE account_id = ?",
                (account_id,)).fetchall()]
            if any(v.starts < ends and starts < v.ends for v in rows):
                raise VacationRefused("That overlaps a vacation you already set.")
            used: dict[int, int] = {}
            for v in rows:
                for year, n in days_by_year(v.starts, v.days).items():
                    used[year] = used.get(year, 0) + n
            for year, n in sorted(wanted.items()):
                if used.get(year, 0) + n > allowance:
                    left = max(0, allowance - used.get(year, 0))
                    asked = f"{n} asked" if n == days else f"{n} of the {days} days asked fall in it"
                    raise VacationRefused(f"You have {left} day{'' if left == 1 else 's'} of vacation left in "
                                          f"{year}, of {allowance} a year: {asked}.")
            row = db.execute("INSERT INTO correspondence_vacations (account_id, starts, ends) VALUES (?, ?, ?) "
                             "RETURNING id", (account_id, starts, ends)).fetchone()
            return Vacation(int(row[0]), account_id, starts, ends)
        return await self.database.tx(tx)

    async def used(self, account_id: int, year: int) -> int:
        """Days of vacation ``account_id`` has set (taken or to come) in calendar ``year`` (UTC)."""
        rows = await self._rows(account_id, -math.inf, math.inf)
        return sum(days_by_year(v.starts, v.days).get(year, 0) for v in rows)

    async def away(self, account_id: int, now: float | None = None) -> Vacation | None:
        """The vacation ``account_id`` is on at ``now`` (default: the clock's now), if any."""
        at = self.clock() if now is None else now
        rows = await self._rows(account_id, at, math.nextafter(at, math.inf))
        return rows[0] if rows else None

    async def intervals(self, account_id: int, start: float, end: float) -> list[Interval]:
        """``account_id``'s vacations that overlap ``[start, end)``, as
        ``(starts, ends)`` in order, for the deadline arithmetic."""
        return [(v.starts, v.ends) for v in await self._rows(account_id, start, end)]

    async def intervals_of(self, account_ids: Iterable[int], start: float, end: float) -> dict[int, list[Interval]]:
        """:meth:`intervals` of each of ``account_ids`` at once (the sweeper
        asks for every player it judges): only the accounts that have any."""
        ids = sorted(set(account_ids))
        lo, hi = max(start, -1e300), min(end, 1e300)

        def read(db: Connection) -> list[tuple[int, float, float]]:
            rows = []
            for i in range(0, len(ids), _CHUNK):
                chunk = ids[i:i + _CHUNK]
                rows += db.execute(
                    "SELECT account_id, starts, ends FROM correspondence_vacations WHERE account_id IN "
                    f"({', '.join('?' * len(chunk))}) AND starts < ? AND ends > ? ORDER BY starts",
                    (*chunk, hi, lo)).fetchall()
            return rows
        out: dict[int, list[Interval]] = {}
        for account_id, starts, ends in await self.database.query(read) if ids else []:
            out.setdefault(int(account_id), []).append((float(starts), float(ends)))
        return out

    async def upcoming(self, account_id: int) -> list[Vacation]:
        """``account_id``'s vacations not yet over, in order."""
        return await self._rows(account_id, self.clock(), math.inf)

    async def end(self, account_id: int) -> Vacation | None:
        """``account_id`` is back: the vacation they are on ends now (only
        the days begun are used) and those still to come are dropped; the
        one ended, or ``None`` when they were not away."""
        now = self.clock()

        def tx(db: Connection) -> Vacation | None:
            db.execute("DELETE FROM correspondence_vacations WHERE account_id = ? AND starts > ?", (account_id, now))
            row = db.execute("UPDATE correspondence_vacations SET ends = ? WHERE account_id = ? AND starts <= ? "
                             "AND ends > ? RETURNING id, account_id, starts, ends",
                             (now, account_id, now, now)).fetchone()
            return None if row is None else _row(row)
        return await self.database.tx(tx)

    async def _rows(self, account_id: int, start: float, end: float) -> list[Vacation]:
        lo, hi = max(start, -1e300), min(end, 1e300)  # (PostgreSQL's floats take no infinity as a parameter here)
        rows = await self.database.query(lambda db: db.execute(
            "SELECT id, account_id, starts, ends FROM correspondence_vacations WHERE account_id = ? AND starts < ? "
            "AND ends > ? ORDER BY starts", (account_id, hi, lo)).fetchall())
        return [_row(r) for r in rows]
