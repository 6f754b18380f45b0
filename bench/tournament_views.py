"""What a program's ``tournaments`` and ``standings`` cost the store's one
thread for a big Swiss: its view worked out anew (the standings and
brackets), the view again within seconds (kept), and the entries alone
(what the list reads), on an SQLite file.

    python3 -m bench.tournament_views [--players 512] [--rounds 5]

Prints each one's time in milliseconds (median and worst of 20).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.records.ranked.tournament import Format, Kind  # noqa: E402
from door.records.store import DATABASE_NAME, Store  # noqa: E402
from door.records.tournaments.settings import Settings  # noqa: E402


async def _timed(ask: Callable[[], Awaitable[Any]]) -> list[float]:
    times = []
    for _ in range(20):
        start = time.perf_counter()
        await ask()
        times.append((time.perf_counter() - start) * 1000)
    return times


async def _run(players: int, rounds: int) -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / DATABASE_NAME)
        try:
            names = [f"P{i}" for i in range(players)]
            for name in names:
                await store.accounts.create(name, "unused-hash")
            t = store.tournaments
            await t.create("big", "Big", Settings(Format(Kind.SWISS, rounds=rounds + 2)))
            for name in names:
                await t.enter("big", name)
            await t.start("big")
            for _ in range(rounds):
                for s in await t.step("big", store.clock()):
                    winner = rng.randrange(2)
                    await t.record("big", s.players[winner], s.players[1 - winner], (121, rng.randrange(60, 121)))
            print(f"a Swiss of {players} players after {rounds} rounds: ms (median, worst of 20)")
            for label, ask in (("view anew (standings before)", lambda: t.view("big")),
                               ("view within 2 s (standings now)", lambda: t.view("big", 2.0)),
                               ("entries (the list now)", lambda: t.entries("big"))):
                times = await _timed(ask)
                print(f"  {label:<34} {statistics.median(times):>8.2f} {max(times):>8.2f}")
        finally:
            await store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=512)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    asyncio.run(_run(args.players, args.rounds))


if __name__ == "__main__":
    main()
