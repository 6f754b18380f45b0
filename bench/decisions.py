"""Decision time of the hard computer: discards and plays, p50 and p99 in
milliseconds, over N random deals (default 1,000).

    python3 -m bench.decisions [--deals 1000]

For each deal (a game number), both seats play the first hand with the hard
computer; every discard and every choice of card is timed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Game, Phase  # noqa: E402
from engine.hard import HardPlayer  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.strategy import choose_action  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    args = parser.parse_args()
    discards: list[float] = []
    plays: list[float] = []
    for number in range(1, args.deals + 1):
        game = Game(Rules(), number)
        game.start()
        players = [HardPlayer(random.Random(number)), HardPlayer(random.Random(-number))]
        while game.hand_number == 1 and not game.over and game.phase is not Phase.SHOW:
            seat = game.to_act()[0]
            phase = game.phase
            t0 = time.perf_counter()
            action = choose_action(game, seat, players[seat])
            elapsed = 1000 * (time.perf_counter() - t0)
            (discards if phase is Phase.DISCARD else plays).append(elapsed)
            game.apply(action)
    for name, xs in (("discard", discards), ("play", plays)):
        print(f"hard {name:<8} decisions: {len(xs):>5}  p50 {statistics.median(xs):6.2f} ms  "
              f"p99 {percentile(xs, 0.99):6.2f} ms  max {max(xs):6.2f} ms")


if __name__ == "__main__":
    main()
