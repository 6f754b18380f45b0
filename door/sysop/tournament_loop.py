"""Every serve node runs the tournament director's loop: each
:data:`EVERY` seconds it calls
:meth:`~door.records.tournaments.director.Director.advance`, which does
anything only on the node holding the store's lease, so one node at a
time directs the tournaments, and when it dies another takes over once
its lease expires.  The games it pairs are logged, seated by the game
service (``seat``: by correspondence a kept game in both players' lists;
a live round's at a live table at once, its players on line here called
to it) and announced in the tournament's bulletins when the door writes
bulletins; a store or folder that cannot be written is logged and tried
again at the next turn.  A live round's players who have not sat down by
its time to come are judged at the first turn after it (within
:data:`EVERY` seconds; the table itself gives up waiting at that time)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from door.records.bulletins import write_files
from door.records.database import StoreError
from door.records.store import Store
from door.records.tournaments.announce import view_bulletins
from door.records.tournaments.director import Director
from door.records.tournaments.values import Seating

__all__ = ["run_director", "EVERY"]

log = logging.getLogger(__name__)

EVERY = 60.0
"""Seconds between the director's steps (well inside its lease's length)."""


async def run_director(store: Store, holder: str, every: float = EVERY, folder: Path | None = None,
                       seat: Callable[[list[Seating]], Awaitable[object]] | None = None) -> None:
    """Step the tournaments of ``store`` as ``holder`` every ``every``
    seconds, the first after one wait, until cancelled; with ``folder``
    (``[bulletins] folder``), write the bulletins of each tournament that
    paired games (:func:`~door.records.tournaments.announce.view_bulletins`);
    ``seat`` is given the games paired at each step, and an empty list
    at a step that paired none (the game service seats the new games,
    live or by correspondence, and drops those of pairings decided
    without them)."""
    director = Director(store.tournaments, store.leases, holder)
    while True:
        await asyncio.sleep(every)
        try:
            seats = await director.advance()
            for s in seats or ():
                log.info("tournament %s: %s %s v %s paired, best of %d, by %s UTC", s.tournament, s.slot,
                         s.players[0], s.players[1], s.best_of,
                         time.strftime("%Y-%m-%d %H:%M", time.gmtime(s.deadline)))
            if seat is not None:
                await seat(seats or [])
            if folder is not None:
                for name in sorted({s.tournament for s in seats or ()}):
                    await asyncio.to_thread(write_files, view_bulletins(await store.tournaments.view(name)), folder)
        except (StoreError, OSError) as exc:
            log.warning("tournament director: %s; trying again in %g s", exc, every)
