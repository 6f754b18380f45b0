"""Pegging left on the table: after a hand, with both hands
known, each card of the play against the best card the player had, by the
exact minimax of the rest of the play (:class:`~engine.pegging_search.PeggingSearch`,
under the game's run mode).

What a card "lost" is the player's net pegging to the end of the play
(their points minus the other's, both playing their best from there) below
what their best card would have given; 0 for a best card.  A hand's total
for a seat is the points that seat left on the table in the play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .actions import Action, Play
from .cards import Card
from .game import Game
from .pegging_search import PeggingSearch
from .rules import Rules
from .shuffle import SeededShuffle
from .state import PlayedCard

__all__ = ["PlayChoice", "review_plays", "review_hand", "left_on_the_table"]


@dataclass(frozen=True, slots=True)
class PlayChoice:
    """One card of the play: ``seat`` played ``card`` in hand ``hand`` on a
    count of ``count`` where ``best`` (the card played, when it was one of
    the best) was worth ``lost`` more net points to the end of the play
    (0: a best card)."""

    hand: int
    seat: int
    card: Card
    count: int
    best: Card
    lost: int


def review_plays(rules: Rules, number: int, actions: Iterable[Action], first_dealer: int | None = None,
                 stacked: object = None, hand: int | None = None,
                 shuffle: SeededShuffle | None = None) -> list[PlayChoice]:
    """Every card played in the game of ``rules``, ``number``,
    ``actions`` and ``first_dealer`` (as :func:`engine.game.replay` takes
    them; ``stacked``: the game's fixed deals, if any; ``shuffle``: its
    seeds, for a game dealt by a verifiable shuffle), or in its hand
    number ``hand`` only, against the best card with both hands known
    (about 0.3 ms a card).  Raises :class:`~engine.actions.IllegalAction`
    when an action does not fit the game."""
    game = Game(rules, number, first_dealer, stacked, shuffle)  # type: ignore[arg-type]
    game.start()
    search = PeggingSearch(rules.run_mode)
    out: list[PlayChoice] = []
    for action in actions:
        if isinstance(action, Play) and (hand is None or game.hand_number == hand):
            me = action.seat
            out.append(_weighed(search, game.hand_number, me, action.card, game.hands[me], game.hands[1 - me],
                                game.series, game.count))
        game.apply(action)
    return out


def review_hand(rules: Rules, hand: int, kept: Sequence[Sequence[Card]],
                played: Sequence[Sequence[PlayedCard]]) -> list[PlayChoice]:
    """The cards of one hand's play against the best card, from that
    hand's own cards (no replay of the game before it, so it costs the
    search alone: about 0.3 ms a card): ``kept``, each seat's four kept
    cards, and ``played``, each seat's :class:`~engine.state.PlayedCard`
    list as :class:`~engine.game.Game` keeps it (``Game.kept`` and
    ``Game.played`` before the next deal).  The same choices as
    :func:`review_plays` with ``hand``.  Raises ``ValueError`` when a card
    played is not among its seat's kept cards."""
    search = PeggingSearch(rules.run_mode)
    left = [list(kept[0]), list(kept[1])]
    order = sorted((p.series, p.order, seat, p.card) for seat in (0, 1) for p in played[seat])
    out: list[PlayChoice] = []
    series: list[Card] = []
    number = order[0][0] if order else 0
    for series_number, _, seat, card in order:
        if series_number != number:  # a go: the count starts again
            series, number = [], series_number
        count = sum(c.pip for c in series)
        out.append(_weighed(search, hand, seat, card, left[seat], left[1 - seat], series, count))
        left[seat].remove(card)
        series.append(card)
    return out


def _weighed(search: PeggingSearch, hand: int, me: int, card: Card, mine: Sequence[Card],
             theirs: Sequence[Card], series: Sequence[Card], count: int) -> PlayChoice:
    """``card``, played by seat ``me`` holding ``mine`` (``card``
    among them) against ``theirs`` on ``series`` (its pips ``count``),
    against the best card it held."""
    ranks = tuple(sorted(c.rank for c in mine))
    other = tuple(sorted(c.rank for c in theirs))
    run = tuple(c.rank for c in series)
    legal = [c for c in mine if count + c.pip <= 31]
    by_rank = {c.rank: search.after(c.rank, ranks, other, run, count) for c in legal}
    best = max(legal, key=lambda c: (by_rank[c.rank], c == card))
    return PlayChoice(hand, me, card, count, best, by_rank[best.rank] - by_rank[card.rank])


def left_on_the_table(choices: Iterable[PlayChoice], hand: int) -> tuple[int, int]:
    """The net points each seat left in the play of ``hand`` (seat 0, seat 1)."""
    left = [0, 0]
    for choice in choices:
        if choice.hand == hand:
            left[choice.seat] += choice.lost
    return left[0], left[1]
