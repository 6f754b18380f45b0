"""What the opponent holds in the play, inferred from what a sensible
player would have done: the expert computer's model of its opponent
(issue 15, items 2 and 3).

The model opponent is the project's hard computer (:mod:`engine.hard`): it
lays away what :func:`engine.hard.rank_discards` lays away (by ranks, from
:mod:`engine.throw_table`) and plays the card its two-ply search values
most (:func:`play_values`, the same rule by ranks).  Given what this player
has seen (its own six cards, the starter, every card played so far and the
opponent's gos), :func:`inferred_holdings` draws the sixes the opponent may
have been dealt, keeps those whose model discard keeps every card they have
played and whose unplayed cards fit their gos, and weighs each by how well
the model explains their plays: 1 for a play the model would make, and
:data:`MISS` for one it would not (so a person who plays otherwise is
followed, more loosely, instead of ruled out).

Against the hard computer, in a one-off experiment over the first deal of
2,000 duplicate games (each played twice, seats swapped), the expert's net
pegging was +0.21 points a deal with the holdings drawn by rank shares
alone and +0.45 with this model.  Whole games, with pegging per hand:
``python3 -m bench.strength --matchups expert:hard``.
"""

from __future__ import annotations

import random
from math import comb
from typing import Sequence

from .cards import FULL_DECK
from .pegging_search import PIP, series_points
from .strategy import Situation
from .throw_table import kept_ranks

__all__ = ["MISS", "TRIES", "play_values", "play_likelihood", "inferred_holdings"]

MISS = 0.2
"""The weight of an opponent's play the model would not have made.  Its
size hardly matters against hard (net pegging +0.44, +0.45 and +0.45 a
deal at 0.01, 0.05 and 0.2, each +-0.07); the larger is the kinder to a
person who plays otherwise."""

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


def play_likelihood(kept: Sequence[int], starter: int, play_order: Sequence[tuple[int, bool, int]],
                    ordered: bool, miss: float = MISS) -> float:
    """How well the model explains the opponent's plays if they kept the
    ranks ``kept``: the product over their plays in ``play_order``
    ((series number, whether it was this player's card, rank), in the
    order played) of 1 where the model values the card played at least as
    much as any other, else ``miss``.  ``starter``: the starter's rank."""
    unseen = [0] + [4] * 13
    unseen[starter] -= 1
    for rank in kept:
        unseen[rank] -= 1
    hand = sorted(kept)
    my_cards = 4
    likelihood = 1.0
    series: tuple[int, ...] = ()
    current = -1
    for number, mine, rank in play_order:
        if number != current:
            current, series = number, ()
        if mine:
            unseen[rank] -= 1
            my_cards -= 1
        elif rank in hand:
            values = play_values(tuple(hand), series, sum(PIP[r] for r in series), unseen, my_cards, ordered)
            if values.get(rank, -1e9) < max(values.values()) - 1e-9:
                likelihood *= miss
            hand.remove(rank)
        series += (rank,)
    return likelihood


def inferred_holdings(where: Situation, ordered: bool, rng: random.Random,
                      draws: int) -> list[tuple[tuple[int, ...], float]] | None:
    """The ranks the opponent may still hold, as ``(ranks ascending,
    probability)`` pairs summing to 1, in the order first drawn: up to
    ``draws`` sixes the opponent may have been dealt (not this player's six
    cards, not the starter, every card they have played among them), each
    kept as the model keeps it and weighed by :func:`play_likelihood`.
    ``None`` when ``where`` lacks the hand's cards (``kept``, ``thrown``,
    ``starter``) or no six drawn in ``TRIES * draws`` fits what was seen."""
    if where.starter is None or len(where.kept) != 4 or len(where.thrown) != 2 or where.their_cards <= 0:
        return None
    played = sorted(c.rank for c in where.their_played)
    if len(played) + where.their_cards != 4:
        return None
    gone = set(where.kept) | set(where.thrown) | set(where.their_played) | {where.starter}
    pool = [c.rank for c in FULL_DECK if c not in gone]
    need = 6 - len(played)
    floor = where.their_floor
    order = [(n, mine, c.rank) for n, mine, c in where.play_order]
    weights: dict[tuple[int, ...], float] = {}
    explained: dict[tuple[int, ...], float] = {}
    found = 0
    for _ in range(TRIES * draws):
        six = sorted(played + rng.sample(pool, need))
        kept = kept_ranks(six, not where.dealer)
        rest = list(kept)
        try:
            for rank in played:
                rest.remove(rank)
        except ValueError:
            continue  # the model would have laid away a card they played
        if any(PIP[r] <= floor for r in rest):
            continue
        w = explained.get(kept)
        if w is None:
            w = explained[kept] = play_likelihood(kept, where.starter.rank, order, ordered)
        holding = tuple(rest)
        weights[holding] = weights.get(holding, 0.0) + w
        found += 1
        if found == draws:
            break
    total = sum(weights.values())
    if not total:
        return None
    return [(h, w / total) for h, w in weights.items()]
