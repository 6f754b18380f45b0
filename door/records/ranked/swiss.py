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

SEARCH_LIMIT = 100_000
"""Steps the backtracking search may take for one round (a step is a
set of players it tries to pair; each takes about a microsecond or two)
before it settles for the nearest pairing it can make greedily, rematches
and all.  Reached only by fields of several dozen who have nearly all met
each other already."""


def meetings(results: Sequence[GameResult]) -> Counter[frozenset[str]]:
    """How many times each pair met in ``results`` (byes left out)."""
    return Counter(frozenset((r.players[0], r.players[1])) for r in results if r.players[1] is not None)


def pair_in_order(order: Sequence[str], met: Mapping[frozenset[str], int],
                  rematches: int | None = None) -> list[tuple[str, str]] | None:
    """Pair an even number of players, ``order`` best first, each with the
    nearest player below them, with no more than ``rematches`` pairs that
    appear in ``met`` (``None``: as few as can be, which always finds a
    pairing).  Returns the pairs, better pairs first, or ``None`` when no
    pairing has so few rematches.  Raises ``ValueError`` for an odd number
    of players.

    >>> pair_in_order(["A", "B", "C", "D"], {frozenset("AB"): 1})
    [('A', 'C'), ('B', 'D')]
    """
    if len(order) % 2:
        raise ValueError(f"pairing needs an even number of players, got {len(order)}")
    found = _Search(list(order), met).best([None], rematches)
    return None if found is None else found[0]


class _Search:
    """The backtracking matcher over one order: players are bits of a
    mask of those still to pair; a mask and budget that failed once is
    not searched again, and the steps are counted against
    :data:`SEARCH_LIMIT` for every search this object makes."""

    def __init__(self, order: list[str], met: Mapping[frozenset[str], int]) -> None:
        self.order = order
        self.met = met
        self.failed: set[tuple[int, int]] = set()
        self.steps = 0
        self.new = [sum(1 << j for j, b in enumerate(order) if j != i and frozenset((a, b)) not in met)
                    for i, a in enumerate(order)]
        """For each player, the mask of those they have not met."""

    def best(self, outs: Sequence[str | None],
             rematches: int | None) -> tuple[list[tuple[str, str]], str | None] | None:
        """The pairing of the order with one of ``outs`` left out
        (``None``: nobody), and who: each budget of rematches is tried
        from 0 up to ``rematches`` (``None``: until a pairing is found,
        which always is) and, for each, the ``outs`` in turn.  ``None``
        when no pairing has so few rematches."""
        full = (1 << len(self.order)) - 1
        top = len(self.order) // 2 if rematches is None else rematches
        for budget in range(top + 1):
            for out in outs:
                mask = full if out is None else full & ~(1 << self.order.index(out))
                found = self.pair(mask, budget)
                if found is not None:
                    return found, out
                if self.steps > SEARCH_LIMIT:
                    return self._settle(outs[0], rematches)
        return None

    def _settle(self, out: str | None,
                rematches: int | None) -> tuple[list[tuple[str, str]], str | None] | None:
        """The greedy pairing, when the search ran out of steps."""
        found = _greedy([n for n in self.order if n != out], self.met)
        if rematches is not None and sum(frozenset(p) in self.met for p in found) > rematches:
            return None
        return found, out

    def pair(self, left: int, budget: int) -> list[tuple[str, str]] | None:
        """A pairing of the players in mask ``left`` with at most ``budget`` rematches, or ``None``."""
        if not left:
            return []
        if (left, budget) in self.failed or self.steps > SEARCH_LIMIT:
            return None
        self.steps += 1
        if (self._stuck(left) + 1) // 2 > budget:  # each two with nobody new left make a rematch at least
            self.failed.add((left, budget))
            return None
        first = (left & -left).bit_length() - 1
        rest = left & ~(1 << first)
        other = rest
        while other:
            j = (other & -other).bit_length() - 1
            other &= other - 1
            cost = 0 if self.new[first] >> j & 1 else 1
            if cost > budget:
                continue
            tail = self.pair(rest & ~(1 << j), budget - cost)
            if tail is not None:
                return [(self.order[first], self.order[j]), *tail]
        self.failed.add((left, budget))
        return None

    def _stuck(self, left: int) -> int:
        """How many players in mask ``left`` have met everybody else in it."""
        stuck, bits = 0, left
        while bits:
            i = (bits & -bits).bit_length() - 1
            bits &= bits - 1
            stuck += not self.new[i] & left
        return stuck


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
        out = order.pop() if len(order) % 2 else None
        found: tuple[list[tuple[str, str]], str | None] | None = (_fold(order), out)
    else:
        order = [line.name for line in lines]
        fewest = min(line.byes for line in lines)
        outs = [line.name for line in reversed(lines) if line.byes == fewest] if len(order) % 2 else [None]
        found = _Search(order, meetings(results)).best(outs, None)
    assert found is not None  # (with no limit on rematches there is always a pairing)
    pairs: list[tuple[str, str | None]] = list(found[0])
    return pairs if found[1] is None else [*pairs, (found[1], None)]


def _fold(order: list[str]) -> list[tuple[str, str]]:
    """Round 1: the top half against the bottom half, first against first."""
    half = len(order) // 2
    return list(zip(order[:half], order[half:], strict=True))
