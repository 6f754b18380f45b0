"""What a table needs of a seat, and of someone watching it: the one
typed contract behind which the full screen's, the spoken lines', the
computer's and a program's seats all sit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from door.play.deals import Dealer
from door.play.decision_clock import DecisionClocks
from door.play.journal import Journal
from door.play.series import Series
from door.play.standing import Absence, Ending
from door.play.table_settings import TableSettings
from door.records.clock import Clock
from door.records.identity import Identity
from door.records.ranked.match import MatchTerms
from engine.events import Event
from engine.game import Game
from engine.tally import GameTally

__all__ = ["Seat", "Watcher", "Seated"]


class Seat(Protocol):
    """What a table needs of a seat."""

    name: str
    computer: bool
    """True for the computer (the table then lets its opponent deal and
    replay hands at will)."""
    @property
    def shuffle_seed(self) -> str:
        """This player's part of a verifiable shuffle: 64 hex digits
        (:func:`engine.shuffle.player_seed`)."""
        ...

    identity: Identity | None
    """Who sits here as a login proved it (an account or a sysop); ``None`` for
    the computer and guests: nobody can take such a seat back after a drop."""

    def attach(self, table: Any, index: int) -> None:
        """Sit at ``table`` (a :class:`~door.play.table.Table`) as seat ``index`` (0 or 1)."""

    def notify(self, game: Game, events: Sequence[Event]) -> None:
        """``events`` happened in ``game`` (called after every action)."""

    def rejected(self, message: str) -> None:
        """The table refused this seat's last action; ``message`` says why."""

    async def play_again(self) -> bool:
        """After a game: True to play another."""
        ...

    def on_chat(self, line: tuple[float, str, str]) -> None:
        """A chat line (time, name, text), already made safe to show."""

    def notice(self, text: str) -> None:
        """Something the table says to this seat's player (not a game event)."""

    def finish(self) -> None:
        """The table is done with this seat."""


class Watcher(Protocol):
    """Someone watching the table (the sysop console)."""

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """The game changed by ``events``, or the chat changed."""


class Seated(Protocol):
    """What the rules of a player's departure and of a match's end
    (:mod:`door.play.departures`, :mod:`door.play.match_end`) read and set
    of a table: its seats and how they stand (a :class:`~door.play.table.Table`)."""

    seats: list[Seat]
    series: Series
    clocks: DecisionClocks | None
    away: Absence
    ending: Ending
    tally: GameTally
    settings: TableSettings
    dealer: Dealer

    @property
    def terms(self) -> MatchTerms | None:
        """The match's terms (best of N), or ``None``."""
        ...

    @property
    def journal(self) -> Journal | None:
        """The table's route to the store."""
        ...

    @property
    def clock(self) -> Clock:
        """Where the table's times come from (seconds)."""
        ...

    @property
    def rejoin_timeout(self) -> float | None:
        """Seconds a dropped player may take to come back."""
        ...

    @property
    def absent(self) -> set[int]:
        """The seats the table waits for."""
        ...

    @property
    def auto_deal(self) -> bool:
        """No chat mode before the hands."""
        ...

    async def ask_again(self) -> list[bool]:
        """Both players' answers to "another game?", seat 0 first."""
        ...

    @property
    def rated(self) -> bool:
        """True for a rated match."""
        ...

    def against_computer(self, seat: int) -> bool:
        """True when ``seat``'s opponent is the computer."""
        ...
