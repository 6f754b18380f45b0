"""What a table's queue carries: the seats' moves and departures, frozen,
in the order the seats sent them; and the shape of a chat line."""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action

__all__ = ["Submit", "Leave", "Quit", "Abandon", "Fault", "TimeOut", "Wake", "Command", "ChatLine"]


@dataclass(frozen=True, slots=True)
class Submit:
    """``seat`` makes a move: ``action``."""

    seat: int
    action: Action


@dataclass(frozen=True, slots=True)
class Leave:
    """``seat``'s player has gone (hung up, or the session ended)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Quit:
    """``seat``'s player leaves on purpose (Q, then Y)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Abandon:
    """``seat``'s player gives the game up."""

    seat: int


@dataclass(frozen=True, slots=True)
class Fault:
    """The door failed while telling ``seat``'s player what happened (a
    presentation that raised): the fault is the door's, not a player's."""

    seat: int


@dataclass(frozen=True, slots=True)
class TimeOut:
    """``seat``'s decision clock ran out (the table's own command)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Wake:
    """Nothing happened: the table looks at its clocks again (a clock
    started outside its loop: a deal from chat mode, a player back)."""

    seat: int = -1


Command = Submit | Leave | Quit | Abandon | Fault | TimeOut | Wake
"""What the table's queue carries, in the order the seats sent them."""

ChatLine = tuple[float, str, str]
"""A chat line: (time in seconds since the epoch, the speaker's name, the text)."""
