"""The review of a finished game: each decision of one seat
against the expert's own judgement.

- **Discards**: the six cards held against the expert's ranking of the 15
  ways to lay away two (:func:`engine.expert.rank_discards`: the kept
  hand's mean show, the crib, the kept cards' net pegging, in points).
- **Plays**: each card played against the best card, in expected net
  points to the end of the play, by the expert's own search over the
  opponent's likely holdings (:meth:`engine.expert.ExpertPlayer.holding_values`).
- **Counts**: each hand or crib counted short (points missed) or long
  (over-claimed), under manual counting, costed as the rules scored it:
  what the claim lost the claimer plus what it gave the opponent
  (:func:`engine.claims.adjudicate`).

A loss is a *mistake* only above the noise: the cost must exceed zero by
1.645 standard errors of its estimate (one-sided 95 %).  For a play the
standard error comes from the spread of the cost over the opponent's
holdings searched; for a discard, from the crib table's sampling
(:data:`CRIB_SE` per crib value: the table's 2,000 throws per seat), the
hand and pegging parts being exact for their model.  Near-ties are not
called mistakes.

Pure: a game's setup and actions in, values out.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .actions import Action, Discard, Play
from .cards import Card
from .claims import adjudicate
from .expert import DiscardValue, ExpertPlayer, rank_discards
from .game import Game
from .handover import handed_over
from .rules import Rules
from .shuffle import SeededShuffle
from .strategy import situation
from .tally import GameTally

__all__ = ["DiscardReview", "PlayReview", "CountReview", "GameReview", "review_game", "judge_discard", "Z_95",
           "CRIB_SE"]

Z_95 = 1.645
"""One-sided 95 % quantile of the normal distribution."""

CRIB_SE = 0.07
"""Standard error of one crib value in the expert's table (points): a crib's
standard deviation of about 3.2 points over its 2,000 sampled throws."""


@dataclass(frozen=True)
class DiscardReview:
    """Hand ``hand``: the cards held, what was laid away (``mine``) and the
    best (``best``), as :class:`~engine.expert.DiscardValue` (points);
    ``dealer`` when the crib was the seat's own."""

    hand: int
    dealer: bool
    held: tuple[Card, ...]
    mine: DiscardValue
    best: DiscardValue

    @property
    def cost(self) -> float:
        """Expected points lost against the best discard (0 or more)."""
        return max(0.0, self.best.value - self.mine.value)

    @property
    def se(self) -> float:
        """Standard error of :attr:`cost` (points)."""
        return 0.0 if self.cost == 0.0 else math.sqrt(2.0) * CRIB_SE

    @property
    def mistake(self) -> bool:
        """True when the cost is above the noise (one-sided 95 %)."""
        return self.cost - Z_95 * self.se > 0.0


@dataclass(frozen=True)
class PlayReview:
    """Hand ``hand``: ``card`` played on ``count`` against ``best``;
    ``cost``: expected net points lost to the end of the play (0 or more);
    ``se``: its standard error; ``computer``: the computer played it for
    the player (a hand they let it peg: :class:`~engine.actions.HandOver`),
    so its cost is not theirs."""

    hand: int
    card: Card
    count: int
    best: Card
    cost: float
    se: float
    computer: bool = False

    @property
    def mistake(self) -> bool:
        """True when the cost is above the noise (one-sided 95 %)."""
        return self.cost - Z_95 * self.se > 0.0


@dataclass(frozen=True)
class CountReview:
    """Hand ``hand``: the ``what`` ("hand" or "crib") counted as
    ``claimed`` points where it held ``true``; ``pegged``: what the claim
    earned the claimer and ``given``: what it gave the opponent, as the
    rules scored it (:func:`engine.claims.adjudicate`)."""

    hand: int
    what: str
    claimed: int
    true: int
    pegged: int
    given: int

    @property
    def missed(self) -> int:
        """Points left uncounted (0 when over or exact)."""
        return max(0, self.true - self.claimed)

    @property
    def over(self) -> int:
        """Points claimed beyond the true count (0 when short or exact)."""
        return max(0, self.claimed - self.true)

    @property
    def lost(self) -> int:
        """Points of the true count the claimer did not peg."""
        return self.true - self.pegged

    @property
    def cost(self) -> int:
        """What the count cost, in points of the margin: what the claimer
        lost plus what the opponent pegged for it.  An over-claim of 11 on
        a 9-point hand under over-claim forfeit costs 18 (0 pegged where 9
        were due, and 9 to the opponent); capped, it costs nothing.

        >>> CountReview(1, "hand", 11, 9, 0, 9).cost
        18
        >>> CountReview(1, "hand", 7, 9, 7, 2).cost
        4
        """
        return self.lost + self.given


@dataclass
class GameReview:
    """Every decision of ``seat`` in one game, in order."""

    seat: int
    discards: list[DiscardReview] = field(default_factory=list)
    plays: list[PlayReview] = field(default_factory=list)
    counts: list[CountReview] = field(default_factory=list)

    @property
    def discard_cost(self) -> float:
        """Expected points the discards lost, mistakes only."""
        return sum(d.cost for d in self.discards if d.mistake)

    @property
    def pegging_cost(self) -> float:
        """Expected points the player's own plays lost, mistakes only
        (not the computer's in a hand it pegged for them)."""
        return sum(p.cost for p in self.plays if p.mistake and not p.computer)

    @property
    def counting_cost(self) -> int:
        """Points of the margin the counts cost (:attr:`CountReview.cost`)."""
        return sum(c.cost for c in self.counts)


def judge_discard(hand: int, held: Sequence[Card], thrown: Sequence[Card], dealer: bool) -> DiscardReview:
    """Laying away ``thrown`` from the six ``held`` cards in hand number
    ``hand`` (``dealer``: to one's own crib), against the expert's ranking
    (:func:`engine.expert.rank_discards`).  The one estimate of a discard:
    the review and the advice after a hand both say it.  Raises
    ``ValueError`` unless ``held`` is six cards holding both of ``thrown``."""
    ranked = rank_discards(held, dealer)
    mine = next((d for d in ranked if set(d.thrown) == set(thrown)), None)
    if mine is None:
        raise ValueError(f"{thrown!r} are not two of the cards held, {held!r}")
    return DiscardReview(hand, dealer, tuple(held), mine, ranked[0])


def _play_review(game: Game, seat: int, card: Card, rng: random.Random) -> PlayReview:
    """``card`` against the best card for ``seat`` in ``game`` now."""
    me = game.hands[seat]
    seen = list(game.kept[seat]) + [p.card for p in game.played[1 - seat]]
    if game.starter is not None:
        seen.append(game.starter)
    expert = ExpertPlayer(rng)
    fixed, samples = expert.holding_values(me, game.series, seen, game.rules.run_mode, situation(game, seat))
    weight = sum(p for p, _ in samples)
    ranks = {c.rank for c in me if game.count + c.pip <= 31}

    def mean(rank: int) -> float:
        return fixed[rank] if rank in fixed else sum(p * v[rank] for p, v in samples) / weight

    best_rank = max(ranks, key=lambda r: (mean(r), r == card.rank))
    best = next(c for c in me if c.rank == best_rank)
    if best_rank == card.rank or best_rank in fixed or card.rank in fixed:
        cost = max(0.0, mean(best_rank) - mean(card.rank)) if best_rank != card.rank else 0.0
        return PlayReview(game.hand_number, card, game.count, card if cost == 0.0 else best, cost, 0.0)
    diffs = [(p, v[best_rank] - v[card.rank]) for p, v in samples]
    cost = sum(p * d for p, d in diffs) / weight
    var = sum(p * (d - cost) ** 2 for p, d in diffs) / weight
    n_eff = weight * weight / sum(p * p for p, _ in diffs)
    se = math.sqrt(var / n_eff) if n_eff > 1 else abs(cost)
    return PlayReview(game.hand_number, card, game.count, best, max(0.0, cost), se)


def review_game(rules: Rules, number: int, actions: Iterable[Action], seat: int, first_dealer: int | None = None,
                shuffle: SeededShuffle | None = None, stacked: Sequence[Sequence[Card]] | None = None) -> GameReview:
    """The review of ``seat``'s decisions in the game of ``rules``,
    ``number``, ``actions``, ``first_dealer``, ``shuffle`` and ``stacked``
    (as :func:`engine.game.replay` takes them).  Its searches draw from a
    generator seeded by the game, so a review is the same each time.
    Raises :class:`~engine.actions.IllegalAction` when an action does not
    fit the game.  About 20 ms a card played."""
    game = Game(rules, number, first_dealer, stacked, shuffle)
    tally = GameTally()
    tally.feed(game.start())
    review = GameReview(seat)
    rng = random.Random(number * 7919 + seat)
    for action in actions:
        if isinstance(action, Discard) and action.seat == seat:
            review.discards.append(judge_discard(game.hand_number, tuple(game.hands[seat]), action.cards,
                                                 game.dealer == seat))
        elif isinstance(action, Play) and action.seat == seat:
            judged = _play_review(game, seat, action.card, rng)
            review.plays.append(dataclasses.replace(judged, computer=True) if handed_over(game, seat) else judged)
        tally.feed(game.apply(action))
    for record in tally.hands:
        figures = record.seats[seat]
        for what, claimed, true in (("hand", figures.hand_claim, figures.hand_true),
                                    ("crib", figures.crib_claim, figures.crib_true)):
            if claimed is not None and true is not None:
                outcome = adjudicate(true, claimed, rules)
                review.counts.append(CountReview(record.number, what, claimed, true, outcome.claimer,
                                                 outcome.opponent))
    return review
