"""What the expert computer knows in advance, built by
``scripts/build_expert_tables.py`` from the project's own players and
shipped as package data (``engine/data/expert_tables.json``):

- :func:`keep_share`: the share of the cards of a rank that the hard
  discard policy keeps, as dealer and as pone (20,000 random six-card hands
  per seat).  A pone keeps almost every 5 and throws most kings.
- :func:`crib_value`: the mean crib of two thrown cards when the other two
  are laid away by the hard policy from a random six (2,000 throws per
  seat), not by chance: every starter from the 46 cards left counted.  A
  dealer's own crib and a pone's differ because the opponent throws to them
  differently.
- :func:`pegging_value`: the mean net pegging (own points minus the
  opponent's) of four kept ranks, as dealer or as pone, against every four
  ranks the opponent can hold (weighted by the ways to hold them and by the
  keep shares), both playing their best with both hands known.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from .cards import Card
from .crib_values import table_key

__all__ = ["TABLE_FILE", "hand_key", "keep_share", "crib_value", "pegging_value", "load"]

TABLE_FILE = "expert_tables.json"
"""The tables' file in ``engine/data``."""


def hand_key(ranks: Sequence[int]) -> str:
    """``"1-5-5-12"``: four ranks (A=1 .. K=13) in order."""
    return "-".join(str(r) for r in sorted(ranks))


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """The shipped tables.  Raises ``FileNotFoundError`` if the package
    data is missing (rebuild it with ``python3 scripts/build_expert_tables.py``)."""
    text = resources.files("engine").joinpath("data", TABLE_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def keep_share(dealer: bool) -> tuple[float, ...]:
    """Thirteen shares (A .. K), each in 0..1, for a player who deals
    (``dealer``) or not."""
    return tuple(load()["keep"]["dealer" if dealer else "pone"])


def crib_value(a: Card, b: Card, own: bool) -> float:
    """Mean points of the crib ``a`` and ``b`` go to: the thrower's own
    (``own``, they deal) or the opponent's."""
    return float(load()["crib"]["mine" if own else "theirs"][table_key(a, b)])


def pegging_value(kept: Sequence[Card], dealer: bool) -> float:
    """Mean net pegging points of the four ``kept`` cards, as dealer or pone."""
    return float(load()["pegging"][hand_key([c.rank for c in kept])][0 if dealer else 1])
