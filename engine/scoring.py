"""Scoring: the show (hands and crib) and the play (pegging), standard rules.

The show (the original door, Cribbage Champ's worked examples): every combination of cards
totalling fifteen scores 2; every pair 2 (so three of a kind, a pair royal, is
three pairs for 6 and four of a kind, a double pair royal, six pairs for 12);
every run of three or more distinct consecutive ranks scores its length, runs
being maximal (no run is a subset of a longer one) and counted once per
combination of cards (so 9 8 7 7 6 has two runs of four); a flush of the four
hand cards scores 4, or 5 with the starter, while a crib scores only a
five-card flush (5); nobs, the jack of the starter's suit in the hand, scores 1.
Aces are low: Q-K-A is not a run.

The play: the last card played earns fifteen (2) or thirty-one (2) from the
count, a pair (2), pair royal (6) or double pair royal (12) from the cards of
equal rank at the end of the series, and a run from the longest tail of the
series that forms one.  Whether the tail must be in order is the run mode
(the original door options 1 and 2, DESIGN.md).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from .cards import FULL_DECK, Card

__all__ = [
    "ShowKind", "ShowItem", "ShowScore", "score_show", "show_points", "mean_show_points", "rank_show_points",
    "PlayKind", "PlayScore", "RunMode", "score_play", "play_points", "MAX_SHOW_POINTS",
]

MAX_SHOW_POINTS = 29
"""The highest score of a hand or crib (5-5-5 + J with the fourth 5 as starter)."""


class ShowKind(enum.Enum):
    """A kind of combination counted in the show."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"


@dataclass(frozen=True, slots=True)
class ShowItem:
    """One combination of the show: its kind, the cards that make it, points."""

    kind: ShowKind
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class ShowScore:
    """The counted hand or crib: every :class:`ShowItem` and the total points.

    ``hand`` holds the four cards of the hand or crib and ``starter`` the cut
    card; ``is_crib`` says which flush rule applied.
    """

    hand: tuple[Card, ...]
    starter: Card
    is_crib: bool
    items: tuple[ShowItem, ...]

    @property
    def total(self) -> int:
        """The points of the hand (0..29)."""
        return sum(i.points for i in self.items)

    def points_of(self, kind: ShowKind) -> int:
        """The points earned by combinations of ``kind``."""
        return sum(i.points for i in self.items if i.kind is kind)


def _runs(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every maximal run (length >= 3) of ``cards``, once per card combination."""
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c.rank, []).append(c)
    runs: list[tuple[Card, ...]] = []
    rank = 1
    while rank <= 13:
        if rank not in by_rank:
            rank += 1
            continue
        end = rank
        while end + 1 in by_rank:
            end += 1
        if end - rank + 1 >= 3:
            combos: list[tuple[Card, ...]] = [()]
            for r in range(rank, end + 1):
                combos = [c + (card,) for c in combos for card in by_rank[r]]
            runs.extend(combos)
        rank = end + 1
    return runs


def score_show(hand: Sequence[Card], starter: Card, is_crib: bool = False) -> ShowScore:
    """Count a hand or crib of four cards with the starter, naming every item.

    ``hand``: the four cards held (or the crib); ``starter``: the cut card.
    Raises ``ValueError`` unless ``hand`` has four distinct cards that do not
    include the starter.

    >>> from engine.cards import parse_cards
    >>> score_show(parse_cards("4D 4H 5S 6D"), Card.from_str("KC")).total
    14
    """
    hand = tuple(hand)
    if len(hand) != 4 or len(set(hand)) != 4 or starter in hand:
        raise ValueError(f"a hand is four distinct cards besides the starter: {hand!r} + {starter!r}")
    five = hand + (starter,)
    items: list[ShowItem] = []
    for size in range(2, 6):
        for combo in combinations(five, size):
            if sum(c.pip for c in combo) == 15:
                items.append(ShowItem(ShowKind.FIFTEEN, combo, 2))
    for a, b in combinations(five, 2):
        if a.rank == b.rank:
            items.append(ShowItem(ShowKind.PAIR, (a, b), 2))
    for run in _runs(five):
        items.append(ShowItem(ShowKind.RUN, run, len(run)))
    suit = hand[0].suit
    if all(c.suit is suit for c in hand):
        if starter.suit is suit:
            items.append(ShowItem(ShowKind.FLUSH, five, 5))
        elif not is_crib:
            items.append(ShowItem(ShowKind.FLUSH, hand, 4))
    for c in hand:
        if c.rank == 11 and c.suit is starter.suit:
            items.append(ShowItem(ShowKind.NOBS, (c,), 1))
    return ShowScore(hand, starter, is_crib, tuple(items))


# --- the fast scorer --------------------------------------------------------
# The points of fifteens, pairs and runs depend only on the multiset of the
# five ranks.  A multiset is keyed by the sum of 5 ** (rank - 1) over the cards
# (no rank occurs more than four times, so the key is unique); the table holds
# the points of the 6,175 possible multisets.  Flush and nobs are added apart.

RANK_WEIGHT: tuple[int, ...] = tuple(5 ** (c.rank - 1) for c in FULL_DECK)
"""For each card index 0..51, its term in a rank-multiset key."""

_RANK_POINTS: dict[int, int] = {}


def _rank_points_table() -> dict[int, int]:
    """Build :data:`_RANK_POINTS` once.  Readers test it for emptiness
    (``_RANK_POINTS or _rank_points_table()``), so it is published in one
    step: the whole table is built aside and then bound to the module name,
    and rebinding a name is atomic.  A reader on another thread (the expert
    computer thinks in one) sees the empty table or the whole one, never a
    half-built one; two threads may both build it, to the same result."""
    global _RANK_POINTS
    if not _RANK_POINTS:
        _RANK_POINTS = _build_rank_points()
    return _RANK_POINTS


def _build_rank_points() -> dict[int, int]:
    built: dict[int, int] = {}
    proto = {r: [c for c in FULL_DECK if c.rank == r] for r in range(1, 14)}
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if any(ranks.count(r) > 4 for r in ranks):
            continue
        cards: list[Card] = []
        seen: dict[int, int] = {}
        for r in ranks:
            cards.append(proto[r][seen.get(r, 0)])
            seen[r] = seen.get(r, 0) + 1
        # Suits are chosen so that no flush or nobs can arise: score only
        # fifteens, pairs and runs.
        s = score_show(cards[:4], cards[4])
        built[sum(5 ** (r - 1) for r in ranks)] = sum(
            i.points for i in s.items if i.kind in (ShowKind.FIFTEEN, ShowKind.PAIR, ShowKind.RUN))
    return built


def rank_points_table() -> dict[int, int]:
    """The table behind :func:`show_points`: rank-multiset key -> points of
    fifteens, pairs and runs (built once, on first use, in about 0.2 s)."""
    return _rank_points_table()


def show_points(hand: Sequence[Card], starter: Card, is_crib: bool = False) -> int:
    """The total of :func:`score_show` without the breakdown, about 10x faster.

    Same arguments; no validation (the caller passes four distinct cards
    besides the starter).
    """
    table = _RANK_POINTS or _rank_points_table()
    key = RANK_WEIGHT[starter.index]
    for c in hand:
        key += RANK_WEIGHT[c.index]
    pts = table[key]
    s0 = hand[0].suit
    if hand[1].suit is s0 and hand[2].suit is s0 and hand[3].suit is s0:
        if starter.suit is s0:
            pts += 5
        elif not is_crib:
            pts += 4
    ss = starter.suit
    for c in hand:
        if c.rank == 11 and c.suit is ss:
            pts += 1
    return pts


def rank_show_points(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of five cards given by their ranks (A=1 ..
    K=13, the hand's four and the starter): the show without flush or nobs,
    which need suits.  No validation."""
    table = _RANK_POINTS or _rank_points_table()
    return table[sum(5 ** (r - 1) for r in ranks)]


def mean_show_points(hand: Sequence[Card], starters: Sequence[Card]) -> float:
    """The mean of :func:`show_points` of ``hand`` (four cards, not a crib)
    over every starter in ``starters``, in points; no validation.

    A starter at a time from the rank table, with the flush and nobs added
    by suit: the sum is whole points, so the mean is exactly the one of
    ``show_points`` called for each starter, about 4x faster."""
    table = _RANK_POINTS or _rank_points_table()
    key = sum(RANK_WEIGHT[c.index] for c in hand)
    total = sum([table[key + RANK_WEIGHT[s.index]] for s in starters])
    suit = hand[0].suit
    if all(c.suit is suit for c in hand):  # a flush: 4, or 5 with a starter of its suit
        total += 4 * len(starters) + sum(1 for s in starters if s.suit is suit)
    for jack in hand:
        if jack.rank == 11:  # nobs: a starter of the jack's suit
            total += sum(1 for s in starters if s.suit is jack.suit)
    return total / len(starters)


# --- the play ----------------------------------------------------------------

class RunMode(enum.Enum):
    """How runs count during the play (as in the original door).

    ``UNORDERED`` (option 1, the standard): the last k cards are k consecutive
    ranks in any order, so 7-5-6 is a run of 3.  ``ORDERED`` (option 2): they
    must step by one rank in one direction in the order played, so 5-6-7 and
    7-6-5 are runs and 7-5-6 is not.
    """

    UNORDERED = "unordered"
    ORDERED = "ordered"


class PlayKind(enum.Enum):
    """A kind of score made during the play."""

    FIFTEEN = "fifteen"
    THIRTY_ONE = "thirty-one"
    PAIR = "pair"
    PAIR_ROYAL = "pair royal"
    DOUBLE_PAIR_ROYAL = "double pair royal"
    RUN = "run"
    GO = "go"
    LAST_CARD = "last card"


@dataclass(frozen=True, slots=True)
class PlayScore:
    """A score made during the play: the kind, its points and, for a run,
    its length in cards (``length``; 0 otherwise)."""

    kind: PlayKind
    points: int
    length: int = 0


PLAY_MEMO = 16384
"""Series whose play points :func:`play_points` keeps (about 3 MiB)."""

_PLAY_MEMO: dict[tuple[tuple[int, ...], RunMode], int] = {}

_PAIR_KINDS = {2: (PlayKind.PAIR, 2), 3: (PlayKind.PAIR_ROYAL, 6), 4: (PlayKind.DOUBLE_PAIR_ROYAL, 12)}


def _is_run(ranks: Sequence[int], mode: RunMode) -> bool:
    if mode is RunMode.UNORDERED:
        return len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) == len(ranks) - 1
    step = ranks[1] - ranks[0]
    if step not in (1, -1):
        return False
    return all(b - a == step for a, b in zip(ranks, ranks[1:]))


def _run_length(ranks: Sequence[int], mode: RunMode) -> int:
    """The length of the longest run (>= 3) that ends with the last of
    ``ranks``, or 0 when there is none."""
    for k in range(len(ranks), 2, -1):
        if _is_run(ranks[-k:], mode):
            return k
    return 0


def score_play(series: Sequence[Card], run_mode: RunMode = RunMode.UNORDERED) -> tuple[PlayScore, ...]:
    """What the last card of ``series`` earns during the play.

    ``series``: the cards of the current series in the order played, the card
    just played last (the count of the series is at most 31).  Returns the
    scores in the order they are announced (fifteen or thirty-one, pairs,
    run); an empty tuple when the card earns nothing.  Go and last card are
    not scored here (they depend on what the players hold).

    Raises ``ValueError`` for an empty series or a count above 31.
    """
    if not series:
        raise ValueError("score_play needs at least one card in the series")
    scores = _play_scores(tuple([c.rank for c in series]), run_mode)
    if scores is None:
        raise ValueError(f"count {sum(c.pip for c in series)} passes 31 in series {[str(c) for c in series]}")
    return scores


def play_points(ranks: tuple[int, ...], run_mode: RunMode = RunMode.UNORDERED) -> int:
    """The points the last card of a series earns in the play (the sum of
    :func:`score_play`), the series given by its ranks (A=1 .. K=13) in
    the order played.  Raises ``ValueError`` for an empty series or a count
    above 31.

    Memoized for the computer's search, which asks for the same series over
    and over: the first :data:`PLAY_MEMO` series met are kept for good and
    nothing is ever evicted (an evicting cache churned small objects among
    the sessions' long-lived ones, and the soak's resident set crept up)."""
    key = (ranks, run_mode)
    points = _PLAY_MEMO.get(key)
    if points is not None:
        return points
    if not ranks:
        raise ValueError("play_points needs at least one card in the series")
    scores = _play_scores(ranks, run_mode)
    if scores is None:
        raise ValueError(f"count {sum(min(r, 10) for r in ranks)} passes 31 in series of ranks {ranks}")
    points = sum(s.points for s in scores)
    if len(_PLAY_MEMO) < PLAY_MEMO:
        _PLAY_MEMO[key] = points
    return points


def _play_scores(ranks: tuple[int, ...], run_mode: RunMode) -> tuple[PlayScore, ...] | None:
    """:func:`score_play` by the ranks of the series (suits score nothing in
    the play); ``None`` when the count passes 31."""
    count = sum(r if r < 10 else 10 for r in ranks)
    if count > 31:
        return None
    scores: list[PlayScore] = []
    if count == 15:
        scores.append(PlayScore(PlayKind.FIFTEEN, 2))
    elif count == 31:
        scores.append(PlayScore(PlayKind.THIRTY_ONE, 2))
    last = ranks[-1]
    same = 1
    for r in reversed(ranks[:-1]):
        if r != last:
            break
        same += 1
    if same >= 2:
        kind, pts = _PAIR_KINDS[same]
        scores.append(PlayScore(kind, pts))
    else:
        k = _run_length(ranks, run_mode)
        if k:
            scores.append(PlayScore(PlayKind.RUN, k, k))
    return tuple(scores)
