"""Where the event loop's CPU goes, by what it ran: ``bench.load
--loop-probe`` runs the server with this installed (through
:mod:`bench.gc_probe`, with ``LOOP_PROBE=1`` in its environment), and the
report comes out in its log at exit, as lines starting ``loop``.

Every callback the loop runs is timed in CPU (``time.thread_time``) and
counted under its kind: a task's step by its coroutine and the one it
resumed in (``task HumanSeat.run < Queue.get``), any other callback by its
function.  Frames (:meth:`door.ui.display.Display.refresh`) are also
split into the renderer's part (:meth:`door.ui.renderer.Renderer.render`)
and the rest (painting the canvas, writing the bytes), and counted by the
screen's last row (its prompt), to tell which screens cost the most.

It says where the event loop's time went, profiled first: unlike
``--profile`` (cProfile, which multiplies the cost of every Python call
and so overstates the painting and rendering of small functions), this
adds a few microseconds a callback.
"""

from __future__ import annotations

import asyncio.events
import collections
import sys
import time
from typing import Any

_cpu: collections.defaultdict[str, float] = collections.defaultdict(float)
_calls: collections.Counter[str] = collections.Counter()
_frames: collections.defaultdict[str, float] = collections.defaultdict(float)
_frame_calls: collections.Counter[str] = collections.Counter()
_render: collections.defaultdict[str, float] = collections.defaultdict(float)
_rendering = [0.0]
_empty: collections.Counter[str] = collections.Counter()
"""Frames that sent nothing (the screen was as shown), by prompt."""
_written = [0]


def _kind(handle: asyncio.events.Handle) -> str:
    """What ``handle`` runs, in a few words."""
    callback: Any = handle._callback  # type: ignore[attr-defined]
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro: Any = task.get_coro()
        outer = getattr(coro, "__qualname__", type(coro).__name__)
        inner = outer
        while coro is not None and hasattr(coro, "cr_await"):
            inner = getattr(coro, "__qualname__", inner)
            coro = coro.cr_await
        return f"task {outer}" + (f" < {inner}" if inner != outer else "")
    return str(getattr(callback, "__qualname__", type(callback).__name__))


def install() -> None:
    """Time the loop's callbacks and the door's frames from now on."""
    from door.ui import canvas as canvas_module
    from door.ui import display, renderer

    run = asyncio.events.Handle._run

    def timed_run(self: asyncio.events.Handle) -> None:
        start = time.thread_time()
        try:
            run(self)
        finally:
            kind = _kind(self)
            _cpu[kind] += time.thread_time() - start
            _calls[kind] += 1

    refresh, render = display.Display.refresh, renderer.Renderer.render

    def timed_refresh(self: display.Display) -> None:
        start = time.thread_time()
        _rendering[0] = 0.0
        _written[0] = -1  # (a refresh held back renders nothing)
        refresh(self)
        rows = self.renderer._rows
        prompt = rows[-1].strip()[:24] if rows else ""
        _frames[prompt] += time.thread_time() - start
        _render[prompt] += _rendering[0]
        _frame_calls[prompt] += 1
        if _written[0] == 0:
            _empty[prompt] += 1

    def timed_render(self: renderer.Renderer, canvas: canvas_module.Canvas) -> bytes:
        start = time.thread_time()
        out: bytes = render(self, canvas)
        _rendering[0] += time.thread_time() - start
        _written[0] = len(out)
        return out

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]
    display.Display.refresh = timed_refresh  # type: ignore[method-assign]
    renderer.Renderer.render = timed_render  # type: ignore[method-assign]


def report() -> None:
    """Write the figures to standard error, a ``loop`` line each."""
    total = sum(_cpu.values())
    if not total:
        return
    frames, rendering = sum(_frames.values()), sum(_render.values())
    print(f"loop probe: {total:.2f} s of CPU in callbacks; frames {100 * frames / total:.0f} % "
          f"({sum(_frame_calls.values())} frames, {1e6 * frames / max(1, sum(_frame_calls.values())):.0f} us each: "
          f"rendering {100 * rendering / total:.0f} %, painting and writing {100 * (frames - rendering) / total:.0f} %)",
          file=sys.stderr)
    print(f"loop frames that sent nothing: {sum(_empty.values())}; by prompt: "
          f"{', '.join(f'{p!r} {n}' for p, n in _empty.most_common(6))}", file=sys.stderr)
    for kind, cpu in sorted(_cpu.items(), key=lambda kv: -kv[1])[:12]:
        print(f"loop callback: {100 * cpu / total:5.1f} %  {_calls[kind]:7} calls  "
              f"{1e6 * cpu / _calls[kind]:8.1f} us each  {kind}", file=sys.stderr)
    for prompt, cpu in sorted(_frames.items(), key=lambda kv: -kv[1])[:8]:
        n = _frame_calls[prompt]
        print(f"loop frames: {100 * cpu / total:5.1f} %  {n:7} frames  {1e6 * cpu / n:7.1f} us each "
              f"(rendering {1e6 * _render[prompt] / n:6.1f})  '{prompt}'", file=sys.stderr)
