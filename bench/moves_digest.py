"""One SHA-256 over the computer's every move in 800 seeded games: every
pairing of the expert, hard, greedy and random players (16, each player
on both seats), 50 game numbers each, to 121 under the door's default
rules.  A change that must leave the computer's play as it was (a
restructuring of the door) prints the same digest before and after.

    python3 -m bench.moves_digest [--games 50] [--jobs 2]

Each player's choices are seeded by the game number and the seat
(``random.Random``), so the digest depends on the rules and the players
only.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from itertools import product
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.expert import ExpertPlayer  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.hard import HardPlayer  # noqa: E402
from engine.players import GreedyPlayer, RandomPlayer  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.strategy import Strategy, choose_action  # noqa: E402

PLAYERS = {"expert": ExpertPlayer, "hard": HardPlayer, "greedy": GreedyPlayer, "random": RandomPlayer}


def one_game(job: tuple[str, str, int]) -> str:
    """The moves of game number ``job[2]`` between ``job[0]`` (seat 0) and ``job[1]``, one per line."""
    first, second, number = job
    players: list[Strategy] = [PLAYERS[first](random.Random(number * 2)), PLAYERS[second](random.Random(number * 2 + 1))]
    game = Game(Rules(), number)
    game.start()
    while not game.over:
        seat = game.to_act()[0]
        game.apply(choose_action(game, seat, players[seat]))
    return f"{first} {second} {number}: " + " ".join(repr(a) for a in game.actions) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="game numbers a pairing (50: 800 games)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    jobs = [(a, b, n) for a, b in product(PLAYERS, repeat=2) for n in range(1, args.games + 1)]
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        lines = pool.map(one_game, jobs, chunksize=4)
    digest = hashlib.sha256("".join(lines).encode()).hexdigest()
    print(f"{len(jobs)} games in {time.perf_counter() - start:.0f} s: SHA-256 of every move {digest}")


if __name__ == "__main__":
    main()
