"""The interface of a computer player (and of the hint for a human).

A :class:`Strategy` chooses discards, chooses a card in the play and counts
a hand.  The players live beside this module: :class:`engine.hard.HardPlayer`
(the door's default opponent and the hints), and the simpler
:mod:`engine.players` (easy, greedy, random) used as the Easy level and as
sparring partners in the benchmarks.  :func:`choose_action` turns a
strategy's decision into an action for the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from .cards import Card
from .actions import Claim, Discard, Play
from .game import Game, Phase
from .rules import RunMode
from .scoring import mean_show_points

__all__ = ["Strategy", "Situation", "expected_hand", "choose_action", "situation", "legal_cards"]


@dataclass(frozen=True, slots=True)
class Situation:
    """What a player knows of the game beyond its cards: both scores in
    points (``mine``, ``theirs``), the target ``game_to``, how many cards
    the opponent still holds in the play (``their_cards``), and whether this
    player is the dealer."""

    mine: int = 0
    theirs: int = 0
    game_to: int = 121
    their_cards: int = 4
    dealer: bool = False


class Strategy(Protocol):
    """What a computer player (or a hint) decides."""

    def choose_discard(self, hand: Sequence[Card], is_dealer: bool,
                       situation: Situation | None = None) -> tuple[Card, Card]:
        """Two cards of the six in ``hand`` to lay away to the crib."""
        ...

    def choose_play(self, hand: Sequence[Card], series: Sequence[Card], seen: Sequence[Card],
                    run_mode: RunMode, situation: Situation | None = None) -> Card:
        """A card of ``hand`` to play on the current ``series`` (its count
        plus the card must not pass 31).  ``seen``: every card this player
        has seen (own hand, starter, cards played)."""
        ...

    def count(self, hand: Sequence[Card], starter: Card, is_crib: bool) -> int:
        """The points claimed for a hand in the show."""
        ...


def legal_cards(hand: Sequence[Card], series: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` that keep the count of ``series`` within 31.
    Raises ``ValueError`` when there are none (the player must say go, which
    the game does by itself)."""
    count = sum(c.pip for c in series)
    legal = [c for c in hand if count + c.pip <= 31]
    if not legal:
        raise ValueError(f"no card of {[str(c) for c in hand]} can be played on {count}")
    return legal


def expected_hand(kept: Sequence[Card], unseen: Sequence[Card]) -> float:
    """The mean show points of the four ``kept`` cards (a hand, not a crib)
    over every starter in ``unseen`` (usually the 46 cards not in the six
    dealt), in points (:func:`~engine.scoring.mean_show_points`)."""
    return mean_show_points(kept, unseen)


def situation(game: Game, seat: int) -> Situation:
    """What ``seat`` knows of ``game`` now."""
    mine, theirs = game.pegs[seat].front, game.pegs[1 - seat].front
    their_cards = len(game.hands[1 - seat]) if game.phase is Phase.PLAY else 4
    return Situation(mine, theirs, game.rules.game_to, their_cards, game.dealer == seat)


def choose_action(game: Game, seat: int, player: Strategy) -> Discard | Play | Claim:
    """The action ``player`` takes for ``seat`` in ``game`` now.

    Raises ``ValueError`` when ``seat`` has nothing to do."""
    if seat not in game.to_act():
        raise ValueError(f"seat {seat} has nothing to do in phase {game.phase.value}")
    where = situation(game, seat)
    if game.phase is Phase.DISCARD:
        return Discard(seat, player.choose_discard(game.hands[seat], game.dealer == seat, where))
    if game.phase is Phase.PLAY:
        seen = list(game.kept[seat]) + [p.card for p in game.played[1 - seat]]
        if game.starter is not None:
            seen.append(game.starter)
        return Play(seat, player.choose_play(game.hands[seat], game.series, seen, game.rules.run_mode, where))
    show = game.current_show()
    assert show is not None and game.starter is not None
    return Claim(seat, player.count(show.hand, game.starter, show.is_crib))
