"""Club nights in the records: each night's final standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database
from door.records.ranked.club_scoring import Standing

__all__ = ["Clubs", "NightRecord"]


@dataclass(frozen=True)
class NightRecord:
    """A night kept: its ``id``, when it ``started`` (seconds since the
    epoch), its ``games`` and its ``standings``, best first."""

    id: int
    started: float
    games: int
    standings: list[Standing]


class Clubs:
    """The club nights in ``database``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def record(self, started: float, games: int, standings: Sequence[Standing],
                     accounts: Mapping[str, int | None]) -> int:
        """Keep a night's final ``standings`` (``accounts``: each player's
        account, ``None`` for a guest); returns the night's id."""
        def tx(db: Connection) -> int:
            row = db.execute("INSERT INTO club_nights (started, ended, games) VALUES (?, ?, ?) RETURNING id",
                             (started, self.clock(), games)).fetchone()
            night = int(row[0])
            db.executemany("INSERT INTO club_standings (night_id, place, name, account_id, points, won, played, "
                           "spread) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           [(night, place, s.name, accounts.get(s.name), s.points, s.won, s.played, s.spread)
                            for place, s in enumerate(standings, 1)])
            return night
        return await self.database.tx(tx)

    async def latest(self) -> NightRecord | None:
        """The last night kept, or ``None``."""
        def q(db: Connection) -> NightRecord | None:
            row = db.execute("SELECT id, started, games FROM club_nights ORDER BY started DESC, id DESC LIMIT 1"
                             ).fetchone()
            if row is None:
                return None
            rows = db.execute("SELECT name, points, won, played, spread FROM club_standings WHERE night_id = ? "
                              "ORDER BY place", (row[0],)).fetchall()
            return NightRecord(int(row[0]), row[1], int(row[2]),
                               [Standing(r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows])
        return await self.database.query(q)
