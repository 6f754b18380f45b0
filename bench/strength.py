"""How strong the computer players are: win rates in duplicate pairs, and
net match points per game (a win 1, a skunk 2, a double skunk 3; the
loser's are subtracted), and average points per hand split into pegging,
hand and crib.

    python3 -m bench.strength [--games 4000] [--jobs 2]

Each deal (a game number) is played twice with the seats swapped, so both
players get the same cards; the games are spread over ``--jobs`` processes.
The 95% confidence interval is taken over the pairs (a pair scores 0, 1/2
or 1 for the first player), which accounts for the two games of a pair
sharing their cards.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.yale_greedy import YaleGreedy  # noqa: E402
from engine.expert import ExpertPlayer  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.hard import HardPlayer  # noqa: E402
from engine.players import EasyPlayer, GreedyPlayer, RandomPlayer  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.strategy import Strategy, choose_action  # noqa: E402
from engine.tally import GameTally  # noqa: E402

PLAYERS = {"expert": ExpertPlayer, "hard": HardPlayer, "easy": EasyPlayer, "greedy": GreedyPlayer, "random": RandomPlayer,
           "yale": YaleGreedy}
"""``yale``: Yale CPSC 474's greedy benchmark opponent (:mod:`bench.yale_greedy`)."""
MATCHUPS = [("expert", "yale"), ("expert", "hard"), ("expert", "greedy"), ("expert", "random"),
            ("hard", "easy"), ("hard", "random"), ("hard", "greedy"), ("easy", "random")]


def one_game(number: int, first: str, second: str, first_seat: int) -> tuple[bool, int, list[list[int]]]:
    """Play game ``number`` with ``first`` in ``first_seat``; returns whether
    ``first`` won, the match points ``first`` gained (the game's value: 1,
    2 for a skunk, 3 for a double skunk; negative when ``first`` lost) and,
    per player, [pegging, hand, crib, hands counted]."""
    players: list[Strategy] = [PLAYERS[first](random.Random(number)), PLAYERS[second](random.Random(-number))]
    if first_seat == 1:
        players.reverse()
    game, rec = Game(Rules(), number), GameTally()
    rec.feed(game.start())
    while not game.over:
        seat = game.to_act()[0]
        rec.feed(game.apply(choose_action(game, seat, players[seat])))
    assert game.result is not None
    sums = [[0, 0, 0, 0], [0, 0, 0, 0]]
    for hand in rec.hands:
        if not hand.complete:
            continue
        for seat, f in enumerate(hand.seats):
            who = 0 if seat == first_seat else 1
            sums[who][0] += f.pegging
            sums[who][1] += f.hand_points
            sums[who][2] += f.crib_points
            sums[who][3] += 1
    won = game.result.winner == first_seat
    return won, game.result.value if won else -game.result.value, sums


def pair(args: tuple[int, str, str]) -> tuple[float, float, list[list[int]]]:
    """Deal ``number`` played twice, seats swapped: (``first``'s share of
    the two games, its net match points per game, the point sums)."""
    number, first, second = args
    score = net = 0.0
    total = [[0, 0, 0, 0], [0, 0, 0, 0]]
    for seat in (0, 1):
        won, points, sums = one_game(number, first, second, seat)
        score += 0.5 * won
        net += 0.5 * points
        total = [[a + b for a, b in zip(x, y)] for x, y in zip(total, sums)]
    return score, net, total


def mean_and_half_width(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half width of its 95% confidence interval."""
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    return mean, 1.96 * sd / math.sqrt(len(xs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per matchup (pairs = games / 2)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--matchups", nargs="*", metavar="A:B", help="only these (e.g. expert:hard)")
    args = parser.parse_args()
    matchups = [tuple(m.split(":")) for m in args.matchups] if args.matchups else MATCHUPS
    pairs = args.games // 2
    print(f"{'matchup':<18} {'games':>6} {'first wins':>11} {'95% CI':>15} {'match pts/game':>16}  "
          f"{'points per hand (peg + hand + crib)':<40} {'time':>6}")
    with Pool(args.jobs) as pool:
        for first, second in matchups:
            t0 = time.perf_counter()
            results = pool.map(pair, [(n, first, second) for n in range(1, pairs + 1)], chunksize=20)
            mean, half = mean_and_half_width([r[0] for r in results])
            net, net_half = mean_and_half_width([r[1] for r in results])
            sums = [[sum(r[2][w][i] for r in results) for i in range(4)] for w in (0, 1)]

            def split(s: list[int]) -> str:
                n = max(1, s[3])
                return f"{(s[0] + s[1] + s[2]) / n:5.2f} = {s[0] / n:4.2f} + {s[1] / n:4.2f} + {s[2] / n:4.2f}"

            print(f"{first + ' vs ' + second:<18} {2 * pairs:>6} {100 * mean:>10.1f}% "
                  f"{f'{100 * (mean - half):.1f}-{100 * (mean + half):.1f}%':>15} "
                  f"{f'{net:+.3f} ±{net_half:.3f}':>16}  "
                  f"{first}: {split(sums[0])}; {second}: {split(sums[1])}  {time.perf_counter() - t0:5.0f}s",
                  flush=True)


if __name__ == "__main__":
    main()
