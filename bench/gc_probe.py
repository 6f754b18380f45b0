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
import gc
import os
import sys
import time

import door.collector
from door.cli import main

_started: dict[str, float] = {}
_pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
_types_at = int(os.environ.get("GC_PROBE_TYPES", "0"))


def _callback(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started["t"] = time.perf_counter()
    elif "t" in _started:
        _pauses[info["generation"]].append(time.perf_counter() - _started.pop("t"))
        if info["generation"] == 2 and _types_at:
            _count_types()


def _count_types() -> None:
    global _types_at
    tracked = gc.get_objects()
    if len(tracked) < _types_at:
        return
    _types_at = 0
    counts = collections.Counter(type(o).__qualname__ for o in tracked)
    print(f"gc: a full collection traced {len(tracked)} objects; the commonest types: "
          + ", ".join(f"{name} {n}" for name, n in counts.most_common(15)), file=sys.stderr)


def _report() -> None:
    for generation, pauses in _pauses.items():
        if pauses:
            print(f"gc generation {generation}: {len(pauses)} collections, {1000 * sum(pauses):.0f} ms in all, "
                  f"longest {1000 * max(pauses):.1f} ms", file=sys.stderr)


if __name__ == "__main__":
    if os.environ.get("GC_PROBE_THRESHOLDS"):
        door.collector.GC_THRESHOLDS = tuple(int(x) for x in os.environ["GC_PROBE_THRESHOLDS"].split(","))
    gc.callbacks.append(_callback)
    atexit.register(_report)
    sys.argv[0] = "cribbage-door"
    sys.exit(main())
