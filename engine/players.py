"""Simple computer players: the Easy level (as in Cribbage Partner), and the greedy and
random players the benchmarks measure the hard computer against."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from .cards import FULL_DECK, Card
from .rules import RunMode
from .scoring import score_play
from .strategy import ExactCounter, Situation, expected_hand, legal_cards, tie_break

__all__ = ["EasyPlayer", "GreedyPlayer", "RandomPlayer"]


class EasyPlayer(ExactCounter):
    """A weaker computer for beginners (Cribbage Partner's Easy, as in Cribbage Partner):
    it keeps the four cards worth most on their own, with no starter and no
    thought for the crib; in the play it plays the first card that scores,
    otherwise its lowest.  It counts exactly, and plays legally.

    ``rng``: a :class:`random.Random` for tie-breaks."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        if len(hand) != 6:
            raise ValueError(f"a discard is chosen from six cards, got {len(hand)}")
        best: list[tuple[int, tuple[Card, Card]]] = []
        for thrown in combinations(hand, 2):
            kept = [c for c in hand if c not in thrown]
            best.append((_own_points(kept), (thrown[0], thrown[1])))
        return tie_break(self.rng, best, tolerance=0)

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode, situation: Situation | None = None) -> Card:
        legal = legal_cards(hand, series)
        for card in legal:
            if score_play(list(series) + [card], run_mode):
                return card
        return min(legal, key=lambda c: (c.pip, c.rank, c.suit))


def _own_points(cards: Sequence[Card]) -> int:
    """Fifteens, pairs and runs of four cards by themselves (no starter)."""
    pts = sum(2 for size in range(2, 5) for combo in combinations(cards, size) if sum(c.pip for c in combo) == 15)
    pts += sum(2 for a, b in combinations(cards, 2) if a.rank == b.rank)
    for k in (4, 3):  # the longest runs only: a run of three inside a run of four does not count
        runs = [combo for combo in combinations(cards, k)
                if len({c.rank for c in combo}) == k and max(c.rank for c in combo) - min(c.rank for c in combo) == k - 1]
        if runs:
            return pts + k * len(runs)
    return pts


class GreedyPlayer(ExactCounter):
    """Keeps the four cards with the best mean hand over the 46 starters
    (no thought for the crib) and plays the card that scores most now;
    ``rng`` breaks ties."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        unseen = [c for c in FULL_DECK if c not in hand]
        scored = [(expected_hand([c for c in hand if c not in t], unseen), (t[0], t[1]))
                  for t in combinations(hand, 2)]
        return tie_break(self.rng, scored)

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode, situation: Situation | None = None) -> Card:
        legal = legal_cards(hand, series)
        pts = {c: sum(s.points for s in score_play(list(series) + [c], run_mode)) for c in legal}
        return tie_break(self.rng, [(pts[c], c) for c in legal], tolerance=0)


class RandomPlayer(ExactCounter):
    """Any legal discard and card, at random (``rng``); counts exactly."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        a, b = self.rng.sample(list(hand), 2)
        return (a, b)

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode, situation: Situation | None = None) -> Card:
        return self.rng.choice(legal_cards(hand, series))
