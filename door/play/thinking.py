"""Where the computer thinks.

The expert computer takes milliseconds a move (a mean of about 2 ms, tens
at worst: ``python3 -m bench.decisions``), and every table's computer
thinks somewhere other than the event loop, so that callers' keys are not
kept waiting behind it.  Two places, chosen by ``[computer] processes``:

- **Worker processes** (``processes`` >= 1, the default for ``serve``):
  each decision is pickled (:class:`~engine.strategy.Decision`, a few
  hundred bytes) over a Unix socket to a process of its own, which runs
  at a lower priority (:data:`NICENESS`); the event loop writes the
  request and reads the answer itself, with no thread in between.  The
  loop then never competes with the thinking for the interpreter lock,
  and on a busy core the operating system runs the loop first: the keys
  of 1,000 callers are answered before any computer's move (which waits
  its delay of 0.6 s anyway).
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

Other work of the computer's kind goes the same way (:meth:`Thinking.run`,
any picklable call): the pegging looked back on after each hand, with both
hands known (about 1.5 ms of search a hand).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import random
import secrets
import signal
import socket
import struct
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from door.net.metrics import THINKING_QUEUE, THINKING_RESTARTS
from engine.actions import Action
from engine.strategy import Decision, Strategy

__all__ = ["Thinking", "WorkerGone", "NICENESS", "SWITCH_INTERVAL", "IN_THREAD"]

log = logging.getLogger(__name__)

T = TypeVar("T")

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


def _on_thread(call: Callable[[], T]) -> asyncio.Future[T]:
    """Run ``call`` on the thinking thread (the interpreter's switch
    interval lowered first, see :data:`SWITCH_INTERVAL`)."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)
    return asyncio.get_running_loop().run_in_executor(_thread, call)


_HEADER = struct.Struct("!I")
"""A message's length in bytes, before its pickle, on a worker's socket."""


def _framed(message: object) -> bytes:
    """``message`` pickled, after its :data:`_HEADER`: one message on a
    worker's socket, either way."""
    data = pickle.dumps(message)
    return _HEADER.pack(len(data)) + data


def _load_tables() -> None:
    """Load the expert's tables now rather than at the first move, and
    those of the advice worked out here too (the show's rank table, built
    rather than read, took 0.2-0.5 s at the first decision)."""
    from door.play.hints import load_tables
    from engine import expert_tables, win_tables
    expert_tables.load()
    load_tables()
    for objective in win_tables.SHIPPED:
        win_tables.dealer_value(0, 0, 121, objective)


def _serve(sock: socket.socket, niceness: int) -> None:
    """A worker process: lower its priority, leave Ctrl-C to the door (it
    stops the workers itself), load the expert's tables, then answer the
    door's decisions one at a time until the door's end of ``sock``
    closes, which it does however the door ends (``kill -9`` included).

    Each request is ``(number, call)``, a picklable callable of no
    arguments (a decision: :func:`_decided`), answered with ``(number,
    result)``, or ``(number, exception)`` when it raised; both pickled,
    each after a :data:`_HEADER`.  ``(0, None)``
    first says the process is ready.

    It ends without a word however the door stops (a stopping
    door left a worker's traceback in its log): when the door's end closes
    while it reads or answers, and on SIGTERM (a service manager stopping
    the door's whole group), which ends it at once, as it would a
    process without Python's ``SystemExit``."""
    os.nice(niceness)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _quietly)
    _load_tables()
    try:
        with sock, sock.makefile("rb") as requests:
            sock.sendall(_framed((0, None)))
            while True:
                header = requests.read(_HEADER.size)
                if len(header) < _HEADER.size:
                    return  # the door is gone, or closed its end
                number, call = pickle.loads(requests.read(_HEADER.unpack(header)[0]))
                answer: object
                try:
                    answer = call()
                except Exception as exc:  # raised again in the door, for the move
                    answer = exc
                sock.sendall(_framed((number, answer)))
    except (OSError, EOFError, pickle.UnpicklingError):
        return  # the door closed its end in the middle of a request or an answer: it is stopping


def _decided(kind: Callable[[random.Random], Strategy], seed: int, decision: Decision) -> Action:
    """``kind(random.Random(seed))``'s action for ``decision`` (a
    decision's call in a worker process)."""
    return decision.take(kind(random.Random(seed)))


def _quietly(signum: int, frame: object) -> None:
    """A thinking process's SIGTERM: end now, saying nothing."""
    os._exit(0)


class WorkerGone(Exception):
    """A thinking process ended with a decision under way."""


class _Worker:
    """One thinking process and the door's end of its socket: a request is
    written without waiting, and one reading task hands each answer to
    its decision's future.  No thread of the door takes part: with
    ``concurrent.futures``' process pool two did (its manager and its
    queue's feeder), and the loop waited for the interpreter lock behind
    them at every request (a mean 1.35 ms in ``bench.load --profile``)."""

    def __init__(self, niceness: int) -> None:
        ours, theirs = socket.socketpair()
        self.process = multiprocessing.get_context("spawn").Process(
            target=_serve, args=(theirs, niceness), name="cribbage-door computer", daemon=True)
        self.process.start()
        theirs.close()
        self._socket: socket.socket | None = ours
        self._writer: asyncio.StreamWriter | None = None
        self._reading: asyncio.Task[None] | None = None
        self._connecting: asyncio.Future[asyncio.StreamWriter] | None = None
        self._ready: asyncio.Future[bool] | None = None
        """Done once the process said it was ready (``True``) or ended
        first (``False``)."""
        self.pending: dict[int, asyncio.Future[Any]] = {}
        """The calls under way, by request number."""
        self._number = 0
        self.gone = False
        """Whether the process ended (or was closed)."""

    @property
    def was_ready(self) -> bool:
        """Whether the process said it was ready (one that ends before
        could not start at all)."""
        return self._ready is not None and self._ready.done() and self._ready.result()

    async def run(self, call: Callable[[], T]) -> T:
        """``call()`` (picklable), run in this process.  Raises
        :class:`WorkerGone` when the process ends first, and what ``call``
        raised."""
        if self.gone:
            raise WorkerGone()
        writer = await self._connect()
        if self.gone:  # it ended while the connection was made: nobody would answer (its reader is done)
            raise WorkerGone()
        self._number += 1
        number = self._number
        future = self.pending[number] = asyncio.get_running_loop().create_future()
        writer.write(_framed((number, call)))
        try:
            result: T = await future
            return result
        finally:
            self.pending.pop(number, None)

    async def ready(self) -> None:
        """Wait until the process has lowered its priority and loaded the
        expert's tables (or has ended)."""
        await self._connect()
        assert self._ready is not None
        await asyncio.shield(self._ready)

    async def _connect(self) -> asyncio.StreamWriter:
        """The door's end of the socket as a stream, with its reading task
        (made at the first use, in the running loop).  Calls at the same
        moment share the one connection being made: each opening its own
        put two readers on the process's one socket, which split its
        answers between them and took it for dead."""
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(self._open())
        return await asyncio.shield(self._connecting)

    async def _open(self) -> asyncio.StreamWriter:
        assert self._socket is not None
        sock, self._socket = self._socket, None
        self._ready = asyncio.get_running_loop().create_future()
        try:
            reader, self._writer = await asyncio.open_unix_connection(sock=sock)
        except BaseException:  # (closed while connecting)
            sock.close()
            raise
        self._reading = asyncio.create_task(self._read(reader, self._ready))
        return self._writer

    async def _read(self, reader: asyncio.StreamReader, ready: asyncio.Future[bool]) -> None:
        """Hand each answer to its decision until the process's end of the
        socket closes; then fail whatever is still under way."""
        try:
            while True:
                size = _HEADER.unpack(await reader.readexactly(_HEADER.size))[0]
                number, answer = pickle.loads(await reader.readexactly(size))
                if number == 0 and not ready.done():
                    ready.set_result(True)
                future = self.pending.get(number)
                if future is None or future.done():
                    continue  # its caller stopped waiting
                if isinstance(answer, Exception):
                    future.set_exception(answer)
                else:
                    future.set_result(answer)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.gone = True
            if not ready.done():
                ready.set_result(False)
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(WorkerGone())

    def close(self) -> None:
        """Close the door's end: the process ends when it reads it closed
        (a decision it is making is dropped, its future cancelled)."""
        self.gone = True
        if self._connecting is not None and not self._connecting.done():
            self._connecting.cancel()
        if self._reading is not None:
            self._reading.cancel()
        if self._writer is not None:
            self._writer.close()
        if self._socket is not None:
            self._socket.close()
        for future in self.pending.values():
            future.cancel()


class Thinking:
    """Where computer players whose strategy has ``deliberate`` set decide
    (:meth:`decide`), and other work of the computer's kind is done
    (:meth:`run`): ``processes`` worker processes (at :data:`NICENESS`),
    or with 0 the one thinking thread of this process.

    In a process, the strategy is rebuilt for each decision as
    ``type(strategy)(random.Random(seed))`` with a seed drawn from the
    strategy's own ``rng`` (every player in :mod:`engine` takes its
    generator as its first argument), so a seat's choices stay its own.
    A decision goes to the process with the fewest under way."""

    def __init__(self, processes: int = 0) -> None:
        if processes < 0:
            raise ValueError(f"processes must be 0 or more, got {processes}")
        self.processes = processes
        self._workers: list[_Worker] = []
        self._closed = False
        self.answered = 0
        """Calls the worker processes answered (decisions and other work):
        for tests and benchmarks."""
        self.unable = False
        """Set when a thinking process ended before it was ready (a broken
        interpreter, no memory to start one): the computer then thinks on
        the thread for good, rather than starting a process per move."""

    def start(self) -> None:
        """Start the worker processes now (each loads the expert's tables),
        rather than at the first move, and replace any that ended.
        Nothing to do with 0 processes, once :meth:`close` was called, or
        once a process could not start (:attr:`unable`)."""
        if self._closed or self.unable:
            return
        for worker in [w for w in self._workers if w.gone]:
            worker.close()
            self._workers.remove(worker)
            if not worker.was_ready:
                log.error("a thinking process ended before it was ready: the computer thinks on the thread instead")
                self.unable = True
                self._stop_workers()
                return
        while len(self._workers) < self.processes:
            self._workers.append(_Worker(NICENESS))

    def alive(self) -> tuple[int, int]:
        """``(running, wanted)``: the thinking processes alive now and how
        many the door runs (0 wanted: the computer thinks on its thread)."""
        if self.unable or self._closed:
            return 0, 0
        return sum(not w.gone for w in self._workers), self.processes

    async def worker_pids(self) -> list[int]:
        """The process ids of the workers (empty with 0 processes), once
        each is ready: for tests and benchmarks.  Starts them when they are
        not running."""
        self.start()
        for worker in self._workers:
            await worker.ready()
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def decide(self, strategy: Strategy, decision: Decision) -> Action:
        """The action ``strategy`` takes for ``decision``.  Raises whatever
        the strategy raises (``ValueError`` for a decision it cannot make)."""
        self.start()
        if not self._workers:  # no processes, or the door is stopping
            return await _on_thread(partial(decision.take, strategy))
        rng = getattr(strategy, "rng", None)
        seed = rng.getrandbits(64) if isinstance(rng, random.Random) else secrets.randbits(64)
        return await self._in_worker(partial(_decided, type(strategy), seed, decision),
                                     partial(decision.take, strategy))

    async def run(self, call: Callable[[], T]) -> T:
        """``call()``, worked out where the computer thinks (a worker
        process, or the thinking thread): work of the computer's kind too
        long for the event loop (the pegging looked back on after a hand,
        about 1.5 ms).  ``call`` must pickle (a module's function, or a
        ``functools.partial`` of one with picklable arguments).  Raises
        what ``call`` raises."""
        self.start()
        if not self._workers:
            return await _on_thread(call)
        return await self._in_worker(call, call)

    @property
    def under_way(self) -> int:
        """Calls the worker processes have not answered yet (for tests and benchmarks)."""
        return sum(len(w.pending) for w in self._workers)

    async def _in_worker(self, call: Callable[[], T], fallback: Callable[[], T]) -> T:
        """``call()`` in the worker with the fewest calls under way; if it
        dies first, ``fallback()`` on the thread (and another is started)."""
        worker = min(self._workers, key=lambda w: (w.gone, len(w.pending)))
        THINKING_QUEUE.inc()
        try:
            result = await worker.run(call)
            self.answered += 1
            return result
        except WorkerGone:
            if not self._closed and worker.was_ready:
                THINKING_RESTARTS.inc()
                ended = None if worker.process.is_alive() else worker.process.exitcode  # (a signal: negative)
                log.error("a thinking process died (exit code %s): starting another, and deciding this move on "
                          "the thread", ended)
            self.start()
            return await _on_thread(fallback)
        finally:
            THINKING_QUEUE.dec()

    def close(self) -> None:
        """Stop the worker processes (moves under way are dropped); a move
        asked for afterwards is decided on the thread."""
        self._closed = True
        self._stop_workers()

    def _stop_workers(self) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.close()


IN_THREAD = Thinking(0)
"""The thinking of a seat not given its own: the one thread."""
