"""Build ``engine/data/win_tables.json``: the per-deal distributions of
hard against hard, and the value of every position on the board for
121- and 61-point games, by wins and by match points (see
engine/win_tables.py).

    python3 scripts/build_win_tables.py [--jobs N] [--deals 40000]

Takes about 3 minutes of CPU, the games spread over N processes (default
all cores).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.game import Game  # noqa: E402
from engine.hard import HardPlayer  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.strategy import choose_action  # noqa: E402
from engine.tally import GameTally  # noqa: E402
from engine.win_tables import SHIPPED, TABLE_FILE, solve  # noqa: E402

Deal = tuple[int, int, int, int]
"""Dealer's pegging (his heels included), pone's pegging, pone's hand, dealer's hand and crib."""


def _deals(number: int) -> list[Deal]:
    """Every complete deal of game ``number``, hard against hard."""
    players = [HardPlayer(random.Random(number)), HardPlayer(random.Random(-number))]
    game, tally = Game(Rules(), number), GameTally()
    tally.feed(game.start())
    while not game.over:
        seat = game.to_act()[0]
        tally.feed(game.apply(choose_action(game, seat, players[seat])))
    out = []
    for hand in tally.hands:
        if hand.complete:
            d, p = hand.seats[hand.dealer], hand.seats[1 - hand.dealer]
            out.append((d.pegging + d.heels, p.pegging, p.hand_points, d.hand_points + d.crib_points))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--deals", type=int, default=40000)
    args = parser.parse_args()
    t0 = time.perf_counter()
    deals: list[Deal] = []
    number = 1
    with Pool(args.jobs) as pool:
        while len(deals) < args.deals:
            for game in pool.map(_deals, range(number, number + 200)):
                deals.extend(game)
            number += 200
    deals = deals[:args.deals]
    print(f"{len(deals)} deals from {number - 1} games: {time.perf_counter() - t0:.0f} s", flush=True)
    pegging = Counter((d, p) for d, p, _, _ in deals)
    pone_hand = Counter(h for _, _, h, _ in deals)
    dealer_show = Counter(x for _, _, _, x in deals)
    peg = [(d, p, n / len(deals)) for (d, p), n in sorted(pegging.items())]
    pone = [(h, n / len(deals)) for h, n in sorted(pone_hand.items())]
    dealer = [(x, n / len(deals)) for x, n in sorted(dealer_show.items())]
    values = {}
    for game_to in (121, 61):
        for objective in SHIPPED:
            table = solve(game_to, peg, pone, dealer, objective)
            values[f"{game_to} {objective.name}"] = [[round(v, 4) for v in row] for row in table]
    print(f"tables: {time.perf_counter() - t0:.0f} s", flush=True)
    out = ROOT / "engine" / "data" / TABLE_FILE
    out.write_text(json.dumps({
        "about": "Built by scripts/build_win_tables.py; see engine/win_tables.py. values[target kind][dealer][pone].",
        "deals": len(deals),
        "pegging": [[d, p, round(q, 6)] for d, p, q in peg],
        "pone_hand": [[h, round(q, 6)] for h, q in pone],
        "dealer_show": [[x, round(q, 6)] for x, q in dealer],
        "values": values,
    }, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB) in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
