"""Build ``engine/data/crib_values.json``: the expected crib value of every
kind of two-card throw, by exact enumeration (see engine/crib_values.py).

    python3 scripts/build_crib_table.py [--jobs N]

Takes about 35 s of CPU (spread over N processes, default all cores).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.cards import Card  # noqa: E402
from engine.crib_values import TABLE_FILE, compute_crib_value, representatives  # noqa: E402


def _entry(item: tuple[str, tuple[str, str]]) -> tuple[str, float]:
    key, (a, b) = item
    return key, round(compute_crib_value(Card.from_str(a), Card.from_str(b)), 6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    items = [(k, (a.to_str(), b.to_str())) for k, (a, b) in representatives().items()]
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool:
        values = dict(pool.map(_entry, items))
    out = ROOT / "engine" / "data" / TABLE_FILE
    out.write_text(json.dumps({
        "about": "Mean crib points of two cards thrown, over every other two crib cards and starter "
                 "from the other 50 cards (exact). Keys: 'lo-hi' ranks (A=1..K=13), 's' suited, 'o' off-suit.",
        "values": dict(sorted(values.items(), key=lambda kv: [int(x) for x in kv[0].split()[0].split("-")])),
    }, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(values)} entries to {out} in {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
