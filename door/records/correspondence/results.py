"""Each account's correspondence games lost on time, shown with its record.

One row a player in ``correspondence_results`` (made at their first loss):
the count of games the sweeper ended because their deadline passed
(:mod:`.sweeper`).  Other results of these games are the ordinary game
records (``games``, the ratings)."""

from __future__ import annotations

from collections.abc import Iterable

from door.records.clock import WALL, Clock
from door.records.database import Database

__all__ = ["Results"]


class Results:
    """The ``correspondence_results`` table in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def lost_on_time(self, account_id: int) -> int:
        """How many correspondence games ``account_id`` lost on time (0 for none)."""
        row = await self.database.query(lambda db: db.execute(
            "SELECT lost_on_time FROM correspondence_results WHERE account_id = ?", (account_id,)).fetchone())
        return 0 if row is None else int(row[0])

    async def lost_on_time_of(self, account_ids: Iterable[int]) -> dict[int, int]:
        """:meth:`lost_on_time` of each of ``account_ids`` (a list's records at once)."""
        ids = sorted(set(account_ids))
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        rows = await self.database.query(lambda db: db.execute(
            f"SELECT account_id, lost_on_time FROM correspondence_results WHERE account_id IN ({marks})",
            ids).fetchall())
        found = {int(a): int(n) for a, n in rows}
        return {i: found.get(i, 0) for i in ids}

    async def count_loss_on_time(self, account_id: int) -> int:
        """One more game ``account_id`` lost on time: their count now."""
        row = await self.database.tx(lambda db: db.execute(
            "INSERT INTO correspondence_results (account_id, lost_on_time) VALUES (?, 1) ON CONFLICT (account_id) "
            "DO UPDATE SET lost_on_time = correspondence_results.lost_on_time + 1 RETURNING lost_on_time",
            (account_id,)).fetchone())
        return int(row[0])
