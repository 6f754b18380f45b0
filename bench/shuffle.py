"""The verifiable shuffle: is it fair, and does every recorded
game deal again from its seeds?

    python3 -m bench.shuffle [--shuffles 1000000] [--games 10000] [--processes 2]

1. Uniformity: a chi-square test of card positions over ``--shuffles``
   shuffles (:func:`engine.shuffle.seeded_deck`, each from its own server
   seed): how often each of the 52 cards lands in each of the 52 places,
   against N/52 for each; 51 x 51 = 2,601 degrees of freedom; the p-value
   by the Wilson-Hilferty normal approximation (exact to about 1e-4 at this
   many degrees of freedom).  A fair shuffle gives p > 0.01 all but 1 % of
   the time.  Also the worst single place (52 tests of 51 degrees of freedom).
2. Verification: ``--games`` games played computer against computer (the
   greedy player, on ``--processes`` processes), each dealt by a verifiable
   shuffle and recorded in a fresh SQLite store as a registered caller's
   game is, then dealt again by ``cribbage-door verify``'s check; then one
   game's seed and another's deal are changed, and both must fail.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import math
import random
import sqlite3
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import FULL_DECK  # noqa: E402
from engine.events import GameResult  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.players import GreedyPlayer  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.shuffle import COMPUTER_SEED, SeededShuffle, player_seed, seeded_deck  # noqa: E402
from engine.strategy import choose_action  # noqa: E402
from engine.tally import GameTally, HandRecord  # noqa: E402

INDEX = {card: i for i, card in enumerate(FULL_DECK)}


def _seed(n: int) -> str:
    return hashlib.sha256(f"bench.shuffle/{n}".encode()).hexdigest()


def count_places(start: int, stop: int) -> list[int]:
    """52 x 52 counts (card index * 52 + place) over shuffles start..stop-1."""
    counts = [0] * (52 * 52)
    seeds = (player_seed("bench"), COMPUTER_SEED)
    for n in range(start, stop):
        for place, card in enumerate(seeded_deck(_seed(n), seeds, n % 999_999 + 1, 1)):
            counts[INDEX[card] * 52 + place] += 1
    return counts


def chi_square_p(x: float, df: int) -> float:
    """Upper tail of chi-square with ``df`` degrees of freedom at ``x``
    (Wilson-Hilferty)."""
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def uniformity(shuffles: int, processes: int) -> None:
    t0 = time.perf_counter()
    step = -(-shuffles // (processes * 4))
    with ProcessPoolExecutor(processes) as pool:
        parts = pool.map(count_places, range(0, shuffles, step),
                         [min(shuffles, s + step) for s in range(0, shuffles, step)])
        counts = [sum(c) for c in zip(*parts)]
    took = time.perf_counter() - t0
    expected = shuffles / 52
    chi = sum((c - expected) ** 2 / expected for c in counts)
    p = chi_square_p(chi, 51 * 51)
    worst = min(chi_square_p(sum((counts[card * 52 + place] - expected) ** 2 / expected for card in range(52)), 51)
                for place in range(52))
    print(f"uniformity: {shuffles:,} shuffles in {took:.0f} s ({1e6 * took * processes / shuffles:.0f} us a shuffle "
          f"a process): chi-square {chi:.1f} on 2,601 degrees of freedom, p = {p:.3f} "
          f"({'fair: p > 0.01' if p > 0.01 else 'NOT UNIFORM at 1 %'}); worst place p = {worst:.4f} "
          f"(of 52; > {0.01 / 52:.5f} passes with Bonferroni)")


def play(n: int) -> tuple[int, dict[str, object], dict[int, list[str]], GameResult, list[HandRecord]]:
    """Game ``n``, greedy against greedy, dealt from seeds."""
    number = n % 999_999 + 1
    shuffle = SeededShuffle(number, _seed(-n), (player_seed(f"caller {n}"), COMPUTER_SEED))
    game, tally = Game(Rules(), number, shuffle=shuffle), GameTally()
    tally.feed(game.start())
    players = [GreedyPlayer(random.Random(n)), GreedyPlayer(random.Random(-n))]
    while not game.over:
        seat = game.to_act()[0]
        tally.feed(game.apply(choose_action(game, seat, players[seat])))
    assert game.result is not None
    return number, shuffle.to_dict(), {k: [c.to_str() for c in v] for k, v in game.dealt.items()}, \
        game.result, tally.hands


async def verification(games: int, processes: int) -> None:
    from door.records.games import GameRecord
    from door.records.passwords import hash_password
    from door.records.store import DATABASE_NAME, Store
    from door.records.verify import verify_games
    from engine.cards import Card

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / DATABASE_NAME
        store = await Store.open(path)
        account = await store.accounts.create("Ann", hash_password("password"))
        t0 = time.perf_counter()
        with ProcessPoolExecutor(processes) as pool:
            for number, seeds, dealt, result, hands in pool.map(play, range(1, games + 1), chunksize=50):
                shuffle = SeededShuffle.from_dict(number, seeds)
                await store.games.record(None, GameRecord(number, Rules(), ("Ann", "Computer"), (account.id, None), "computer",
                                         result, hands, time.time(), shuffle=shuffle,
                                         dealt={k: [Card.from_str(c) for c in v] for k, v in dealt.items()}))
        played = time.perf_counter() - t0
        t0 = time.perf_counter()
        verdicts = await verify_games(store)
        took = time.perf_counter() - t0
        ok = sum(v.ok for v in verdicts)
        shuffles = sum(v.checked for v in verdicts)
        print(f"verification: {games:,} games played and recorded in {played:.0f} s; cribbage-door verify dealt "
              f"{ok:,} of {len(verdicts):,} games again as recorded ({shuffles:,} shuffles) in {took:.1f} s")
        await store.close()
        db = sqlite3.connect(path)
        first = json.loads(db.execute("SELECT shuffle FROM games WHERE id = 1").fetchone()[0])
        db.execute("UPDATE games SET shuffle = ? WHERE id = 1", (json.dumps(first | {"server_seed": _seed(0)}),))
        cards = db.execute("SELECT cards FROM game_deals WHERE game_id = 2 AND shuffle = 1").fetchone()[0].split()
        cards[0], cards[1] = cards[1], cards[0]  # the pone's first card and the dealer's, swapped
        db.execute("UPDATE game_deals SET cards = ? WHERE game_id = 2 AND shuffle = 1", (" ".join(cards),))
        db.commit()
        db.close()
        store = await Store.open(path)
        changed = await verify_games(store, [1, 2])
        await store.close()
        print("  changed seed (game 1): " + changed[0].line())
        print("  changed deal (game 2): " + changed[1].line())
        if ok != len(verdicts) or any(v.ok for v in changed):
            raise SystemExit("verification FAILED")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shuffles", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    if args.shuffles:
        uniformity(args.shuffles, args.processes)
    if args.games:
        asyncio.run(verification(args.games, args.processes))


if __name__ == "__main__":
    main()
