"""Time to score all 12,994,800 (four-card hand, starter) combinations with
the door's scorer (``engine.scoring.show_points``), as hands and as cribs.

    python3 -m bench.score_all [--runs N]

Prints the median of N runs (default 3) in seconds, and the combinations
scored per second.
"""

from __future__ import annotations

import argparse
import statistics
import time
from itertools import combinations

from engine.cards import FULL_DECK
from engine.scoring import rank_points_table, show_points

COMBINATIONS = 12_994_800


def score_all(is_crib: bool) -> int:
    """Score every combination; returns the sum of points (to check the work)."""
    total = 0
    for hand in combinations(FULL_DECK, 4):
        for starter in FULL_DECK:
            if starter not in hand:
                total += show_points(hand, starter, is_crib)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    t0 = time.perf_counter()
    rank_points_table()
    table_time = time.perf_counter() - t0
    for label, crib in (("hands", False), ("cribs", True)):
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            total = score_all(crib)
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        print(f"score all {COMBINATIONS:,} {label}: median {med:.2f} s over {args.runs} runs "
              f"({COMBINATIONS / med / 1e6:.2f} M combinations/s, mean {total / COMBINATIONS:.6f} points)")
    print(f"rank table build (once per process): {table_time * 1000:.0f} ms")


if __name__ == "__main__":
    main()
