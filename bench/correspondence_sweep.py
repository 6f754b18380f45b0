"""The correspondence sweeper's step, timed: a store with many players,
some of them on vacation, and many games under way, a quarter of them past
their deadline; one sweep judges them all (the game service's end_game
here only counts).

    python3 -m bench.correspondence_sweep [--games 100,1000,5000] [--url postgresql://...]

Prints, for each number of games, the step's time (median and worst of 5,
in milliseconds) and the games it ended.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.records.correspondence.deadlines import DAY  # noqa: E402
from door.records.correspondence.sweeper import Candidate, SweepRules, sweep  # noqa: E402
from door.records.store import DATABASE_NAME, Store  # noqa: E402

NOW = 1_800_000_000.0


async def _run(where: Path | str, games: int, rng: random.Random) -> tuple[list[float], int]:
    clock = [NOW]
    store = await Store.open(where, lambda: clock[0])
    try:
        players = [(await store.accounts.create(f"C{games}-{i}", "unused-hash")).id for i in range(max(20, games // 5))]
        for p in players[::10]:
            await store.correspondence.vacations.take(p, NOW, 5, 30)
        candidates: list[Candidate] = []
        for g in range(games):
            a, b = rng.sample(players, 2)
            last = NOW - rng.uniform(0, 4) * DAY
            candidates.append(Candidate(g, rng.randrange(2), last + 3 * DAY, last, (a, b), 3))

        async def query(now: float) -> Sequence[Candidate]:
            return candidates

        ended = 0

        async def end_game(saved_id: int, loser: int | None, how: str) -> bool:
            nonlocal ended
            ended += 1
            return True
        times = []
        for _ in range(5):
            start = time.perf_counter()
            await sweep(store, "bench", NOW, end_game, query, SweepRules())
            times.append((time.perf_counter() - start) * 1000)
        return times, ended // 5
    finally:
        await store.close()


async def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,1000,5000")
    parser.add_argument("--url", default="", help="a PostgreSQL URL (default: an SQLite file in a temporary folder)")
    args = parser.parse_args(argv)
    rng = random.Random(7)
    for games in (int(n) for n in args.games.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            where: Path | str = args.url or Path(folder) / DATABASE_NAME
            times, ended = await _run(where, games, rng)
        print(f"{games:6d} games: a sweep {statistics.median(times):8.1f} ms median, {max(times):8.1f} ms worst; "
              f"{ended} ended")


if __name__ == "__main__":
    asyncio.run(main())
