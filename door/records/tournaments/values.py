"""A stored tournament's rows as values: the tournament, its entries, its
pairings (with their deadlines and results), and the game a pairing asks
the game service to seat."""

from __future__ import annotations

import enum
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from door.records.ranked.tournament import Entrant
from door.records.tournaments.settings import Settings
from engine.rules import Rules

__all__ = ["State", "Tournament", "Entry", "Pairing", "Seating", "SWISS", "BOTH_LOST"]

SWISS = "swiss"
"""The stage of a Swiss's rounds (a knock-out's stages are its brackets' labels: ``bracket``, ``consolation``)."""

BOTH_LOST = -1
"""A pairing's ``winner`` when both players lost it (both missed its deadline)."""


class State(enum.Enum):
    """Where a tournament is."""

    OPEN = "open"
    """Taking entries."""
    RUNNING = "running"
    """Started: its rounds are being played."""
    FINISHED = "finished"
    """Over: its finishes are kept for the season."""


@dataclass(frozen=True)
class Tournament:
    """A tournament: ``id``, short ``name`` (its bulletins' stem),
    ``title``, :class:`~door.records.tournaments.settings.Settings`,
    :class:`State`, when it was ``created``, ``started`` and ``ended``
    (seconds since the epoch; ``None``: not yet), and its knock-out's
    ``seeds`` by bracket label (best first), kept when its first matches
    were paired (empty before), so that a replaced player's bracket stays
    as it was drawn."""

    id: int
    name: str
    title: str
    settings: Settings
    state: State
    created: float
    started: float | None
    ended: float | None
    seeds: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """An entrant: their ``name``, ``account_id`` (``None`` once the
    account is removed), ``rating`` when they entered (seeds go by it)
    and when they ``entered``."""

    name: str
    account_id: int | None
    rating: float
    entered: float

    @property
    def entrant(self) -> Entrant:
        """The entrant as the pure core takes them."""
        return Entrant(self.name, self.rating)


@dataclass(frozen=True)
class Pairing:
    """A game (in a Swiss) or a match (in a knock-out) the director paired.

    ``wave``: the director's round it was paired in (a Swiss's round
    number; a knock-out's matches are paired as soon as both players are
    known); ``stage``: :data:`SWISS`, ``bracket`` or ``consolation``;
    ``slot``: ``"ROUND-TABLE"`` in a Swiss (``"2-1"``), the bracket's
    match id in a knock-out (``"W1-2"``); ``players`` (the second ``None``:
    a bye); ``paired`` and ``deadline`` (seconds since the epoch; a bye
    has no deadline); ``shown``: the seats that turned up (bit 0, bit 1);
    ``waiting``: the seat the game waits on (``None``: not known);
    ``winner``: 0 or 1, :data:`BOTH_LOST`, ``None`` until decided;
    ``scores``: a Swiss game's points, or a match's games each side won;
    ``skunk``: 0, 1 or 2; ``how``: ``played``, ``bye``, ``forfeit``,
    ``both late``, ``adjudicated``; ``decided``: when."""

    id: int
    wave: int
    stage: str
    slot: str
    players: tuple[str, str | None]
    paired: float
    deadline: float | None
    shown: int = 0
    waiting: int | None = None
    winner: int | None = None
    scores: tuple[int, int] = (0, 0)
    skunk: int = 0
    how: str = ""
    decided: float | None = None

    @property
    def open(self) -> bool:
        """Not decided yet."""
        return self.winner is None

    def seat(self, name: str) -> int:
        """``name``'s seat (0 or 1).  Raises ``ValueError`` when they are not in it."""
        if name not in self.players:
            raise ValueError(f"{name!r} is not in pairing {self.slot}")
        return self.players.index(name)

    def line(self) -> str:
        """``"2-1  Ann v Bob: Ann won 121-95"``, ``"W1-1  Ann v Bob: to play by 2026-12-01 18:00 UTC"``."""
        a, b = self.players
        if b is None:
            return f"{self.slot:<6} {a} has a bye"
        head = f"{self.slot:<6} {a} v {b}"
        if self.winner is None:
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(self.deadline or 0))
            return f"{head}: to play by {when}"
        if self.winner == BOTH_LOST:
            return f"{head}: both lost (both late)"
        won = self.players[self.winner]
        score = f"{self.scores[self.winner]}-{self.scores[1 - self.winner]}"
        return f"{head}: {won} won {score}" + ("" if self.how == "played" else f" ({self.how})")


@dataclass(frozen=True)
class Seating:
    """A pairing for the game service to seat: the ``tournament``'s name,
    the ``pairing`` id, its ``slot``, the ``players``' names and
    ``accounts`` (``None``: the account was removed), ``best_of`` games
    (1 in a Swiss), the house ``rules``, the ``deadline`` (seconds since
    the epoch), by correspondence ``move_days`` a move (``None``: live),
    and in a live round ``show_by``, when both players must be at the
    table (seconds since the epoch; ``None`` by correspondence): one who
    is not loses the pairing by forfeit, both: as when both are late;
    ``rated``: the tournament's games are rated."""

    tournament: str
    pairing: int
    slot: str
    players: tuple[str, str]
    accounts: tuple[int | None, int | None]
    best_of: int
    rules: Rules
    deadline: float
    move_days: float | None
    show_by: float | None = None
    rated: bool = False

    @property
    def live(self) -> bool:
        """Played live at the door (else by correspondence)."""
        return self.move_days is None
