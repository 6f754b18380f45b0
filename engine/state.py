"""The pieces of a game's state that outlast a move: a player's pegs, a
card laid in the play, a deal whose hands were shown."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

__all__ = ["Peg", "PlayedCard", "ShownDeal"]


@dataclass(slots=True)
class Peg:
    """A player's two pegs, in points: ``front`` is the score, ``back`` where
    the front peg stood before its last move (0 at the start)."""

    front: int = 0
    back: int = 0


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card laid down in the play: its ``order`` (1, 2, ...) within its
    ``series`` (0, 1, ...) of the hand, counting both players' cards."""

    card: Card
    order: int
    series: int


@dataclass(frozen=True, slots=True)
class ShownDeal:
    """A deal whose play ended and whose hands were shown: its
    ``hand_number``, its ``dealer`` seat, and per seat the four cards
    ``kept`` and the two ``thrown`` to the crib (all face up by then)."""

    hand_number: int
    dealer: int
    kept: tuple[tuple[Card, ...], tuple[Card, ...]]
    thrown: tuple[tuple[Card, ...], tuple[Card, ...]]
