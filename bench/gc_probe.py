"""``python3 -m bench.gc_probe serve ...``: ``cribbage-door`` with the
collector's pauses written to standard error at exit (count and total by
generation, the longest), to tell the door's own latency from the
collector's in ``bench.load`` (its ``--gc-probe`` flag runs the server so).
``GC_PROBE_THRESHOLDS=2000,20,50`` in the environment tries other
thresholds than :data:`door.collector.GC_THRESHOLDS`.  ``GC_PROBE_TYPES=N``
also writes, after the first full collection that traced N objects or
more, how many objects of each type it traced (the 15 commonest; counting
them stops the door for a moment)."""

from __future__ import annotations

import atexit
import collections
import contextlib
import gc
import os
import socket
import struct
import sys
import time
import tracemalloc
import weakref
from array import array
from collections.abc import Iterator
from typing import Any

import door.collector
from bench.load import _quantile, p99_and_max_by_window
from door.cli import main

_started: dict[str, float] = {}
_pauses: dict[int, array[float]] = {g: array("d") for g in (0, 1, 2)}
_cpu: dict[int, array[float]] = {g: array("d") for g in (0, 1, 2)}
"""The collections' own CPU time (``time.thread_time``): what a pause is
beyond it is the door's process waiting for the core (its thinking
processes share it in ``bench.load``)."""
_types_at = int(os.environ.get("GC_PROBE_TYPES", "0"))
_t0 = time.monotonic()
_long: list[tuple[float, int, float, float, int, int]] = []
"""Collections that paused the door :data:`LONG` or more: (seconds since
start, generation, pause ms, CPU ms, objects collected, blocks allocated)."""
LONG = 0.020
_checks: list[tuple[float, int, int, int]] = []
"""The collector's checks whether a full collection is due, every 30 s:
(seconds since start, blocks, callers, blocks needed)."""
_due = door.collector.Collector.due
_start = door.collector.Collector.start
_lateness: array[float] = array("d")
"""How late the door's event loop ran a timer set for 50 ms later:
(seconds since start, seconds late), in pairs.  The probe's records are
arrays of doubles, not lists of float objects: at 1,000 callers those
were about 250,000 blocks of the door's memory, which the collector's
policy counted as the door's own."""


_answers: array[float] = array("d")
"""The door's own time to answer a caller: from the event loop's reading
bytes on a caller's connection to its first write on it after them
(seconds since the first caller's bytes, seconds), in pairs.  Not counted: how long
the bytes waited to be read, which is at most the loop's lateness."""
_origin: list[float] = []
_keyed: array[float] = array("d")
"""The door's whole time to answer a caller, by the kernel's clock: from
the arrival of the caller's bytes at the door's socket (the receive
timestamp, ``SO_TIMESTAMPNS``) to the door's first write after them
(seconds since the first caller's bytes, seconds), in pairs.  This
includes how long the bytes waited for the door's loop, and nothing of
the callers' own process (whose loop, at 1,000 callers, is late itself);
when several segments wait unread the kernel gives the newest one's
time, so a caller who waits for each answer (as ``bench.load``'s do)
is timed exactly."""

SO_TIMESTAMPNS = 35
"""Linux's socket option (and control message) for receive timestamps in
nanoseconds (``asm-generic/socket.h``; Python's ``socket`` has no name for it)."""
_STAMP = socket.CMSG_SPACE(16)  # a struct timespec: two 64-bit integers


def _arrival(sock: socket.socket) -> float | None:
    """When the unread bytes on ``sock`` reached it (``time.monotonic``
    seconds; the newest segment's), peeked at without reading them;
    ``None`` when the kernel gives no timestamp (bytes that arrived before
    it turned timestamps on: it does so a moment after the first socket
    asks, and keeps them on while any socket wants them)."""
    try:
        _, ancillary, _, _ = sock.recvmsg(1, _STAMP, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except OSError:
        return None
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
            seconds, nanoseconds = struct.unpack("qq", data[:16])
            return float(time.monotonic() - (time.time() - (seconds + nanoseconds / 1e9)))
    return None


def _watch_answers() -> None:
    """Time every accepted connection's read-to-first-write (see :data:`_answers`)."""
    from asyncio import selector_events

    transport: Any = vars(selector_events)["_SelectorSocketTransport"]  # (asyncio's own: not in its hints)
    read_ready, write = transport._read_ready, transport.write
    pending: weakref.WeakKeyDictionary[Any, tuple[float, float | None]] = weakref.WeakKeyDictionary()
    """A connection's first bytes not yet answered: when the loop read them,
    and when they arrived (by the transport: an id could be a closed
    connection's again, and closed ones go)."""
    stamped: weakref.WeakSet[Any] = weakref.WeakSet()

    def timed_read_ready(self: Any) -> None:
        if self._server is not None and self not in pending:
            if self not in stamped:  # (the first bytes of a connection: not timed by the kernel)
                stamped.add(self)
                with contextlib.suppress(OSError):  # (a socket that has no receive timestamps: none taken)
                    self._sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
                arrived = None
            else:
                arrived = _arrival(self._sock)
            now = time.monotonic()
            pending[self] = (now, arrived)
            if not _origin:
                _origin.append(now)
        read_ready(self)

    def timed_write(self: Any, data: Any) -> None:
        read = pending.pop(self, None)
        if read is not None:
            now = time.monotonic()
            read_at, arrived = read
            _answers.extend((now - _origin[0], now - read_at))
            if arrived is not None:
                _keyed.extend((now - _origin[0], now - arrived))
        write(self, data)

    transport._read_ready = timed_read_ready
    transport.write = timed_write


def _watched_start(self: door.collector.Collector) -> None:
    _start(self)

    def tick(set_at: float) -> None:
        now = time.monotonic()
        if _origin:
            _lateness.extend((now - _origin[0], now - set_at - 0.05))
        self.loop.call_later(0.05, tick, now)

    self.loop.call_later(0.05, tick, time.monotonic())


def _recorded_due(self: door.collector.Collector) -> bool:
    t = time.monotonic() - _t0
    if not _checks or t - _checks[-1][0] >= 30:
        _checks.append((t, sys.getallocatedblocks(), self.sessions(), self.needed()))
    return _due(self)


_young_every = float(os.environ.get("GC_PROBE_YOUNG", "0"))
_young_at = [0.0]


def _young_census() -> None:
    """``GC_PROBE_YOUNG=S``: at most every S seconds, as a collection of the
    middle generation starts, what it is about to trace (the two younger
    generations): objects, the references they hold (what tracing visits),
    and the types holding the most."""
    now = time.monotonic()
    if now - _young_at[0] < _young_every:
        return
    _young_at[0] = now
    for generation in (0, 1):
        young = gc.get_objects(generation)
        refs: collections.Counter[str] = collections.Counter()
        for o in young:
            refs[type(o).__qualname__] += len(gc.get_referents(o))
        tuples = collections.Counter(f"{len(o)}:{type(o[0]).__qualname__}" for o in young
                                     if type(o) is tuple and o)
        print(f"gc young census at {now - _t0:.0f} s, generation {generation}: {len(young)} objects, "
              f"{sum(refs.values())} references; by references: "
              f"{', '.join(f'{t} {n}' for t, n in refs.most_common(8))}; by objects: {_commonest(young, 8)}; "
              f"tuples (length:first item): {', '.join(f'{t} {n}' for t, n in tuples.most_common(6))}",
              file=sys.stderr)


def _callback(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        if info["generation"] == 1 and _young_every:
            _young_census()
        if gc.callbacks[-1] is not _callback:  # the last at the end, so that a pause includes the door's own callback
            gc.callbacks.remove(_callback)
            gc.callbacks.append(_callback)
        _started["t"] = time.perf_counter()
        _started["cpu"] = time.thread_time()
    elif "t" in _started:
        pause = time.perf_counter() - _started.pop("t")
        cpu = time.thread_time() - _started.pop("cpu")
        _pauses[info["generation"]].append(pause)
        _cpu[info["generation"]].append(cpu)
        if pause >= LONG:
            _long.append((time.monotonic() - _t0, info["generation"], 1000 * pause, 1000 * cpu,
                          info["collected"], sys.getallocatedblocks()))
        if info["generation"] == 2 and _types_at:
            _count_types()


def _commonest(objects: list[Any], n: int) -> str:
    """The ``n`` commonest types among ``objects``, as ``"name count, ..."``."""
    counts = collections.Counter(type(o).__qualname__ for o in objects)
    return ", ".join(f"{name} {k}" for name, k in counts.most_common(n))


def _pairs(values: array[float]) -> Iterator[tuple[float, float]]:
    """A record of pairs (:data:`_lateness`, :data:`_answers`) as (seconds, ms) pairs."""
    return ((t, 1000 * x) for t, x in zip(values[::2], values[1::2]))


def _count_types() -> None:
    global _types_at
    tracked = gc.get_objects()
    if len(tracked) < _types_at:
        return
    _types_at = 0
    print(f"gc: a full collection traced {len(tracked)} objects; the commonest types: {_commonest(tracked, 15)}",
          file=sys.stderr)


def _census() -> None:
    """At exit (``GC_PROBE_CENSUS=1``): what a full collection would trace
    now (the callers gone), its time, the commonest types and the largest
    containers, to find what the door keeps for no caller."""
    if tracemalloc.is_tracing():
        stats = tracemalloc.take_snapshot().statistics("lineno")
        for stat in stats[:15]:
            print(f"gc census: {stat.count} blocks, {stat.size / 1024:.0f} KiB at {stat.traceback}", file=sys.stderr)
    tracked = gc.get_objects()
    start = time.perf_counter()
    gc.collect(2)
    took = time.perf_counter() - start
    print(f"gc census at exit: {len(tracked)} objects traced by a full collection ({1000 * took:.1f} ms), "
          f"{sys.getallocatedblocks()} blocks; commonest: {_commonest(tracked, 12)}", file=sys.stderr)
    sized = sorted(((len(o), o) for o in tracked if isinstance(o, (dict, list, set, tuple))), key=lambda x: -x[0])
    for n, o in sized[:8]:
        sample = list(o.items())[:2] if isinstance(o, dict) else list(o)[:2]
        print(f"gc census: a {type(o).__qualname__} of {n}: {str(sample)[:160]}", file=sys.stderr)


def _report() -> None:
    for generation, pauses in _pauses.items():
        if pauses:
            cpu = _cpu[generation]
            print(f"gc generation {generation}: {len(pauses)} collections, {1000 * sum(pauses):.0f} ms in all, "
                  f"longest {1000 * max(pauses):.1f} ms (CPU: {1000 * sum(cpu):.0f} ms in all, longest "
                  f"{1000 * max(cpu):.1f} ms)", file=sys.stderr)
    if _lateness:
        late = p99_and_max_by_window(_pairs(_lateness))
        print(f"loop lateness of a 50 ms timer, p99/max by 30 s after the first caller: {late} ms", file=sys.stderr)
    if _answers:
        answers = p99_and_max_by_window(_pairs(_answers))
        print(f"loop's own time to answer a caller's bytes (read to first write), p99/max by 30 s: {answers} ms",
              file=sys.stderr)
    if _keyed:
        keyed = [1000 * x for x in _keyed[1::2]]
        whole = ", ".join(f"{name} {_quantile(keyed, q):.1f}" for name, q in (("p50", .5), ("p90", .9), ("p99", .99)))
        print(f"loop answers by the kernel's clock (a caller's bytes arriving at the door's socket to its first write "
              f"after them): {whole}, max {max(keyed):.1f} ms over {len(keyed)} answers; p99/max by 30 s: "
              f"{p99_and_max_by_window(_pairs(_keyed))} ms", file=sys.stderr)
    if _checks:
        print("gc checks (s after start: blocks, callers, blocks needed): "
              + "; ".join(f"{t:.0f} s: {b}, {n}, {need}" for t, b, n, need in _checks[:40]), file=sys.stderr)
    if _long:
        print(f"gc pauses of {1000 * LONG:.0f} ms or more (s after start: generation, pause/CPU ms, collected, "
              "blocks): " + "; ".join(f"{t:.0f} s: {g}, {p:.0f}/{c:.0f}, {n}, {f}" for t, g, p, c, n, f in _long[:40]),
              file=sys.stderr)


if __name__ == "__main__":
    if os.environ.get("LOOP_PROBE"):  # bench.load --loop-probe
        from bench import loop_probe
        loop_probe.install()
        atexit.register(loop_probe.report)
    if os.environ.get("GC_PROBE_THRESHOLDS"):
        first, second, third = (int(x) for x in os.environ["GC_PROBE_THRESHOLDS"].split(","))
        door.collector.GC_THRESHOLDS = (first, second, third)
    door.collector.Collector.due = _recorded_due  # type: ignore[method-assign]
    door.collector.Collector.start = _watched_start  # type: ignore[method-assign]
    _watch_answers()
    gc.callbacks.append(_callback)
    atexit.register(_report)
    census = os.environ.get("GC_PROBE_CENSUS")
    if census:
        if census == "trace":  # where what is left at exit was allocated (slow)
            tracemalloc.start()
        atexit.register(_census)  # (run before _report: atexit runs last registered first)
    sys.argv[0] = "cribbage-door"
    sys.exit(main())
