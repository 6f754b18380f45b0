"""Swiss pairing, pure: each round pairs players of like standing, never
the same pair twice while another pairing exists, and gives the odd
player a bye.

The rules, as built:

- Round 1 goes by the entrants' ratings (then names): the top half meets
  the bottom half, first against first (1 v 5, 2 v 6, 3 v 7, 4 v 8 of
  eight).
- Later rounds go by the standings (:mod:`door.records.ranked.standings`:
  game points, then games won, then spread, then rating, then name): the
  best player meets the nearest player below them they have not met, and
  so on down; when that leaves somebody with nobody new, a backtracking
  search over the whole order finds the pairing nearest the standings
  that has no rematch.  Only when no such pairing exists does a pair meet
  again, as few pairs as can be.
- With an odd number of players, one has a bye: the lowest-standing
  player among those with the fewest byes so far (so nobody has a second
  bye while somebody has none), moved up only when the players left
  could not be paired without a rematch otherwise.  A bye is scored as a
  win: 2 game points, a game won and played, and the format's
  ``bye_spread`` (0 points by default).

Everything is decided by the inputs: the same entrants and results give
the same pairings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from door.records.ranked.standings import standings
from door.records.ranked.tournament import Entrant, GameResult, check_entrants

__all__ = ["swiss_round", "pair_in_order", "meetings", "SEARCH_LIMIT"]

SEARCH_LIMIT = 200_000
"""Steps the backtracking search takes before it settles for the
nearest pairing it can make greedily (reached only by fields of many
dozens that have nearly all met)."""


def meetings(results: Sequence[GameResult]) -> Counter[frozenset[str]]:
    """How many times each pair met in ``results`` (byes left out)."""
    return Counter(frozenset((r.players[0], r.players[1])) for r in results if r.players[1] is not None)


def pair_in_order(order: Sequence[str], met: Mapping[frozenset[str], int],
                  rematches: int | None = None) -> list[tuple[str, str]] | None:
    """Pair an even number of players, ``order`` best first, each with the
    nearest player below them, with no more than ``rematches`` pairs that
    appear in ``met`` (``None``: as few as can be).  Returns the pairs,
    better pairs first, or ``None`` when no pairing has so few rematches.
    Raises ``ValueError`` for an odd number of players.

    >>> pair_in_order(["A", "B", "C", "D"], {frozenset("AB"): 1})
    [('A', 'C'), ('B', 'D')]
    """
    if len(order) % 2:
        raise ValueError(f"pairing needs an even number of players, got {len(order)}")
    if rematches is None:
        for budget in range(len(order) // 2 + 1):
            found = pair_in_order(order, met, budget)
            if found is not None:
                return found
        raise AssertionError("a pairing with every pair a rematch always exists")
    search = _Search(list(order), met)
    found = search.pair((1 << len(order)) - 1, rematches)
    if found is None and search.steps > SEARCH_LIMIT:
        found = _greedy(list(order), met)
        return found if sum(frozenset(p) in met for p in found) <= rematches else None
    return found


class _Search:
    """The backtracking matcher over one order: players are bits of a
    mask of those still to pair; a mask and budget that failed once is
    not searched again."""

    def __init__(self, order: list[str], met: Mapping[frozenset[str], int]) -> None:
        self.order = order
        self.met = met
        self.failed: set[tuple[int, int]] = set()
        self.steps = 0

    def pair(self, left: int, budget: int) -> list[tuple[str, str]] | None:
        if not left:
            return []
        if (left, budget) in self.failed or self.steps > SEARCH_LIMIT:
            return None
        self.steps += 1
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        other = rest
        while other:
            j = (other & -other).bit_length() - 1
            other &= other - 1
            cost = frozenset((self.order[first], self.order[j])) in self.met
            if cost > budget:
                continue
            tail = self.pair(rest & ~(1 << j), budget - cost)
            if tail is not None:
                return [(self.order[first], self.order[j]), *tail]
        self.failed.add((left, budget))
        return None


def _greedy(order: list[str], met: Mapping[frozenset[str], int]) -> list[tuple[str, str]]:
    """Each player, best first, with the nearest one left they have not met (else the nearest)."""
    pairs = []
    while order:
        first = order.pop(0)
        other = next((n for n in order if frozenset((first, n)) not in met), order[0])
        order.remove(other)
        pairs.append((first, other))
    return pairs


def swiss_round(entrants: Sequence[Entrant], results: Sequence[GameResult],
                bye_spread: int = 0) -> list[tuple[str, str | None]]:
    """The next round's pairings of ``entrants`` after ``results`` (the
    rules in this module's summary): the tables best first, then the bye
    as ``(name, None)`` when the number is odd.  Raises ``ValueError`` for
    fewer than two entrants, a name entered twice, or a result naming
    somebody not entered."""
    check_entrants(entrants)
    lines = standings(entrants, results, bye_spread)
    if not results:
        order = [e.name for e in sorted(entrants, key=lambda e: (-e.rating, e.name))]
    else:
        order = [line.name for line in lines]
    byes = {line.name: line.byes for line in lines}
    met = meetings(results)
    if len(order) % 2 == 0:
        return list(_fold(order) if not results else _fewest(order, met))
    fewest = min(byes.values())
    candidates = [n for n in reversed(order) if byes[n] == fewest]
    for budget in range(len(order) // 2 + 1):
        for out in candidates:
            rest = [n for n in order if n != out]
            found = _fold(rest) if not results else pair_in_order(rest, met, budget)
            if found is not None:
                return [*found, (out, None)]
    raise AssertionError("a pairing with every pair a rematch always exists")


def _fewest(order: list[str], met: Mapping[frozenset[str], int]) -> list[tuple[str, str]]:
    """:func:`pair_in_order` with as few rematches as can be (which always finds a pairing)."""
    found = pair_in_order(order, met)
    assert found is not None
    return found


def _fold(order: list[str]) -> list[tuple[str, str]]:
    """Round 1: the top half against the bottom half, first against first."""
    half = len(order) // 2
    return list(zip(order[:half], order[half:], strict=True))
