"""The hard computer, and the analysis behind the hints.

**Discards** (exact expected value): for each of the 15 ways to lay away two
of six cards, the kept hand's mean show over the 46 possible starters (four-
card flushes included), plus the expected value of the two cards in the crib
from the exact table of :mod:`engine.crib_values` when dealing, minus it when
the crib is the opponent's.  Near-ties (within :data:`NEAR_TIE` points) go to
the hand that pegs better: low cards for go and 31, pairs for pair royals,
and no 5s kept as pone.

**The play** (a two-ply expectimax): each legal card is worth the points it
scores now, minus what the reply is expected to score, plus the best
follow-up after that reply.  The reply is any unseen card that fits under 31,
each equally likely, weighted by the chance that the opponent holds at least
one card that fits at all (with the cards they have left); when they cannot
play, they say go and the computer plays on.  Leaving 5 or 21, giving away a
pair royal, and saving a card for 31 or the last card are not written as
rules: they come out of this search.

**The board**: a card that reaches the target wins at once; a reply that
would let the opponent reach it costs as much as the game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from .cards import FULL_DECK, Card
from .crib_values import crib_value
from .rules import RunMode
from .scoring import play_points
from .strategy import ExactCounter, Situation, expected_hand, legal_cards, tie_break

__all__ = ["HardPlayer", "DiscardChoice", "rank_discards", "NEAR_TIE", "PlayChoice"]

NEAR_TIE = 0.05
"""Points within which two discards count as equal before pegging breaks the tie."""
_GAME = 1000.0  # the value of winning (or losing) the game outright


@dataclass(frozen=True)
class DiscardChoice:
    """One way to lay away two cards: ``thrown``, ``kept``, the kept hand's
    mean show ``hand_ev`` and the crib's ``crib_ev`` (points, signed: negative
    when the crib is the opponent's), and ``pegging`` (the tie-break)."""

    thrown: tuple[Card, Card]
    kept: tuple[Card, ...]
    hand_ev: float
    crib_ev: float
    pegging: float

    @property
    def value(self) -> float:
        """Expected points of the choice: hand plus (or minus) crib."""
        return self.hand_ev + self.crib_ev


def _pegging_value(kept: Sequence[Card], dealer: bool) -> float:
    low = sum(1 for c in kept if c.pip <= 4)
    pairs = sum(1 for a, b in combinations(kept, 2) if a.rank == b.rank)
    fives = sum(1 for c in kept if c.rank == 5)
    return 0.1 * low + 0.15 * pairs - (0 if dealer else 0.3 * fives)


def rank_discards(hand: Sequence[Card], dealer: bool) -> list[DiscardChoice]:
    """All 15 discards of a six-card ``hand``, best first (by value, then
    pegging among near-ties).  Raises ``ValueError`` unless six cards."""
    if len(hand) != 6:
        raise ValueError(f"a discard is chosen from six cards, got {len(hand)}")
    unseen = [c for c in FULL_DECK if c not in hand]
    choices = []
    for a, b in combinations(hand, 2):
        kept = tuple(c for c in hand if c is not a and c is not b)
        crib = crib_value(a, b)
        choices.append(DiscardChoice((a, b), kept, expected_hand(kept, unseen), crib if dealer else -crib,
                                     _pegging_value(kept, dealer)))
    best = max(c.value for c in choices)
    near = [c for c in choices if c.value >= best - NEAR_TIE]
    rest = [c for c in choices if c.value < best - NEAR_TIE]
    return sorted(near, key=lambda c: (-c.pegging, -c.value)) + sorted(rest, key=lambda c: -c.value)


@dataclass(frozen=True)
class PlayChoice:
    """A card and its value in the search (points, net of the reply)."""

    card: Card
    value: float


class HardPlayer(ExactCounter):
    """The strong computer (see the module text).  ``rng`` breaks exact
    ties, so a seeded player is reproducible."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        return rank_discards(hand, is_dealer)[0].thrown

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode, situation: Situation | None = None) -> Card:
        ranked = self.rank_plays(hand, series, seen, run_mode, situation)
        return tie_break(self.rng, [(p.value, p.card) for p in ranked])

    def rank_plays(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                   run_mode: RunMode, situation: Situation | None = None) -> list[PlayChoice]:
        """Every legal card with its value, best first.  Raises
        ``ValueError`` when no card can be played."""
        where = situation or Situation(their_cards=max(1, len(hand)))
        legal = legal_cards(hand, series)
        seen_set = set(seen) | set(hand) | set(series)
        unseen = [c for c in FULL_DECK if c not in seen_set]
        choices = [PlayChoice(c, self._value(c, hand, list(series), unseen, run_mode, where)) for c in legal]
        return sorted(choices, key=lambda p: -p.value)

    def _value(self, card: Card, hand: Sequence[Card], series: list[Card], unseen: list[Card],
               run_mode: RunMode, where: Situation) -> float:
        after = tuple([c.rank for c in series]) + (card.rank,)
        pts = play_points(after, run_mode)
        if where.mine + pts >= where.game_to:
            return _GAME + pts
        rest = [c for c in hand if c is not card]
        count = sum(c.pip for c in series) + card.pip
        if count == 31:
            after = ()  # the series starts again; the opponent leads
            count = 0
        reply = self._reply(rest, after, count, unseen, run_mode, where, where.mine + pts)
        # a slight wish to keep low cards for later (go, 31, last card)
        return pts - reply + 0.01 * card.pip

    def _reply(self, rest: list[Card], series: tuple[int, ...], count: int, unseen: list[Card],
               run_mode: RunMode, where: Situation, mine: int) -> float:
        """The opponent's expected net gain after this card: their reply's
        points minus our best follow-up, or our gain if they must say go.
        ``series``: the ranks of the series so far, ``count`` its count."""
        fitting = [r for r in unseen if count + r.pip <= 31]
        k = where.their_cards
        n = len(unseen)
        if k <= 0 or not fitting:
            p_fit = 0.0
        elif n <= k:
            p_fit = 1.0
        else:
            p_fit = 1.0 - comb(n - len(fitting), k) / comb(n, k)
        gain = 0.0
        if p_fit > 0:
            # the play scores ranks, not suits: each rank of reply once,
            # weighted by how many unseen cards have it (whole points, so
            # the sum is exactly the card-by-card one)
            total = 0.0
            for rank, copies in Counter(r.rank for r in fitting).items():
                s2 = series + (rank,)
                theirs = play_points(s2, run_mode)
                if where.theirs + theirs >= where.game_to:
                    total += copies * _GAME
                    continue
                c2 = count + min(rank, 10)
                follow = max((play_points(s2 + (m.rank,), run_mode) for m in rest if c2 + m.pip <= 31), default=0)
                total += copies * (theirs - follow)
            gain = p_fit * total / len(fitting)
        if p_fit < 1.0:
            # they say go: we play on if we can, then peg the go (or the last card)
            ours = max((play_points(series + (m.rank,), run_mode) for m in rest if count + m.pip <= 31), default=0)
            if count < 31:
                ours += 1
            gain -= (1.0 - p_fit) * ours
        return gain
