"""What the opponent holds in the play, inferred from what a sensible
player would have done: the expert computer's model of its opponent
(items 2 and 3).

The model opponent is the project's hard computer (:mod:`engine.hard`): it
lays away what :func:`engine.hard.rank_discards` lays away (by ranks, from
:mod:`engine.throw_table`) and plays the card its two-ply search values
most (:func:`play_values`, the same rule by ranks).  Given what this player
has seen (its own six cards, the starter, every card played so far and the
opponent's gos), :func:`inferred_holdings` draws the sixes the opponent may
have been dealt, keeps those whose model discard keeps every card they have
played and whose unplayed cards fit their gos, and weighs each by how well
the model explains their plays: a legal card the model would play is
1 / :data:`MISS` times as likely as one it would not (so a person who
plays otherwise is followed, more loosely, instead of ruled out).

And it weighs the model itself against an opponent who lays away and
plays at random: their discards in past deals (:func:`discard_odds`: a
random discard keeps the model's ranks about one time in fifteen) and
this hand's plays (:func:`play_likelihood` against
:func:`random_likelihood`) give the model's share, and the expert draws
the rest of its holdings by rank shares (:func:`blended`) and values the
crib for the rest as two random cards.

Against the hard computer, in a one-off experiment over the first deal of
2,000 duplicate games (each played twice, seats swapped), the expert's net
pegging was +0.21 points a deal with the holdings drawn by rank shares
alone and +0.45 with this model.  Whole games, with pegging per hand:
``python3 -m bench.strength --matchups expert:hard``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb

from .cards import FULL_DECK, Card
from .pegging_search import PIP, series_points
from .strategy import Situation
from .throw_table import kept_ranks

__all__ = ["MISS", "PRIOR", "FOLLOWS", "DECIDED", "TRIES", "discard_odds", "model_share", "play_values",
           "play_likelihood", "random_likelihood", "blended", "inferred_holdings"]

MISS = 0.2
"""The weight of an opponent's play the model would not have made (relative
to 1 for one it would).  Its size hardly matters against hard (net pegging
+0.44, +0.45 and +0.45 a deal at 0.01, 0.05 and 0.2, each +-0.07); the
larger is the kinder to a person who plays otherwise."""

PRIOR = 0.5
"""The chance, before anything is seen, that the opponent discards and
plays as the model does rather than at random."""

FOLLOWS = 0.9
"""The chance that an opponent who follows the model lays away what it
would (by ranks): a person who plays well mostly agrees with it."""

DECIDED = 1e-4
"""Odds (model to random, from past discards) below which the model is not
consulted at all, and above whose inverse the random player is not: a
hand's four plays rarely move them a thousandfold."""

TRIES = 40
"""Sixes drawn per holding wanted before the model gives up (the opponent
kept or played what the model never would; the caller then falls back on
rank shares)."""


def play_values(hand: tuple[int, ...], series: tuple[int, ...], count: int, unseen: Sequence[int],
                their_cards: int, ordered: bool) -> dict[int, float]:
    """The hard computer's value of each rank it can play (the same sums as
    :meth:`engine.hard.HardPlayer.rank_plays`, by ranks, without the
    game's end): ``hand`` its ranks in ascending order, ``series`` the
    ranks of the series so far counting ``count``, ``unseen[r]`` how many
    cards of rank ``r`` (index 1 .. 13) it has not seen, ``their_cards``
    how many cards its opponent holds.  Points: the card's now, minus the
    reply's expected net, plus 0.01 per pip.  Empty when nothing fits."""
    values: dict[int, float] = {}
    n = sum(unseen)
    last = 0
    for i, rank in enumerate(hand):
        if rank == last:
            continue
        last = rank
        after = count + PIP[rank]
        if after > 31:
            break
        now = series + (rank,)
        points = series_points(now, after, ordered)
        rest = hand[:i] + hand[i + 1:]
        if after == 31:
            now, after = (), 0
        fitting = 0
        total = 0.0
        for reply in range(1, 14):
            copies = unseen[reply]
            if not copies or after + PIP[reply] > 31:
                continue
            fitting += copies
            s2, c2 = now + (reply,), after + PIP[reply]
            follow = 0
            for m in rest:
                if c2 + PIP[m] > 31:
                    break
                follow = max(follow, series_points(s2 + (m,), c2 + PIP[m], ordered))
            total += copies * (series_points(s2, c2, ordered) - follow)
        if their_cards <= 0 or not fitting:
            p_fit = 0.0
        elif n <= their_cards:
            p_fit = 1.0
        else:
            p_fit = 1.0 - comb(n - fitting, their_cards) / comb(n, their_cards)
        gain = p_fit * total / fitting if p_fit > 0 else 0.0
        if p_fit < 1.0:
            ours = 0
            for m in rest:
                if after + PIP[m] > 31:
                    break
                ours = max(ours, series_points(now + (m,), after + PIP[m], ordered))
            if after < 31:
                ours += 1
            gain -= (1.0 - p_fit) * ours
        values[rank] = points - gain + 0.01 * PIP[rank]
    return values


def _their_plays(kept: Sequence[int], starter: int, play_order: Sequence[tuple[int, bool, int]]
                 ) -> Iterator[tuple[list[int], list[int], tuple[int, ...], int, list[int], int, int]]:
    """Walk ``play_order`` for an opponent who kept the ranks ``kept``:
    for each of their plays, ``(their hand, its legal ranks, series, count,
    unseen, my cards, rank played)`` before the card (the hand ascending,
    ``unseen`` by rank as :func:`play_values` takes it, ``my cards`` how
    many this player still held).  Plays of a rank they do not hold are
    skipped."""
    unseen = [0] + [4] * 13
    unseen[starter] -= 1
    for rank in kept:
        unseen[rank] -= 1
    hand = sorted(kept)
    my_cards = 4
    series: tuple[int, ...] = ()
    current = -1
    for number, mine, rank in play_order:
        if number != current:
            current, series = number, ()
        if mine:
            unseen[rank] -= 1
            my_cards -= 1
        elif rank in hand:
            count = sum(PIP[r] for r in series)
            yield hand, [r for r in hand if count + PIP[r] <= 31], series, count, unseen, my_cards, rank
            hand.remove(rank)
        series += (rank,)


def play_likelihood(kept: Sequence[int], starter: int, play_order: Sequence[tuple[int, bool, int]],
                    ordered: bool, miss: float = MISS) -> float:
    """The chance that the model opponent, had they kept the ranks
    ``kept``, would have played their cards in ``play_order`` ((series
    number, whether it was this player's card, rank), in the order
    played): the product over their plays of the chance of that card,
    where each legal card the model values most (:func:`play_values`) is
    ``1 / miss`` times as likely as each other legal card.  A probability
    in (0, 1].  ``starter``: the starter's rank."""
    likelihood = 1.0
    for hand, legal, series, count, unseen, my_cards, rank in _their_plays(kept, starter, play_order):
        values = play_values(tuple(hand), series, count, unseen, my_cards, ordered)
        top = max(values.values()) - 1e-9
        best = sum(1 for r in legal if values[r] >= top)
        share = (1.0 if values[rank] >= top else miss) / (best + miss * (len(legal) - best))
        likelihood *= legal.count(rank) * share
    return likelihood


def random_likelihood(kept: Sequence[int], starter: int, play_order: Sequence[tuple[int, bool, int]]) -> float:
    """The chance that an opponent who kept the ranks ``kept`` and plays
    any legal card alike would have played their cards in ``play_order``
    (as for :func:`play_likelihood`)."""
    likelihood = 1.0
    for _, legal, _, _, _, _, rank in _their_plays(kept, starter, play_order):
        likelihood *= legal.count(rank) / len(legal)
    return likelihood


def blended(model: Sequence[tuple[tuple[int, ...], float]], share: float,
            other: Sequence[tuple[tuple[int, ...], float]]) -> list[tuple[tuple[int, ...], float]]:
    """Two lists of ``(holding, probability)`` pairs (each summing to 1, in
    the order drawn) as one: ``model``'s probabilities times ``share``,
    ``other``'s times ``1 - share``, a holding in both summed.  The order
    interleaves the two by the probability each has listed before, so any
    prefix takes from each in proportion."""
    keyed = [(before * share, 0, i, h, p * share) for i, (h, p), before in _running(model)]
    keyed += [(before * (1 - share), 1, i, h, p * (1 - share)) for i, (h, p), before in _running(other)]
    merged: dict[tuple[int, ...], float] = {}
    for _, _, _, holding, p in sorted(keyed):
        if p > 0:
            merged[holding] = merged.get(holding, 0.0) + p
    return list(merged.items())


def _running(pairs: Sequence[tuple[tuple[int, ...], float]]
             ) -> Iterator[tuple[int, tuple[tuple[int, ...], float], float]]:
    before = 0.0
    for i, pair in enumerate(pairs):
        yield i, pair, before
        before += pair[1]


def discard_odds(their_discards: Sequence[tuple[bool, Sequence[Card], Sequence[Card]]],
                 follows: float = FOLLOWS) -> float:
    """How much likelier the opponent's past discards are if they lay away
    as the model does (:data:`FOLLOWS` of the time) than at random (each of
    the 15 ways alike): the product over ``their_discards`` ((whether they
    dealt, four cards kept, two thrown), as :class:`Situation` lists them)
    of ``follows / p`` where they kept the model's ranks and ``(1 -
    follows) / (1 - p)`` where not, ``p`` the share of the 15 ways to lay
    away that keep the model's ranks."""
    odds = 1.0
    for dealt, kept, thrown in their_discards:
        six = sorted(c.rank for c in (*kept, *thrown))
        if len(six) != 6:
            continue
        model = kept_ranks(six, dealt)
        p = sum(1 for four in combinations(six, 4) if four == model) / 15
        if tuple(sorted(c.rank for c in kept)) == model:
            odds *= follows / p
        else:
            odds *= (1 - follows) / (1 - p)
    return odds


def model_share(their_discards: Sequence[tuple[bool, Sequence[Card], Sequence[Card]]]) -> float:
    """The chance (0 .. 1) that the opponent lays away as the model does,
    from :data:`PRIOR` and their past discards (:func:`discard_odds`)."""
    odds = _odds_before_the_play(their_discards)
    return odds / (1 + odds)


def _odds_before_the_play(their_discards: Sequence[tuple[bool, Sequence[Card], Sequence[Card]]]) -> float:
    """The odds, model to random, from :data:`PRIOR` and past discards."""
    return PRIOR / (1 - PRIOR) * discard_odds(their_discards)


def inferred_holdings(where: Situation, ordered: bool, rng: random.Random,
                      draws: int) -> tuple[list[tuple[tuple[int, ...], float]], float]:
    """The ranks the opponent may still hold if they discard and play as
    the model does, and how likely it is that they do.

    The holdings: ``(ranks ascending, probability)`` pairs summing to 1, in
    the order first drawn, from up to ``draws`` sixes the opponent may have
    been dealt (not this player's six cards, not the starter, every card
    they have played among them), each kept as the model keeps it and
    weighed by :func:`play_likelihood`.  The share: the chance (from
    :data:`PRIOR`) that the opponent follows the model rather than keeping
    and playing at random, by how well each explains what was seen: their
    discards in past deals (:func:`discard_odds`) and this hand's play (the
    same sixes kept both ways, weighed by :func:`play_likelihood` and
    :func:`random_likelihood`; either alone when past discards have
    :data:`DECIDED`).  ``([], 0.0)`` when ``where`` lacks the
    hand's cards (``kept``, ``thrown``, ``starter``) or no six drawn in
    ``TRIES * draws`` fits what was seen as the model keeps it."""
    if where.starter is None or len(where.kept) != 4 or len(where.thrown) != 2 or where.their_cards <= 0:
        return [], 0.0
    played = sorted(c.rank for c in where.their_played)
    if len(played) + where.their_cards != 4:
        return [], 0.0
    odds = _odds_before_the_play(where.their_discards)
    if odds < DECIDED:
        return [], 0.0
    sure = odds > 1 / DECIDED
    gone = set(where.kept) | set(where.thrown) | set(where.their_played) | {where.starter}
    pool = [c.rank for c in FULL_DECK if c not in gone]
    need = 6 - len(played)
    floor = where.their_floor
    starter = where.starter.rank
    order = [(n, mine, c.rank) for n, mine, c in where.play_order]
    weights: dict[tuple[int, ...], float] = {}
    explained: dict[tuple[int, ...], float] = {}
    at_random: dict[tuple[int, ...], float] = {}
    random_total = 0.0
    found = 0
    for _ in range(TRIES * draws):
        six = sorted(played + rng.sample(pool, need))
        if not sure:
            anyhow = tuple(sorted(rng.sample(six, 4)))
            if _unplayed(anyhow, played, floor) is not None:
                w = at_random.get(anyhow)
                if w is None:
                    w = at_random[anyhow] = random_likelihood(anyhow, starter, order)
                random_total += w
        kept = kept_ranks(six, not where.dealer)
        rest = _unplayed(kept, played, floor)
        if rest is None:
            continue
        w = explained.get(kept)
        if w is None:
            w = explained[kept] = play_likelihood(kept, starter, order, ordered)
        weights[rest] = weights.get(rest, 0.0) + w
        found += 1
        if found == draws:
            break
    total = sum(weights.values())
    if not total:
        return [], 0.0
    share = odds * total / (odds * total + random_total)
    return [(h, w / total) for h, w in weights.items()], share


def _unplayed(kept: tuple[int, ...], played: list[int], floor: int) -> tuple[int, ...] | None:
    """The ranks of ``kept`` not yet played, or ``None`` when ``kept``
    lacks a card they played or holds one at or below their go ``floor``."""
    rest = list(kept)
    try:
        for rank in played:
            rest.remove(rank)
    except ValueError:
        return None
    if any(PIP[r] <= floor for r in rest):
        return None
    return tuple(rest)
