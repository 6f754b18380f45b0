"""Build ``engine/data/throw_table.json``: the two ranks the hard discard
policy lays away from every six ranks, as dealer and as pone (see
engine/throw_table.py).

    python3 scripts/build_throw_table.py [--jobs N]

About 20 seconds of CPU, spread over N processes (default all cores).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from itertools import combinations_with_replacement
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cards import Card, Suit  # noqa: E402
from engine.hard import rank_discards  # noqa: E402
from engine.throw_table import SIXES, TABLE_FILE, six_index  # noqa: E402

_SUITS = list(Suit)


def _throws(ranks: tuple[int, ...]) -> tuple[int, str, str]:
    """The table place of ``ranks`` and what hard throws from it, as
    dealer and as pone: two hex digits each, ``"00"`` if no deck holds it."""
    if max(Counter(ranks).values()) > 4:
        return six_index(ranks), "00", "00"
    cards = [Card(r, _SUITS[i % 4]) for i, r in enumerate(ranks)]
    out = []
    for dealer in (True, False):
        a, b = sorted(c.rank for c in rank_discards(cards, dealer)[0].thrown)
        out.append(f"{a:x}{b:x}")
    return six_index(ranks), out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    t0 = time.perf_counter()
    dealer, pone = ["00"] * SIXES, ["00"] * SIXES
    with Pool(args.jobs) as pool:
        for i, d, p in pool.imap_unordered(_throws, combinations_with_replacement(range(1, 14), 6), chunksize=64):
            dealer[i], pone[i] = d, p
    out = ROOT / "engine" / "data" / TABLE_FILE
    out.write_text(json.dumps({
        "about": "Built by scripts/build_throw_table.py; see engine/throw_table.py. "
                 "Two hex ranks thrown per sorted six, at engine.throw_table.six_index.",
        "dealer": "".join(dealer),
        "pone": "".join(pone),
    }, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {out} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
