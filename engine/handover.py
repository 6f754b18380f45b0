"""The pegging of a hand handed to the computer (a game by turns: "let
the computer peg this hand for me"): whether a seat has handed over the
hand now dealt, and the rule for handing it over.

Nothing is kept for it but the action itself (:class:`~engine.actions.HandOver`
in the game's actions): a seat has handed over the hand when the action
stands among this hand's actions, so a game replayed from its actions
knows it as the game played did.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Protocol

from .actions import Action, Discard, HandOver, IllegalAction, Play
from .cards import Card
from .events import Event, PeggingHandedOver

__all__ = ["handed_over", "handing_over"]


class Game(Protocol):
    """What these rules read of an :class:`engine.game.Game` (named so,
    not imported: the game imports this module)."""

    @property
    def phase(self) -> enum.Enum: ...
    @property
    def actions(self) -> Sequence[Action]: ...
    @property
    def hands(self) -> Sequence[Sequence[Card]]: ...
    @property
    def hand_number(self) -> int: ...


def handed_over(game: Game, seat: int) -> bool:
    """True when ``seat`` handed the pegging of the hand now dealt in
    ``game`` to the computer (while its cards are laid away or played;
    False in the show, where nothing is pegged by hand)."""
    phase = game.phase.name
    if phase not in ("DISCARD", "PLAY"):
        return False
    discards = 0
    for action in reversed(game.actions):  # back to the start of this hand: its discards, or before them
        if isinstance(action, HandOver):
            if action.seat == seat:
                return True
        elif isinstance(action, Discard) and discards < 2 and phase == "PLAY":
            discards += 1
        elif isinstance(action, Discard) and discards < 1 and phase == "DISCARD":
            discards += 1  # (the other seat's discard of this hand: the one before it is the last hand's)
        elif not (isinstance(action, Play) and phase == "PLAY" and discards == 0):
            return False
    return False


def handing_over(game: Game, action: HandOver) -> list[Event]:
    """The events of ``action`` in ``game``.  Raises :class:`IllegalAction`
    outside the discard and the play, when the seat has no card left to
    play, or when it handed this hand over already."""
    seat = action.seat
    if game.phase.name not in ("DISCARD", "PLAY") or not game.hands[seat]:
        raise IllegalAction(f"{action!r}: only a hand with cards still to play may be handed to the computer")
    if handed_over(game, seat):
        raise IllegalAction(f"{action!r}: this hand is handed to the computer already")
    return [PeggingHandedOver(seat, game.hand_number)]
