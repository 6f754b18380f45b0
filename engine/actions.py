"""What a player can do in a game: the actions :meth:`engine.game.Game.apply`
takes, and the error for one that is not legal now.  Each action is a small
frozen value naming its seat (0 or 1); the notation
(:mod:`engine.notation`) writes and reads them for the action log."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

__all__ = ["Discard", "Play", "Claim", "ReplayHand", "HandOver", "Action", "IllegalAction"]


@dataclass(frozen=True, slots=True)
class Discard:
    """``seat`` lays two of its six cards away to the crib."""

    seat: int
    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` plays ``card`` in the play."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Claim:
    """``seat`` claims ``points`` for the hand or crib it is counting
    (manual counting only)."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class ReplayHand:
    """``seat`` asks to play the hand just finished over again (Cribbage
    Partner's "replay a hand", as in Cribbage Partner): both pegs go back to where they
    stood when it was dealt and the same cards are dealt again.  Legal while
    the next hand's cards are being laid away."""

    seat: int


@dataclass(frozen=True, slots=True)
class HandOver:
    """``seat`` hands the pegging of the hand now dealt to the computer
    (a game by turns: "let the computer peg this hand for me"): the
    door plays that seat's cards in this hand's play, and the record says
    so.  Legal while the hand's cards are laid away or played, while the
    seat still holds a card to play, once a hand.  The discard and the
    counting stay the player's."""

    seat: int


Action = Discard | Play | Claim | ReplayHand | HandOver


class IllegalAction(ValueError):
    """An action that is not legal in the current state; the message quotes
    the action and says why."""
