"""How a table stands apart from its game: who is away and for how long
(:class:`Absence`), and how its match ended when a player went or the
door failed (:class:`Ending`).  The table's rules of departure
(:mod:`door.play.departures`) and of a match's end
(:mod:`door.play.match_end`) read and set them."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Absence", "Ending"]


@dataclass
class Absence:
    """The seats whose line dropped (``seats``: 0, 1 or both), since when
    and until when the table waits for them (seconds on the table's clock),
    and the seconds each seat has spent away at a table with clocks
    (``grace_used``): its drops share one grace, so a player cannot stall
    by dropping and coming back again and again.  ``expected``: the seats
    awaited since the table began (a live tournament game's players, called
    to it), whose wait is not their grace."""

    seats: set[int] = field(default_factory=set)
    since: float = 0.0
    until: float = 0.0
    grace_used: dict[int, float] = field(default_factory=lambda: {0: 0.0, 1: 0.0})
    expected: set[int] = field(default_factory=set)


@dataclass
class Ending:
    """How a match ended other than by its games (every field ``None``,
    empty or false while it goes on, and when it ends by its games).

    ``left``: the seat that went (on purpose, dropped for good, out of
    time); ``forfeit``: the seat that loses the game (and a match) by
    leaving a person on purpose, by a guest's dropped line, or by its
    clock; ``abandoned``: the seat that abandoned the game; ``aborted``:
    the seat that left a rated match before its first deal (not rated,
    nobody wins it); ``voided``: the door's own failure ended a rated
    match (void); ``parting``: what the seat that stayed is told, by seat
    ("Sysop left the game: you win by forfeit."); ``held``: why the match
    stopped with its game kept as the store has it (the store could not
    keep a move); ``waiting``: a game by correspondence stopped because it
    waits on a player who is away (kept as it stands)."""

    left: int | None = None
    forfeit: int | None = None
    abandoned: int | None = None
    aborted: int | None = None
    voided: bool = False
    parting: dict[int, str] = field(default_factory=dict)
    held: str | None = None
    waiting: bool = False
