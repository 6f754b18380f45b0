"""A program's games against the computer by the game protocol: one at
the level and target asked for, its kept game, today's deal; a guest's
game parked while its line is down."""

from __future__ import annotations

import asyncio
from typing import Any

from door.caller.daily_screens import claim_today, keep_result, pending_day, ranking_lines
from door.caller.program_side import ProgramSide
from door.games.kinds import computer_game
from door.net.terminal import HungUp
from door.play.api_moves import hand_moves
from door.play.api_records import daily_message
from door.play.computer_seat import ComputerSeat
from door.play.daily_deal import daily_opponent
from door.play.options import CallerOptions, Skill
from door.play.parked import Parked, stop
from door.play.tables import computer_opponent
from door.records.store import SavedGame
from door.sysop.doing import Doing
from engine.rules import Rules
from engine.shuffle import SeededShuffle

__all__ = ["at_table", "play_computer", "play_daily", "send_daily"]


async def play_computer(side: ProgramSide, message: dict[str, Any], resume: SavedGame | None = None,
                        daily: tuple[str, SeededShuffle] | None = None) -> bool:
    """One game against the computer at the level and target asked for
    (the house's rules otherwise, and only what the sysop lets callers
    change), or the program's kept game (``resume``), or the day's deal
    (``daily``: the day and its shuffles; under the house rules against
    the day's computer, its result kept for the day's ranking, which is
    sent when it ends; a kept play of today's deal is one too).  An
    account's game is kept move by move, as at a screen; a guest's is
    parked under their resume token when the line drops
    (:mod:`door.play.parked`).  True when the program left; raises
    :class:`~door.net.terminal.HungUp` when the connection ended."""
    ctx, who = side.ctx, side.who
    bot = who.account
    if resume is not None and bot is not None and resume.shuffle is not None and \
            (day := await pending_day(side, bot.id, resume)) is not None:
        daily = (day, resume.shuffle)
    seat = who.seat(side.send)
    if daily is not None:  # (today's deal: the house rules, against the day's computer)
        rules, computer = ctx.rules, daily_opponent(daily[1], ctx.computer_delay, 0.0, 0.0, ctx.thinking)
    else:
        rules, computer = _asked_for(side, message)
    if resume is not None:
        rules = resume.rules  # (a kept game goes on under the rules it began with)
    table = computer_game(ctx.games, rules, (seat, computer), bot.id if bot is not None else None,
                          first=daily[1] if daily is not None else None,
                          sealed_until=daily[0] if daily is not None else None, auto_deal=True, seeds=who.seeds)
    side.doing(Doing.VS_COMPUTER, table, seat=seat)
    game = Parked(who.name, seat, table, computer, asyncio.create_task(table.run(resume)))
    try:
        left = await at_table(side, game, who.resume if bot is None and daily is None else None)
    finally:
        if daily is not None and bot is not None:
            await keep_result(side, (bot.id, who.name), table, daily)
    if daily is not None and bot is not None and not left:
        await send_daily(side, daily[0])
    return left


def _asked_for(side: ProgramSide, message: dict[str, Any]) -> tuple[Rules, ComputerSeat]:
    """The rules and the computer a ``play_computer`` message asks for:
    its ``skill`` (one the sysop offers callers) and ``game_to`` (when
    the sysop lets callers change it), the house's otherwise."""
    ctx = side.ctx
    options = CallerOptions()
    if "skill" in message and message["skill"] in ctx.caller.skills:
        options.skill = Skill(message["skill"])
    if "game_to" in message:
        options.rules["game_to"] = message["game_to"]
    return (options.game_rules(ctx.rules, ctx.caller.may_change),
            computer_opponent(options, ctx.computer_delay, 0.0, 0.0, ctx.thinking))


async def at_table(side: ProgramSide, game: Parked, token: str | None = None) -> bool:
    """The program at ``game``'s table against the computer until it is
    done; then the computer stops.  A connection that ends with a
    ``token`` (a guest's) parks the game for the rejoin time instead: the
    presence no longer holds its seat then, so the connection's end does
    not leave it.  True when the program left; raises
    :class:`~door.net.terminal.HungUp` when the connection ended."""
    ctx, seat, table, running = side.ctx, game.seat, game.table, game.running
    parked = False
    try:
        left = await hand_moves(side.link, seat)
        await running
    except HungUp:
        if token is not None and not running.done() and ctx.paging.rejoin_timeout > 0:
            seat.redirect(lambda message: None)  # (nobody to tell until the guest is back)
            ctx.lobby.release_seat(side.presence)
            ctx.parked.park(token, game, ctx.paging.rejoin_timeout)
            parked = True
        raise
    finally:
        if not parked:
            if not running.done():
                table.leave(seat.index)
                await asyncio.wait({running}, timeout=5)
            stop(game)
    return left


async def play_daily(side: ProgramSide) -> bool:
    """Today's deal for a registered caller, once (as at the screens:
    once an account, and by default once an address; an account that may
    not play rated matches yet is refused, an ``error`` saying when it
    may), then the day's ranking (a ``daily`` message); a caller who
    played it today gets the ranking at once.  A guest has no account to
    rank, and a bot does not play it (it is ranked among people).  True
    when the program left."""
    ctx, who = side.ctx, side.who
    if who.account is None or who.bot:
        side.error("type", "today's deal is ranked among people: " + (
            "a bot does not play it" if who.bot else "it is for registered callers"))
        return False
    daily = ctx.store.daily
    day = daily.today()
    deal = await daily.deal(day)
    if not await daily.played(who.account.id, day):
        if (refused := await claim_today(side, who.account.id, day, deal.game)) is not None:
            side.error("type", refused)
            return False
        return await play_computer(side, {"type": "play_computer"}, None, (day, deal))
    await send_daily(side, day)
    return False


async def send_daily(side: ProgramSide, day: str) -> None:
    """Send the ``daily`` message of ``day`` (the ranking as the screens
    show it, worked out with its par when nobody has yet, and as data)."""
    account = side.who.account
    assert account is not None
    lines = await ranking_lines(side, account.id, day)
    side.send(await daily_message(side.ctx.store.daily, account.id, day, lines))
