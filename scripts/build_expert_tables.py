"""Build ``engine/data/expert_tables.json``: what the expert computer knows
in advance (see engine/expert_tables.py for what each table means).

    python3 scripts/build_expert_tables.py [--jobs N] [--hands 20000] [--throws 2000] [--draws 500]

- ``keep``: the share of each rank the hard discard policy keeps, as dealer
  and as pone, over ``--hands`` random six-card hands per seat.
- ``crib``: the mean crib of two thrown cards when the other two are thrown
  by the hard policy from a random six (``--throws`` throws per seat),
  every starter from the 46 cards left counted exactly.
- ``pegging``: the net pegging of each of the 1,820 kept hands of ranks, as
  dealer and as pone, against four-rank hands the opponent can hold
  (weighted by the ways to hold them and by ``keep``), both playing their best
  with both hands known (engine/pegging_search.py): ``--draws`` opponent
  hands drawn once and shared by every kept hand.

Takes about 10 minutes of CPU, spread over N processes (default all cores).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from itertools import combinations_with_replacement
from math import comb, prod
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cards import FULL_DECK, Card  # noqa: E402
from engine.crib_values import representatives  # noqa: E402
from engine.expert_tables import TABLE_FILE, hand_key  # noqa: E402
from engine.hard import rank_discards  # noqa: E402
from engine.pegging_search import PeggingSearch  # noqa: E402
from engine.rules import RunMode  # noqa: E402
from engine.scoring import show_points  # noqa: E402


def _throws(args: tuple[bool, int, int]) -> list[tuple[str, str]]:
    """``count`` throws of the hard policy from random sixes (``dealer``: whose crib)."""
    dealer, count, seed = args
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        a, b = rank_discards(rng.sample(FULL_DECK, 6), dealer)[0].thrown
        out.append((a.to_str(), b.to_str()))
    return out


def _keep(args: tuple[bool, int, int]) -> list[int]:
    """Cards of each rank kept (13) then dealt (13) over ``count`` random sixes."""
    dealer, count, seed = args
    rng = random.Random(seed)
    kept, dealt = [0] * 13, [0] * 13
    for _ in range(count):
        six = rng.sample(FULL_DECK, 6)
        thrown = rank_discards(six, dealer)[0].thrown
        for c in six:
            dealt[c.rank - 1] += 1
            kept[c.rank - 1] += c not in thrown
    return kept + dealt


def _crib(args: tuple[str, str, str, list[tuple[str, str]]]) -> tuple[str, float]:
    """Mean crib of ``a`` and ``b`` with the opponent's ``throws``."""
    key, a_text, b_text, throws = args
    a, b = Card.from_str(a_text), Card.from_str(b_text)
    total, n = 0, 0
    for c_text, d_text in throws:
        c, d = Card.from_str(c_text), Card.from_str(d_text)
        if len({a, b, c, d}) < 4:
            continue
        crib = (a, b, c, d)
        for s in FULL_DECK:
            if s not in crib:
                total += show_points(crib, s, True)
                n += 1
    return key, total / n


def opponent_draws(weights: list[float], draws: int, seed: int) -> list[tuple[int, ...]]:
    """``draws`` four-rank hands drawn (with replacement) from a full deck's
    holdings, each weighted by the ways to hold it and by ``weights``."""
    holdings = [h for h in combinations_with_replacement(range(1, 14), 4) if max(Counter(h).values()) <= 4]
    w = [prod(comb(4, m) for m in Counter(h).values()) * prod(weights[r - 1] for r in h) for h in holdings]
    return random.Random(seed).choices(holdings, w, k=draws)


def _pegging(args: tuple[tuple[int, ...], list[tuple[int, ...]], list[tuple[int, ...]]]) -> tuple[str, float, float]:
    """Net pegging of the kept ranks ``mine`` as dealer (against the pone's
    drawn hands) and as pone (against the dealer's).  The draws are from a
    full deck, the same for every kept hand (so the differences between
    kept hands are not noise); each is reweighted by the ways to hold it
    with ``mine`` out of the deck."""
    mine, against_pone, against_dealer = args
    copies = Counter({r: 4 for r in range(1, 14)})
    copies.subtract(mine)
    search = PeggingSearch(RunMode.UNORDERED)
    results = []
    for mine_deals, draws in ((True, against_pone), (False, against_dealer)):
        total = weight_sum = 0.0
        for theirs in draws:
            need = Counter(theirs)
            w = prod(comb(copies[r], m) / comb(4, m) for r, m in need.items())
            if not w:
                continue
            # the pone leads the play
            net = -search.value(theirs, mine, (), 0) if mine_deals else search.value(mine, theirs, (), 0)
            total += w * net
            weight_sum += w
        results.append(total / weight_sum)
    return hand_key(mine), round(results[0], 4), round(results[1], 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--hands", type=int, default=20000, help="sixes per seat for the keep shares")
    parser.add_argument("--throws", type=int, default=2000, help="opponent throws per seat for the crib")
    parser.add_argument("--draws", type=int, default=500, help="opponent hands per kept hand for the pegging")
    args = parser.parse_args()
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool:
        keep = {}
        for dealer in (True, False):
            chunks = pool.map(_keep, [(dealer, args.hands // 20, 1000 * dealer + i) for i in range(20)])
            sums = [sum(c[i] for c in chunks) for i in range(26)]
            keep["dealer" if dealer else "pone"] = [round(sums[i] / sums[13 + i], 4) for i in range(13)]
        print(f"keep shares: {time.perf_counter() - t0:.0f} s", flush=True)
        crib = {}
        for dealer in (True, False):
            throws = [t for chunk in pool.map(_throws, [(dealer, args.throws // 20, 7000 + 100 * dealer + i)
                                                        for i in range(20)]) for t in chunk]
            items = [(k, a.to_str(), b.to_str(), throws) for k, (a, b) in representatives().items()]
            # thrown by a dealer into their own crib: the crib a pone throws to
            crib["theirs" if dealer else "mine"] = dict(pool.map(_crib, items))
        print(f"cribs: {time.perf_counter() - t0:.0f} s", flush=True)
        hands = list(combinations_with_replacement(range(1, 14), 4))
        hands = [h for h in hands if max(Counter(h).values()) <= 4]
        against_pone = opponent_draws(keep["pone"], args.draws, 11)
        against_dealer = opponent_draws(keep["dealer"], args.draws, 12)
        pegging = {k: [d, p] for k, d, p in pool.imap(
            _pegging, [(h, against_pone, against_dealer) for h in hands], chunksize=8)}
        print(f"pegging: {time.perf_counter() - t0:.0f} s", flush=True)
    out = ROOT / "engine" / "data" / TABLE_FILE
    out.write_text(json.dumps({
        "about": "Built by scripts/build_expert_tables.py; see engine/expert_tables.py.",
        "keep": keep,
        "crib": {side: {k: round(v, 4) for k, v in table.items()} for side, table in crib.items()},
        "pegging": pegging,
    }, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {out} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
