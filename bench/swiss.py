"""Swiss pairing's time a round, for fields up to the largest ACC events
and past the point where everybody has met everybody.

    python3 -m bench.swiss [--seed N]

Each field plays its rounds with random results (a skunk when the loser
is under 91); each round's pairing is timed (median and worst, in
milliseconds), and the rounds that could not avoid a rematch are counted
with the pairs that met again.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.records.ranked.swiss import meetings, swiss_round  # noqa: E402
from door.records.ranked.tournament import Entrant, GameResult  # noqa: E402

FIELDS = ((16, 15), (17, 17), (33, 33), (41, 45), (64, 12), (128, 12), (256, 9))
"""(players, rounds): whole round robins, one past them, and big fields of a few rounds."""


def _run(players: int, rounds: int, rng: random.Random) -> tuple[list[float], int, int]:
    entrants = [Entrant(f"Player {i}", 1200 + rng.randrange(800)) for i in range(players)]
    results: list[GameResult] = []
    times, rematch_rounds, rematches = [], 0, 0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        pairs = swiss_round(entrants, results)
        times.append((time.perf_counter() - start) * 1000)
        met = meetings(results)
        again = sum(frozenset(p) in met for p in pairs if p[1] is not None)
        rematch_rounds += again > 0
        rematches += again
        for a, b in pairs:
            if b is None:
                results.append(GameResult(number, (a, None)))
                continue
            loser = rng.randrange(50, 120)
            winner = rng.randrange(2)
            scores = (121, loser) if winner == 0 else (loser, 121)
            results.append(GameResult(number, (a, b), winner, scores, 2 if loser < 61 else 1 if loser < 91 else 0))
    return times, rematch_rounds, rematches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'players':>7} {'rounds':>6} {'median ms':>9} {'worst ms':>8} {'rounds with a rematch':>22} {'rematches':>9}")
    for players, rounds in FIELDS:
        times, rematch_rounds, rematches = _run(players, rounds, random.Random(args.seed))
        print(f"{players:>7} {rounds:>6} {statistics.median(times):>9.2f} {max(times):>8.1f} {rematch_rounds:>22} "
              f"{rematches:>9}")


if __name__ == "__main__":
    main()
