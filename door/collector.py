"""The cyclic collector of a serving door: start-up frozen for good, the
oldest generation collected only when memory has doubled.

CPython's collector stops the whole door while it traces.  Its oldest
generation holds every object that survived two collections, and with
1,000 callers that is about a million (each session's coroutines, telnet
option tables, bound methods): a full collection paused the door 405-469 ms,
several times a run (``bench.load --gc-probe``).  Almost none of those
objects is garbage when it is traced: a session's objects die by reference
counting when it ends.

So the door freezes (``gc.freeze``) what start-up made (modules, the
computer's tables, the configuration): it is never traced again.  What
survives the younger collections later goes to the oldest generation, and
Python never collects that one on its own (its threshold is out of reach,
:data:`GC_THRESHOLDS`): the collections that remain trace only the
objects made since the last one.  What the oldest generation keeps is
still freed by reference counting; what it would keep forever is a cycle
that became garbage there (asyncio's socket transport refers to itself
through a bound method, for one).  To give those back, the door collects
the oldest generation once, at the next turn of its event loop, when its
memory has grown to :data:`FULL_GROWTH` times what its callers account
for: the memory after the last full collection, plus or minus
:data:`PER_SESSION` for each caller more or fewer since.  Such a
collection traces what came after start-up only: start-up stays frozen
(in ``bench.load`` at 1,000 callers, the one full collection, as the last
callers leave, paused the door 23 ms with start-up frozen and 52 ms with
it unfrozen; start-up is about 40 % of the door's memory then).
Callers arriving do not set it off (1,000 callers grow the door's memory
fourfold, and a full collection among them pauses it 250 ms); memory that
stays when its callers have gone does.

Memory is counted as the blocks of Python's small-object allocator
(``sys.getallocatedblocks``: a fraction of a millisecond), not as
objects (``gc.get_freeze_count`` walks them all, 47 ms for 880,000
scattered objects, and paused the door up to 99 ms every time it counted
in ``bench.load`` at 1,000 callers).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Callable

__all__ = ["GC_THRESHOLDS", "OLDEST_NEVER", "FULL_GROWTH", "PER_SESSION", "YOUNG_EVERY", "CHECK_EVERY", "Collector"]

OLDEST_NEVER = 2**31 - 1
"""A threshold for the oldest generation that Python's own count never
reaches: the door alone decides when it is collected (:meth:`Collector.collect_all`)."""

GC_THRESHOLDS = (2_000, 10, OLDEST_NEVER)
"""The cyclic collector's thresholds while serving (Python's are 700, 10,
10).  A session's garbage is nearly all freed by reference counting (a
frame's canvas, a key), so the first threshold is raised a little; the
middle generation keeps Python's pace, because the garbage that does form
cycles (a finished session's tasks and frames) waits for it; the oldest is
never collected by Python (:data:`OLDEST_NEVER`).  Measured
with ``bench.soak`` and ``bench.load --gc-probe``: (20,000, 20, 50) let a
1,000-game soak grow 16.9% (7.7% with these) and paused the door up to
124 ms for a young collection at 1,000 callers."""

FULL_GROWTH = 2.0
"""A full collection (everything unfrozen and traced) once the door's
memory (blocks) is this many times what its callers account for."""

PER_SESSION = 2_000
"""Blocks a caller's session holds: in ``bench.load`` at 1,000 callers
(``bench.gc_probe`` prints the figures), about 1,000 as a game starts and
1,800 as it ends.  Not learned at a full collection: what the door keeps
for no caller in particular (the recent games, its memos) would be
counted as the callers' (at 40 callers, 9,000 blocks each), and then
callers leaving would set off one full collection after another.  Callers
who hold more than twice this would set one off as they arrive."""

YOUNG_EVERY = 0.05
"""Seconds between two collections the door makes itself of the young
generation (of the middle one too when its turn has come).  Python counts
a young generation by allocations *less deallocations*, of any age: with
1,000 callers, old objects dying (a finished session's) let the young
list grow to tens of thousands between its own collections, and one took
up to 39 ms of CPU (181 ms for the middle generation); collected at least
this often, it cannot grow far."""

CHECK_EVERY = 5.0
"""Seconds between two checks whether a full collection is due."""

log = logging.getLogger(__name__)


def _no_sessions() -> int:
    return 0


class Collector:
    """The collector's policy for a door serving on ``loop`` (see the
    module's text): :meth:`start` after start-up, :meth:`stop` at the end.
    ``sessions()`` gives the callers connected now (0 when not given)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, sessions: Callable[[], int] = _no_sessions) -> None:
        self.loop = loop
        self.sessions = sessions
        self.start_blocks = 0
        """Blocks after start-up's collection (no callers): the least the
        door's memory is ever taken to need."""
        self.blocks = 0
        """Blocks after the last full collection."""
        self.callers = 0
        """Callers connected at the last full collection."""
        self.per_session = PER_SESSION
        """Blocks a caller's session holds (see :data:`PER_SESSION`)."""
        self.full_collections = 0
        """Full collections the policy made (start-up's not counted)."""
        self._full_pending = False
        self._checked_at = float("-inf")
        self._young: asyncio.TimerHandle | None = None
        self._thresholds: tuple[int, ...] | None = None

    def start(self) -> None:
        """Collect and freeze for good what start-up made (modules,
        tables, the configuration), set :data:`GC_THRESHOLDS` and start
        the checks and the young generation's clock.  Called before the
        door listens (``serve`` passes it to
        :meth:`~door.server.DoorServer.start`): the collection takes tens
        of milliseconds, and no caller is to wait through it."""
        gc.collect()
        gc.freeze()
        self._settled()
        self.start_blocks = self.blocks
        log.info("start-up collected and frozen: %d objects, %d blocks", gc.get_freeze_count(), self.blocks)
        self._thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        gc.callbacks.append(self._after)
        self._young = self.loop.call_later(YOUNG_EVERY, self._collect_young)

    def stop(self) -> None:
        """Stop checking and collecting on a clock, and put back the
        thresholds found at :meth:`start` (what is frozen stays so)."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
        if self._after in gc.callbacks:
            gc.callbacks.remove(self._after)
        if self._young is not None:
            self._young.cancel()
            self._young = None

    def needed(self) -> int:
        """Blocks the callers connected now account for: those after the
        last full collection, plus or minus :attr:`per_session` for each
        caller more or fewer; never fewer than :attr:`start_blocks`."""
        return max(self.start_blocks, self.blocks + self.per_session * (self.sessions() - self.callers))

    def due(self) -> bool:
        """Whether the door's memory (blocks) has grown to
        :data:`FULL_GROWTH` times :meth:`needed`."""
        return sys.getallocatedblocks() > FULL_GROWTH * self.needed()

    def _collect_young(self) -> None:
        """Every :data:`YOUNG_EVERY` seconds: collect the young generation,
        or the middle one once as many young collections as its threshold
        have passed, as Python would."""
        gc.collect(1 if gc.get_count()[1] >= gc.get_threshold()[1] else 0)
        self._young = self.loop.call_later(YOUNG_EVERY, self._collect_young)

    def _after(self, phase: str, info: dict[str, int]) -> None:
        """A collection's callback (in whichever thread collected): at
        the end of one of the older generations, at most every
        :data:`CHECK_EVERY` seconds, a full collection is asked for if it
        is :meth:`due`."""
        if phase != "stop" or info["generation"] == 0:
            return
        now = time.monotonic()
        if self._full_pending or now - self._checked_at < CHECK_EVERY:
            return
        self._checked_at = now
        if self.due():
            self._full_pending = True
            if not self.loop.is_closed():
                self.loop.call_soon_threadsafe(self.collect_all)

    def collect_all(self) -> None:
        """Collect every generation but start-up's (frozen): the cycles
        that became garbage in the oldest generation are given back."""
        self._full_pending = True  # (its own collection's callback is not to ask for another)
        gc.collect(2)
        self._settled()
        self.full_collections += 1
        self._full_pending = False

    def _settled(self) -> None:
        """After a full collection: what the door holds now is what its
        callers need."""
        self.blocks = sys.getallocatedblocks()
        self.callers = self.sessions()
        self._checked_at = time.monotonic()
