"""What the hard discard policy keeps from every six ranks, built by
``scripts/build_throw_table.py`` and shipped as package data
(``engine/data/throw_table.json``): the expert computer's model of the
opponent's throw ("model the opponent's throw by the project's own
discard policy").

The play scores ranks, so the model is by ranks: for each of the 18,395
multisets of six ranks (no rank more than four times), the two ranks
:func:`engine.hard.rank_discards` lays away, as dealer and as pone, from
six cards of those ranks with suits dealt round the four in turn (so no
four-card flush; a pair of thrown cards may happen to be suited).  Suits
change the hard choice only through flushes, nobs and suited crib throws,
so the table follows the hard policy on nearly every hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from math import comb

__all__ = ["TABLE_FILE", "SIXES", "six_index", "thrown_ranks", "kept_ranks"]

TABLE_FILE = "throw_table.json"
"""The table's file in ``engine/data``."""

SIXES = comb(18, 6)
"""Entries in each seat's table: every sorted six of ranks 1..13 with
repetition (18,564), the 169 with five or six of a rank left blank."""


def six_index(ranks: Sequence[int]) -> int:
    """The place (0 .. :data:`SIXES` - 1) of six ranks (A=1 .. K=13, in
    ascending order) among all sorted sixes: the combinatorial number of the
    strictly rising ``rank - 1 + i``.  Raises ``ValueError`` unless six
    ranks in order."""
    if len(ranks) != 6 or any(not 1 <= r <= 13 for r in ranks) or any(a > b for a, b in zip(ranks, ranks[1:])):
        raise ValueError(f"six ranks from 1 to 13 in order, got {tuple(ranks)}")
    return sum(comb(r - 1 + i, i + 1) for i, r in enumerate(ranks))


@lru_cache(maxsize=1)
def _tables() -> tuple[str, str]:
    text = resources.files("engine").joinpath("data", TABLE_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    return data["dealer"], data["pone"]


def thrown_ranks(ranks: Sequence[int], dealer: bool) -> tuple[int, int]:
    """The two ranks the hard policy lays away from six ``ranks`` (in
    ascending order) as dealer or pone, lowest first.  Raises
    ``ValueError`` for anything but six ranks in order with no rank more
    than four times; ``FileNotFoundError`` if the package data is missing
    (rebuild it with ``python3 scripts/build_throw_table.py``)."""
    i = six_index(ranks)
    pair = _tables()[0 if dealer else 1][2 * i:2 * i + 2]
    if pair == "00":
        raise ValueError(f"no deck holds the ranks {tuple(ranks)}")
    return int(pair[0], 16), int(pair[1], 16)


def kept_ranks(ranks: Sequence[int], dealer: bool) -> tuple[int, ...]:
    """The four ranks the hard policy keeps from six ``ranks`` (ascending),
    ascending.  Raises as :func:`thrown_ranks`."""
    a, b = thrown_ranks(ranks, dealer)
    kept = list(ranks)
    kept.remove(a)
    kept.remove(b)
    return tuple(kept)
