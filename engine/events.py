"""What happened in a game: the events :meth:`engine.game.Game.apply`
returns, in order, for the screens and the tally.  Each is a small frozen
value; results are enums (:class:`ShowTurn`, :class:`Skunk`) and
dataclasses, never words (the door turns them into sentences)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .claims import ClaimOutcome
from .scoring import PlayScore, ShowScore

__all__ = ["CutForDeal", "HandDealt", "Discarded", "StarterTurned", "CardPlayed", "GoDeclared", "PlayPoint",
           "SeriesReset", "ShowTurn", "HandCounted", "Skunk", "GameResult", "GameOver", "HandReplayed",
           "PeggingHandedOver", "Event", "scored"]


@dataclass(frozen=True, slots=True)
class CutForDeal:
    """The cut for first deal: ``cuts`` holds one ``(seat 0 card, seat 1
    card)`` pair per cut (equal ranks recut); ``dealer`` deals first.  With a
    fixed first dealer ``cuts`` is empty."""

    cuts: tuple[tuple[Card, Card], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Hand ``number`` (1, 2, ...) was dealt by ``dealer``; ``hands[seat]``
    are the six cards of each seat."""

    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class Discarded:
    """``seat`` laid ``cards`` away to the crib."""

    seat: int
    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class StarterTurned:
    """The starter was cut: ``card``; ``heels`` points (2 for a jack, his
    heels) went to ``dealer``."""

    card: Card
    dealer: int
    heels: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card`` making the ``count``; ``scores`` it earned."""

    seat: int
    card: Card
    count: int
    scores: tuple[PlayScore, ...]

    @property
    def points(self) -> int:
        """The points the card earned."""
        return sum(s.points for s in self.scores)


@dataclass(frozen=True, slots=True)
class GoDeclared:
    """``seat`` holds cards but none can be played without passing 31 at
    ``count``: it says "go" (declared automatically)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class PlayPoint:
    """``seat`` pegs a go or last card (``score``)."""

    seat: int
    score: PlayScore


@dataclass(frozen=True, slots=True)
class SeriesReset:
    """The count goes back to 0; ``turn`` leads the next series."""

    turn: int


class ShowTurn(enum.Enum):
    """What is being counted in the show."""

    HAND = "hand"
    CRIB = "crib"


@dataclass(frozen=True, slots=True)
class HandCounted:
    """``seat`` counted its hand or crib (``what``): ``show`` is the true
    breakdown, ``claim`` the points entered (``None`` under automatic
    counting), ``outcome`` what each side pegged for it."""

    seat: int
    what: ShowTurn
    show: ShowScore
    claim: int | None
    outcome: ClaimOutcome


class Skunk(enum.IntEnum):
    """How badly the loser lost: below the skunk line, below the double line."""

    NONE = 0
    SKUNK = 1
    DOUBLE = 2


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game: ``winner`` seat, final ``scores`` (points per seat),
    ``skunk`` level and the games credited to the winner (``value``)."""

    winner: int
    scores: tuple[int, int]
    skunk: Skunk
    value: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game is over: see ``result``."""

    result: GameResult


@dataclass(frozen=True, slots=True)
class HandReplayed:
    """``seat`` chose to replay hand ``number``: the scores are back to
    ``scores`` (points per seat) and the hand is dealt again (a
    :class:`HandDealt` follows)."""

    seat: int
    number: int
    scores: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PeggingHandedOver:
    """``seat`` let the computer peg hand ``number`` for it
    (:class:`~engine.actions.HandOver`): its cards in that hand's play
    are the computer's."""

    seat: int
    number: int


Event = (CutForDeal | HandDealt | Discarded | StarterTurned | CardPlayed | GoDeclared | PlayPoint | SeriesReset
         | HandCounted | GameOver | HandReplayed | PeggingHandedOver)


def scored(events: Sequence[Event]) -> tuple[bool, bool]:
    """Whether ``events`` hold (a pegging score, a hand or crib that
    scored): a pegging score is a card played for points, a go or last
    card, or his heels on the starter."""
    pegging = any((isinstance(e, CardPlayed) and e.points) or isinstance(e, PlayPoint)
                  or (isinstance(e, StarterTurned) and e.heels) for e in events)
    hand = any(isinstance(e, HandCounted) and e.show.total for e in events)
    return pegging, hand
