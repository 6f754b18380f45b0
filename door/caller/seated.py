"""A caller seated at a game against a person (the sysop or another
caller): the key loop of the game, with the lobby told what the caller is
doing and the table's notices delivered on the game screen."""

from __future__ import annotations

import asyncio

from door.caller.side import CallerSide
from door.play.human_seat import HumanSeat
from door.play.table import Table
from door.sysop.doing import Doing
from door.ui.prompts import show_page

__all__ = ["seated", "rejoin", "opponent_of", "NEWS_WAIT"]

NEWS_WAIT = 10.0
"""Seconds a player who left a rated match waits for its result to be
recorded before the menu (the store is slow, or the match goes on)."""


async def seated(side: CallerSide, seat: HumanSeat, table: Table | None, doing: Doing, whom: str = "") -> None:
    """Play at ``seat`` until the table is done with it (a dropped line
    raises :class:`~door.net.terminal.HungUp` from the game's key loop);
    ``doing`` and ``whom`` (and ``table``, when known here) go to the lobby.  When the
    other player left the match, the menu says so (the table's
    ``parting``)."""
    presence = side.presence
    if table is not None:
        side.doing(doing, table, whom, seat)
    presence.deliver = seat.notice
    try:
        await seat.play()
    finally:
        presence.deliver = None
    played = seat.table or table
    if seat.failure is not None:
        await show_page(side.display, "Sorry", [seat.failure])
    if played is None:
        return
    if played.rated:
        # the match's end is recorded as the table finishes (a forfeit's just after the leaver's Y): wait for it,
        # then show what it did to the ratings on a page of its own, which waits for a key
        try:
            await asyncio.wait_for(played.ended.wait(), NEWS_WAIT)
        except TimeoutError:
            pass
        if played.series.news[seat.index]:
            await show_page(side.display, "Rated match", played.series.news[seat.index])
    elif parting := played.ending.parting.get(seat.index):
        presence.messages.append(parting)  # the menu says why the game ended (the other player left)


def opponent_of(table: Table, index: int) -> tuple[Doing, str]:
    """What a player at ``table``'s seat ``index`` does, and against whom:
    :attr:`Doing.VS_SYSOP`, or :attr:`Doing.VS_CALLER` and the name."""
    other = table.seats[1 - index]
    if other.identity is not None and other.identity.is_sysop:
        return Doing.VS_SYSOP, ""
    return Doing.VS_CALLER, other.name


async def rejoin(side: CallerSide, table: Table, index: int) -> None:
    """Go back to a game that waited while the caller's line was down (under
    the name the game was played with)."""
    seat = side.new_seat(table.seats[index].name)
    table.rejoin(index, seat)
    await seated(side, seat, table, *opponent_of(table, index))
