"""What a position on the board is worth: the chance to win the game (or
the match points to expect) from any two scores, by who deals next.

Built by ``scripts/build_win_tables.py`` and shipped as package data
(``engine/data/win_tables.json``):

- the per-deal distributions of the project's hard computer playing
  itself: the joint pegging of dealer and pone (the dealer's his heels
  included), the pone's hand, and the dealer's hand and crib together
  (:data:`DEALS` deals of 121-point games);
- from them, by dynamic programming over the scores (:func:`solve`), the
  dealer's value ``D[a][b]`` when the dealer has ``a`` points and the pone
  ``b`` as a deal begins, signed: +1 for a certain win, -1 for a certain
  loss (a win probability p is ``2p - 1``); and the same for each
  :class:`~engine.objectives.Objective`, a won game worth what it is to
  the table (match points: 1 a win, 2 a skunk, 3 a double skunk; the
  ACC's 2 and 3), in plain wins.  The three named objectives are shipped;
  any other is solved when first asked for (about a second).

Within a deal the order of the standard rules is kept: the play (where the
pone is taken to peg out first when both could), then the pone's hand,
then the dealer's hand and crib.  The three parts of a deal are taken as
independent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from .objectives import ACC_POINTS, MATCH_POINTS, WIN_CHANCE, Objective

__all__ = ["TABLE_FILE", "DEALS", "SHIPPED", "solve", "dealer_value"]

TABLE_FILE = "win_tables.json"
"""The tables' file in ``engine/data``."""

DEALS = 40000
"""Deals of hard against hard behind the distributions (about 4,500 games)."""

Distribution = Sequence[tuple[int, float]]
"""Points and their probability."""


SHIPPED = (WIN_CHANCE, MATCH_POINTS, ACC_POINTS)
"""The objectives whose tables are in the package data."""


def solve(game_to: int, pegging: Sequence[tuple[int, int, float]], pone_hand: Distribution,
          dealer_show: Distribution, objective: Objective) -> list[list[float]]:
    """The dealer's signed value ``D[a][b]`` (see the module text) for every
    ``a``, ``b`` in ``0 .. game_to - 1``.  ``pegging``: (dealer's points,
    pone's points, probability) of a deal's play, each with at least one
    point between them; ``pone_hand``: the pone's show; ``dealer_show``:
    the dealer's hand and crib.  Raises ``ValueError`` if a play can score
    nothing (the recursion needs every deal to move a peg)."""
    if any(d + p == 0 for d, p, _ in pegging):
        raise ValueError("every play pegs at least the last card")
    t = game_to
    D = [[0.0] * t for _ in range(t)]
    F = [[0.0] * t for _ in range(t)]  # after the play: a1 dealer, b1 pone, the pone to count
    G = [[0.0] * t for _ in range(t)]  # after the pone's hand: the dealer to count

    def win(loser: int) -> float:
        return objective.worth(loser, t)

    for s in range(2 * t - 2, -1, -1):
        cells = [(a, s - a) for a in range(max(0, s - t + 1), min(t - 1, s) + 1)]
        for a, b in cells:
            v = 0.0
            for pd, pp, p in pegging:
                if b + pp >= t:
                    v -= p * win(min(a + pd, t - 1))
                elif a + pd >= t:
                    v += p * win(b + pp)
                else:
                    v += p * F[a + pd][b + pp]
            D[a][b] = v
        for a, b in cells:
            G[a][b] = sum(p * (win(b) if a + x >= t else -D[b][a + x]) for x, p in dealer_show)
        for a, b in cells:
            F[a][b] = sum(p * (-win(a) if b + h >= t else G[a][b + h]) for h, p in pone_hand)
    return D


@lru_cache(maxsize=1)
def _load() -> dict[str, Any]:
    text = resources.files("engine").joinpath("data", TABLE_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@lru_cache(maxsize=8)
def _table(game_to: int, objective: Objective) -> list[list[float]]:
    data = _load()
    if objective in SHIPPED:  # (by worths and name: an Objective made by hand under a shipped name is solved)
        shipped: list[list[float]] = data["values"][f"{game_to} {objective.name}"]
        return shipped
    if game_to not in (61, 121):
        raise KeyError(f"no table for a game to {game_to}")
    return solve(game_to, [tuple(x) for x in data["pegging"]], [tuple(x) for x in data["pone_hand"]],
                 [tuple(x) for x in data["dealer_show"]], objective)


def dealer_value(dealer: int, pone: int, game_to: int, objective: Objective) -> float:
    """The dealer's signed value (see the module text) as a deal begins,
    the dealer with ``dealer`` points and the pone ``pone`` (both below
    ``game_to``, 121 or 61), for ``objective``, in plain wins.  Raises
    ``KeyError`` for another target, ``IndexError`` for a score off the
    board, ``FileNotFoundError`` if the package data is missing (rebuild it
    with ``python3 scripts/build_win_tables.py``)."""
    row: list[float] = _table(game_to, objective)[dealer]
    return row[pone]
