"""The per-hand tally of a game: a pure fold over its events (for records and
statistics, and the hand recap).

For each hand and each seat: pegging points, the points pegged for the hand
and for the crib with the true counts and the claims, his heels, and muggins
points won (from the opponent's miscounts) and lost (to them).  A hand is
*complete* when its show finished (Cribbage Partner counts only complete
hands in its averages, as in Cribbage Partner); a hand played over is *replayed* and does
not count in the statistics.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .events import (
    CardPlayed,
    Event,
    GameOver,
    HandCounted,
    HandDealt,
    HandReplayed,
    PlayPoint,
    ShowTurn,
    StarterTurned,
)

__all__ = ["SeatHand", "HandRecord", "GameTally"]


@dataclass
class SeatHand:
    """One seat's figures for one hand, in points; the claims are ``None``
    under automatic counting or when the hand was never counted."""

    pegging: int = 0
    hand_points: int = 0
    hand_true: int | None = None
    hand_claim: int | None = None
    crib_points: int = 0
    crib_true: int | None = None
    crib_claim: int | None = None
    heels: int = 0
    muggins_won: int = 0
    muggins_lost: int = 0

    @property
    def total(self) -> int:
        """Everything this seat pegged in the hand."""
        return self.pegging + self.hand_points + self.crib_points + self.heels + self.muggins_won


@dataclass
class HandRecord:
    """Hand ``number`` dealt by ``dealer``: ``seats[0]`` and ``seats[1]``."""

    number: int
    dealer: int
    seats: tuple[SeatHand, SeatHand] = field(default_factory=lambda: (SeatHand(), SeatHand()))
    complete: bool = False
    replayed: bool = False


class GameTally:
    """Feed it a game's events in order; ``hands`` holds a
    :class:`HandRecord` per hand dealt."""

    def __init__(self) -> None:
        self.hands: list[HandRecord] = []

    @property
    def current(self) -> HandRecord | None:
        """The hand being played (the last dealt)."""
        return self.hands[-1] if self.hands else None

    def feed(self, events: Iterable[Event]) -> None:
        """Take ``events`` into the figures."""
        replaying = False
        for event in events:
            if isinstance(event, HandReplayed):
                # the next hand, barely dealt, is dropped; the replay is marked
                if self.hands and self.hands[-1].number == event.number + 1:
                    self.hands.pop()
                replaying = True
                continue
            if isinstance(event, HandDealt):
                replayed = replaying or any(h.number == event.number for h in self.hands)
                self.hands.append(HandRecord(event.number, event.dealer, replayed=replayed))
                replaying = False
                continue
            hand = self.current
            if hand is None or isinstance(event, GameOver):
                continue
            if isinstance(event, StarterTurned):
                hand.seats[event.dealer].heels += event.heels
            elif isinstance(event, CardPlayed):
                hand.seats[event.seat].pegging += event.points
            elif isinstance(event, PlayPoint):
                hand.seats[event.seat].pegging += event.score.points
            elif isinstance(event, HandCounted):
                mine, theirs = hand.seats[event.seat], hand.seats[1 - event.seat]
                if event.what is ShowTurn.HAND:
                    mine.hand_true, mine.hand_claim = event.show.total, event.claim
                    mine.hand_points = event.outcome.claimer
                else:
                    mine.crib_true, mine.crib_claim = event.show.total, event.claim
                    mine.crib_points = event.outcome.claimer
                    hand.complete = True
                mine.muggins_lost += event.outcome.opponent
                theirs.muggins_won += event.outcome.opponent
