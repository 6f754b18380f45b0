"""The rest of the play searched to its end, both hands known: the exact
value of a pegging position when every card is in sight.

The play scores ranks only (suits count nothing until the show), so a
position is ranks: the hand of the player to move and of the other as
sorted tuples of ranks (A=1 .. K=13), the current series as the ranks in
the order played, and its count.  The value is the mover's pegging points
to the end of the play minus the other's, both playing their best
(minimax), with the standard rules of go, 31 and last card exactly as
:class:`engine.game.Game` pegs them:

- after a card, the other player plays if they can; if not (a go), the
  same player plays on while they can;
- when neither can play, the last to play pegs 1 for the go (31 pegs 2 in
  :func:`~engine.scoring.play_points` and no go) and the other leads a new
  series;
- the last card of the play pegs 1, unless it made 31.

:class:`PeggingSearch` memoizes positions for as long as it lives, so the
many hands the expert computer imagines for its opponent share their
common endings.  Used by :mod:`engine.expert`.
"""

from __future__ import annotations

from collections.abc import Callable

from .rules import RunMode

__all__ = ["PeggingSearch", "BoardSearch", "PIP", "series_points"]

PIP = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""The pip value of each rank (index 1 .. 13; J, Q and K count 10)."""

_PAIRS = (0, 0, 2, 6, 12)


_KNOWN: dict[tuple[tuple[int, ...], int, bool], int] = {}
"""Series already scored, by (ranks played, count, ordered): the search and
the opponent model meet the same few tens of thousands of series over and
over, and a look-up costs less than half the scoring (a game of the
expert's 18 % faster).  Shared by the whole process, not per caller, and
emptied when full."""

_KNOWN_AT_MOST = 1 << 15
"""The most series :data:`_KNOWN` holds (about 5 MiB)."""


def series_points(series: tuple[int, ...], count: int, ordered: bool) -> int:
    """What the last card of ``series`` (ranks in the order played, its
    count ``count``, the sum of their pips) pegs: 2 for fifteen or 31,
    2/6/12 for a pair, pair royal or double pair royal, else the longest
    run (>= 3) ending with it, in order if ``ordered`` (:class:`RunMode`).
    The same points as :func:`engine.scoring.play_points`, remembered per
    series (``_KNOWN``)."""
    key = (series, count, ordered)
    points = _KNOWN.get(key)
    if points is None:
        if len(_KNOWN) >= _KNOWN_AT_MOST:
            _KNOWN.clear()
        points = _KNOWN[key] = _scored(series, count, ordered)
    return points


def _scored(series: tuple[int, ...], count: int, ordered: bool) -> int:
    """:func:`series_points` worked out: one pass back from the last card."""
    points = 2 if count == 15 or count == 31 else 0
    last = series[-1]
    n = len(series)
    if n < 2:
        return points
    before = series[-2]
    if before == last:
        same = 2
        while same < n and same < 4 and series[-same - 1] == last:
            same += 1
        return points + _PAIRS[same]
    if n < 3:
        return points
    return points + (_ordered_run(series, last - before) if ordered else _any_run(series))


def _ordered_run(series: tuple[int, ...], step: int) -> int:
    """The run (ordered rule) ending ``series``: the longest tail stepping
    by the same +1 or -1 (``step``: the last card's rank less the one
    before), if it has 3 cards or more; else 0."""
    if step != 1 and step != -1:
        return 0
    n = len(series)
    k = 2
    while k < n and series[-k] - series[-k - 1] == step:
        k += 1
    return k if k >= 3 else 0


def _any_run(series: tuple[int, ...]) -> int:
    """The run (any order) ending ``series``: the longest tail of distinct
    ranks that spans as many ranks as it has cards, 3 or more (a repeated
    rank ends every longer tail); else 0."""
    low = high = series[-1]
    held = 1 << low
    run = 0
    for k in range(2, len(series) + 1):
        rank = series[-k]
        bit = 1 << rank
        if held & bit:
            break
        held |= bit
        if rank < low:
            low = rank
        elif rank > high:
            high = rank
        if k >= 3 and high - low == k - 1:
            run = k
    return run


Position = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class PeggingSearch:
    """Exact minimax of the play with both hands known, memoized.

    ``run_mode``: the runs rule of the play (:class:`RunMode`).  One
    instance serves one decision (or a few): its memo grows with every
    position met, at most a few tens of thousands of entries."""

    def __init__(self, run_mode: RunMode) -> None:
        self.run_mode = run_mode
        self._ordered = run_mode is RunMode.ORDERED
        self._memo: dict[Position, int] = {}

    def __len__(self) -> int:
        """Positions memoized so far."""
        return len(self._memo)

    def after(self, rank: int, mover: tuple[int, ...], other: tuple[int, ...],
              series: tuple[int, ...], count: int) -> int:
        """The mover's net pegging (points, mover minus other) to the end of
        the play if they play ``rank`` now from ``mover`` (sorted ranks,
        ``rank`` among them) on ``series`` (ranks, counting ``count``), and
        both then play their best.  Raises ``ValueError`` if ``rank`` is not
        in ``mover`` or would pass 31."""
        if rank not in mover or count + PIP[rank] > 31:
            raise ValueError(f"rank {rank} cannot be played from {mover} on {count}")
        i = mover.index(rank)
        return self._step(mover[:i] + mover[i + 1:], other, series + (rank,), count + PIP[rank])

    def value(self, mover: tuple[int, ...], other: tuple[int, ...], series: tuple[int, ...], count: int) -> int:
        """The mover's net pegging to the end of the play, the mover to play
        (or to say go) on ``series`` counting ``count``."""
        if mover and count + PIP[mover[0]] <= 31:
            return self._best(mover, other, series, count)
        if other and count + PIP[other[0]] <= 31:
            return -self._best(other, mover, series, count)
        raise ValueError(f"nobody can play on {count}: {mover} and {other}")

    def _step(self, mover: tuple[int, ...], other: tuple[int, ...], series: tuple[int, ...], count: int) -> int:
        """Net for the player who just made ``series`` (``mover``: what they
        hold now): the points of their card and what follows."""
        points = series_points(series, count, self._ordered)
        if not mover and not other:
            return points if count == 31 else points + 1
        if count == 31:
            return points - self._lead(other, mover)
        if other and count + PIP[other[0]] <= 31:
            return points - self._best(other, mover, series, count)
        if mover and count + PIP[mover[0]] <= 31:
            return points + self._best(mover, other, series, count)
        return points + 1 - self._lead(other, mover)  # the go, and the other leads

    def _lead(self, mover: tuple[int, ...], other: tuple[int, ...]) -> int:
        """Net for ``mover``, who leads a new series (or passes the lead to
        ``other`` when their hand is empty)."""
        if mover:
            return self._best(mover, other, (), 0)
        return -self._best(other, mover, (), 0)

    def _best(self, mover: tuple[int, ...], other: tuple[int, ...], series: tuple[int, ...], count: int) -> int:
        key = (mover, other, series)  # the count follows from the series
        memo = self._memo
        found = memo.get(key)
        if found is not None:
            return found
        best = -1000
        last = 0
        for i, rank in enumerate(mover):
            if rank == last:
                continue
            last = rank
            pip = PIP[rank]
            if count + pip > 31:
                break  # sorted by rank, so by pip: nothing further fits
            v = self._step(mover[:i] + mover[i + 1:], other, series + (rank,), count + pip)
            if v > best:
                best = v
        memo[key] = best
        return best


class BoardSearch:
    """The play searched to its end with the board in view: minimax of one
    player's value (called *mine*; the other is *theirs*) where a card,
    a go or the last card that reaches ``game_to`` ends the game at once,
    worth ``win(loser's points)`` to the winner (and its negative to the
    loser), and a play that ends with nobody out is worth
    ``leaf(my points, their points)`` (the shows and the deals to come).

    Values are in whatever unit ``win`` and ``leaf`` give (win
    probabilities or match points).  Positions are memoized with both
    scores, so an instance serves one pair of hands and one ``leaf``."""

    def __init__(self, run_mode: RunMode, game_to: int, win: Callable[[int], float],
                 leaf: Callable[[int, int], float]) -> None:
        self._ordered = run_mode is RunMode.ORDERED
        self.game_to = game_to
        self.win = win
        self.leaf = leaf
        self._memo: dict[tuple[object, ...], float] = {}

    def __len__(self) -> int:
        """Positions memoized so far."""
        return len(self._memo)

    def after(self, rank: int, mine: tuple[int, ...], theirs: tuple[int, ...], series: tuple[int, ...],
              count: int, my_points: int, their_points: int) -> float:
        """My value if I play ``rank`` from ``mine`` (sorted ranks) now, on
        ``series`` counting ``count``, the scores ``my_points`` and
        ``their_points``.  Raises ``ValueError`` if ``rank`` is not in
        ``mine`` or would pass 31."""
        if rank not in mine or count + PIP[rank] > 31:
            raise ValueError(f"rank {rank} cannot be played from {mine} on {count}")
        i = mine.index(rank)
        return self._step(mine[:i] + mine[i + 1:], theirs, series + (rank,), count + PIP[rank],
                          my_points, their_points, True)

    def _step(self, mover: tuple[int, ...], other: tuple[int, ...], series: tuple[int, ...], count: int,
              mover_points: int, other_points: int, me: bool) -> float:
        """My value after the mover (``me``: whether that is me) made ``series``."""
        mover_points += series_points(series, count, self._ordered)
        sign = 1.0 if me else -1.0
        if mover_points >= self.game_to:
            return sign * self.win(other_points)
        if count == 31:
            return self._lead(other, mover, other_points, mover_points, not me)
        if other and count + PIP[other[0]] <= 31:
            return self._best(other, mover, series, count, other_points, mover_points, not me)
        if mover and count + PIP[mover[0]] <= 31:
            return self._best(mover, other, series, count, mover_points, other_points, me)
        mover_points += 1  # the go, or the last card
        if mover_points >= self.game_to:
            return sign * self.win(other_points)
        return self._lead(other, mover, other_points, mover_points, not me)

    def _lead(self, mover: tuple[int, ...], other: tuple[int, ...], mover_points: int, other_points: int,
              me: bool) -> float:
        if mover:
            return self._best(mover, other, (), 0, mover_points, other_points, me)
        if other:
            return self._best(other, mover, (), 0, other_points, mover_points, not me)
        return self.leaf(mover_points, other_points) if me else self.leaf(other_points, mover_points)

    def _best(self, mover: tuple[int, ...], other: tuple[int, ...], series: tuple[int, ...], count: int,
              mover_points: int, other_points: int, me: bool) -> float:
        key = (mover, other, series, mover_points, other_points, me)
        found = self._memo.get(key)
        if found is not None:
            return found
        best: float | None = None
        last = 0
        for i, rank in enumerate(mover):
            if rank == last:
                continue
            last = rank
            pip = PIP[rank]
            if count + pip > 31:
                break
            v = self._step(mover[:i] + mover[i + 1:], other, series + (rank,), count + pip,
                           mover_points, other_points, me)
            if best is None or (v > best if me else v < best):
                best = v
        assert best is not None
        self._memo[key] = best
        return best
