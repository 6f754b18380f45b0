"""The correspondence sweeper's step, timed: a store with many players,
some of them on vacation, and many games under way, a share of them past
their deadline (a tenth, then a hundredth); one sweep judges them all
(the game service's ``end_games`` here only counts: ``bench.correspondence``
ends real games), and a task of the event loop measures how late it wakes
meanwhile.

    python3 -m bench.correspondence_sweep [--games 100,1000,5000] [--past 0.1,0.01] [--postgres | --url URL]

Prints, for each number of games and share past, the step's time (median
and worst of 5, in milliseconds), the games it ended, and the event
loop's lateness during the steps, worst and p99, beside the same with the
loop idle as long (milliseconds; a shared machine's loop is late idle too).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Self

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.throwaway_postgres import throwaway_postgres  # noqa: E402
from door.records.correspondence.deadlines import DAY  # noqa: E402
from door.records.correspondence.sweeper import Candidate, EndAll, Judged, SweepRules, sweep  # noqa: E402
from door.records.store import DATABASE_NAME, Store  # noqa: E402

NOW = 1_800_000_000.0

TICK = 0.001
"""Seconds between the wakes of the task that measures the event loop's lateness."""


class Samples:
    """Figures a task takes while an ``async with`` block runs
    (milliseconds): :meth:`_sample` is the task, :attr:`worst` and
    :attr:`p99` what it found."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._running = True
        self._task: asyncio.Task[None] | None = None

    @property
    def worst(self) -> float:
        """The worst sample (milliseconds; 0 for none)."""
        return max(self.samples, default=0.0)

    @property
    def p99(self) -> float:
        """The 99th percentile of the samples (milliseconds; 0 for none)."""
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0

    async def _sample(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        self._task = asyncio.create_task(self._sample())
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self._running = False
        if self._task is not None:
            await self._task


class Lateness(Samples):
    """``async with Lateness() as late:`` a task of the event loop asks to
    wake every :data:`TICK` seconds while the block runs; after it,
    ``late.worst`` and ``late.p99`` are how much later than asked it woke
    at worst and at the 99th percentile (milliseconds): how long the loop
    was kept from its other tasks.  On a shared machine the loop is late
    with nothing to do as well: :func:`idle` measures that, to set beside."""

    async def _sample(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running:
            asked = loop.time() + TICK
            await asyncio.sleep(TICK)
            self.samples.append((loop.time() - asked) * 1000)

    async def __aenter__(self) -> Self:
        await super().__aenter__()
        await asyncio.sleep(2 * TICK)  # (ticking before the block begins)
        return self


class StoreWaits(Samples):
    """``async with StoreWaits(store) as waits:`` a task asks the store a
    trivial query every :data:`TICK` * 5 seconds while the block runs, as
    a caller's move would write: ``waits.worst`` and ``waits.p99`` are its
    answers' times (milliseconds), the store's one thread shared with
    whatever the block asks of it."""

    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store

    async def _sample(self) -> None:
        while self._running:
            start = time.perf_counter()
            await self.store.database.query(lambda db: db.execute("SELECT 1").fetchone())
            self.samples.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(5 * TICK)


async def idle(seconds: float) -> Lateness:
    """The event loop's lateness over ``seconds`` with nothing else to do."""
    async with Lateness() as late:
        await asyncio.sleep(seconds)
    return late


async def _run(where: Path | str, games: int, past: float,
               rng: random.Random) -> tuple[list[float], int, tuple[float, float, float, float]]:
    clock = [NOW]
    store = await Store.open(where, lambda: clock[0])
    try:
        players = [(await store.accounts.create(f"C{games}-{past}-{i}", "unused-hash")).id
                   for i in range(max(20, games // 5))]
        for p in players[::10]:
            await store.correspondence.vacations.take(p, NOW, 5, 30)
        candidates: list[Candidate] = []
        for g in range(games):
            a, b = rng.sample(players, 2)
            last = NOW - (3 + rng.uniform(0, 1)) * DAY if rng.random() < past else NOW - rng.uniform(0, 3) * DAY
            candidates.append(Candidate(g, rng.randrange(2), last + 3 * DAY, last, (a, b), 3))

        async def query(now: float) -> Sequence[Candidate]:
            return candidates

        ended = 0

        async def end_games(judged: Sequence[Judged]) -> list[int]:
            nonlocal ended
            ended += len(judged)
            return [j.saved_id for j in judged]
        times = []
        async with Lateness() as late:
            for _ in range(5):
                start = time.perf_counter()
                await sweep(store, "bench", NOW, EndAll(end_games), query, SweepRules())
                times.append((time.perf_counter() - start) * 1000)
        quiet = await idle(sum(times) / 1000)
        return times, ended // 5, (late.worst, late.p99, quiet.worst, quiet.p99)
    finally:
        await store.close()


async def _all(args: argparse.Namespace, new_where: Callable[[], Path | str], label: str) -> None:
    rng = random.Random(7)
    for games in (int(n) for n in args.games.split(",")):
        for past in (float(p) for p in args.past.split(",")):
            times, ended, late = await _run(new_where(), games, past, rng)
            print(f"{label}: {games:6d} games, {past:4.0%} past: a sweep {statistics.median(times):8.1f} ms median, "
                  f"{max(times):8.1f} ms worst; {ended} ended; the event loop late {late[0]:.1f} ms at worst, "
                  f"p99 {late[1]:.1f} (idle as long: {late[2]:.1f}, p99 {late[3]:.1f})", flush=True)


async def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,1000,5000")
    parser.add_argument("--past", default="0.1,0.01", help="the shares of games past their deadline (0.1,0.01)")
    parser.add_argument("--url", default="", help="a PostgreSQL URL (default: an SQLite file in a temporary folder)")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL too, on a throwaway server")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        count = iter(range(1_000_000))

        def new_file() -> Path:
            where = Path(folder) / f"s{next(count)}"
            where.mkdir()
            return where / DATABASE_NAME
        if args.url:
            await _all(args, lambda: str(args.url), "PostgreSQL")
            return
        await _all(args, new_file, "SQLite")
        if not args.postgres:
            return
        with throwaway_postgres() as pg:
            if pg is not None:
                await _all(args, pg.new_database, "PostgreSQL")


if __name__ == "__main__":
    asyncio.run(main())
