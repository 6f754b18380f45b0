"""The cyclic collector of a serving door: start-up frozen, survivors frozen,
and a full collection only when what is frozen has doubled (issue 39).

CPython's collector stops the whole door while it traces.  Its oldest
generation holds every object that survived two collections, and with
1,000 callers that is about a million (each session's coroutines, telnet
option tables, bound methods): a full collection paused the door 405-469 ms,
several times a run (``bench.load --gc-probe``).  Almost none of those
objects is garbage when it is traced: a session's objects die by reference
counting when it ends.

So the door freezes (``gc.freeze``) what survives each collection of the
middle or oldest generation: it is then never traced again, and the
collections that remain trace only the objects made since the last one.
Frozen objects are still freed by reference counting; what freezing would
keep forever is a cycle that became garbage after it was frozen (asyncio's
socket transport refers to itself through a bound method, for one).  To
give those back, when the frozen objects have grown to :data:`FULL_GROWTH`
times their number after the last full collection, the door unfreezes
everything and collects it all once, at the next turn of its event loop.
A door whose number of callers holds steady grows its frozen objects only
by such cycles, so that pause comes rarely (in ``bench.load`` at 1,000
callers, during the callers' arrival only); a door whose callers keep
arriving pays it at each doubling, as CPython's own rule (a full collection
once a quarter more has survived) made it pay more often.
"""

from __future__ import annotations

import asyncio
import gc
import time

__all__ = ["GC_THRESHOLDS", "FULL_GROWTH", "YOUNG_EVERY", "COUNT_EVERY", "Collector"]

GC_THRESHOLDS = (2_000, 10, 10)
"""The cyclic collector's thresholds while serving (Python's are 700, 10,
10).  A session's garbage is nearly all freed by reference counting (a
frame's canvas, a key), so the first threshold is raised a little; the
older generations keep Python's pace, because the garbage that does form
cycles (a finished session's tasks and frames) waits for them.  Measured
with ``bench.soak`` and ``bench.load --gc-probe``: (20,000, 20, 50) let a
1,000-game soak grow 16.9% (7.7% with these) and paused the door up to
124 ms for a young collection at 1,000 callers."""

FULL_GROWTH = 2.0
"""A full collection (everything unfrozen and traced) once the frozen
objects number this many times what they numbered after the last one."""

YOUNG_EVERY = 0.05
"""Seconds between two collections the door makes itself of the young
generation (of the middle one too when its turn has come).  Python counts
a young generation by allocations *less deallocations*, of any age: with
1,000 callers, old objects dying (a finished session's) let the young
list grow to tens of thousands between its own collections, and one took
up to 39 ms of CPU (181 ms for the middle generation); collected at least
this often, it cannot grow far."""

COUNT_EVERY = 30.0
"""Seconds between two counts of the frozen objects (the count walks them
all: about 10 ms a million, so it is not taken at every collection)."""


class Collector:
    """The collector's policy for a door serving on ``loop`` (see the
    module's text): :meth:`start` after start-up, :meth:`stop` at the end."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.baseline = 0
        """Objects frozen after the last full collection."""
        self.full_collections = 0
        """Full collections the policy made (start-up's not counted)."""
        self._full_pending = False
        self._counted_at = float("-inf")
        self._young: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Collect and freeze what start-up made (modules, tables, the
        configuration), set :data:`GC_THRESHOLDS` and freeze the survivors
        of every later collection of the older generations."""
        gc.collect()
        gc.freeze()
        self.baseline = gc.get_freeze_count()
        self._counted_at = time.monotonic()
        gc.set_threshold(*GC_THRESHOLDS)
        gc.callbacks.append(self._after)
        self._young = self.loop.call_later(YOUNG_EVERY, self._collect_young)

    def stop(self) -> None:
        """Stop freezing survivors and collecting on a clock (what is
        frozen stays so)."""
        if self._after in gc.callbacks:
            gc.callbacks.remove(self._after)
        if self._young is not None:
            self._young.cancel()
            self._young = None

    def _collect_young(self) -> None:
        """Every :data:`YOUNG_EVERY` seconds: collect the young generation,
        or the middle one once as many young collections as its threshold
        have passed, as Python would."""
        gc.collect(1 if gc.get_count()[1] >= gc.get_threshold()[1] else 0)
        self._young = self.loop.call_later(YOUNG_EVERY, self._collect_young)

    def _after(self, phase: str, info: dict[str, int]) -> None:
        """A collection's callback (in whichever thread collected): at
        the end of one of the older generations, nothing younger is left
        untraced, and what survived is frozen."""
        if phase != "stop" or info["generation"] == 0:
            return
        gc.freeze()
        now = time.monotonic()
        if self._full_pending or now - self._counted_at < COUNT_EVERY:
            return
        self._counted_at = now
        if gc.get_freeze_count() > FULL_GROWTH * self.baseline:
            self._full_pending = True
            if not self.loop.is_closed():
                self.loop.call_soon_threadsafe(self.collect_all)

    def collect_all(self) -> None:
        """Unfreeze everything, collect it all, and freeze the survivors:
        the cycles that became garbage while frozen are given back."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.baseline = gc.get_freeze_count()
        self._counted_at = time.monotonic()
        self.full_collections += 1
        self._full_pending = False
