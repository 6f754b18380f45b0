"""The tournament director: one node at a time moves every tournament of
the store on.

:meth:`Director.advance` is the whole job, called every minute or so by
whichever process runs it (a serve node; the ``cribbage-door tournament``
command after a change).  It first takes (or renews) the lease
:data:`LEASE` (:mod:`door.records.leases`); without it, it does nothing.
With it, it steps each tournament that is running or whose entries have
closed (:meth:`~door.records.tournaments.repository.Tournaments.step`:
deadlines passed, next pairings, finishes), each in its own transaction.
A step is idempotent, so a second call, by this node or another, changes
nothing; a node that dies holding the lease stops nothing for longer than
the lease lasts (:data:`LEASE_SECONDS`): another node takes it once it
expires.
"""

from __future__ import annotations

from door.records.database import Conflict
from door.records.leases import Leases
from door.records.tournaments.repository import Tournaments
from door.records.tournaments.values import Seating

__all__ = ["Director", "LEASE", "LEASE_SECONDS"]

LEASE = "tournament-director"
"""The lease's name."""

LEASE_SECONDS = 180.0
"""How long the lease is taken for at each call (seconds): the longest a
dead director holds the tournaments up.  Call :meth:`Director.advance`
more often than this (every minute) to keep it."""


class Director:
    """The director of the ``tournaments`` of a store, as ``holder`` (a
    name for this node or process, 1 to 100 characters) under ``leases``."""

    def __init__(self, tournaments: Tournaments, leases: Leases, holder: str,
                 lease_seconds: float = LEASE_SECONDS) -> None:
        self.tournaments = tournaments
        self.leases = leases
        self.holder = holder
        self.lease_seconds = lease_seconds

    async def advance(self, now: float | None = None) -> list[Seating] | None:
        """Move every due tournament on at ``now`` (seconds since the epoch;
        ``None``: the store's clock): the games to seat, paired now
        (an empty list when there were none), or ``None`` when another
        holder has the lease and nothing was done.  Raises
        :class:`~door.records.database.StoreError` when the store cannot
        answer (the tournaments stepped before it keep their step; the
        rest are stepped at the next call)."""
        if not await self.leases.take(LEASE, self.holder, self.lease_seconds):
            return None
        when = self.tournaments.clock() if now is None else now
        seats: list[Seating] = []
        for name in await self.tournaments.due(when):
            try:
                seats += await self.tournaments.step(name, when)
            except Conflict:  # another writer made the same pairing first (a lease stolen mid-step): theirs stands
                continue
        return seats
