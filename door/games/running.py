"""The tables of kept games running here now, found by their kept game's id."""

from __future__ import annotations

from door.games.house import GameHouse
from door.play.table import Table

__all__ = ["running"]


def running(house: GameHouse, saved_id: int) -> Table | None:
    """The table playing the kept game ``saved_id`` here now, if any."""
    return next((t for t in house.tables.tables if t.journal is not None and t.journal.saved_id == saved_id
                 and not t.ended.is_set()), None)
