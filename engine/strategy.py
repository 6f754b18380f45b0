"""The computer player and the hint for a human, behind one small interface.

:class:`Strategy` chooses discards, chooses a card in the play and counts a
hand.  :class:`SensiblePlayer` is the door's opponent for now: its discard
keeps the four cards with the best expected show over all 46 possible
starters, plus an estimate of what the two cards thrown bring to the crib when
it deals, minus it when the crib is the opponent's; in the play it takes the
most points it can and avoids leaving a count of 5 or 21 (a ten-card away from
fifteen or thirty-one) or a card the opponent can pair.  It always counts its
own hands exactly.  Randomness, for tie-breaks, comes from the generator it is
given.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Protocol, Sequence

from .cards import FULL_DECK, Card
from .game import Claim, Discard, Game, Play, Phase
from .rules import RunMode
from .scoring import score_play, show_points

__all__ = ["Strategy", "SensiblePlayer", "EasyPlayer", "expected_hand", "choose_action"]


class Strategy(Protocol):
    """What a computer player (or a hint) decides."""

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool) -> tuple[Card, Card]:
        """Two cards of the six in ``hand`` to lay away to the crib."""
        ...

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode) -> Card:
        """A card of ``hand`` to play on the current ``series`` (its count
        plus the card must not pass 31).  ``seen``: every card this player
        has seen (own hand, starter, cards played)."""
        ...

    def count(self, hand: Sequence[Card], starter: Card, is_crib: bool) -> int:
        """The points claimed for a hand in the show."""
        ...


def expected_hand(kept: Sequence[Card], unseen: Sequence[Card]) -> float:
    """The mean show points of the four ``kept`` cards over every starter in
    ``unseen`` (usually the 46 cards not in the six dealt), in points."""
    return sum(show_points(kept, s) for s in unseen) / len(unseen)


def _crib_estimate(thrown: Sequence[Card], unseen: Sequence[Card]) -> float:
    """A rough value of two cards thrown to the crib, in points: their own
    fifteens and pairs with each possible starter, plus a point for each 5
    and for cards close in rank (which help make runs)."""
    a, b = thrown
    total = 0.0
    for s in unseen:
        pts = 0
        if a.pip + b.pip == 15:
            pts += 2
        if a.pip + b.pip + s.pip == 15:
            pts += 2
        if a.pip + s.pip == 15:
            pts += 2
        if b.pip + s.pip == 15:
            pts += 2
        ranks = sorted((a.rank, b.rank, s.rank))
        if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
            pts += 2 if not (ranks[0] == ranks[2]) else 6
        total += pts
    est = total / len(unseen)
    est += sum(1.0 for c in thrown if c.rank == 5)
    if abs(a.rank - b.rank) in (1, 2):
        est += 0.5
    return est + 3.0  # the two unknown cards' share of an average crib


class SensiblePlayer:
    """A computer player that plays sensibly (see the module text).

    ``rng``: a :class:`random.Random` used only to break exact ties, so that
    a seeded player is reproducible.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool) -> tuple[Card, Card]:
        if len(hand) != 6:
            raise ValueError(f"a discard is chosen from six cards, got {len(hand)}")
        unseen = [c for c in FULL_DECK if c not in hand]
        best: list[tuple[float, tuple[Card, Card]]] = []
        for thrown in combinations(hand, 2):
            kept = [c for c in hand if c not in thrown]
            value = expected_hand(kept, unseen)
            crib = _crib_estimate(thrown, unseen)
            value += crib if is_dealer else -crib
            best.append((value, (thrown[0], thrown[1])))
        top = max(v for v, _ in best)
        choices = [t for v, t in best if v >= top - 1e-9]
        return self.rng.choice(choices)

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode) -> Card:
        count = sum(c.pip for c in series)
        legal = [c for c in hand if count + c.pip <= 31]
        if not legal:
            raise ValueError(f"no card of {[str(c) for c in hand]} can be played on {count}")
        unseen = [c for c in FULL_DECK if c not in seen]

        def value(card: Card) -> float:
            new_series = list(series) + [card]
            new_count = count + card.pip
            pts = float(sum(s.points for s in score_play(new_series, run_mode)))
            # What the reply may score, weighted by how many unseen cards make it.
            risk = 0.0
            for reply in unseen:
                if new_count + reply.pip > 31:
                    continue
                got = sum(s.points for s in score_play(new_series + [reply], run_mode))
                risk += got
            risk /= max(1, len(unseen))
            if new_count in (5, 21):
                risk += 0.5
            if not series and card.rank == 5:
                risk += 0.5
            # Keep low cards for later: a small preference to shed high cards.
            return pts - 1.5 * risk + card.pip * 0.01

        top = max(value(c) for c in legal)
        choices = [c for c in legal if value(c) >= top - 1e-9]
        return self.rng.choice(choices)

    def count(self, hand: Sequence[Card], starter: Card, is_crib: bool) -> int:
        return show_points(hand, starter, is_crib)


class EasyPlayer:
    """A weaker computer for beginners (Cribbage Partner's Easy, seed 003):
    it keeps the four cards worth most on their own, with no starter and no
    thought for the crib; in the play it plays the first card that scores,
    otherwise its lowest.  It counts exactly, and plays legally.

    ``rng``: a :class:`random.Random` for tie-breaks."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool) -> tuple[Card, Card]:
        if len(hand) != 6:
            raise ValueError(f"a discard is chosen from six cards, got {len(hand)}")
        best: list[tuple[int, tuple[Card, Card]]] = []
        for thrown in combinations(hand, 2):
            kept = [c for c in hand if c not in thrown]
            best.append((_own_points(kept), (thrown[0], thrown[1])))
        top = max(v for v, _ in best)
        return self.rng.choice([t for v, t in best if v == top])

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode) -> Card:
        count = sum(c.pip for c in series)
        legal = [c for c in hand if count + c.pip <= 31]
        if not legal:
            raise ValueError(f"no card of {[str(c) for c in hand]} can be played on {count}")
        for card in legal:
            if score_play(list(series) + [card], run_mode):
                return card
        return min(legal, key=lambda c: (c.pip, c.rank, c.suit))

    def count(self, hand: Sequence[Card], starter: Card, is_crib: bool) -> int:
        return show_points(hand, starter, is_crib)


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


def choose_action(game: Game, seat: int, player: Strategy) -> Discard | Play | Claim:
    """The action ``player`` takes for ``seat`` in ``game`` now.

    Raises ``ValueError`` when ``seat`` has nothing to do."""
    if seat not in game.to_act():
        raise ValueError(f"seat {seat} has nothing to do in phase {game.phase.value}")
    if game.phase is Phase.DISCARD:
        return Discard(seat, player.choose_discard(game.hands[seat], game.dealer == seat))
    if game.phase is Phase.PLAY:
        seen = list(game.kept[seat]) + [p.card for p in game.played[1 - seat]]
        if game.starter is not None:
            seen.append(game.starter)
        card = player.choose_play(game.hands[seat], game.series, seen, game.rules.run_mode)
        return Play(seat, card)
    show = game.current_show()
    assert show is not None and game.starter is not None
    return Claim(seat, player.count(show.hand, game.starter, show.is_crib))
