"""A caller seated at a game against a person (the sysop or another
caller), or going back to one that waited for them (the game itself is
:meth:`~door.caller.side.CallerSide.play`)."""

from __future__ import annotations

from door.caller.side import CallerSide, Side
from door.play.human_seat import HumanSeat
from door.play.table import Table
from door.sysop.doing import Doing

__all__ = ["seated", "rejoin", "opponent_of"]


async def seated(side: CallerSide, seat: HumanSeat, table: Table | None, doing: Doing, whom: str = "") -> None:
    """Play at ``seat`` until the table is done with it (:meth:`CallerSide.play`)."""
    await side.play(seat, table, doing, whom)


def opponent_of(table: Table, index: int) -> tuple[Doing, str]:
    """What a player at ``table``'s seat ``index`` does, and against whom:
    :attr:`Doing.VS_SYSOP`, or :attr:`Doing.VS_CALLER` and the name."""
    other = table.seats[1 - index]
    if other.identity is not None and other.identity.is_sysop:
        return Doing.VS_SYSOP, ""
    return Doing.VS_CALLER, other.name


async def rejoin(side: Side, table: Table, index: int) -> bool:
    """Go back to a game that waited while the side's line was down (under
    the name the game was played with), for the screens and the game
    protocol alike; True when a program left meanwhile."""
    seat = side.new_seat(table.seats[index].name)
    table.rejoin(index, seat)
    return await side.play(seat, table, *opponent_of(table, index))
