"""Expected crib values of the two cards a player lays away, from a table
built by exact enumeration (``scripts/build_crib_table.py``) and shipped
as package data (``engine/data/crib_values.json``).

For two cards thrown, the entry is the mean crib score over every two other
crib cards and every starter drawn from the 50 cards left: C(50, 2) x 48 =
58,800 cases.  The other two cards are treated as unknown (the opponent's
throw is not modelled).  Only ranks and whether the two cards share a suit
matter, so the table has 169 entries: 91 rank pairs thrown off-suit and 78
(different ranks) thrown suited.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from itertools import combinations

from .cards import FULL_DECK, Card, Suit
from .scoring import show_points

__all__ = ["crib_value", "compute_crib_value", "table_key", "load_table", "representatives", "TABLE_FILE"]

TABLE_FILE = "crib_values.json"
"""The table's file in ``engine/data``."""


def table_key(a: Card, b: Card) -> str:
    """``"5-5"``, ``"5-J s"`` (suited) or ``"5-J o"`` (off-suit): ranks in
    order, then the suit relation.

    >>> table_key(Card.from_str("JH"), Card.from_str("5H"))
    '5-11 s'
    """
    lo, hi = sorted((a.rank, b.rank))
    if lo == hi:
        return f"{lo}-{hi}"
    return f"{lo}-{hi} {'s' if a.suit is b.suit else 'o'}"


def compute_crib_value(a: Card, b: Card) -> float:
    """The mean crib score (points) when ``a`` and ``b`` are in the crib,
    over every other two cards and starter from the other 50: exact, in
    about 0.1 s."""
    rest = [c for c in FULL_DECK if c != a and c != b]
    total = 0
    n = 0
    for c, d in combinations(rest, 2):
        hand = (a, b, c, d)
        for s in rest:
            if s is not c and s is not d:
                total += show_points(hand, s, True)
                n += 1
    return total / n


def representatives() -> dict[str, tuple[Card, Card]]:
    """One pair of cards for every table entry."""
    reps: dict[str, tuple[Card, Card]] = {}
    for lo in range(1, 14):
        for hi in range(lo, 14):
            a = Card.from_index((lo - 1) * 4 + Suit.CLUBS)
            diamonds = Card.from_index((hi - 1) * 4 + Suit.DIAMONDS)
            reps[table_key(a, diamonds)] = (a, diamonds)
            if lo != hi:
                clubs = Card.from_index((hi - 1) * 4 + Suit.CLUBS)
                reps[table_key(a, clubs)] = (a, clubs)
    return reps


@lru_cache(maxsize=1)
def load_table() -> dict[str, float]:
    """The shipped table: entry key -> expected crib points.  Raises
    ``FileNotFoundError`` if the package data is missing (rebuild it with
    ``python3 scripts/build_crib_table.py``)."""
    text = resources.files("engine").joinpath("data", TABLE_FILE).read_text(encoding="utf-8")
    data: dict[str, float] = json.loads(text)["values"]
    return data


def crib_value(a: Card, b: Card) -> float:
    """Expected points that ``a`` and ``b`` bring to a crib (see the module
    text), from the shipped table."""
    return load_table()[table_key(a, b)]
