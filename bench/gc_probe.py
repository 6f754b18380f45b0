"""``python3 -m bench.gc_probe serve ...``: ``cribbage-door`` with the
collector's pauses written to standard error at exit (count and total by
generation, the longest), to tell the door's own latency from the
collector's in ``bench.load`` (its ``--gc-probe`` flag runs the server so).
``GC_PROBE_THRESHOLDS=2000,20,50`` in the environment tries other
thresholds than :data:`door.server.GC_THRESHOLDS`."""

from __future__ import annotations

import atexit
import gc
import os
import sys
import time

import door.server
from door.cli import main

_started: dict[str, float] = {}
_pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}


def _callback(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started["t"] = time.perf_counter()
    elif "t" in _started:
        _pauses[info["generation"]].append(time.perf_counter() - _started.pop("t"))


def _report() -> None:
    for generation, pauses in _pauses.items():
        if pauses:
            print(f"gc generation {generation}: {len(pauses)} collections, {1000 * sum(pauses):.0f} ms in all, "
                  f"longest {1000 * max(pauses):.1f} ms", file=sys.stderr)


if __name__ == "__main__":
    if os.environ.get("GC_PROBE_THRESHOLDS"):
        door.server.GC_THRESHOLDS = tuple(int(x) for x in os.environ["GC_PROBE_THRESHOLDS"].split(","))
    gc.callbacks.append(_callback)
    atexit.register(_report)
    sys.argv[0] = "cribbage-door"
    sys.exit(main())
