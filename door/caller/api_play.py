"""A program's games against the computer and today's deal, by the screens' flows (:mod:`door.caller.vs_computer`):
the game a ``play_computer`` message asks for, and a guest's game parked while its line is down."""

from __future__ import annotations

import asyncio
from typing import Any

from door.caller import vs_computer
from door.caller.daily_screens import todays_deal
from door.caller.program_side import ProgramSide
from door.net.terminal import HungUp
from door.play.api_moves import hand_moves
from door.play.options import CallerOptions, Skill
from door.play.parked import Parked, stop
from door.records.store import SavedGame

__all__ = ["at_table", "play_computer", "play_daily"]


async def play_computer(side: ProgramSide, message: dict[str, Any], resume: SavedGame | None = None,
                        daily: vs_computer.Daily | None = None) -> bool:
    """The game ``message`` asks for (its ``skill``, one the sysop offers; ``game_to``, when callers may
    change it), the kept game ``resume`` or today's deal (``daily``).  True when the program left."""
    options, ctx = CallerOptions(), side.ctx
    if message.get("skill") in ctx.caller.skills:
        options.skill = Skill(message["skill"])
    options.rules["game_to"] = message.get("game_to", ctx.rules.game_to)
    asked = vs_computer.ComputerGame(options.game_rules(ctx.rules, ctx.caller.may_change), options, None, resume, daily)
    return await vs_computer.play_computer(side, asked, lambda table, seat, computer, kept: at_table(side, Parked(
        side.name, seat, table, computer, asyncio.create_task(table.run(kept))),  # type: ignore[arg-type]  # (an ApiSeat)
        side.who.resume if side.account is None else None))  # (a guest's game is parked under its token)


async def play_daily(side: ProgramSide) -> bool:
    """Today's deal (:func:`~door.caller.daily_screens.todays_deal`); True when the program left."""
    return await todays_deal(side, lambda day, deal: play_computer(side, {}, daily=(day, deal)))


async def at_table(side: ProgramSide, game: Parked, token: str | None = None) -> bool:
    """The program at ``game``'s table until it is done, then the computer stopped; a connection that ends
    with a ``token`` (a guest's) parks the game for the rejoin time instead.  True when the program left."""
    ctx, seat, running = side.ctx, game.seat, game.running
    parked = False
    try:
        left = await hand_moves(side.link, seat)
        await running
    except HungUp:
        if parked := token is not None and not running.done() and ctx.paging.rejoin_timeout > 0:
            seat.redirect(lambda message: None)  # (nobody to tell until the guest is back)
            ctx.lobby.release_seat(side.presence)
            ctx.parked.park(token, game, ctx.paging.rejoin_timeout)
        raise
    finally:
        if not parked and not running.done():
            game.table.leave(seat.index)
            await asyncio.wait({running}, timeout=5)
        if not parked:
            stop(game)
    return left
