"""A stored tournament's director step and result recording, timed: a
Swiss of many players on an SQLite file (or a PostgreSQL URL), each round
paired by one step, its results recorded one by one, the last round's
step keeping the finishes.

    python3 -m bench.tournament_store [--players 64,256,512] [--rounds 7] [--url postgresql://...]

Prints, for each field, the step's time a round (median and worst, in
milliseconds) and a result's (median and worst).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.records.ranked.tournament import Format, Kind  # noqa: E402
from door.records.store import DATABASE_NAME, Store  # noqa: E402
from door.records.tournaments.settings import Settings  # noqa: E402


async def _field(where: Path | str, players: int, rounds: int, rng: random.Random) -> tuple[list[float], list[float]]:
    store = await Store.open(where)
    try:
        names = [f"P{players}-{i}" for i in range(players)]
        for name in names:
            await store.accounts.create(name, "unused-hash")
        t = store.tournaments
        name = f"bench-{players}"
        await t.create(name, "Bench", Settings(Format(Kind.SWISS, rounds=rounds)))
        for n in names:
            await t.enter(name, n)
        await t.start(name)
        steps, records = [], []
        for _ in range(rounds + 1):
            start = time.perf_counter()
            seats = await t.step(name, store.clock())
            steps.append((time.perf_counter() - start) * 1000)
            for s in seats:
                winner = rng.randrange(2)
                start = time.perf_counter()
                await t.record(name, s.players[winner], s.players[1 - winner], (121, rng.randrange(60, 121)))
                records.append((time.perf_counter() - start) * 1000)
        assert (await t.view(name)).tournament.state.value == "finished"
        return steps, records
    finally:
        await store.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", default="64,256,512", help="the fields, players each")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--url", help="a PostgreSQL URL (an empty database) instead of a new SQLite file")
    p.add_argument("--seed", type=int, default=1, help="the random results' generator's seed")
    args = p.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        where: Path | str = args.url or Path(folder) / DATABASE_NAME
        print(f"{'players':>7} {'rounds':>6}  {'step ms (median, worst)':>24}  {'result ms (median, worst)':>26}")
        for players in (int(n) for n in args.players.split(",")):
            steps, records = asyncio.run(_field(where, players, args.rounds, rng))
            print(f"{players:>7} {args.rounds:>6}  {statistics.median(steps):>11.1f} {max(steps):>11.1f}  "
                  f"{statistics.median(records):>12.1f} {max(records):>12.1f}")


if __name__ == "__main__":
    main()
