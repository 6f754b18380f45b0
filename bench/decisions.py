"""Decision time of the expert and hard computers: discards and plays, p50,
p99, max and mean in milliseconds, and their sum a game (the CPU a game
costs a server), over N whole games (default 100), and the expert's first
decision in the process (its tables loading).

    python3 -m bench.decisions [--games 100] [--players expert hard] [--against random]

For each game number, both seats are played by the player measured (or,
with ``--against``, one seat by that opponent: the random player makes
the expert draw holdings both ways, the costliest case); every discard and
every choice of card of the player measured is timed.

The double-dummy solver (:func:`engine.pegging_review.review_hand`:
each card of a hand's play against the best card, both hands known) is
timed on every hand of the expert's games: p50, p99 and max a hand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.expert import ExpertPlayer  # noqa: E402
from engine.game import Game, Phase  # noqa: E402
from engine.hard import HardPlayer  # noqa: E402
from engine.pegging_review import review_hand  # noqa: E402
from engine.players import RandomPlayer  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.strategy import Strategy, choose_action  # noqa: E402

Maker = Callable[[random.Random], Strategy]
"""A player's class: called with its random generator."""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def measure(kind: Maker, games: int, against: Maker | None = None, reviews: list[float] | None = None
            ) -> tuple[list[float], list[float]]:
    """Milliseconds of each discard and each play of ``kind`` over ``games``
    whole games (so the end of a game, where the expert searches with the
    board in view, is measured too), against itself or ``against``; and,
    into ``reviews`` if given, of the pegging review of each hand played
    out (at each new deal, as the door works it out)."""
    discards: list[float] = []
    plays: list[float] = []
    for number in range(1, games + 1):
        game = Game(Rules(), number)
        game.start()
        players: list[Strategy] = [kind(random.Random(number)), (against or kind)(random.Random(-number))]
        measured = {0, 1} if against is None else {number % 2}
        if number % 2:
            players.reverse()
        reviewed = None
        while not game.over:
            if reviews is not None and game.last_play is not None and game.last_play is not reviewed:
                reviewed = hand, kept, played = game.last_play
                t0 = time.perf_counter()
                review_hand(game.rules, hand, kept, played)
                reviews.append(1000 * (time.perf_counter() - t0))
            seat = game.to_act()[0]
            phase = game.phase
            if phase is Phase.SHOW or seat not in measured:
                game.apply(choose_action(game, seat, players[seat]))
                continue
            t0 = time.perf_counter()
            action = choose_action(game, seat, players[seat])
            elapsed = 1000 * (time.perf_counter() - t0)
            (discards if phase is Phase.DISCARD else plays).append(elapsed)
            game.apply(action)
    return discards, plays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", nargs="*", default=["expert", "hard"], choices=["expert", "hard"])
    parser.add_argument("--against", choices=["random"], help="one seat played by this opponent instead")
    args = parser.parse_args()
    kinds: dict[str, Maker] = {"expert": ExpertPlayer, "hard": HardPlayer}
    against = RandomPlayer if args.against == "random" else None
    t0 = time.perf_counter()
    first = measure(ExpertPlayer, 1)
    print(f"expert first game (tables loading): first discard {first[0][0]:.0f} ms, "
          f"the game {1000 * (time.perf_counter() - t0):.0f} ms")
    for name in args.players:
        reviews: list[float] = []
        discards, plays = measure(kinds[name], args.games, against, reviews if name == "expert" else None)
        for what, xs in (("discard", discards), ("play", plays)):
            print(f"{name:<6} {what:<8} decisions: {len(xs):>5}  p50 {statistics.median(xs):6.2f} ms  "
                  f"p99 {percentile(xs, 0.99):6.2f} ms  max {max(xs):6.2f} ms  mean {statistics.mean(xs):6.2f} ms  "
                  f"{sum(xs) / args.games:6.1f} ms a game", flush=True)
        if reviews:
            print(f"pegging review (double-dummy solver) hands: {len(reviews):>5}  p50 {statistics.median(reviews):6.2f} ms  "
                  f"p99 {percentile(reviews, 0.99):6.2f} ms  max {max(reviews):6.2f} ms (at most 50 ms a hand)",
                  flush=True)


if __name__ == "__main__":
    main()
