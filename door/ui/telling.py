"""One vocabulary for the engine's events, with three renderings.

:class:`Telling` names what the door tells of each kind of event, one
method each, and sends an event to its method (:meth:`Telling.tell`); the
renderings are its subclasses: the screen's message lines
(:class:`door.ui.words.ScreenWords`), the spoken sentences of
screen-reader mode (:class:`door.ui.speech.SpokenWords`), and the game
protocol's event messages (:class:`door.play.api_events.EventMessages`).
A new kind of event is named here once, and each rendering must say it
(the methods are abstract: a rendering that leaves one out cannot be
made).  Every telling is for one seat, which it calls "You".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Generic, TypeVar

from engine.events import (
    CardPlayed,
    CutForDeal,
    Discarded,
    Event,
    GameOver,
    GoDeclared,
    HandCounted,
    HandDealt,
    HandReplayed,
    PeggingHandedOver,
    PlayPoint,
    SeriesReset,
    StarterTurned,
)

__all__ = ["Telling", "subject", "possessive"]

Told = TypeVar("Told")
"""What a rendering makes of one event (lines of text; a message)."""


def subject(who: str, verb: str) -> str:
    """``"You peg"`` / ``"Ann pegs"`` (``"you peg"`` inside a sentence):
    subject and verb in agreement."""
    return f"{who} {verb}" if who in ("You", "you") else f"{who} {verb}s"


def possessive(who: str) -> str:
    """``"Your"`` / ``"Ann's"``."""
    return "Your" if who == "You" else f"{who}'s"


_METHODS: dict[type[Event], str] = {
    CutForDeal: "cut_for_deal", HandReplayed: "hand_replayed", HandDealt: "hand_dealt", Discarded: "discarded",
    StarterTurned: "starter_turned", CardPlayed: "card_played", GoDeclared: "go_declared", PlayPoint: "play_point",
    SeriesReset: "series_reset", HandCounted: "hand_counted", GameOver: "game_over",
    PeggingHandedOver: "pegging_handed_over",
}
"""Each kind of event told, and the method that tells it."""


class Telling(ABC, Generic[Told]):
    """The events of a game told to seat ``me`` (0 or 1; -1 for a
    watcher, who is neither); ``names``: both seats' names, ``who``: the
    same with ``"You"`` for ``me``.  :meth:`tell` returns what the
    rendering makes of an event (lines of text, one sentence or more
    each; a protocol message); an event it leaves unsaid gives
    :meth:`untold`."""

    def __init__(self, me: int, names: Sequence[str]) -> None:
        self.me = me
        self.names = names
        self.who = [("You" if seat == me else names[seat]) for seat in (0, 1)]

    def tell(self, event: Event) -> Told:
        """``event`` in this rendering (:meth:`untold` for an event that
        is not told, such as the table's own bookkeeping)."""
        method = _METHODS.get(type(event))
        if method is None:
            return self.untold()
        told: Told = getattr(self, method)(event)
        return told

    @abstractmethod
    def untold(self) -> Told:
        """What an event left unsaid gives (no lines; no message)."""

    @abstractmethod
    def cut_for_deal(self, event: CutForDeal) -> Told:
        """The cut for the first deal (or the dealer fixed without one)."""

    @abstractmethod
    def hand_replayed(self, event: HandReplayed) -> Told:
        """A hand played again, the scores set back."""

    @abstractmethod
    def pegging_handed_over(self, event: PeggingHandedOver) -> Told:
        """A player let the computer peg this hand for them."""

    @abstractmethod
    def hand_dealt(self, event: HandDealt) -> Told:
        """A new hand: who deals, whose crib."""

    @abstractmethod
    def discarded(self, event: Discarded) -> Told:
        """Two cards laid away to the crib."""

    @abstractmethod
    def starter_turned(self, event: StarterTurned) -> Told:
        """The starter, and his heels."""

    @abstractmethod
    def card_played(self, event: CardPlayed) -> Told:
        """A card laid in the play, the count and what it scored."""

    @abstractmethod
    def go_declared(self, event: GoDeclared) -> Told:
        """A player who cannot play says go."""

    @abstractmethod
    def play_point(self, event: PlayPoint) -> Told:
        """The go or last card pegged."""

    @abstractmethod
    def series_reset(self, event: SeriesReset) -> Told:
        """The count goes back to zero."""

    @abstractmethod
    def hand_counted(self, event: HandCounted) -> Told:
        """A hand or the crib counted in the show: the count, and the claim with muggins."""

    @abstractmethod
    def game_over(self, event: GameOver) -> Told:
        """The winner, the scores and any skunk."""
