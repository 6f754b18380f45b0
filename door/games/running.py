"""A kept game played by turns as a player sits down to it: the table
that plays it here now, if any (the other player is at it: both play
live), else the seats of a new sitting, the other player away."""

from __future__ import annotations

from door.games.house import GameHouse
from door.play.away_seat import AwaySeat
from door.play.seat import Seat
from door.play.table import Table
from door.records.identity import Identity
from door.records.saved_games import SavedGame

__all__ = ["rejoined", "running", "sitting"]


def running(house: GameHouse, saved_id: int) -> Table | None:
    """The table playing the kept game ``saved_id`` here now, if any."""
    return next((t for t in house.tables.tables if t.journal is not None and t.journal.saved_id == saved_id
                 and not t.ended.is_set()), None)


def rejoined(house: GameHouse, saved: SavedGame, account_id: int, seat: Seat) -> Table | None:
    """``account_id``'s player seated at ``seat`` at the table that plays
    ``saved`` here now, or ``None`` (none does).  Raises ``ValueError``
    for an account not in it."""
    table = running(house, saved.id)
    if table is not None:
        table.rejoin(saved.seat_of(account_id), seat)
    return table


def sitting(saved: SavedGame, account_id: int, seat: Seat, names: tuple[str, str]) -> tuple[Seat, Seat]:
    """The seats of a new sitting of ``saved``: ``account_id``'s player at
    ``seat``, the other (named by ``names``, by seat) away.  Raises
    ``ValueError`` for an account not in it."""
    mine = saved.seat_of(account_id)
    other = saved.other_account if mine == saved.seat else saved.account_id
    away = AwaySeat(names[1 - mine], Identity.of_account(other) if other is not None else None)
    return (seat, away) if mine == 0 else (away, seat)
