"""Yale CPSC 474's greedy cribbage opponent, the public benchmark.

The course's agents are measured against it in net match points per game
(a win 1, 2 when the loser has 90 or fewer, 3 when 60 or fewer: the
door's standard skunk lines, ``Rules()``).  Its policy, as the course
states it:

* **Discard**: keep the four cards that maximise score(kept four) plus
  score(thrown two) when dealing, minus it when not, each scored as a hand
  without a starter (fifteens, pairs, runs, and a flush of the four kept);
  ties at random.
* **Play**: the legal card that scores the most points at once (fifteen,
  thirty-one, pairs, runs), ties at random.
* It counts exactly (the show is not its decision).

The best published figure against it is +0.317 match points per game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from engine.cards import Card
from engine.scoring import RunMode, score_play
from engine.strategy import ExactCounter, Situation, legal_cards

__all__ = ["YaleGreedy", "score_without_starter"]


def score_without_starter(cards: Sequence[Card], flush: bool) -> int:
    """Points of ``cards`` (two or four) as a hand with no starter:
    fifteens, pairs, the longest runs, and, with ``flush``, four of one suit."""
    pts = sum(2 for size in range(2, len(cards) + 1) for combo in combinations(cards, size)
              if sum(c.pip for c in combo) == 15)
    pts += sum(2 for a, b in combinations(cards, 2) if a.rank == b.rank)
    for k in range(len(cards), 2, -1):
        runs = [combo for combo in combinations(cards, k)
                if len({c.rank for c in combo}) == k and max(c.rank for c in combo) - min(c.rank for c in combo) == k - 1]
        if runs:
            pts += k * len(runs)
            break
    if flush and len(cards) == 4 and len({c.suit for c in cards}) == 1:
        pts += 4
    return pts


class YaleGreedy(ExactCounter):
    """The greedy benchmark opponent; ``rng`` breaks ties."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def _best(self, scored: list[tuple[float, object]]) -> object:
        top = max(s for s, _ in scored)
        return self.rng.choice([x for s, x in scored if s == top])

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        sign = 1 if is_dealer else -1
        scored: list[tuple[float, object]] = []
        for thrown in combinations(hand, 2):
            kept = [c for c in hand if c not in thrown]
            scored.append((score_without_starter(kept, True) + sign * score_without_starter(thrown, False),
                           (thrown[0], thrown[1])))
        best = self._best(scored)
        assert isinstance(best, tuple)
        return best[0], best[1]

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode, situation: Situation | None = None) -> Card:
        legal = legal_cards(hand, series)
        best = self._best([(float(sum(s.points for s in score_play([*series, c], run_mode))), c) for c in legal])
        assert isinstance(best, Card)
        return best
