"""Leases: one holder at a time for a named job shared by every node of a
store (a tournament's director, the correspondence games' sweeper).

A lease is a row of ``leases``: its ``name``, its ``holder`` (whatever
string the taker names itself by: a node's id, a process's), and when it
``expires`` (seconds since the epoch, by the store's clock).  The holder
renews its own lease by taking it again before it expires; anybody takes
a lease that has expired; nobody else takes one that has not.  Taking is
one statement (an upsert whose update is conditional), so on SQLite (a
write takes the file's lock) and on PostgreSQL (the row is locked by the
conflict) two takers racing for one lease never both get it.

Expiry is judged by the taker's clock: the nodes' clocks should agree to
well within a lease's length (NTP does it); a node whose clock ran ahead
could take a lease a little early, never two at once on the same clock.
"""

from __future__ import annotations

from door.records.clock import WALL, Clock
from door.records.connection import Connection
from door.records.database import Database

__all__ = ["Leases", "check_name"]

_LONGEST = 86400.0 * 7
"""The longest a lease may be taken for, in seconds (a week)."""


def check_name(kind: str, value: str) -> str:
    """``value`` if it is 1 to 100 printable characters; else ``ValueError`` naming ``kind``."""
    if not isinstance(value, str) or not 1 <= len(value) <= 100 or not value.isprintable():
        raise ValueError(f"a lease's {kind} is 1 to 100 printable characters, got {value!r}")
    return value


class Leases:
    """The ``leases`` table in ``database``, timed by ``clock``."""

    def __init__(self, database: Database, clock: Clock = WALL) -> None:
        self.database = database
        self.clock = clock

    async def take(self, name: str, holder: str, seconds: float) -> bool:
        """Take or renew lease ``name`` for ``holder`` for ``seconds``
        (above 0, at most a week): True when ``holder`` holds it now
        (it was free, expired, or already its own, and now expires
        ``seconds`` from now), False when somebody else holds it.
        Raises ``ValueError`` for an empty or overlong name or holder, or
        a length out of range; :class:`~door.records.database.StoreError`
        when the store cannot answer."""
        check_name("name", name)
        check_name("holder", holder)
        if not isinstance(seconds, (int, float)) or not 0 < seconds <= _LONGEST:
            raise ValueError(f"a lease lasts more than 0 seconds and at most a week, got {seconds!r}")
        now = self.clock()

        def tx(db: Connection) -> bool:
            return db.execute(
                "INSERT INTO leases (name, holder, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires = excluded.expires "
                "WHERE leases.holder = excluded.holder OR leases.expires <= ?",
                (name, holder, now + seconds, now)).rowcount == 1
        return await self.database.tx(tx)

    async def release(self, name: str, holder: str) -> bool:
        """Give up lease ``name`` if ``holder`` holds it (anybody may take
        it at once afterwards): True when it did."""
        return await self.database.tx(lambda db: db.execute(
            "DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder)).rowcount == 1)

    async def holder(self, name: str) -> str | None:
        """Who holds lease ``name`` now, or ``None`` when nobody does (never
        taken, released, or expired)."""
        row = await self.database.query(lambda db: db.execute(
            "SELECT holder FROM leases WHERE name = ? AND expires > ?", (name, self.clock())).fetchone())
        return None if row is None else str(row[0])
