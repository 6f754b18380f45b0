"""A caller seated at a game against a person (the sysop or another
caller): the key loop of the game, with the lobby told what the caller is
doing and the table's notices delivered on the game screen."""

from __future__ import annotations

from door.context import DoorContext
from door.play.human_seat import HumanSeat
from door.play.options import CallerOptions
from door.play.table import Table
from door.sysop.lobby import Presence
from door.ui.display import Display

__all__ = ["seated", "rejoin"]


async def seated(display: Display, ctx: DoorContext, presence: Presence, seat: HumanSeat, table: Table | None,
                 doing: str) -> bool:
    """Play at ``seat`` until the table is done with it or the line drops;
    ``doing`` (and ``table``, when known here) go to the lobby.  False when
    the connection is gone."""
    if table is not None:
        ctx.lobby.update(presence, doing, table)
    presence.deliver = seat.notice
    try:
        await seat.play()
    finally:
        presence.deliver = None
    played = seat.table or table
    if played is not None and (parting := played.parting.get(seat.index)):
        presence.messages.append(parting)  # the menu says why the game ended (the other player left)
    return not display.terminal.closed


def opponent_of(table: Table, index: int) -> str:
    """What the lobby says a player at ``table``'s seat ``index`` does:
    ``"vs sysop"`` or ``"vs Ann"``."""
    other = table.seats[1 - index]
    return "vs sysop" if (other.identity or "").startswith("sysop:") else f"vs {other.name}"


async def rejoin(display: Display, ctx: DoorContext, options: CallerOptions, presence: Presence,
                 table: Table, index: int) -> bool:
    """Go back to a game that waited while the caller's line was down (under
    the name the game was played with).  False when the connection is gone."""
    seat = HumanSeat(display, table.seats[index].name, options, ctx.paging.chat_limit, identity=presence.identity,
                     hand_pause=ctx.caller.hand_pause)
    table.rejoin(index, seat)
    return await seated(display, ctx, presence, seat, table, opponent_of(table, index))
