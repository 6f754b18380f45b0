"""The daily deal (issue 37.3): each day one duplicate deal, the same
cards for everyone that day (a game number derived from the date), that
each registered caller may play once against the expert computer; scored
against the expert's own result on the same cards (the *par*: the expert
in the caller's seat), ranked for the day, with a streak for callers who
play day after day.

Days are local dates (``"2026-11-26"``) by the store's clock.
"""

from __future__ import annotations

import datetime
import hashlib
import time
from dataclasses import dataclass
from typing import Any, Sequence

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.ui.screen import fit

__all__ = ["Daily", "DailyResult", "deal_number", "day_of", "par_line", "NUMBERS"]

NUMBERS = 999_999
"""Game numbers run 1 to this (as the numbered games do)."""


def day_of(seconds: float) -> str:
    """The local date of ``seconds`` since the epoch: ``"2026-11-26"``."""
    return time.strftime("%Y-%m-%d", time.localtime(seconds))


def deal_number(day: str) -> int:
    """The game number of ``day``'s deal (1 to :data:`NUMBERS`): the same
    for every caller and node that day, another the next.

    >>> deal_number("2026-11-26") == deal_number("2026-11-26") != deal_number("2026-11-27")
    True
    """
    digest = hashlib.sha256(f"cribbage-door daily deal {day}".encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % NUMBERS


@dataclass(frozen=True)
class DailyResult:
    """A caller's result on a day's deal: their ``score`` and the
    computer's; ``margin`` is the difference, ``against_par`` that margin
    less the expert's own (``None`` before the par is known)."""

    name: str
    score: int
    computer: int
    against_par: int | None

    @property
    def margin(self) -> int:
        return self.score - self.computer

    def line(self, place: int) -> str:
        """``"  1  Ann                    121 - 104    +17  +6 against the par"``."""
        versus = "" if self.against_par is None else f"  {self.against_par:+d} against the par"
        return f"{place:>3}  {fit(self.name, 20)}  {self.score:>3} - {self.computer:<3}  {self.margin:+4d}{versus}"


def par_line(par: tuple[int, int]) -> str:
    """``"The expert's own game on these cards: 121 to 98 (+23)."``"""
    return f"The expert's own game on these cards: {par[0]} to {par[1]} ({par[0] - par[1]:+d})."


class Daily:
    """The daily deal's plays and par in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    def today(self) -> str:
        """Today, by the store's clock."""
        return day_of(self.clock())

    async def claim(self, account_id: int, day: str) -> bool:
        """Start ``account_id``'s play of ``day``'s deal: False when they
        have played it (or started it) already."""
        def tx(db: Connection) -> bool:
            row = db.execute("INSERT INTO daily_plays (day, account_id, started) VALUES (?, ?, ?) "
                             "ON CONFLICT DO NOTHING RETURNING day", (day, account_id, self.clock())).fetchone()
            return row is not None
        return await self.database.tx(tx)

    async def pending(self, account_id: int, day: str) -> bool:
        """True when ``account_id`` started ``day``'s deal and it has no result yet."""
        return await self.database.query(lambda db: db.execute(
            "SELECT 1 FROM daily_plays WHERE day = ? AND account_id = ? AND score IS NULL",
            (day, account_id)).fetchone() is not None)

    async def played(self, account_id: int, day: str) -> bool:
        """True when ``account_id`` has started ``day``'s deal (finished or not)."""
        return await self.database.query(lambda db: db.execute(
            "SELECT 1 FROM daily_plays WHERE day = ? AND account_id = ?", (day, account_id)).fetchone() is not None)

    async def finish(self, account_id: int, day: str, score: int, computer: int) -> None:
        """Keep ``account_id``'s result on ``day``'s deal (their points and the computer's)."""
        await self.database.tx(lambda db: db.execute(
            "UPDATE daily_plays SET score = ?, computer = ? WHERE day = ? AND account_id = ?",
            (score, computer, day, account_id)))

    async def par(self, day: str) -> tuple[int, int] | None:
        """The expert's own result on ``day``'s deal (its points, the computer's), once known."""
        def q(db: Connection) -> tuple[int, int] | None:
            row = db.execute("SELECT score, computer FROM daily_par WHERE day = ?", (day,)).fetchone()
            return None if row is None else (int(row[0]), int(row[1]))
        return await self.database.query(q)

    async def set_par(self, day: str, score: int, computer: int) -> None:
        """Keep the expert's own result on ``day``'s deal (the first one kept stays)."""
        await self.database.tx(lambda db: db.execute(
            "INSERT INTO daily_par (day, score, computer) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            (day, score, computer)))

    async def ranking(self, day: str) -> list[DailyResult]:
        """``day``'s finished plays, best first: by the margin over the
        computer, then the caller's points."""
        def q(db: Connection) -> tuple[list[Sequence[Any]], Sequence[Any] | None]:
            rows = db.execute("SELECT a.name, d.score, d.computer FROM daily_plays d JOIN accounts a "
                              "ON a.id = d.account_id WHERE d.day = ? AND d.score IS NOT NULL", (day,)).fetchall()
            par = db.execute("SELECT score, computer FROM daily_par WHERE day = ?", (day,)).fetchone()
            return rows, par
        rows, par = await self.database.query(q)
        par_margin = None if par is None else int(par[0]) - int(par[1])
        results = [DailyResult(r[0], int(r[1]), int(r[2]),
                               None if par_margin is None else int(r[1]) - int(r[2]) - par_margin) for r in rows]
        results.sort(key=lambda r: (-r.margin, -r.score, r.name.casefold()))
        return results

    async def streak(self, account_id: int, today: str) -> int:
        """Days in a row, ending today (or yesterday, before today's play),
        on which ``account_id`` played the deal."""
        days = set(await self.database.query(lambda db: [r[0] for r in db.execute(
            "SELECT day FROM daily_plays WHERE account_id = ?", (account_id,)).fetchall()]))
        day = datetime.date.fromisoformat(today)
        if today not in days:
            day -= datetime.timedelta(days=1)
        count = 0
        while day.isoformat() in days:
            count += 1
            day -= datetime.timedelta(days=1)
        return count
