"""The expert computer: plays to win the game, not to score points.

**Discards**: the kept hand's mean show over the 46 starters (as the hard
computer), the crib's value when the opponent throws to it as the project's
own discard policy does (not two random cards), and the kept hand's net
pegging as dealer or pone, all from :mod:`engine.expert_tables`.

**The play** (search with inference): the cards the opponent may still
hold are not all equally likely.  :func:`engine.opponent_model.inferred_holdings`
draws the sixes they may have been dealt, keeps what the project's own
discard policy keeps from each, and weighs each holding by how well the
project's own play explains the cards they have played; their gos rule out
the low cards (:class:`Situation`'s ``their_floor``).  It also says how
likely it is that the opponent plays that way at all (their discards in
past deals, this hand's plays); for the rest of that chance (all of it
when the model explains nothing seen, or the hand's cards are not known)
the holdings are drawn from the unseen cards, each rank weighted by how
often the project's own discard policy keeps it in that seat
(:mod:`engine.expert_tables`: a pone keeps nearly every 5 and throws
kings); exact for one or two cards.  Against the random player, net
pegging of a first deal +1.15 points with the model alone, +1.40 with rank
shares alone, +1.31 with both by this hand's evidence (4,000 duplicate
pairs, +-0.06); against hard +0.45 and +0.46.
For each holding the rest of the play is searched to its end with both
hands known (:class:`~engine.pegging_search.PeggingSearch`, minimax on net
points), and each card's value is its mean over the holdings.  A card that
reaches the target wins at once.

**The board**: within :data:`BOARD_REACH` points of the target, the play is
searched to win the game rather than to score points: pegging out ends it,
and the end of the play is valued by the shows to come and the chance to
win from there (:mod:`engine.win_tables`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb, prod

from .cards import FULL_DECK, Card
from .crib_values import crib_value as random_crib_value
from .expert_tables import crib_value, keep_share, pegging_value
from .hard import PlayChoice
from .opponent_model import blended, inferred_holdings, model_share
from .pegging_search import BoardSearch, PeggingSearch
from .rules import RunMode
from .scoring import play_points, rank_show_points, show_points
from .strategy import ExactCounter, Situation, expected_hand, legal_cards, tie_break
from .win_tables import dealer_value

__all__ = ["ExpertPlayer", "DiscardValue", "HOLDINGS", "rank_discards", "their_holdings"]

HOLDINGS = 32
"""Holdings drawn for the opponent when three or more of their cards are
unknown: against hard, 16 drew +0.10 points of net pegging a deal, 32 drew
+0.19 and 64 +0.21 (2,000 duplicate deals each), at twice the time."""

_GAME = 1000.0

_SURE = 0.999
"""The model's share above which the rank shares are not drawn at all."""

POSITION_BUDGET = 5000
"""New positions one decision may search (about 25 ms here) before it stops
drawing more of the opponent's holdings (once a quarter of them are in)."""

BOARD_REACH = 50
"""Points from the target within which the play is searched with the board
in view (:class:`~engine.pegging_search.BoardSearch`): a hand, a crib and
the play rarely make more."""

BOARD_HOLDINGS = 16
"""Opponent's holdings searched with the board in view (each its own
search: the shows at the end differ)."""


@dataclass(frozen=True)
class DiscardValue:
    """One way to lay away two cards and what it is worth, in points: the
    kept hand's mean show ``hand`` over the 46 starters, the crib's
    ``crib`` (negative when it is the opponent's) and the kept hand's net
    ``pegging``."""

    thrown: tuple[Card, Card]
    kept: tuple[Card, ...]
    hand: float
    crib: float
    pegging: float

    @property
    def value(self) -> float:
        """The three together: the expected net points of the hand."""
        return self.hand + self.crib + self.pegging


def rank_discards(hand: Sequence[Card], dealer: bool, share: float = 1.0) -> list[DiscardValue]:
    """The 15 discards of a six-card ``hand``, best first.  ``share``: the
    chance (0 .. 1) that the opponent throws to the crib as the project's
    discard policy does; for the rest, they throw two cards at random
    (the hard computer's crib table, :mod:`engine.crib_values`).  Raises
    ``ValueError`` unless six cards."""
    if len(hand) != 6:
        raise ValueError(f"a discard is chosen from six cards, got {len(hand)}")
    unseen = [c for c in FULL_DECK if c not in hand]
    choices = []
    for a, b in combinations(hand, 2):
        kept = tuple(c for c in hand if c is not a and c is not b)
        crib = crib_value(a, b, dealer)
        if share < 1.0:
            crib = share * crib + (1.0 - share) * random_crib_value(a, b)
        choices.append(DiscardValue((a, b), kept, expected_hand(kept, unseen), crib if dealer else -crib,
                                    pegging_value(kept, dealer)))
    return sorted(choices, key=lambda c: -c.value)


def their_holdings(unseen: Sequence[Card], k: int, weights: Sequence[float], rng: random.Random,
                   draws: int = HOLDINGS) -> list[tuple[tuple[int, ...], float]]:
    """The ranks the opponent may hold: ``(sorted ranks, probability)``
    pairs summing to 1, for ``k`` cards among ``unseen``, a holding's
    weight the product of its ranks' ``weights`` (index 0 = ace) times the
    ways to pick its cards.  Exact for ``k`` <= 2; otherwise ``draws``
    holdings drawn card by card (weighted, without replacement), equally
    likely, listed in the order first drawn (so any prefix is a fair
    smaller sample).  Empty when ``k`` is 0 or there are not ``k`` cards."""
    if k <= 0 or len(unseen) < k:
        return []
    copies = Counter(c.rank for c in unseen)
    if k <= 2:
        ranks = sorted(copies)
        found = []
        for combo in combinations_with_replacement(ranks, k):
            need = Counter(combo)
            ways = prod(comb(copies[r], m) for r, m in need.items())
            if ways:
                found.append((combo, ways * prod(weights[r - 1] for r in combo)))
        total = sum(w for _, w in found)
        return [(h, w / total) for h, w in found]
    cards = list(unseen)
    card_weights = [weights[c.rank - 1] for c in cards]
    drawn: Counter[tuple[int, ...]] = Counter()
    for _ in range(draws):
        pool, pw = cards[:], card_weights[:]
        ranks = []
        for _ in range(k):
            i = rng.choices(range(len(pool)), pw)[0]
            ranks.append(pool[i].rank)
            pool.pop(i)
            pw.pop(i)
        drawn[tuple(sorted(ranks))] += 1
    return [(h, n / draws) for h, n in drawn.items()]  # in the order first drawn


class ExpertPlayer(ExactCounter):
    """The expert computer (see the module text).  ``rng`` draws the
    opponent's holdings and breaks exact ties, so a seeded player is
    reproducible.  ``holdings``: see :data:`HOLDINGS`."""

    deliberate = True
    """Decisions take up to tens of milliseconds (a server runs them off its event loop)."""

    def __init__(self, rng: random.Random | None = None, holdings: int = HOLDINGS) -> None:
        self.rng = rng or random.Random(0)
        self.holdings = holdings

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        share = model_share(situation.their_discards) if situation is not None else 1.0
        return rank_discards(hand, is_dealer, share)[0].thrown

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode, situation: Situation | None = None) -> Card:
        legal = legal_cards(hand, series)
        if len({c.rank for c in legal}) == 1:  # one rank: nothing to weigh
            return self.rng.choice(legal)
        ranked = self.rank_plays(hand, series, seen, run_mode, situation)
        return tie_break(self.rng, [(p.value, p.card) for p in ranked])

    def rank_plays(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                   run_mode: RunMode, situation: Situation | None = None) -> list[PlayChoice]:
        """Every legal card with its value (net points to the end of the
        play, mean over the opponent's likely holdings), best first.
        Raises ``ValueError`` when no card can be played."""
        where = situation or Situation(their_cards=max(1, len(hand)))
        legal = legal_cards(hand, series)
        if self._near_the_end(where):
            holdings = self._holdings(hand, series, seen, run_mode, where, BOARD_HOLDINGS)
            return self._rank_to_the_board(legal, tuple(sorted(c.rank for c in hand)), tuple(c.rank for c in series),
                                           sum(c.pip for c in series), holdings, run_mode, where)
        fixed, samples = self.holding_values(hand, series, seen, run_mode, where)
        weight = sum(p for p, _ in samples)
        values = dict(fixed)
        for rank in {c.rank for c in legal} - set(fixed):
            values[rank] = sum(p * v[rank] for p, v in samples) / weight
        choices = [PlayChoice(c, values[c.rank]) for c in legal]
        return sorted(choices, key=lambda p: -p.value)

    def _holdings(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card], run_mode: RunMode,
                  where: Situation, draws: int) -> list[tuple[tuple[int, ...], float]]:
        """The opponent's likely holdings (ranks) with their weights: the
        model's, blended with the rank shares where the opponent may not
        play as the model does."""
        holdings, share = inferred_holdings(where, run_mode is RunMode.ORDERED, self.rng, draws)
        if share < _SURE:  # the opponent may not play as the model does: the rank shares too
            known = set(seen) | set(hand) | set(series) | set(where.thrown)
            unseen = [c for c in FULL_DECK if c not in known and c.pip > where.their_floor]
            # drawn in proportion to their part of the blend: as many
            # holdings in all as the model alone (play p99 22 -> 13 ms)
            shares = their_holdings(unseen, min(where.their_cards, len(unseen)), keep_share(not where.dealer),
                                    self.rng, max(1, round(draws * (1 - share)))) or [((), 1.0)]
            holdings = blended(holdings, share, shares)
        return holdings

    def holding_values(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                       run_mode: RunMode, situation: Situation | None = None
                       ) -> tuple[dict[int, float], list[tuple[float, dict[int, float]]]]:
        """The search behind :meth:`rank_plays` (the board aside), holding
        by holding: ``(fixed, samples)``, where ``fixed`` gives the ranks
        that win the game at once (worth ``_GAME`` + their points) and
        each sample is (the holding's weight, {rank: net points to the end
        of the play}) for every other legal rank, for as many of the
        opponent's likely holdings as :data:`POSITION_BUDGET` allows (the
        game review's noise comes from their spread).  Raises
        ``ValueError`` when no card can be played."""
        where = situation or Situation(their_cards=max(1, len(hand)))
        legal = legal_cards(hand, series)
        count = sum(c.pip for c in series)
        ranks = tuple(c.rank for c in series)
        holdings = self._holdings(hand, series, seen, run_mode, where, self.holdings)
        mine = tuple(sorted(c.rank for c in hand))
        # each decision searches afresh and lets its positions go (about
        # 1 MiB at a hand's first card; a door holds an expert per caller);
        # the later decisions, with fewer cards, cost a fraction of the first
        search = PeggingSearch(run_mode)
        fixed: dict[int, float] = {}
        for card in legal:
            now = play_points(ranks + (card.rank,), run_mode)
            if where.mine + now >= where.game_to:
                fixed[card.rank] = _GAME + now
        searched = sorted({c.rank for c in legal} - set(fixed))
        samples: list[tuple[float, dict[int, float]]] = []
        # every holding's search in turn, until the position budget is spent
        budget = len(search) + POSITION_BUDGET
        weight = 0.0
        for theirs, p in holdings:
            if len(search) > budget and weight >= 0.25:
                break
            weight += p
            samples.append((p, {rank: search.after(rank, mine, theirs, ranks, count) for rank in searched}))
        return fixed, samples

    @staticmethod
    def _near_the_end(where: Situation) -> bool:
        """Whether either player can go out by the end of this deal's shows
        (:data:`BOARD_REACH` points from the target), and the cards and
        starter the board search needs are known."""
        return (max(where.mine, where.theirs) + BOARD_REACH >= where.game_to and where.starter is not None
                and len(where.kept) == 4 and where.game_to in (61, 121))

    def _rank_to_the_board(self, legal: list[Card], mine: tuple[int, ...], series: tuple[int, ...], count: int,
                           holdings: list[tuple[tuple[int, ...], float]], run_mode: RunMode,
                           where: Situation) -> list[PlayChoice]:
        """Each card's value in the unit of :mod:`engine.win_tables` (a
        signed win chance, or wins weighted by the table's objective,
        ``where.objective``): the play
        searched for each likely holding with the board in view, and at
        its end the shows in the standard order (the pone's hand, then the
        dealer's hand and crib), then the deals to come from the table.
        The opponent's show is counted by ranks (their cards played and
        held, and the starter: no flush or nobs); the crib at its mean
        from :mod:`engine.expert_tables`."""
        starter = where.starter
        assert starter is not None
        target, objective = where.game_to, where.objective
        mine_show = show_points(where.kept, starter)
        crib = round(crib_value(where.thrown[0], where.thrown[1], where.dealer)) if len(where.thrown) == 2 else 4
        played = tuple(c.rank for c in where.their_played)

        def win(loser: int) -> float:
            return objective.worth(loser, target)

        values = {card.rank: 0.0 for card in legal}
        spent = 0
        weight = 0.0
        for theirs, p in holdings:
            if spent > POSITION_BUDGET and weight >= 0.25:
                break
            weight += p
            their_show = rank_show_points(played + theirs + (starter.rank,)) if len(played + theirs) == 4 else 8

            def leaf(me: int, them: int, their_show: int = their_show) -> float:
                if where.dealer:
                    if them + their_show >= target:
                        return -win(me)
                    me += mine_show + crib
                    if me >= target:
                        return win(them + their_show)
                    return -dealer_value(them + their_show, me, target, objective)
                me += mine_show
                if me >= target:
                    return win(them)
                them += their_show + crib
                if them >= target:
                    return -win(me)
                return dealer_value(me, them, target, objective)

            search = BoardSearch(run_mode, target, win, leaf)
            for rank in values:
                values[rank] += p * search.after(rank, mine, theirs, series, count, where.mine, where.theirs)
            spent += len(search)
        return sorted((PlayChoice(c, values[c.rank] / weight) for c in legal), key=lambda c: -c.value)
