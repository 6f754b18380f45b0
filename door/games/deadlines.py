"""When a decision of a game by correspondence is due: ``days`` counted
days after the move before it (UTC days; weekends count or not as the
sysop says), the days the player to move is away added
(:mod:`door.records.correspondence.deadlines`)."""

from __future__ import annotations

from door.games.house import GameHouse
from door.play.journal import Deadline
from door.records.correspondence.deadlines import DAY, deadline

__all__ = ["due_by", "LOOK_AHEAD"]

LOOK_AHEAD = 400 * DAY
"""How far ahead a player's days away are read for a deadline (seconds):
past any yearly allowance and the longest days per move."""


def due_by(house: GameHouse, accounts: tuple[int | None, int | None], days: int) -> Deadline:
    """The deadline of each decision of a game by correspondence between
    ``accounts`` (by seat) with ``days`` per move: the seat to move's
    (``None``: both, at the deal: no days away counted)."""
    weekends = house.correspondence.weekends

    async def due(to_move: int | None, now: float) -> float | None:
        account = accounts[to_move] if to_move is not None else None
        away = [] if account is None else await house.store.correspondence.vacations.intervals(
            account, now, now + LOOK_AHEAD)
        return deadline(now, days, weekends, away)
    return due
