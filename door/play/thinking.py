"""Where the computer thinks.

The expert computer takes milliseconds a move (a mean of about 2 ms, tens
at worst: ``python3 -m bench.decisions``), and every table's computer
thinks somewhere other than the event loop, so that callers' keys are not
kept waiting behind it.  Two places, chosen by ``[computer] processes``:

- **Worker processes** (``processes`` >= 1, the default for ``serve``):
  each decision is pickled (:class:`~engine.strategy.Decision`, a few
  hundred bytes) to a process of its own, which runs at a lower priority
  (:data:`NICENESS`).  The event loop then never competes with the
  thinking for the interpreter lock, and on a busy core the operating
  system runs the loop first: the keys of 1,000 callers are answered
  before any computer's move (which waits its delay of 0.6 s anyway).
  ``python3 -m bench.load`` at 1,000 callers, door and worker on one
  core: a key's p99 went from 195 ms (thinking on the thread) to 25-40 ms
  over three runs, p90 from 6.7 to 2.9 ms.  It costs the door about
  0.15 ms of CPU a decision to send and receive, and a worker about
  65 MiB (the interpreter, the door's modules, the expert's tables).
- **One thread** in the door's own process (``processes = 0``, and door
  mode, where the process serves one caller): no start-up cost, but the
  loop shares the interpreter with it (see :data:`SWITCH_INTERVAL`).

A worker process that dies (killed, out of memory) is replaced, and the
decision it held is made again on the thread: no game waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import secrets
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Callable

from engine.actions import Action
from engine.strategy import Decision, Strategy

__all__ = ["Thinking", "NICENESS", "SWITCH_INTERVAL", "IN_THREAD"]

log = logging.getLogger(__name__)

NICENESS = 10
"""How much lower the worker processes' priority is than the door's
(``os.nice``; 0 to 19).  At 10 Linux gives the door about nine tenths of a
core they share whenever both want it; the thinking still gets the rest,
so a computer's move is late under load, never starved."""

SWITCH_INTERVAL = 0.0005
"""Seconds the thinking thread may keep the interpreter lock once the event
loop asks for it back (Python's default is 0.005).  The loop gives the lock
up at every socket call; with the default it then waited up to 5 ms for
each while a computer thought (a loop round trip's p90 5.1 ms, p99 10.2 ms
against a busy thinking thread; at most 0.64 and 0.78 ms with this, over
several runs: ``python3 -m bench.handoff``).  Set for the whole process
when a computer first thinks on the thread: it is a setting of the
interpreter, not of one thread."""

_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
"""The one thread where every table's computer deliberates when it does not
think in a process.  One, not asyncio's default pool of up to 32: each
thread thinking in Python competes with the event loop for the interpreter
lock, and the loop, which gives the lock up at every socket write, waited
up to a switch interval to get it back from each; with six threads at 500
callers a key's p99 went from 81 ms to 220 ms."""


def _on_thread(decide: Callable[[], Action]) -> "asyncio.Future[Action]":
    """Run ``decide`` on the thinking thread (the interpreter's switch
    interval lowered first, see :data:`SWITCH_INTERVAL`)."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)
    return asyncio.get_running_loop().run_in_executor(_thread, decide)


def _worker_start(niceness: int) -> None:
    """A worker process begins: lower its priority, leave Ctrl-C to the
    door (it stops the workers itself), end with the door however the door
    ends (``kill -9`` included: :func:`_end_with`), and load the expert's
    tables now rather than at the first move."""
    os.nice(niceness)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), name="door-watch", daemon=True).start()
    from engine import expert_tables, win_tables
    from engine.crib_values import load_table
    expert_tables.load()
    load_table()
    win_tables.dealer_value(0, 0, 121, True)


def _end_with(sentinel: int) -> None:
    """In a worker process: wait until the door's process is gone, then
    end this one.  A worker waiting for work does not notice by itself
    when the door is killed, and would stay behind for good."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _decide(kind: Callable[[random.Random], Strategy], seed: int, decision: Decision) -> Action:
    """In a worker process: the action a ``kind`` player (its generator
    seeded with ``seed``) takes for ``decision``."""
    return decision.take(kind(random.Random(seed)))


def _pid() -> int:
    return os.getpid()


class Thinking:
    """Where computer players whose strategy has ``deliberate`` set decide
    (:meth:`decide`): ``processes`` worker processes (at :data:`NICENESS`),
    or with 0 the one thinking thread of this process.

    In a process, the strategy is rebuilt for each decision as
    ``type(strategy)(random.Random(seed))`` with a seed drawn from the
    strategy's own ``rng`` (every player in :mod:`engine` takes its
    generator as its first argument), so a seat's choices stay its own."""

    def __init__(self, processes: int = 0) -> None:
        if processes < 0:
            raise ValueError(f"processes must be 0 or more, got {processes}")
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def start(self) -> None:
        """Start the worker processes now (each loads the expert's tables),
        rather than at the first move.  Nothing to do with 0 processes, or
        once :meth:`close` was called."""
        if self.processes and self._pool is None and not self._closed:
            self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_worker_start, initargs=(NICENESS,))
            for _ in range(self.processes):
                self._pool.submit(_pid)  # a worker is started for each of the first submissions

    async def worker_pids(self) -> list[int]:
        """The process ids of the workers (empty with 0 processes): for
        tests and benchmarks.  Starts them when they are not running."""
        self.start()
        if self._pool is None:
            return []
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, _pid)
        # the executor's own table of its processes: the standard library offers no public one
        return [p.pid for p in self._pool._processes.values() if p.pid is not None]

    async def decide(self, strategy: Strategy, decision: Decision) -> Action:
        """The action ``strategy`` takes for ``decision``.  Raises whatever
        the strategy raises (``ValueError`` for a decision it cannot make)."""
        self.start()
        pool = self._pool
        if pool is None:  # no processes, or the door is stopping
            return await _on_thread(partial(decision.take, strategy))
        rng = getattr(strategy, "rng", None)
        seed = rng.getrandbits(64) if isinstance(rng, random.Random) else secrets.randbits(64)
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, _decide, type(strategy), seed, decision)
        except BrokenProcessPool:
            log.error("a thinking process died: starting another, and deciding this move on the thread")
            if self._pool is pool:  # (not yet replaced for another move)
                self._pool = None
                pool.shutdown(wait=False)
                self.start()
            return await _on_thread(partial(decision.take, strategy))

    def close(self) -> None:
        """Stop the worker processes (moves under way are dropped); a move
        asked for afterwards is decided on the thread."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


IN_THREAD = Thinking(0)
"""The thinking of a seat not given its own: the one thread."""
